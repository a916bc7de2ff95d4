// Builds the package with TypeScript's own compiler: src/ to dist/ (ES modules, declarations, source maps), then
// copies the data files the code reads beside itself (import.meta.url): every file under src/ that is neither
// TypeScript nor documentation, at the same place under dist/. dist/ is removed first, so no file of a deleted source
// survives. The service's `npm run build` (scripts/build.mjs at the root) runs this first.
// Usage: node scripts/build.mjs (from anywhere).
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(packageDir, 'src');
const output = join(packageDir, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(output, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.json')], { stdio: 'inherit' });

const assets = readdirSync(source, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && !/\.(ts|md)$/.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name));
for (const file of assets) cpSync(file, join(output, file.slice(source.length + 1)));
process.stdout.write(`build: packages/sandbox-bank/dist/ compiled from src/, ${assets.length} data file(s) copied\n`);
