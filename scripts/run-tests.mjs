// Runs every *.test.ts file under src/ and test/ with Node's own test runner (through tsx).
// Node 20's --test does not expand glob patterns, so the files are collected here.
// Usage: node scripts/run-tests.mjs [path-filter ...]
// The benchmark smoke tests (test/bench/) start the benchmarks themselves (bench/run.ts, bench/scaling.ts), busy the
// machine and check the tools rather than the service, so `npm test` leaves them out; .ci/run runs them as a step of
// their own with OPENPIS_TEST_BENCH=1 (set it to include them in any run).
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { spawn } from 'node:child_process';

const roots = ['src', 'test'];
const benchFolder = join('test', 'bench');
const includeBench = process.env.OPENPIS_TEST_BENCH === '1';
const filters = process.argv.slice(2);
const matching = roots
  .flatMap((root) => readdirSync(root, { recursive: true }).map((name) => join(root, String(name))))
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
const selected = includeBench ? matching : matching.filter((file) => !file.startsWith(benchFolder + sep));

// The files that take longest, longest first (docs/performance.md, "Test suite time", has the figures): the runner
// starts files in the order given, so these start at once and the short ones fill the gaps beside them, rather than
// one long file starting last and the suite waiting on it alone. An entry ending in / stands for the files below it.
// The rest follow in name order.
const LONGEST_FIRST = [
  'test/cli/database-commands-postgres.test.ts',
  'test/cli/database-commands-sqlite.test.ts',
  'test/cli/banks-commands-postgres.test.ts',
  'test/cli/banks-commands-sqlite.test.ts',
  'test/e2e/journeys.test.ts',
  'test/cli/listen-trigger-postgres.test.ts',
  'test/flow/fault-matrix/',
  'test/cli/listen-trigger-sqlite.test.ts',
  'test/e2e/console-insight.test.ts',
  'test/e2e/console.test.ts',
  'test/auth/token-revocation.test.ts',
  'test/e2e/branding-and-bank-selection.test.ts',
  'test/cli/users.test.ts',
  'test/console/sandbox-scenarios.test.ts',
  'test/architecture/boundaries.test.ts',
];
const rankOf = (file) => {
  const rank = LONGEST_FIRST.findIndex((entry) => file.split(sep).join('/').startsWith(entry));
  return rank === -1 ? LONGEST_FIRST.length : rank;
};
// (The sort is stable: files of one rank keep their name order.)
const files = selected.toSorted((a, b) => rankOf(a) - rankOf(b));
if (filters.length === 0) {
  for (const [rank, entry] of LONGEST_FIRST.entries()) {
    if (!files.some((file) => rankOf(file) === rank)) console.warn(`scripts/run-tests.mjs: LONGEST_FIRST's "${entry}" names no test file`);
  }
}

if (files.length === 0) {
  const benchOnly = matching.length > 0;
  console.error(benchOnly ? 'Only benchmark smoke tests matched; run them with OPENPIS_TEST_BENCH=1.' : 'No test files matched.');
  process.exit(1);
}

// Test files each build their own app and database, so they can run side by side; most of
// their time is spent waiting on I/O, so a little more than one file per core pays off.
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
// The one guard against a test that hangs: 30 minutes a test or suite, far above what any takes on a loaded machine.
// Test files set no time limits of their own: a limit near a test's usual duration fails it on a busy machine.
const timeoutMs = process.env.OPENPIS_TEST_TIMEOUT_MS ?? '1800000';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...files],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
