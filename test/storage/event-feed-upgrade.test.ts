/**
 * Upgrading a database written before the event feed (migration 0007): the webhook deliveries it holds become the
 * feed's first events, with the same ids and bodies, numbered per client in the order they were written, and the
 * events written afterwards continue the numbering.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { loadConfig } from '../../src/config/config.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateTo } from '../../src/storage/migrator.js';
import { EventFeed } from '../../src/webhooks/event-feed.js';
import { paymentStatusWebhookBody } from '../../src/webhooks/payload.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';

type OldDatabase = Kysely<Record<string, Record<string, unknown>>>;

for (const kind of await testDatabaseKinds()) {
  describe(`upgrade to the event feed [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let runtime: Runtime;
    const clients = [randomUUID(), randomUUID()] as const;
    const payments = [randomUUID(), randomUUID(), randomUUID()] as const;
    /** The deliveries the old version wrote, in the order it wrote them. */
    const deliveries: { id: string; clientId: string; paymentId: string; body: string; createdAt: string }[] = [];

    before(async () => {
      testDatabase = await kind.create();
      const old = openDatabase(testDatabase.config);
      const db = old.db as unknown as OldDatabase;
      await migrateTo(old.db as unknown as Kysely<unknown>, '0006_payment_list_indexes');
      const at = (second: number): string => new Date(Date.UTC(2026, 2, 1, 10, 0, second)).toISOString();
      for (const clientId of clients) {
        await db
          .insertInto('clients')
          .values({
            id: clientId,
            name: 'legacy',
            environment: 'sandbox',
            scopes: 'payments:read payments:write providers:read',
            secret_hash: 'x'.repeat(64),
            webhook_secret: `whsec_${randomBytes(32).toString('base64')}`,
            created_at: at(0),
            updated_at: at(0),
            disabled_at: null,
            previous_webhook_secret: null,
            previous_webhook_secret_expires_at: null,
          })
          .execute();
      }
      // Payments 0 and 1 of client 0 (0 with a webhook URL), payment 2 of client 1 with one.
      const owners = [clients[0], clients[0], clients[1]];
      for (const [index, paymentId] of payments.entries()) {
        const flowToken = randomBytes(32).toString('base64url');
        await db
          .insertInto('payments')
          .values({
            id: paymentId,
            client_id: owners[index],
            environment: 'sandbox',
            end_to_end_id: `legacy-${index}`,
            mode: 'hosted',
            provider_id: null,
            provider_preferences: null,
            payment_scheme: 'SEPA',
            scheme_mode: null,
            fee_paid_by: null,
            amount: '10.50',
            currency: 'EUR',
            sender: null,
            recipient: JSON.stringify({ name: 'Merchant' }),
            remittance: JSON.stringify({ type: 'UNSTRUCTURED', value: 'Order 1', truncate: false }),
            redirect_uri: 'https://merchant.example/return',
            webhook_url: index === 1 ? null : 'https://merchant.example/hooks',
            psu_ip_address: '192.0.2.1',
            psu_user_agent: 'test',
            locale: null,
            flow_token_hash: createHash('sha256').update(flowToken).digest('hex'),
            flow_token_sealed: flowToken,
            provider_payment_id: null,
            detailed_status: 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING',
            failure_reasons: null,
            version: 2,
            created_at: at(index),
            updated_at: at(index),
            flow_expires_at: at(59),
            flow_state: null,
          })
          .execute();
      }
      // Two statuses per payment in the history; deliveries only for the payments with a webhook URL, interleaved in time.
      const statuses = ['PROVIDER_SELECTION_REDIRECT_PENDING', 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING'] as const;
      for (const [sequenceIndex, status] of statuses.entries()) {
        for (const [index, paymentId] of payments.entries()) {
          const statusId = randomUUID();
          const createdAt = at(10 + sequenceIndex * 10 + index);
          await db
            .insertInto('payment_status_history')
            .values({
              id: statusId,
              payment_id: paymentId,
              sequence: sequenceIndex + 1,
              detailed_status: status,
              failure_reasons: null,
              created_at: createdAt,
            })
            .execute();
          if (index === 1) continue;
          const body = paymentStatusWebhookBody({
            paymentId,
            endToEndId: `legacy-${index}`,
            statusId,
            detailedStatus: status,
            failureReasons: null,
            createdAt,
          });
          const id = randomUUID();
          deliveries.push({ id, clientId: owners[index] ?? '', paymentId, body, createdAt });
          await db
            .insertInto('webhook_events')
            .values({
              id,
              payment_id: paymentId,
              client_id: owners[index],
              status_record_id: statusId,
              sequence: sequenceIndex + 1,
              url: 'https://merchant.example/hooks',
              body,
              state: 'delivered',
              attempts: 1,
              next_attempt_at: createdAt,
              locked_by: null,
              locked_until: null,
              created_at: createdAt,
              updated_at: createdAt,
              delivered_at: createdAt,
            })
            .execute();
        }
      }
      await old.close();
      runtime = await openRuntime({ ...loadConfig({ SECRET_KEYS: TEST_SECRET_KEYS }), database: testDatabase.config });
    });
    after(async () => {
      await runtime?.database.close();
      await testDatabase?.drop();
    });

    it("makes every earlier delivery an event of its client's feed, same id and body, numbered in written order", async () => {
      const feed = new EventFeed(runtime.database.db);
      for (const clientId of clients) {
        const events = await feed.after(clientId, 0, 100);
        const expected = deliveries.filter((delivery) => delivery.clientId === clientId);
        assert.deepEqual(
          events.map((event) => [event.position, event.id, event.body, event.createdAt, event.type]),
          expected.map((delivery, index) => [index + 1, delivery.id, delivery.body, delivery.createdAt, 'payment.status.updated']),
        );
        assert.equal(await feed.latestPosition(clientId), expected.length);
      }
    });

    it('numbers the events written afterwards on from there, for payments without a webhook URL too', async () => {
      const store = new PaymentStateStore(runtime.database.db, runtime.secrets);
      const payment = await store.load(payments[1]);
      assert.ok(payment);
      const moved = await store.transition({ payment, path: [{ status: 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING' }] });
      assert.equal(moved.kind, 'applied');
      const feed = new EventFeed(runtime.database.db);
      const [event, ...more] = await feed.after(clients[0], 2, 100);
      assert.deepEqual(more, []);
      assert.equal(event?.position, 3);
      assert.equal((JSON.parse(event?.body ?? '{}') as { data: { paymentId: string } }).data.paymentId, payments[1]);
    });
  });
}
