// Runs every *.test.ts file under src/ and test/ with Node's own test runner (node:test, through tsx), a few files at
// a time, each file in a process of its own, and prints each file's report as the file ends, then the totals, the
// failing files and the slowest files.
// Usage: node scripts/run-tests.mjs [path-filter ...]
//
// Why not `node --test`: Node 20's runner gives no file's wall time, so which file holds the suite up could not be
// seen, and it starts files in the order given. Here each file is timed, the times of a whole run can be recorded
// (OPENPIS_TEST_RECORD_TIMINGS=1 writes test/timings.json), and the files start longest first by those times, so
// the short ones fill the gaps beside the long ones rather than a long one starting last. (Node's runner also runs
// each file in a child process of its own; a file run directly reports the same tests with the same reporter.)
//
// The benchmark smoke tests (test/bench/) start the benchmarks themselves (bench/run.ts, bench/scaling.ts), busy the
// machine and check the tools rather than the service, so `npm test` leaves them out; .ci/run runs them as a step of
// their own with OPENPIS_TEST_BENCH=1 (set it to include them in any run).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { spawn } from 'node:child_process';

const roots = ['src', 'test'];
const benchFolder = join('test', 'bench');
const timingsFile = join('test', 'timings.json');
const includeBench = process.env.OPENPIS_TEST_BENCH === '1';
const recordTimings = process.env.OPENPIS_TEST_RECORD_TIMINGS === '1';
const filters = process.argv.slice(2);
const matching = roots
  .flatMap((root) => readdirSync(root, { recursive: true }).map((name) => join(root, String(name))))
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
const selected = includeBench ? matching : matching.filter((file) => !file.startsWith(benchFolder + sep));

if (selected.length === 0) {
  const benchOnly = matching.length > 0;
  console.error(benchOnly ? 'Only benchmark smoke tests matched; run them with OPENPIS_TEST_BENCH=1.' : 'No test files matched.');
  process.exit(1);
}

/** Seconds each file took in the last recorded run, by its path with forward slashes. */
function readTimings() {
  try {
    const parsed = JSON.parse(readFileSync(timingsFile, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed.seconds ?? {}) : {};
  } catch {
    return {};
  }
}
const slashed = (file) => file.split(sep).join('/');
const recorded = readTimings();
// A file without a recorded time (a new one) is assumed long rather than short: it starts early, where a long file
// does least harm, and is timed in the next recorded run.
const knownTimes = Object.values(recorded)
  .filter((seconds) => typeof seconds === 'number')
  .sort((a, b) => a - b);
const unknownGuess = knownTimes.length === 0 ? 0 : knownTimes[Math.floor(knownTimes.length * 0.9)];
const expectedSeconds = (file) => (typeof recorded[slashed(file)] === 'number' ? recorded[slashed(file)] : unknownGuess);
// Longest first; ties in name order (the sort is stable).
const files = selected.toSorted((a, b) => expectedSeconds(b) - expectedSeconds(a));

// Test files each build their own app and database, so they can run side by side; most of their time is spent
// waiting on I/O and timers, so a little more than one file per core pays off (docs/performance.md, "Test suite time").
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? '3'));
// The one guard against a file that hangs: 30 minutes, far above what any takes on a loaded machine. Test files set no
// time limits of their own: a limit near a test's usual duration fails it on a busy machine.
const timeoutMs = Number(process.env.OPENPIS_TEST_TIMEOUT_MS ?? '1800000');

const SUMMARY_LINE = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;
const totals = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
/** @type {{ file: string, seconds: number, code: number | null, signal: string | null, timedOut: boolean }[]} */
const results = [];
const running = new Set();
const started = Date.now();

function runFile(file) {
  return new Promise((resolve) => {
    const begun = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const seconds = (Date.now() - begun) / 1000;
      const counted = {};
      const report = output
        .split('\n')
        .filter((line) => {
          const summary = SUMMARY_LINE.exec(line);
          if (summary === null) return true;
          counted[summary[1]] = Number(summary[2]);
          return false;
        })
        .join('\n')
        .trimEnd();
      for (const key of Object.keys(totals)) totals[key] += counted[key] ?? 0;
      // A file that ended without its summary (it crashed, hung, or failed to load) counts as a failure of its own.
      const failed = code !== 0 || timedOut || counted.tests === undefined;
      if (failed && (counted.fail ?? 0) === 0) totals.fail += 1;
      const verdict = timedOut ? `stopped after ${timeoutMs / 1000} s` : failed ? `FAILED (exit ${code ?? signal})` : 'ok';
      process.stdout.write(`\n── ${slashed(file)}: ${verdict}, ${seconds.toFixed(1)} s\n${report}\n`);
      results.push({ file: slashed(file), seconds, failed });
      resolve();
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}

const queue = [...files];
await Promise.all(
  Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await runFile(file);
  }),
);

const wallSeconds = (Date.now() - started) / 1000;
const failedFiles = results.filter((result) => result.failed);
const slowest = results.toSorted((a, b) => b.seconds - a.seconds).slice(0, 10);
console.log(`\n${'═'.repeat(100)}`);
for (const [key, value] of Object.entries(totals)) console.log(`ℹ ${key} ${value}`);
console.log(`ℹ files ${results.length}, ${concurrency} at a time, ${wallSeconds.toFixed(0)} s of wall time`);
console.log(`ℹ slowest files: ${slowest.map((result) => `${result.file} ${result.seconds.toFixed(0)} s`).join(', ')}`);
if (failedFiles.length > 0) console.log(`✖ failing files:\n${failedFiles.map((result) => `  ${result.file}`).join('\n')}`);

if (recordTimings) {
  const seconds = { ...recorded };
  for (const result of results) seconds[result.file] = Math.round(result.seconds * 10) / 10;
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
  const note =
    'Seconds each test file took in a recorded run (OPENPIS_TEST_RECORD_TIMINGS=1 node scripts/run-tests.mjs): ' +
    'scripts/run-tests.mjs starts the longest first. Record on a quiet machine.';
  writeFileSync(timingsFile, `${JSON.stringify({ note, recordedAt: new Date().toISOString(), concurrency, seconds: sorted }, null, 2)}\n`);
  console.log(`ℹ timings written to ${timingsFile}`);
}

process.exit(failedFiles.length > 0 ? 1 : 0);
