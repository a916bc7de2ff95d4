/**
 * The records of bank calls: every call a payment's flow makes is recorded with the payment, client, bank,
 * operation, outcome, the HTTP status of a failure and the latency, and nothing of what was sent (the payer's
 * credentials never reach the table); buffered records are all written at a clean shutdown; a database that cannot
 * take them costs a bounded buffer, not memory; records older than the retention are pruned.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { BankCallRecorder, pruneBankCalls, type BankCallRecord } from '../../src/observability/bank-call-records.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { Database } from '../../src/storage/schema.js';
import { BANKS, fixturesWithPassword, TEST_PASSWORD } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { injectSandboxFault, startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { createBackgroundWorkers } from '../../src/background-workers.js';

function call(overrides: Partial<BankCallRecord> = {}): BankCallRecord {
  return {
    at: '2026-11-24T10:00:00.000Z',
    bankId: BANKS.hansa,
    clientId: null,
    paymentId: null,
    operation: 'getPaymentStatus',
    outcome: 'ok',
    httpStatus: null,
    latencyMs: 12,
    ...overrides,
  };
}

for (const kind of await testDatabaseKinds()) {
  describe(`records of bank calls [${kind.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(kind, {
        workers: true,
        sandboxFixtures: fixturesWithPassword(TEST_PASSWORD),
        env: { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200', WORKER_POLL_INTERVAL_MS: '20' },
      });
    });
    after(() => t?.close());

    it("records each of a payment's bank calls with its client, bank, operation, outcome, status and latency, and never the payer's credentials", async () => {
      const client = await t.createClient();
      const token = await client.token();
      // The bank down for two status reads (the connector tries the status endpoint, then the payment resource):
      // recorded as unavailable, with the bank's status.
      assert.equal(
        (
          await injectSandboxFault(t, 'hansa', {
            operations: ['getPaymentStatus', 'getPayment'],
            fault: { kind: 'error', status: 503 },
            times: 4,
          })
        ).status,
        201,
      );
      const created = await t.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: paymentRequest({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'dave', password: TEST_PASSWORD } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId } = (await created.json()) as { paymentId: string };
      const rows = await waitFor(
        'the completed payment and its status reads recorded',
        async () => {
          const payment = await t.database.db
            .selectFrom('payments')
            .select('detailed_status')
            .where('id', '=', paymentId)
            .executeTakeFirstOrThrow();
          const recorded = await t.database.db
            .selectFrom('bank_calls')
            .selectAll()
            .where('payment_id', '=', paymentId)
            .orderBy('at')
            .execute();
          return payment.detailed_status === 'PAYMENT_EXECUTION_COMPLETED' &&
            recorded.some((row) => row.operation === 'getPaymentStatus' && row.outcome === 'ok')
            ? recorded
            : undefined;
        },
        20_000,
      );
      assert.ok(rows.every((row) => row.client_id === client.clientId && row.bank_id === BANKS.hansa));
      assert.ok(
        rows.some((row) => row.operation === 'registerPayment' && row.outcome === 'ok'),
        JSON.stringify(rows.map((row) => row.operation)),
      );
      const unavailable = rows.filter((row) => row.outcome === 'unavailable');
      assert.equal(unavailable.length, 2);
      assert.ok(unavailable.every((row) => row.operation === 'getPaymentStatus' && Number(row.http_status) === 503));
      assert.ok(
        rows.every((row) => Number.isInteger(Number(row.latency_ms)) && Number(row.latency_ms) >= 0 && !Number.isNaN(Date.parse(row.at))),
      );
      // Nothing of what was sent or received: the columns are the record's, and no value holds the credentials or a URL.
      const everything = JSON.stringify(await t.database.db.selectFrom('bank_calls').selectAll().execute());
      assert.ok(!everything.includes(TEST_PASSWORD), 'the payer password is not in the records');
      assert.ok(!everything.includes('dave'), 'the payer login is not in the records');
      assert.ok(!/https?:|Bearer|token/i.test(everything), 'no URL or token in the records');
    });

    it('writes every buffered record at close, even a batch not yet due', async () => {
      const db = t.database.db;
      const recorder = new BankCallRecorder(db, { flushAfterMs: 60_000, batchSize: 1000 });
      for (let index = 0; index < 25; index += 1) recorder.record(call({ operation: `closeTest${index}` }));
      const before = await db.selectFrom('bank_calls').select('id').where('operation', 'like', 'closeTest%').execute();
      assert.equal(before.length, 0, 'nothing written before the batch is due');
      await recorder.close();
      const after = await db.selectFrom('bank_calls').select('id').where('operation', 'like', 'closeTest%').execute();
      assert.equal(after.length, 25);
    });

    it('is pruned by the background workers as they start (BANK_CALL_RETENTION_DAYS)', async () => {
      const db = t.database.db;
      const recorder = new BankCallRecorder(db);
      const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString();
      recorder.record(call({ operation: 'workersPruneOld', at: daysAgo(t.config.bankCallRetentionDays + 1) }));
      recorder.record(call({ operation: 'workersPruneKept', at: daysAgo(t.config.bankCallRetentionDays - 1) }));
      await recorder.close();
      const workers = createBackgroundWorkers({ config: t.config, database: t.database, logger: t.app.log, jobHandlers: {} });
      workers.start();
      try {
        await waitFor('the old record pruned', async () => {
          const rows = await db.selectFrom('bank_calls').select('operation').where('operation', 'like', 'workersPrune%').execute();
          return rows.length === 1 ? rows : undefined;
        }).then((rows) =>
          assert.deepEqual(
            rows.map((row) => row.operation),
            ['workersPruneKept'],
          ),
        );
      } finally {
        await workers.stop();
      }
    });

    it('deletes the records older than the retention, keeps the newer ones', async () => {
      const db = t.database.db;
      const now = new Date('2026-11-24T12:00:00.000Z');
      const recorder = new BankCallRecorder(db);
      recorder.record(call({ operation: 'pruneOld', at: '2026-10-24T11:59:59.000Z' }));
      recorder.record(call({ operation: 'pruneOld', at: '2026-10-01T00:00:00.000Z' }));
      recorder.record(call({ operation: 'pruneKept', at: '2026-10-24T12:00:01.000Z' }));
      await recorder.close();
      const deleted = await pruneBankCalls(db, 31, now);
      assert.ok(deleted >= 2);
      const left = await db.selectFrom('bank_calls').select('operation').where('operation', 'in', ['pruneOld', 'pruneKept']).execute();
      assert.deepEqual(
        left.map((row) => row.operation),
        ['pruneKept'],
      );
    });
  });
}

describe('records of bank calls when the database fails', () => {
  let db: Kysely<Database>;
  let close: () => Promise<void>;
  before(async () => {
    const [sqlite] = await testDatabaseKinds();
    assert.ok(sqlite);
    const created = await sqlite.create();
    const handle = openDatabase(created.config);
    await migrateToLatest(handle.db as unknown as Kysely<unknown>);
    db = handle.db;
    close = async () => {
      await handle.close();
      await created.drop();
    };
  });
  after(() => close());

  it('keeps at most maxBuffered records while writes fail, dropping the oldest and saying how many', async () => {
    const dropped: number[] = [];
    const failures: unknown[] = [];
    // A table that refuses every insert stands for a database that is down.
    await db.schema.alterTable('bank_calls').renameTo('bank_calls_away').execute();
    const recorder = new BankCallRecorder(db, {
      batchSize: 5,
      flushAfterMs: 5,
      maxBuffered: 10,
      onDropped: (count) => dropped.push(count),
      onWriteFailed: (error) => failures.push(error),
    });
    for (let index = 0; index < 30; index += 1) recorder.record(call({ operation: `failing${index}` }));
    await recorder.flush();
    assert.ok(failures.length > 0, 'the failed write is reported');
    assert.equal(
      dropped.reduce((sum, count) => sum + count, 0),
      20,
      'all but the 10 newest are dropped',
    );
    await db.schema.alterTable('bank_calls_away').renameTo('bank_calls').execute();
    await recorder.close();
    const kept = await db.selectFrom('bank_calls').select('operation').where('operation', 'like', 'failing%').execute();
    assert.deepEqual(kept.map((row) => row.operation).sort(), Array.from({ length: 10 }, (_, index) => `failing${20 + index}`).sort());
  });
});
