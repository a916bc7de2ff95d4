// `npm run build` (also run by `npm install`/`npm ci` through `prepare`): compiles src/ to dist/ with tsc (source
// maps on, tests left out) and copies the files the code reads relative to its own location (import.meta.url):
// every file under src/ that is neither TypeScript nor documentation, at the same place under dist/.
// dist/ is removed first, so no file of a deleted source survives a build. See docs/adr/0007.
// The sandbox banks' package (packages/sandbox-bank) is built first, by its own script: the service's compiler reads
// its declarations and the compiled service imports its dist/ (through node_modules/@openpis/sandbox-bank).
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Sources changed after this moment may be missing from the build (test/helpers/cli.ts reads the stamp).
const startedAt = new Date();
const source = join(root, 'src');
const output = join(root, 'dist');

const sandboxBank = spawnSync(process.execPath, [join(root, 'packages', 'sandbox-bank', 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (sandboxBank.status !== 0) {
  process.stderr.write('build: the sandbox bank package failed to build\n');
  process.exit(sandboxBank.status ?? 1);
}

rmSync(output, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) {
  process.stderr.write('build: tsc failed\n');
  process.exit(compiled.status ?? 1);
}

const assets = readdirSync(source, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && !/\.(ts|md)$/.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name));
for (const file of assets) cpSync(file, join(output, file.slice(source.length + 1)));
// The stamp's time is the build's start: a source newer than it may not be in dist/, so the tests run it from src/.
const stamp = join(output, '.build-stamp');
writeFileSync(stamp, `${startedAt.toISOString()}\n`);
utimesSync(stamp, startedAt, startedAt);
process.stdout.write(`build: dist/ compiled from src/, ${assets.length} data file(s) copied\n`);
