/**
 * "Only HTTPS is used" (payer credentials): the service terminates TLS itself (TLS_CERT_FILE/TLS_KEY_FILE) or trusts
 * a proxy's forwarded protocol only when told to (TRUST_PROXY); every response served over HTTPS carries
 * Strict-Transport-Security; and a service holding a production client refuses to start without an https BASE_URL.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { Agent, fetch as undiciFetch } from 'undici';
import { buildApp } from '../../src/app.js';
import { ClientService } from '../../src/auth/clients.js';
import { loadConfig } from '../../src/config/config.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { TEST_SECRET_KEYS, testSecretBox } from '../helpers/secret-keys.js';
import { freePort } from '../helpers/test-app.js';
import { startService } from '../helpers/processes.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { createTestPki, type TestPki } from '../webhooks/https-receiver.js';

const run = promisify(execFile);
const HSTS = 'max-age=31536000';

describe('https', () => {
  let dir: string;
  let pki: TestPki;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'openpis-https-'));
    pki = createTestPki();
    writeFileSync(join(dir, 'server.crt'), pki.serverCertificate);
    writeFileSync(join(dir, 'server.key'), pki.serverKey);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The app on a fresh SQLite file, listening, with the given settings. */
  async function appWith(env: Record<string, string>) {
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: `sqlite:${join(dir, `${port}.sqlite`)}`,
      SECRET_KEYS: TEST_SECRET_KEYS,
      ...env,
    });
    const database = openDatabase(config.database);
    await migrateToLatest(database.db as unknown as Kysely<unknown>);
    const app = await buildApp({
      config,
      database,
      catalogue: loadCatalogue(undefined, config.sandboxBank.url),
      logDestination: { write: () => undefined },
    });
    await app.listen({ port, host: '127.0.0.1' });
    return {
      port,
      async close() {
        await app.close();
        await database.close();
      },
    };
  }

  it('terminates TLS with TLS_CERT_FILE/TLS_KEY_FILE and sends Strict-Transport-Security on every answer', async () => {
    const served = await appWith({
      TLS_CERT_FILE: join(dir, 'server.crt'),
      TLS_KEY_FILE: join(dir, 'server.key'),
      BASE_URL: 'https://localhost:8443',
    });
    const dispatcher = new Agent({ connect: { ca: pki.caCertificate } });
    try {
      for (const path of ['/healthz', '/pay/not-a-real-flow-token', '/docs', '/api/v1/ob/payments/unknown']) {
        const response = await undiciFetch(`https://localhost:${served.port}${path}`, { dispatcher });
        await response.arrayBuffer();
        assert.equal(response.headers.get('strict-transport-security'), HSTS, path);
      }
    } finally {
      await dispatcher.close();
      await served.close();
    }
  });

  it('over plain HTTP sends no HSTS, and trusts X-Forwarded-Proto only with TRUST_PROXY', async () => {
    const untrusting = await appWith({});
    const trusting = await appWith({ TRUST_PROXY: 'true' });
    try {
      const forwarded = { 'x-forwarded-proto': 'https' };
      assert.equal((await fetch(`http://127.0.0.1:${untrusting.port}/healthz`)).headers.get('strict-transport-security'), null);
      assert.equal(
        (await fetch(`http://127.0.0.1:${untrusting.port}/healthz`, { headers: forwarded })).headers.get('strict-transport-security'),
        null,
      );
      assert.equal((await fetch(`http://127.0.0.1:${trusting.port}/healthz`)).headers.get('strict-transport-security'), null);
      assert.equal(
        (await fetch(`http://127.0.0.1:${trusting.port}/pay/not-a-real-flow-token`, { headers: forwarded })).headers.get(
          'strict-transport-security',
        ),
        HSTS,
      );
    } finally {
      await untrusting.close();
      await trusting.close();
    }
  });

  it('settings: certificate and key go together; TRUST_PROXY takes true, false or addresses', () => {
    assert.throws(() => loadConfig({ TLS_CERT_FILE: '/x.crt' }), /TLS_KEY_FILE/);
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy, ['10.0.0.1', '192.168.0.0/16']);
  });

  describe('a production client needs an https BASE_URL', () => {
    let path: string;
    before(async () => {
      path = join(dir, 'production.sqlite');
      const database = openDatabase({ kind: 'sqlite', path });
      await migrateToLatest(database.db as unknown as Kysely<unknown>);
      await new ClientService(database.db, testSecretBox()).create({ name: 'live shop', environment: 'production' });
      await database.close();
    });

    it('the service refuses to start with a non-https BASE_URL, saying why', async () => {
      await assert.rejects(startService({ DATABASE_URL: `sqlite:${path}`, BASE_URL: 'http://pis.example.com' }), (error: Error) => {
        assert.match(error.message, /exited \(1\)/);
        assert.match(error.message, /BASE_URL http:\/\/pis\.example\.com is not https/);
        assert.match(error.message, /production client/);
        return true;
      });
    });

    it('starts with an https BASE_URL, or a loopback one (local trials)', async () => {
      for (const baseUrl of ['https://pis.example.com', 'http://127.0.0.1:1']) {
        // startService resolves only once the service listens (it rejects when the process exits first).
        const service = await startService({ DATABASE_URL: `sqlite:${path}`, BASE_URL: baseUrl });
        assert.match(service.output(), new RegExp(`openpis is listening on ${baseUrl}`));
        await service.stop();
      }
    });

    it('the CLI refuses to create a production client while BASE_URL is not https', async () => {
      const env = { ...process.env, DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'silent', BASE_URL: 'http://pis.example.com' };
      await assert.rejects(
        run(process.execPath, [...CLI_ARGS, 'clients', 'create', '--name', 'another', '--environment', 'production'], { env }),
        (error: { stderr: string }) => {
          assert.match(error.stderr, /not https/);
          return true;
        },
      );
      // Sandbox clients are fine.
      await run(process.execPath, [...CLI_ARGS, 'clients', 'create', '--name', 'trial', '--environment', 'sandbox'], { env });
    });
  });
});
