// Builds the package twice from the same sources with TypeScript's own compiler: ES modules (dist/esm) and
// CommonJS (dist/cjs), each with its declarations. No bundler: the sources are few and import nothing but
// `standardwebhooks`. Usage: node scripts/build.mjs [outDir] (default: dist beside this package.json).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(packageDir, 'dist'));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = join(packageDir, 'tsconfig.json');

rmSync(outDir, { recursive: true, force: true });
const compile = (directory, ...options) =>
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', join(outDir, directory), ...options], { stdio: 'inherit' });

compile('esm');
// `verbatimModuleSyntax` forbids CommonJS output of ESM syntax; the CommonJS build turns it off.
compile('cjs', '--module', 'commonjs', '--moduleResolution', 'node10', '--verbatimModuleSyntax', 'false');
// The package is "type": "module"; this marker makes Node (and TypeScript) read dist/cjs as CommonJS.
mkdirSync(join(outDir, 'cjs'), { recursive: true });
writeFileSync(join(outDir, 'cjs', 'package.json'), '{\n  "type": "commonjs"\n}\n');
