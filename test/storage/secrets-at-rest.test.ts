/**
 * Secrets at rest (docs/adr/0005-secrets-at-rest.md): the payer's flow token is stored only as a hash plus a
 * sealed copy, webhook secrets only sealed; a database dump holds neither in plain form, on both databases.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { generateSecretKeysSetting, parseSecretKeys, SecretBox, SecretBoxError } from '../../src/crypto/secret-box.js';
import { webhookSecretContext } from '../../src/crypto/sealing-contexts.js';
import { resealStoredSecrets } from '../../src/storage/reseal-secrets.js';
import { loadConfig, ConfigError } from '../../src/config/config.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { webhookHeaders } from '../../src/webhooks/signature.js';
import { ClientService } from '../../src/auth/clients.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';

describe('SecretBox', () => {
  const box = new SecretBox(parseSecretKeys(TEST_SECRET_KEYS));

  it('opens what it sealed, for the same context only', () => {
    const sealed = box.seal('whsec_value', 'clients.webhook_secret:a');
    assert.match(sealed, /^v1\.test\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes('whsec_value'));
    assert.equal(box.open(sealed, 'clients.webhook_secret:a'), 'whsec_value');
    assert.notEqual(box.seal('whsec_value', 'clients.webhook_secret:a'), sealed, 'a fresh IV every time');
    // A sealed value moved to another row (or column) does not open.
    assert.throws(() => box.open(sealed, 'clients.webhook_secret:b'), SecretBoxError);
    assert.throws(() => box.open(sealed, 'clients.previous_webhook_secret:a'), SecretBoxError);
  });

  it('fails clearly for an unknown key id, a wrong key under a known id, and an altered value', () => {
    const sealed = box.seal('secret', 'ctx');
    const other = new SecretBox(parseSecretKeys(generateSecretKeysSetting('other')));
    assert.throws(() => other.open(sealed, 'ctx'), /sealed with key test, which is not in SECRET_KEYS/);
    const sameIdOtherKey = new SecretBox(parseSecretKeys(generateSecretKeysSetting('test')));
    assert.throws(() => sameIdOtherKey.open(sealed, 'ctx'), /does not open with key test/);
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    assert.throws(() => box.open(altered, 'ctx'), SecretBoxError);
    assert.throws(() => box.open('whsec_plain', 'ctx'), /not in sealed form/);
  });

  it('the active (first) key seals, every key of the ring opens', () => {
    const [oldKey] = parseSecretKeys(generateSecretKeysSetting('k0'));
    const [newKey] = parseSecretKeys(generateSecretKeysSetting('k1'));
    assert.ok(oldKey && newKey);
    const sealedOld = new SecretBox([oldKey]).seal('v', 'ctx');
    const ring = new SecretBox([newKey, oldKey]);
    assert.equal(ring.open(sealedOld, 'ctx'), 'v');
    assert.match(ring.seal('v', 'ctx'), /^v1\.k1\./);
    assert.equal(ring.needsReseal(sealedOld), true);
    assert.equal(ring.needsReseal(ring.seal('v', 'ctx')), false);
  });

  it('SECRET_KEYS is validated at start-up: 32 bytes, ids, no duplicates', () => {
    const short = `k1:${randomBytes(16).toString('base64')}`;
    assert.throws(
      () => loadConfig({ SECRET_KEYS: short }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SECRET_KEYS: key k1 must be exactly 32 bytes/);
        assert.ok(!error.message.includes(short.slice(3)), 'the key is never echoed');
        return true;
      },
    );
    assert.throws(() => loadConfig({ SECRET_KEYS: randomBytes(32).toString('base64') }), /SECRET_KEYS: key 1 must be <id>:<base64 key>/);
    const key = generateSecretKeysSetting('k1');
    assert.throws(() => loadConfig({ SECRET_KEYS: `${key},${key}` }), /listed twice/);
    assert.deepEqual(
      loadConfig({ SECRET_KEYS: key }).secretKeys.map((entry) => entry.id),
      ['k1'],
    );
  });
});

/** Every text cell of every table of the database, for scanning a dump for secrets. */
async function dumpEveryCell(database: DatabaseHandle): Promise<string> {
  const tables =
    database.kind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(database.db)).rows.map((row) => row.name)
      : (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(database.db)
        ).rows.map((row) => row.name);
  assert.ok(tables.includes('payments') && tables.includes('clients'));
  const cells: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    for (const row of rows) for (const value of Object.values(row)) cells.push(String(value));
  }
  return cells.join('\n');
}

for (const kind of await testDatabaseKinds()) {
  describe(`secrets at rest [${kind.name}]`, () => {
    let t: TestApp;
    let client: TestClient;
    let token: string;
    let created: { paymentId: string; redirectUrl: string };
    let flowToken: string;

    before(async () => {
      t = await startTestApp(kind);
      client = await t.createClient();
      token = await client.token();
      const response = await t.request('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest() });
      assert.equal(response.status, 201);
      created = (await response.json()) as typeof created;
      flowToken = created.redirectUrl.slice(`${t.baseUrl}/pay/`.length);
    });
    after(() => t?.close());

    it('no column of any table holds the flow token or the webhook secret in plain form', async () => {
      // The payer's pages have been used too, so every table the journey writes is in the dump.
      assert.equal((await t.request(`/pay/${flowToken}`)).status, 200);
      const dump = await dumpEveryCell(t.database);
      assert.ok(dump.includes(created.paymentId), 'the dump does see the payment');
      assert.ok(!dump.includes(flowToken), 'the flow token is not stored');
      assert.ok(!dump.includes(client.webhookSecret), 'the webhook secret is not stored in plain form');
      assert.ok(!dump.includes(client.webhookSecret.slice('whsec_'.length)), 'nor its key bytes');
    });

    it('/pay/<token> opens the payment; any other token of the same shape does not', async () => {
      assert.equal((await t.request(`/pay/${flowToken}`)).status, 200);
      assert.equal((await t.request(`/pay/${randomBytes(32).toString('base64url')}`)).status, 404);
      // The stored hash is not a key to the flow either.
      const row = await t.database.db
        .selectFrom('payments')
        .select('flow_token_hash')
        .where('id', '=', created.paymentId)
        .executeTakeFirstOrThrow();
      assert.equal((await t.request(`/pay/${row.flow_token_hash}`)).status, 404);
    });

    it('GET payment returns the same redirectUrl as the creation', async () => {
      const response = await t.request(`/api/v1/ob/payments/${created.paymentId}`, { token });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { redirectUrl: string }).redirectUrl, created.redirectUrl);
    });

    it('webhooks verify with standardwebhooks after sealing, during a rotation, and after re-encryption under a new key', async () => {
      const outbox = new WebhookOutbox(t.database.db, t.database.kind, new SecretBox(t.config.secretKeys));
      const verifies = async (secret: string): Promise<boolean> => {
        const body = JSON.stringify({ hello: 'world' });
        const headers = webhookHeaders({ eventId: 'msg_1', body, secrets: await outbox.secretsFor(client.clientId), now: new Date() });
        try {
          new Webhook(secret).verify(body, { ...headers });
          return true;
        } catch {
          return false;
        }
      };
      assert.equal(await verifies(client.webhookSecret), true);

      const rotated = await t.clients.rotateWebhookSecret(client.clientId, 3600);
      assert.equal(await verifies(rotated.webhookSecret), true);
      assert.equal(await verifies(client.webhookSecret), true, 'the previous secret signs during the grace period');
      const dump = await dumpEveryCell(t.database);
      assert.ok(!dump.includes(rotated.webhookSecret) && !dump.includes(client.webhookSecret));

      // Key rotation: a new active key, the old one still listed; re-encrypt; then the old key can go.
      const newKeys = parseSecretKeys(generateSecretKeysSetting('next'));
      const counts = await resealStoredSecrets(t.database.db, new SecretBox([...newKeys, ...t.config.secretKeys]));
      assert.ok(counts.webhookSecrets >= 2 && counts.flowTokens >= 1);
      const newOnly = new SecretBox(newKeys);
      const afterRotation = new WebhookOutbox(t.database.db, t.database.kind, newOnly);
      const body = '{"after":"reencrypt"}';
      const headers = webhookHeaders({ eventId: 'msg_2', body, secrets: await afterRotation.secretsFor(client.clientId), now: new Date() });
      assert.doesNotThrow(() => new Webhook(rotated.webhookSecret).verify(body, { ...headers }));
      // The old ring no longer opens the re-sealed values: its key can be removed from SECRET_KEYS.
      await assert.rejects(outbox.secretsFor(client.clientId), /not in SECRET_KEYS/);
      // Put the test key back in front so the other tests of this app keep working.
      await resealStoredSecrets(t.database.db, new SecretBox([...t.config.secretKeys, ...newKeys]));
    });

    it('a plain webhook secret left by the migration is sealed by the start-up step', async () => {
      const plainClient = await new ClientService(t.database.db, new SecretBox(t.config.secretKeys)).create({ name: 'legacy' });
      // As a row written before sealing existed looks after migration 0004.
      await t.database.db
        .updateTable('clients')
        .set({ webhook_secret: plainClient.webhookSecret })
        .where('id', '=', plainClient.clientId)
        .execute();
      const box = new SecretBox(t.config.secretKeys);
      const counts = await resealStoredSecrets(t.database.db, box, { onlyPlain: true });
      assert.equal(counts.webhookSecrets, 1);
      const row = await t.database.db
        .selectFrom('clients')
        .select('webhook_secret')
        .where('id', '=', plainClient.clientId)
        .executeTakeFirstOrThrow();
      assert.match(row.webhook_secret, /^v1\./);
      assert.equal(box.open(row.webhook_secret, webhookSecretContext(plainClient.clientId)), plainClient.webhookSecret);
    });
  });
}
