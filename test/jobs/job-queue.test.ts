/**
 * A job re-scheduled while it runs (the bank's notification makes the payment's bank-status job due now, a
 * transition re-times it) keeps the earlier due time: the running job's own reschedule (its backoff) never pushes
 * that look back, and a job that finishes leaves the re-scheduled row due and unclaimed, on both databases.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { JobQueue, scheduleJobs } from '../../src/jobs/job-queue.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { PaymentsTable } from '../../src/storage/schema.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { testSecretBox } from '../helpers/secret-keys.js';

const START = Date.parse('2026-11-28T12:00:00.000Z');

function paymentRow(clientId: string): PaymentsTable {
  const id = randomUUID();
  return storedPaymentRow(clientId, new Date(START).toISOString(), { id, provider_payment_id: `bank-${id}` });
}

const iso = (offsetMs: number): string => new Date(START + offsetMs).toISOString();

for (const kind of await testDatabaseKinds()) {
  describe(`job queue: a job re-scheduled while it runs [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let database: DatabaseHandle;
    let clientId: string;
    let clock = START;
    let queue: JobQueue;

    before(async () => {
      testDatabase = await kind.create();
      database = openDatabase(testDatabase.config);
      await migrateToLatest(database.db as unknown as Kysely<unknown>);
      clientId = (await new ClientService(database.db, testSecretBox()).create({ name: 'jobs' })).clientId;
      queue = new JobQueue(database.db, database.kind, () => new Date(clock));
    });
    after(async () => {
      await database?.close();
      await testDatabase?.drop();
    });

    /** A payment with its bank-status job due now, claimed by `worker`; the clock then moves on 100 ms. */
    async function claimedJob(worker: string) {
      clock = START;
      const payment = paymentRow(clientId);
      await database.db.insertInto('payments').values(payment).execute();
      const owner = { id: payment.id, clientId };
      await database.db.transaction().execute((trx) => scheduleJobs(trx, owner, [{ kind: 'bank-status', runAt: iso(0) }], iso(0)));
      const claimed = (await queue.claim(worker, ['bank-status'], 100, 60_000)).find((job) => job.subjectId === payment.id);
      assert.ok(claimed, 'the job was claimed');
      clock = START + 100;
      return { owner, job: claimed };
    }

    /** What is left of the payment's bank-status job. */
    async function rowOf(paymentId: string) {
      return database.db
        .selectFrom('jobs')
        .select(['run_at', 'locked_by', 'locked_until'])
        .where('subject_id', '=', paymentId)
        .where('kind', '=', 'bank-status')
        .executeTakeFirst();
    }

    it("the running job's later retry does not push back a due time set meanwhile (a notification)", async () => {
      const { owner, job } = await claimedJob('worker-a');
      // The bank's notification arrives while the job asks the bank: the job is due now.
      await database.db.transaction().execute((trx) => scheduleJobs(trx, owner, [{ kind: 'bank-status', runAt: iso(100) }], iso(100)));
      // The job's own look ends with its backoff: two minutes later.
      await queue.retryAt(job, 'worker-a', iso(120_000), 'bank outcome open');
      const row = await rowOf(owner.id);
      assert.equal(row?.run_at, iso(100), "the notification's look stays due");
      assert.equal(row?.locked_by, null);
      const again = await queue.claim('worker-b', ['bank-status'], 100, 60_000);
      assert.ok(
        again.some((claimed) => claimed.subjectId === owner.id),
        'the job is claimed again at once',
      );
    });

    it('a retry sooner than a due time set meanwhile, or with nothing set meanwhile, is the retry', async () => {
      const first = await claimedJob('worker-a');
      await database.db
        .transaction()
        .execute((trx) => scheduleJobs(trx, first.owner, [{ kind: 'bank-status', runAt: iso(60_000) }], iso(100)));
      await queue.retryAt(first.job, 'worker-a', iso(1_000));
      assert.equal((await rowOf(first.owner.id))?.run_at, iso(1_000));
      const second = await claimedJob('worker-a');
      await queue.retryAt(second.job, 'worker-a', iso(5_000));
      assert.equal((await rowOf(second.owner.id))?.run_at, iso(5_000));
    });

    it('a job that finishes after being re-scheduled leaves the row due and unclaimed', async () => {
      const { owner, job } = await claimedJob('worker-a');
      await database.db.transaction().execute((trx) => scheduleJobs(trx, owner, [{ kind: 'bank-status', runAt: iso(100) }], iso(100)));
      await queue.complete(job, 'worker-a');
      const row = await rowOf(owner.id);
      assert.equal(row?.run_at, iso(100));
      assert.equal(row?.locked_until, null, 'the claim is released with the job done');
      const again = await queue.claim('worker-b', ['bank-status'], 100, 60_000);
      assert.ok(again.some((claimed) => claimed.subjectId === owner.id));
    });

    it('a job that finishes with nothing re-scheduled is removed', async () => {
      const { owner, job } = await claimedJob('worker-a');
      await queue.complete(job, 'worker-a');
      assert.equal(await rowOf(owner.id), undefined);
    });
  });
}
