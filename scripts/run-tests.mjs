// Runs every *.test.ts file under src/ and test/ with Node's own test runner (through tsx).
// Node 20's --test does not expand glob patterns, so the files are collected here.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

const roots = ['src', 'test'];
const filters = process.argv.slice(2);
const files = roots
  .flatMap((root) => readdirSync(root, { recursive: true }).map((name) => join(root, String(name))))
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error('No test files matched.');
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
