/**
 * `openpis payment-links create|list|show|deactivate` run as an operator runs them, on SQLite and PostgreSQL: a link
 * made from the API's request body for a client, listed, shown with its URL, deactivated once (then refused), and a
 * request that breaks the API's rules refused with them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ClientService } from '../../src/auth/clients.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { runOpenpis } from '../helpers/cli.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { paymentLinkRequest } from '../helpers/payment-link-requests.js';
import { TEST_SECRET_KEYS, testSecretBox } from '../helpers/secret-keys.js';

for (const kind of await testDatabaseKinds()) {
  describe(`openpis payment-links [${kind.name}]`, () => {
    let database: TestDatabase;
    let dir: string;
    let clientId: string;
    let env: Record<string, string>;
    before(async () => {
      database = await kind.create();
      dir = mkdtempSync(join(tmpdir(), 'openpis-cli-links-'));
      const handle = openDatabase(database.config);
      try {
        await migrateToLatest(handle.db as never);
        clientId = (await new ClientService(handle.db, testSecretBox()).create({ name: 'Link Shop' })).clientId;
      } finally {
        await handle.close();
      }
      env = {
        DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.path}` : database.config.url,
        SECRET_KEYS: TEST_SECRET_KEYS,
        BASE_URL: 'https://pay.example',
      };
    });
    after(async () => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    });

    it('creates, lists, shows and deactivates a link for a client', async () => {
      const file = join(dir, 'link.json');
      writeFileSync(file, JSON.stringify(paymentLinkRequest({ reference: 'cli-link-1' })));
      const created = await runOpenpis(env, 'payment-links', 'create', '--client', clientId, '--request', file, '--json');
      assert.equal(created.code, 0, created.stderr);
      const link = JSON.parse(created.stdout) as { paymentLinkId: string; url: string; status: string };
      assert.equal(link.status, 'ACTIVE');
      assert.match(link.url, /^https:\/\/pay\.example\/link\/[A-Za-z0-9_-]{22}$/);
      const again = await runOpenpis(env, 'payment-links', 'create', '--client', clientId, '--request', file);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /A payment link with reference "cli-link-1" already exists/);

      const list = await runOpenpis(env, 'payment-links', 'list', '--client', clientId);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /cli-link-1\s+ACTIVE\s+10\.50 EUR/);
      const shown = await runOpenpis(env, 'payment-links', 'show', link.paymentLinkId);
      assert.match(shown.stdout, new RegExp(link.url));
      assert.match(shown.stdout, /No payments yet/);

      const deactivated = await runOpenpis(env, 'payment-links', 'deactivate', link.paymentLinkId);
      assert.equal(deactivated.code, 0, deactivated.stderr);
      assert.match(deactivated.stdout, /DEACTIVATED/);
      const shownAfter = await runOpenpis(env, 'payment-links', 'show', link.paymentLinkId, '--json');
      assert.equal((JSON.parse(shownAfter.stdout) as { status: string }).status, 'DEACTIVATED');
    });

    it("refuses a request that breaks the API's rules, with every rule it breaks", async () => {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify(paymentLinkRequest({ amount: 1.234, currency: 'USD' })));
      const refused = await runOpenpis(env, 'payment-links', 'create', '--client', clientId, '--request', file);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /amount must not have more than 2 decimal places for USD/);
      assert.match(refused.stderr, /currency must be EUR for the SEPA payment scheme/);
    });
  });
}
