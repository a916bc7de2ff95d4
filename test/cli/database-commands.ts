/**
 * The operator CLI's commands on a database, run as processes (test/helpers/cli.ts) against a database of their own:
 * each test file beside this one (database-commands-*.test.ts) runs them on one database.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { dirname, join } from 'node:path';
import { openDatabase } from '../../src/storage/database.js';
import { generateSecretKeysSetting } from '../../src/crypto/secret-box.js';
import { testDatabaseKind, type TestDatabase, type TestDatabaseKind } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { CLI_ARGS } from '../helpers/cli.js';

const run = promisify(execFile);

function databaseUrl(database: TestDatabase): string {
  return database.config.kind === 'sqlite' ? `sqlite:${database.config.path}` : database.config.url;
}

/**
 * Registers the commands that work on a database (migrate, clients, secrets, branding) on one database, PostgreSQL
 * only when reachable (a test file per database, so the runner runs the two side by side).
 */
export async function describeDatabaseCommands(database: TestDatabaseKind['name']): Promise<void> {
  const kind = await testDatabaseKind(database);
  if (kind === undefined) return;
  describe(`openpis CLI [${kind.name}]`, () => {
    let database: TestDatabase;
    let secretKeys = TEST_SECRET_KEYS;
    const cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, [...CLI_ARGS, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl(database), LOG_LEVEL: 'silent', SECRET_KEYS: secretKeys },
      });
      return stdout;
    };
    before(async () => {
      database = await kind.create();
    });
    /** Folders for logo files the tests write; removed with the database. */
    const logoFolders: string[] = [];
    const logoFolder = (): string => {
      const dir = mkdtempSync(join(tmpdir(), 'openpis-logo-'));
      logoFolders.push(dir);
      return dir;
    };
    after(async () => {
      for (const dir of logoFolders) rmSync(dir, { recursive: true, force: true });
      await database.drop();
    });

    it('migrate applies the schema once', async () => {
      assert.match(await cli('migrate'), /Applied: 0001_/);
      assert.match(await cli('migrate'), /up to date/);
    });

    it('clients create --json prints the credentials once; list never shows secrets', async () => {
      const created = JSON.parse(
        await cli(
          'clients',
          'create',
          '--name',
          'acme',
          '--environment',
          'production',
          '--scopes',
          'payments:read providers:read',
          '--json',
        ),
      ) as Record<string, string>;
      assert.deepEqual(Object.keys(created).sort(), ['clientId', 'clientSecret', 'environment', 'scopes', 'webhookSecret']);
      assert.equal(created.environment, 'production');
      assert.equal(created.scopes, 'payments:read providers:read');
      assert.match(created.clientSecret ?? '', /^ops_[A-Za-z0-9_-]{43}$/);
      // Standard Webhooks secret: whsec_ + base64 of the key.
      assert.match(created.webhookSecret ?? '', /^whsec_[A-Za-z0-9+/]{43}=$/);

      const listed = JSON.parse(await cli('clients', 'list', '--json')) as Record<string, unknown>[];
      const mine = listed.find((client) => client.clientId === created.clientId);
      assert.deepEqual(mine?.scopes, ['payments:read', 'providers:read']);
      assert.equal(mine?.disabledAt, null);
      assert.ok(!JSON.stringify(listed).includes(created.clientSecret ?? 'x'));
    });

    it('rotate-secret issues a different secret and disable marks the client', async () => {
      const created = JSON.parse(await cli('clients', 'create', '--name', 'beta', '--json')) as Record<string, string>;
      const rotated = JSON.parse(await cli('clients', 'rotate-secret', created.clientId ?? '', '--json')) as Record<string, string>;
      assert.equal(rotated.clientId, created.clientId);
      assert.notEqual(rotated.clientSecret, created.clientSecret);
      assert.match(await cli('clients', 'disable', created.clientId ?? ''), /disabled/);
      const listed = JSON.parse(await cli('clients', 'list', '--json')) as Record<string, unknown>[];
      assert.notEqual(listed.find((client) => client.clientId === created.clientId)?.disabledAt, null);
    });

    it('the webhook secret is shown at creation and rotation only: never by list, never stored in plain form', async () => {
      const created = JSON.parse(await cli('clients', 'create', '--name', 'hooks', '--json')) as Record<string, string>;
      const rotated = JSON.parse(await cli('clients', 'rotate-webhook-secret', created.clientId ?? '', '--json')) as Record<string, string>;
      assert.match(rotated.webhookSecret ?? '', /^whsec_/);
      const listed = await cli('clients', 'list', '--json');
      const listedText = await cli('clients', 'list');
      const handle = openDatabase(database.config);
      try {
        const row = await handle.db
          .selectFrom('clients')
          .selectAll()
          .where('id', '=', created.clientId ?? '')
          .executeTakeFirstOrThrow();
        const stored = JSON.stringify(row);
        for (const secret of [created.webhookSecret ?? 'x', rotated.webhookSecret ?? 'x', created.clientSecret ?? 'x']) {
          assert.ok(!listed.includes(secret) && !listedText.includes(secret), 'clients list shows no secret');
          assert.ok(!stored.includes(secret) && !stored.includes(secret.slice(6)), 'the database holds no secret in plain form');
        }
        assert.match(row.webhook_secret, /^v1\.test\./);
        assert.match(row.previous_webhook_secret ?? '', /^v1\.test\./);
      } finally {
        await handle.close();
      }
    });

    it('secrets reencrypt re-seals every stored secret under the new active key, after which the old key can go', async () => {
      const next = generateSecretKeysSetting('next');
      secretKeys = `${next},${TEST_SECRET_KEYS}`;
      const result = JSON.parse(await cli('secrets', 'reencrypt', '--json')) as { activeKeyId: string; webhookSecrets: number };
      assert.equal(result.activeKeyId, 'next');
      assert.ok(result.webhookSecrets >= 2);
      // With the old key removed, everything still opens: rotating needs the current secret opened.
      secretKeys = next;
      const rotated = JSON.parse(
        await cli(
          'clients',
          'rotate-webhook-secret',
          (JSON.parse(await cli('clients', 'list', '--json')) as Array<{ clientId: string }>)[0]?.clientId ?? '',
          '--json',
        ),
      ) as Record<string, string>;
      assert.match(rotated.webhookSecret ?? '', /^whsec_/);
      assert.match(await cli('secrets', 'reencrypt'), /0 webhook secret\(s\), 0 flow token\(s\)/);
      secretKeys = `${TEST_SECRET_KEYS},${next}`;
      await cli('secrets', 'reencrypt');
      secretKeys = TEST_SECRET_KEYS;
    });

    it('without SECRET_KEYS: a 0600 key file beside a SQLite database, a clear refusal on PostgreSQL', async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl(database), LOG_LEVEL: 'silent' };
      delete env.SECRET_KEYS;
      if (database.config.kind === 'postgres') {
        await assert.rejects(run(process.execPath, [...CLI_ARGS, 'clients', 'list'], { env }), (error: { stderr: string }) => {
          assert.match(error.stderr, /SECRET_KEYS must be set with PostgreSQL/);
          return true;
        });
        return;
      }
      const other = `sqlite:${join(dirname(database.config.path), 'fresh', 'openpis.sqlite')}`;
      await run(process.execPath, [...CLI_ARGS, 'clients', 'create', '--name', 'dev'], { env: { ...env, DATABASE_URL: other } });
      const keyFile = join(dirname(database.config.path), 'fresh', 'secret-keys');
      assert.equal(statSync(keyFile).mode & 0o777, 0o600);
      // The same file is used again on the next start.
      await run(
        process.execPath,
        [
          ...CLI_ARGS,
          'clients',
          'rotate-webhook-secret',
          (
            JSON.parse(
              (await run(process.execPath, [...CLI_ARGS, 'clients', 'list', '--json'], { env: { ...env, DATABASE_URL: other } })).stdout,
            ) as Array<{ clientId: string }>
          )[0]?.clientId ?? '',
        ],
        { env: { ...env, DATABASE_URL: other } },
      );
    });

    it('clients branding sets the display name, a logo file (re-encoded), the colour and the support link; show and list print them', async () => {
      const { clientId } = JSON.parse(await cli('clients', 'create', '--name', 'acme-shop', '--json')) as { clientId: string };
      const dir = logoFolder();
      const logoFile = join(dir, 'logo.jpg');
      writeFileSync(
        logoFile,
        await sharp({ create: { width: 900, height: 300, channels: 3, background: '#0a5' } })
          .jpeg()
          .toBuffer(),
      );
      const set = await cli(
        'clients',
        'branding',
        clientId,
        '--display-name',
        'Acme Outdoor',
        '--logo',
        logoFile,
        '--brand-colour',
        '#ff0',
        '--support-url',
        'https://acme.example/help',
      );
      assert.match(set, /display name: {2}Acme Outdoor/);
      assert.match(set, /logo: {10}480×160 at \/pay\/assets\/logos\/[0-9a-f]{64}\.png/);
      // A pale colour: black text for contrast, and an outline, said plainly.
      assert.match(set, /buttons in #ffff00 with black text \(contrast 19\.6:1\); the colour is pale/);
      const shown = JSON.parse(await cli('clients', 'show', clientId, '--json')) as { name: string; branding: Record<string, unknown> };
      assert.equal(shown.name, 'acme-shop');
      assert.deepEqual(
        { ...shown.branding, logo: undefined, colourNote: undefined },
        {
          displayName: 'Acme Outdoor',
          brandColour: '#ffff00',
          buttonText: '#000000',
          supportUrl: 'https://acme.example/help',
          logo: undefined,
          colourNote: undefined,
        },
      );
      const listed = JSON.parse(await cli('clients', 'list', '--json')) as Array<{
        clientId: string;
        branding: { displayName: string | null };
      }>;
      assert.equal(listed.find((client) => client.clientId === clientId)?.branding.displayName, 'Acme Outdoor');
      assert.match(await cli('clients', 'list'), /shown as "Acme Outdoor"/);
      // The stored logo is our PNG, not the uploaded JPEG.
      const handle = openDatabase(database.config);
      try {
        const row = await handle.db.selectFrom('clients').select(['logo_png']).where('id', '=', clientId).executeTakeFirstOrThrow();
        assert.equal(
          Buffer.from(row.logo_png ?? '', 'base64')
            .subarray(1, 4)
            .toString('latin1'),
          'PNG',
        );
      } finally {
        await handle.close();
      }
      const cleared = JSON.parse(await cli('clients', 'branding', clientId, '--clear', 'logo', 'support-url', '--json')) as Record<
        string,
        unknown
      >;
      assert.deepEqual([cleared.logo, cleared.supportUrl, cleared.displayName], [null, null, 'Acme Outdoor']);
    });

    it('clients branding --logo-url fetches the logo once, now, and stores our re-encoded PNG; a failed fetch is refused', async () => {
      const { clientId } = JSON.parse(await cli('clients', 'create', '--name', 'remote-logo', '--json')) as { clientId: string };
      const webp = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
        .webp()
        .toBuffer();
      const requests: string[] = [];
      const server = createServer((request, response) => {
        requests.push(request.url ?? '');
        if (request.url === '/logo.webp') response.writeHead(200, { 'content-type': 'image/webp' }).end(webp);
        else response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        const set = JSON.parse(await cli('clients', 'branding', clientId, '--logo-url', `${base}/logo.webp`, '--json')) as {
          logo: { width: number; height: number; path: string };
        };
        assert.deepEqual([set.logo.width, set.logo.height], [64, 64]);
        assert.deepEqual(requests, ['/logo.webp']);
        await assert.rejects(cli('clients', 'branding', clientId, '--logo-url', `${base}/missing.png`), (error: { stderr: string }) =>
          /HTTP 404/.test(error.stderr),
        );
        await assert.rejects(
          cli('clients', 'branding', clientId, '--logo-url', 'http://logo.example/logo.png'),
          (error: { stderr: string }) => /must be an https URL/.test(error.stderr),
        );
      } finally {
        server.close();
      }
    });

    it('clients branding refuses an SVG logo, a bad colour, a plain-http link and an unknown client, saying why', async () => {
      const { clientId } = JSON.parse(await cli('clients', 'create', '--name', 'strict-shop', '--json')) as { clientId: string };
      const dir = logoFolder();
      const svg = join(dir, 'logo.svg');
      writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const refused = async (args: string[], message: RegExp) =>
        assert.rejects(cli('clients', 'branding', ...args), (error: { stderr: string; code: number }) => {
          assert.equal(error.code, 1);
          assert.match(error.stderr, message);
          return true;
        });
      await refused([clientId, '--logo', svg], /SVG logos are not taken/);
      await refused(
        [clientId, '--brand-colour', 'teal', '--support-url', 'http://acme.example'],
        /hex colour[\s\S]*support URL must be an https URL/,
      );
      await refused([clientId, '--logo', join(dir, 'missing.png')], /cannot be read/);
      await refused([clientId], /nothing to change/);
      await refused([clientId, '--display-name', 'A', '--clear', 'display-name'], /contradict/);
      await refused(['00000000-0000-4000-8000-000000000000', '--display-name', 'Nobody'], /No client with id/);
      const shown = JSON.parse(await cli('clients', 'show', clientId, '--json')) as { branding: Record<string, unknown> };
      assert.deepEqual(Object.values(shown.branding), [null, null, null, null, null, null]);
    });

    it('fails clearly for an unknown client and an unknown scope', async () => {
      await assert.rejects(cli('clients', 'disable', '00000000-0000-4000-8000-000000000000'), (error: { stderr: string; code: number }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /No client with id/);
        return true;
      });
      await assert.rejects(cli('clients', 'create', '--name', 'x', '--scopes', 'payments:delete'), /unknown scope/);
    });
  });
}
