/**
 * `npm run bench:scaling` works (docs/scaling.md): in a tiny run on PostgreSQL every part finishes its work — the
 * journeys of both layouts complete, the backlog drains to nothing, and the storm's healthy receivers get every
 * event of their payments in order. Only completeness is asserted, never how fast.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const POSTGRES_URL = process.env.OPENPIS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const hasPostgres = (await testDatabaseKinds()).some((kind) => kind.name === 'postgres');

describe('npm run bench:scaling, tiny run', { skip: hasPostgres ? false : 'needs PostgreSQL' }, () => {
  it('completes every journey in both layouts, drains the whole backlog and delivers the storm in order', () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: POSTGRES_URL,
      SCALING_QUICK: '1',
      SCALING_JOURNEYS: '20',
      SCALING_BACKLOG: '300',
      SCALING_BACKLOG_REAL: '50',
      SCALING_STORM_PAYMENTS: '20',
      SCALING_DRAIN_SECONDS: '60',
    };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/scaling.ts'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    // Roles: | layout | journeys | created in | completed | …
    for (const layout of ['1 process (API and workers)', '2 API + 2 worker processes']) {
      const row = new RegExp(`\\| ${layout.replace(/[()+]/g, '\\$&')} \\| (\\d+) \\| [\\d.]+ \\| (\\d+) \\|`).exec(output);
      assert.ok(row, `${layout}\n${output}`);
      assert.deepEqual([row[1], row[2]], ['20', '20'], layout);
    }
    // Backlog: the last row of its table has no job left and every payment completed.
    const backlogRows = [...output.matchAll(/^\| \d+ \| (\d+) \| (\d+) \| [\d.]+ \| (\d+) \| \d+ \|/gm)];
    const last = backlogRows[backlogRows.length - 1];
    assert.ok(last, output);
    assert.deepEqual([last[1], last[2], last[3]], ['0', '0', '300']);
    // Storm: 16 of the 20 payments go to healthy receivers; every status of each arrives, none out of order.
    const storm = /Healthy receivers: (\d+) deliveries to (\d+) payments.*payments whose events arrived out of order: (\d+)/.exec(output);
    assert.ok(storm, output);
    assert.equal(storm[2], '16');
    assert.equal(storm[3], '0');
    // A payer-less Hansa journey records eight statuses, each one delivery.
    assert.equal(storm[1], String(16 * 8));
  });
});
