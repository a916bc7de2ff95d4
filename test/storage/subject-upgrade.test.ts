/**
 * Upgrading a database written before events, deliveries and jobs named a subject (migration 0018): every row keeps
 * its id, body, position, attempts and lease, and becomes a row of subject type `payment` whose subject id is its
 * payment; a webhook's attempts still point at it; foreign keys are on and hold afterwards; and a subject that is not
 * a payment may have events and jobs, at most one job of a kind per subject as before.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrator.js';
import { JobQueue } from '../../src/jobs/job-queue.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { testSecretBox } from '../helpers/secret-keys.js';

type OldDatabase = Kysely<Record<string, Record<string, unknown>>>;

for (const kind of await testDatabaseKinds()) {
  describe(`upgrade to events and jobs by subject [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    const clientId = randomUUID();
    const payment = storedPaymentRow(clientId, '2026-11-01T10:00:00.000Z', { webhook_url: 'https://merchant.example/hooks' });
    const ids = { record: randomUUID(), event: randomUUID(), attempt: randomUUID(), job: randomUUID() };

    before(async () => {
      testDatabase = await kind.create();
      handle = openDatabase(testDatabase.config);
      const db = handle.db as unknown as OldDatabase;
      await migrateTo(handle.db as unknown as Kysely<unknown>, '0017_banks');
      const tables = await handle.db.introspection.getTables();
      const columnsAt0017 = new Set(tables.find((table) => table.name === 'payments')?.columns.map((column) => column.name));
      const at = '2026-11-01T10:00:00.000Z';
      await db
        .insertInto('clients')
        .values({
          id: clientId,
          name: 'before subjects',
          environment: 'sandbox',
          scopes: 'payments:read payments:write',
          secret_hash: 'x'.repeat(64),
          webhook_secret: 'sealed',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('payments')
        // The row as a database at 0017 holds it: only the columns its payments table has (later migrations add more).
        .values(Object.fromEntries(Object.entries(payment).filter(([column]) => columnsAt0017.has(column))))
        .execute();
      await db
        .insertInto('payment_status_history')
        .values({
          id: ids.record,
          client_id: clientId,
          payment_id: payment.id,
          sequence: 1,
          detailed_status: payment.detailed_status,
          failure_reasons: null,
          created_at: at,
        })
        .execute();
      await db
        .insertInto('events')
        .values({
          id: ids.event,
          client_id: clientId,
          position: 7,
          type: 'payment.status.updated',
          payment_id: payment.id,
          body: '{"a":1}',
          created_at: at,
        })
        .execute();
      await db
        .insertInto('webhook_events')
        .values({
          id: ids.event,
          payment_id: payment.id,
          client_id: clientId,
          status_record_id: ids.record,
          sequence: 1,
          url: 'https://merchant.example/hooks',
          body: '{"a":1}',
          state: 'pending',
          attempts: 1,
          next_attempt_at: '2026-11-01T10:00:05.000Z',
          locked_by: null,
          locked_until: null,
          created_at: at,
          updated_at: at,
          delivered_at: null,
        })
        .execute();
      await db
        .insertInto('webhook_attempts')
        .values({
          id: ids.attempt,
          event_id: ids.event,
          attempt: 1,
          attempted_at: at,
          outcome: 'retry',
          status_code: 503,
          latency_ms: 12,
          error: null,
        })
        .execute();
      await db
        .insertInto('jobs')
        .values({
          id: ids.job,
          kind: 'bank-status',
          client_id: clientId,
          payment_id: payment.id,
          run_at: '2026-11-01T10:00:01.000Z',
          attempts: 3,
          locked_by: 'worker-a',
          locked_until: '2026-11-01T10:01:00.000Z',
          last_error: 'timeout',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await migrateToLatest(handle.db as unknown as Kysely<unknown>);
    });

    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    it('keeps every event, delivery, attempt and job, as rows about the payment', async () => {
      const event = await handle.db.selectFrom('events').selectAll().where('id', '=', ids.event).executeTakeFirstOrThrow();
      assert.deepEqual(
        { type: event.subject_type, id: event.subject_id, position: Number(event.position), body: event.body },
        { type: 'payment', id: payment.id, position: 7, body: '{"a":1}' },
      );
      const delivery = await handle.db.selectFrom('webhook_events').selectAll().where('id', '=', ids.event).executeTakeFirstOrThrow();
      assert.deepEqual(
        { type: delivery.subject_type, id: delivery.subject_id, attempts: Number(delivery.attempts), state: delivery.state },
        { type: 'payment', id: payment.id, attempts: 1, state: 'pending' },
      );
      const job = await handle.db.selectFrom('jobs').selectAll().where('id', '=', ids.job).executeTakeFirstOrThrow();
      assert.deepEqual(
        { type: job.subject_type, id: job.subject_id, attempts: Number(job.attempts), lockedBy: job.locked_by, error: job.last_error },
        { type: 'payment', id: payment.id, attempts: 3, lockedBy: 'worker-a', error: 'timeout' },
      );
      const [listed] = await new WebhookOutbox(handle.db, handle.kind, testSecretBox()).listForSubject(payment.id);
      assert.equal(listed?.eventId, ids.event);
      assert.deepEqual(
        listed.attemptLog.map((attempt) => attempt.statusCode),
        [503],
      );
    });

    it('hands the upgraded job to a worker with its subject', async () => {
      const queue = new JobQueue(handle.db, handle.kind, () => new Date('2026-11-01T10:05:00.000Z'));
      const [claimed] = await queue.claim('worker-b', ['bank-status'], 10, 30_000);
      assert.deepEqual(
        { id: claimed?.id, type: claimed?.subjectType, subject: claimed?.subjectId, attempts: claimed?.attempts },
        { id: ids.job, type: 'payment', subject: payment.id, attempts: 3 },
      );
    });

    it('lets a subject that is not a payment have events and jobs, one job of a kind per subject', async () => {
      const other = randomUUID();
      const at = '2026-11-01T11:00:00.000Z';
      const job = {
        kind: 'link-expiry',
        client_id: clientId,
        subject_type: 'payment_link',
        subject_id: other,
        run_at: at,
        attempts: 0,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: at,
        updated_at: at,
      };
      await handle.db
        .insertInto('jobs')
        .values({ ...job, id: randomUUID() })
        .execute();
      await assert.rejects(
        handle.db
          .insertInto('jobs')
          .values({ ...job, id: randomUUID() })
          .execute(),
        'a second job of the kind for the subject',
      );
      await handle.db
        .insertInto('events')
        .values({
          id: randomUUID(),
          client_id: clientId,
          position: 8,
          type: 'payment_link.paid',
          subject_type: 'payment_link',
          subject_id: other,
          body: '{}',
          created_at: at,
        })
        .execute();
    });

    it('leaves foreign keys on and whole', async () => {
      if (kind.name === 'sqlite') {
        const { rows } = await sql<Record<string, unknown>>`PRAGMA foreign_key_check`.execute(handle.db);
        assert.deepEqual(rows, []);
      }
      await assert.rejects(
        handle.db
          .insertInto('webhook_attempts')
          .values({
            id: randomUUID(),
            event_id: randomUUID(),
            attempt: 1,
            attempted_at: '2026-11-01T10:00:00.000Z',
            outcome: 'x',
            status_code: null,
            latency_ms: 1,
            error: null,
          })
          .execute(),
        'an attempt of no event',
      );
    });
  });
}
