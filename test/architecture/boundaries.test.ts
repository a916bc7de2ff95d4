/**
 * The import boundaries (.dependency-cruiser.cjs): the source tree keeps them, and the check really refuses an import
 * against the layers, a loop between folders and a loop between files (run on small trees made for the purpose).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '../..');
const depcruise = join(projectRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = join(projectRoot, '.dependency-cruiser.cjs');

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

/** Runs the check over `folders` of `cwd` (as `npm run check:boundaries` does); the rules' names and the violating edges. */
async function check(cwd: string, folders: readonly string[] = ['src']): Promise<Violation[]> {
  const result = await run(process.execPath, [depcruise, ...folders, '--config', config, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(result.stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

const trees: string[] = [];
after(() => trees.forEach((tree) => rmSync(tree, { recursive: true, force: true })));

/** A throw-away tree of TypeScript files (path → content) with the project's compiler settings. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'openpis-boundaries-'));
  trees.push(root);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('import boundaries', () => {
  test('the source tree has no import against the layers and no loop between folders or files', async () => {
    const violations = await check(projectRoot, ['src', 'packages/sandbox-bank/src', 'scripts', 'bench', 'test']);
    assert.deepEqual(
      violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`),
      [],
    );
  });

  test('an import from a lower folder into a higher one is refused', async () => {
    const root = tree({
      'src/domain/status.ts': "import { engine } from '../flow/engine.js';\nexport const status = engine;\n",
      'src/flow/engine.ts': 'export const engine = 1;\n',
    });
    const violations = await check(root);
    assert.deepEqual(
      violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`),
      ['layer-domain: src/domain/status.ts → src/flow/engine.ts'],
    );
  });

  test('two folders importing each other are a loop, whatever the layers allow one way', async () => {
    const root = tree({
      'src/flow/engine.ts': "import { row } from '../storage/rows.js';\nexport const engine = row;\n",
      'src/storage/rows.ts': "import type { Engine } from '../flow/types.js';\nexport const row: Engine = 1;\n",
      'src/flow/types.ts': 'export type Engine = number;\n',
    });
    const names = new Set((await check(root)).map((violation) => violation.rule.name));
    assert.ok(names.has('no-folder-cycle'), `rules hit: ${[...names].join(', ')}`);
    assert.ok(names.has('layer-storage'));
  });

  test('two files of one folder importing each other are a loop, even through type-only imports', async () => {
    const root = tree({
      'src/auth/tokens.ts':
        "import type { Cache } from './token-cache.js';\nexport interface Client { readonly id: string }\nexport const tokens = (cache: Cache): Cache => cache;\n",
      'src/auth/token-cache.ts': "import type { Client } from './tokens.js';\nexport interface Cache { get(): Client | undefined }\n",
    });
    // The loop is reported once, at one of its edges.
    const violations = await check(root);
    assert.deepEqual(
      violations.map((violation) => violation.rule.name),
      ['no-circular'],
    );
    const [edge] = violations.map((violation) => [violation.from, violation.to].sort().join(' ↔ '));
    assert.equal(edge, 'src/auth/token-cache.ts ↔ src/auth/tokens.ts');
  });

  test("the sandbox banks' package imports nothing of the service, and the service only its entry point, from the composition root and the allowed folders", async () => {
    const root = tree({
      'packages/sandbox-bank/src/index.ts': "export { page } from './pages.js';\n",
      'packages/sandbox-bank/src/pages.ts': "import { escape } from '../../../src/http/escape.js';\nexport const page = escape;\n",
      'src/http/escape.ts': 'export const escape = 1;\n',
      'src/app.ts': "import { page } from '../packages/sandbox-bank/src/index.js';\nexport const app = page;\n",
      'src/cli/sandbox.ts': "import { page } from '../../packages/sandbox-bank/src/index.js';\nexport const cli = page;\n",
      'src/flow/engine.ts': "import { page } from '../../packages/sandbox-bank/src/pages.js';\nexport const engine = page;\n",
    });
    const violations = await check(root, ['src', 'packages/sandbox-bank/src']);
    assert.deepEqual(violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`).sort(), [
      'sandbox-bank-importers: src/flow/engine.ts → packages/sandbox-bank/src/pages.ts',
      'sandbox-bank-interface: src/flow/engine.ts → packages/sandbox-bank/src/pages.ts',
      'sandbox-bank-stands-alone: packages/sandbox-bank/src/pages.ts → src/http/escape.ts',
    ]);
  });

  test('a top-level folder without a place in the layers is refused', async () => {
    const root = tree({
      'src/gadgets/tool.ts': "import { status } from '../domain/status.js';\nexport const tool = status;\n",
      'src/domain/status.ts': 'export const status = 1;\n',
    });
    const names = (await check(root)).map((violation) => violation.rule.name);
    assert.deepEqual(names, ['no-unknown-folder']);
  });
});
