/**
 * Upgrading a database written before secrets were sealed (docs/adr/0005-secrets-at-rest.md): migration 0004 and
 * the start-up step that follows it leave no flow token and no webhook secret in plain form, and both keep working.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { loadConfig } from '../../src/config/config.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo } from '../../src/storage/migrator.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';

for (const kind of await testDatabaseKinds()) {
  describe(`upgrade to sealed secrets [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let runtime: Runtime;
    const clientId = randomUUID();
    const paymentId = randomUUID();
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const previousWebhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const flowToken = randomBytes(32).toString('base64url');

    before(async () => {
      testDatabase = await kind.create();
      // The database as version 0003 left it, with plain secrets.
      const old = openDatabase(testDatabase.config);
      const db = old.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await migrateTo(old.db as unknown as Kysely<unknown>, '0003_payments_status_index');
      const at = new Date().toISOString();
      const expires = new Date(Date.now() + 3_600_000).toISOString();
      await db
        .insertInto('clients')
        .values({
          id: clientId,
          name: 'legacy',
          environment: 'sandbox',
          scopes: 'payments:read payments:write providers:read',
          secret_hash: 'x'.repeat(64),
          webhook_secret: webhookSecret,
          created_at: at,
          updated_at: at,
          disabled_at: null,
          previous_webhook_secret: previousWebhookSecret,
          previous_webhook_secret_expires_at: expires,
        })
        .execute();
      await db
        .insertInto('payments')
        .values({
          id: paymentId,
          client_id: clientId,
          environment: 'sandbox',
          end_to_end_id: 'legacy-1',
          mode: 'custom',
          provider_id: '7f7bc6ab-95fd-468a-8fce-7c465d98906d',
          provider_preferences: null,
          payment_scheme: 'SEPA',
          scheme_mode: null,
          fee_paid_by: null,
          amount: '10.50',
          currency: 'EUR',
          sender: null,
          recipient: JSON.stringify({ name: 'Merchant', account: { type: 'IBAN', number: { value: 'DE89370400440532013000' } } }),
          remittance: JSON.stringify({ value: 'Order 1', truncate: false }),
          redirect_uri: 'https://merchant.example/return',
          webhook_url: null,
          psu_ip_address: '192.0.2.1',
          psu_user_agent: 'test',
          locale: null,
          flow_token: flowToken,
          provider_payment_id: null,
          detailed_status: 'PROVIDER_SELECTION_REDIRECT_PENDING',
          failure_reasons: null,
          version: 1,
          created_at: at,
          updated_at: at,
          flow_expires_at: expires,
          flow_state: null,
        })
        .execute();
      await old.close();
      // The new version starts: migrations, then the step that seals what they left plain.
      runtime = await openRuntime({ ...loadConfig({ SECRET_KEYS: TEST_SECRET_KEYS }), database: testDatabase.config });
    });
    after(async () => {
      await runtime?.database.close();
      await testDatabase?.drop();
    });

    it('stores neither the flow token nor a webhook secret in plain form afterwards', async () => {
      const clients = await runtime.database.db.selectFrom('clients').selectAll().execute();
      const payments = await runtime.database.db.selectFrom('payments').selectAll().execute();
      const dump = JSON.stringify([clients, payments]);
      for (const secret of [flowToken, webhookSecret, previousWebhookSecret]) assert.ok(!dump.includes(secret));
      assert.match(clients[0]?.webhook_secret ?? '', /^v1\.test\./);
      assert.match(clients[0]?.previous_webhook_secret ?? '', /^v1\.test\./);
      assert.match(payments[0]?.flow_token_sealed ?? '', /^v1\.test\./);
    });

    it('the payer link still finds the payment and GET payment can still rebuild it; webhooks still sign with both secrets', async () => {
      const store = new PaymentStateStore(runtime.database.db, runtime.secrets);
      const payment = await store.loadByFlowToken(flowToken);
      assert.equal(payment?.id, paymentId);
      assert.equal(payment?.flowToken, flowToken);
      assert.equal(await store.loadByFlowToken(randomBytes(32).toString('base64url')), undefined);
      const outbox = new WebhookOutbox(runtime.database.db, runtime.database.kind, runtime.secrets);
      assert.deepEqual(await outbox.secretsFor(clientId), [webhookSecret, previousWebhookSecret]);
    });
  });
}
