/**
 * The statements of a status change find their rows through indexes that name the payment, whatever else the
 * client has: each is given to the database's own planner (SQLite `EXPLAIN QUERY PLAN`; PostgreSQL `EXPLAIN` with
 * sequential scans switched off, so a table this small is not read whole merely because that is cheap), and every
 * table it reads must be searched by the payment (or the row's id), never scanned. A client with 100,000 waiting
 * jobs would otherwise read all of them for each payment that ends (docs/scaling.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, type Kysely, type KyselyPlugin } from 'kysely';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import type { Database } from '../../src/storage/schema.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The same database, recording every statement run through it as the driver receives it. */
function recording(db: Kysely<Database>): { db: Kysely<Database>; statements: CompiledQuery[] } {
  const statements: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      statements.push(db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), statements };
}

/** How a table access of a plan finds its rows, one line each: `search <table> by <condition>` or `scan <table>`. */
async function accessesOf(kind: 'sqlite' | 'postgres', db: Kysely<Database>, statement: CompiledQuery): Promise<string[]> {
  if (kind === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]),
    );
    return rows.map((row) => row.detail).filter((detail) => /^(SEARCH|SCAN) /.test(detail) && !detail.startsWith('SCAN CONSTANT'));
  }
  return db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
    );
    const nodes: Record<string, unknown>[] = [];
    const walk = (node: Record<string, unknown>): void => {
      if (typeof node['Relation Name'] === 'string' && node['Node Type'] !== 'ModifyTable') nodes.push(node);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    const plan = rows[0]?.['QUERY PLAN'];
    const root = (Array.isArray(plan) ? plan : JSON.parse(String(plan)))[0] as { Plan: Record<string, unknown> };
    walk(root.Plan);
    const accesses: string[] = [];
    for (const node of nodes) {
      const relation = String(node['Relation Name']);
      const condition = node['Index Cond'];
      if (typeof condition !== 'string') {
        accesses.push(`SCAN ${relation} (${String(node['Node Type'])})`);
        continue;
      }
      // What an index search is bound by is the run of its leading columns the condition names; a column named
      // after a gap (or without the first) only filters what the walk through the index reads.
      const { rows: keyColumns } = await trx.executeQuery<{ column: string }>(
        CompiledQuery.raw(
          `SELECT a.attname AS column FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
           WHERE c.relname = $1 ORDER BY k.n`,
          [String(node['Index Name'])],
        ),
      );
      const bound: string[] = [];
      for (const { column } of keyColumns) {
        if (!new RegExp(`\\b${column}\\b`).test(condition)) break;
        bound.push(`${column}=?`);
      }
      accesses.push(
        bound.length > 0
          ? `SEARCH ${relation} USING ${String(node['Index Name'])} (${bound.join(' AND ')})`
          : `SCAN ${relation} USING ${String(node['Index Name'])} (${condition})`,
      );
    }
    return accesses;
  });
}

for (const kind of await testDatabaseKinds()) {
  describe(`query plans of a status change [${kind.name}]`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(kind);
    });
    after(async () => {
      await t.close();
    });

    it('finds every row of the payment by the payment, in each table, never by the client alone', async () => {
      const client = await t.createClient();
      const token = await client.token();
      const created = await t.request('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest() });
      assert.equal(created.status, 201);
      const { paymentId } = (await created.json()) as { paymentId: string };

      const { db, statements } = recording(t.database.db);
      const store = new PaymentStateStore(db, new SecretBox(t.config.secretKeys));
      const loaded = await store.load(paymentId);
      assert.ok(loaded);
      // A flow update that re-times a job and cancels another, then the payment's end (which drops its jobs).
      const updated = await store.update(
        loaded,
        {},
        { schedule: [{ kind: 'bank-status', runAt: new Date().toISOString() }], cancel: ['flow-expiry'] },
      );
      assert.equal(updated.kind, 'applied');
      assert.ok(updated.kind === 'applied');
      const ended = await store.transition({
        payment: updated.payment,
        path: [{ status: 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING' }, { status: 'PAYMENT_REGISTRATION_FAILED' }],
      });
      assert.equal(ended.kind, 'applied');

      const reads = statements.filter(
        (statement) => /^\s*(select|update|delete)\b/i.test(statement.sql) && /"(payment|subject)_id" =/.test(statement.sql),
      );
      // The transition's sequence lookup and the job drops at least.
      assert.ok(
        reads.some((statement) => statement.sql.startsWith('delete from "jobs"')),
        'the jobs were dropped by payment',
      );
      assert.ok(
        reads.some((statement) => statement.sql.includes('from "payment_status_history"')),
        'the last status record was looked up',
      );
      for (const statement of reads) {
        const accesses = await accessesOf(kind.name, t.database.db, statement);
        assert.ok(accesses.length > 0, statement.sql);
        for (const access of accesses) {
          assert.match(access, /^SEARCH /, `${statement.sql}\n  is read by ${access}`);
          // Bound by the payment or the row's own id, not only by the client it shares with every other payment.
          assert.match(access, /(?<![a-z_])((payment|subject)_)?id\b\s*=/, `${statement.sql}\n  is read by ${access}`);
        }
      }
    });
  });
}
