/**
 * `npm run bench` works: its short mode runs every part that needs no PostgreSQL for about a second each and
 * produces every figure. Only that figures came out (and that nothing failed) is asserted, never how fast.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Figures {
  requests: number;
  non2xx: number;
}

describe('npm run bench, short mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openpis-bench-smoke-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the ceiling, creation and latest status against the bare server, a seeded database, journeys and webhooks', () => {
    const json = join(dir, 'bench.json');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BENCH_QUICK: '1',
      BENCH_SECONDS: '1',
      BENCH_SEED_PAYMENTS: '500',
      BENCH_JOURNEYS: '5',
      BENCH_WEBHOOK_RATE: '5',
      BENCH_WEBHOOK_SECONDS: '1',
      BENCH_JSON: json,
    };
    delete env.DATABASE_URL;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 400_000 });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const results = JSON.parse(readFileSync(json, 'utf8')) as {
      ceiling: Figures;
      api: { database: string; operation: string; ours: Figures; bare: Figures }[];
      million: { operation: string; seeded: number; seededFigures: Figures }[];
      journeys: { payments: number; completed: number };
      webhooks: { payments: number; deliveries: number; undelivered: number };
    };
    assert.ok(results.ceiling.requests > 0);
    assert.deepEqual(
      results.api.map((row) => `${row.database} ${row.operation}`),
      ['SQLite create payment', 'SQLite latest status'],
    );
    for (const row of results.api) {
      assert.ok(row.ours.requests > 0 && row.bare.requests > 0, row.operation);
      assert.equal(row.ours.non2xx, 0, row.operation);
    }
    assert.deepEqual(
      results.million.map((row) => [row.operation, row.seeded]),
      [
        ['create payment', 500],
        ['latest status', 500],
      ],
    );
    for (const row of results.million) assert.equal(row.seededFigures.non2xx, 0, row.operation);
    assert.deepEqual([results.journeys.payments, results.journeys.completed], [5, 5]);
    assert.equal(results.webhooks.payments, 5);
    // Hosted payments by default: each one's first status reaches the receiver, none left pending.
    assert.equal(results.webhooks.deliveries, 5);
    assert.equal(results.webhooks.undelivered, 0);
    assert.match(run.stdout, /\| SQLite \| create payment \|/);
  });
});
