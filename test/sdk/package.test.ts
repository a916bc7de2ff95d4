/**
 * The SDK as it is published: its types are in step with the OpenAPI document, and it builds to ES modules and
 * CommonJS that both load and export the same names, with declarations where package.json's `exports` point.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { generateTypes } from '../../packages/sdk/scripts/types-source.mjs';
import { isFinalStatus, type DetailedStatus, type FailureCode, type PaymentStatus } from '../../packages/sdk/src/index.js';

const packageDir = new URL('../../packages/sdk/', import.meta.url).pathname;
const run = promisify(execFile);

interface Manifest {
  name: string;
  type: string;
  engines: { node: string };
  files: string[];
  exports: Record<string, { import: { types: string; default: string }; require: { types: string; default: string } } | string>;
  dependencies: Record<string, string>;
}

describe('@openpis/sdk package', () => {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  // Built beside the package, so `standardwebhooks` resolves from the workspace's node_modules as it would for a user.
  const outDir = mkdtempSync(join(packageDir, '.test-build-'));
  after(() => rmSync(outDir, { recursive: true, force: true }));

  it('src/generated/openapi.ts is exactly what openapi-typescript makes of the committed openapi.json', async () => {
    const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as unknown;
    const committed = readFileSync(join(packageDir, 'src/generated/openapi.ts'), 'utf8');
    assert.ok(committed === (await generateTypes(document)), 'the generated types are stale: run `npm run generate -w @openpis/sdk`');
  });

  it('statuses, detailed statuses and failure codes are open unions: known values and values added later type-check', () => {
    const known: PaymentStatus[] = ['PENDING', 'COMPLETED', 'FAILED'];
    const addedLater: PaymentStatus = 'ON_HOLD_AT_BANK';
    const detailed: DetailedStatus[] = ['PAYMENT_EXECUTION_COMPLETED', 'A_PHASE_ADDED_LATER'];
    const codes: FailureCode[] = ['INSUFFICIENT_FUNDS', 'A_CODE_ADDED_LATER'];
    // @ts-expect-error: still strings, not anything
    const notAString: PaymentStatus = 42;
    assert.deepEqual(known.map(isFinalStatus), [false, true, true]);
    assert.equal(isFinalStatus(addedLater), false, 'a status the client does not know is not final');
    assert.equal(detailed.length + codes.length, 4);
    assert.equal(typeof notAString, 'number');
  });

  it('is publishable as @openpis/sdk for Node 20.19, shipping only the build and the README', () => {
    assert.equal(manifest.name, '@openpis/sdk');
    assert.equal(manifest.engines.node, '>=20.19');
    assert.deepEqual(manifest.files, ['dist', 'README.md']);
    assert.deepEqual(Object.keys(manifest.dependencies), ['standardwebhooks']);
  });

  it('packs clean: the build, the README and a manifest that runs nothing where it is installed', async () => {
    // What `npm pack` (and so a checkout's tarball, README "install") would ship; the build itself is tested below.
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageDir });
    const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const paths = (packed?.files ?? []).map((file) => file.path);
    assert.ok(paths.includes('package.json') && paths.includes('README.md') && paths.includes('dist/esm/index.js'), paths.join('\n'));
    assert.deepEqual(
      paths.filter((path) => !['package.json', 'README.md'].includes(path) && !path.startsWith('dist/')),
      [],
    );
    // Scripts npm runs when the package is installed (or built as a dependency) would look for files not packed.
    const scripts = (manifest as Manifest & { scripts?: Record<string, string> }).scripts ?? {};
    const runAtInstall = ['preinstall', 'install', 'postinstall', 'prepare', 'dependencies'].filter((name) => name in scripts);
    assert.deepEqual(runAtInstall, []);
  });

  it('builds to ES modules and CommonJS exporting the same API, with declarations where `exports` points', async () => {
    await run(process.execPath, [join(packageDir, 'scripts/build.mjs'), outDir]);
    const entry = manifest.exports['.'];
    assert.ok(typeof entry === 'object');
    for (const target of [entry.import.types, entry.import.default, entry.require.types, entry.require.default]) {
      assert.ok(existsSync(join(outDir, target.replace(/^\.\/dist\//, ''))), `${target} is built`);
    }
    const esm = (await import(pathToFileURL(join(outDir, 'esm/index.js')).href)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(join(outDir, 'cjs/index.js')) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(cjs)
        .filter((name) => name !== '__esModule')
        .sort(),
      Object.keys(esm).sort(),
    );
    for (const module of [esm, cjs]) {
      assert.equal(typeof module.OpenpisClient, 'function');
      assert.equal(typeof module.verifyWebhook, 'function');
      assert.equal((module.isFinalStatus as (status: string) => boolean)('COMPLETED'), true);
      assert.equal((module.isFinalStatus as (status: string) => boolean)('A_NEW_STATUS'), false);
    }
  });

  it('its declarations type-check a consumer importing the ES module and one requiring the CommonJS build', async () => {
    const usage = (from: string) => `const status: sdk.PaymentStatus = 'A_STATUS_ADDED_LATER';
const client = new sdk.OpenpisClient({ baseUrl: 'http://localhost:8080', clientId: 'id', clientSecret: 'secret' });
export const final: Promise<boolean> = client.getPayment('id').then((payment) => sdk.isFinalStatus(payment.status) || status === '${from}');
`;
    writeFileSync(join(outDir, 'consumer-esm.mts'), `import * as sdk from './esm/index.js';\n${usage('esm')}`);
    writeFileSync(join(outDir, 'consumer-cjs.cts'), `import sdk = require('./cjs/index.js');\n${usage('cjs')}`);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    await run(process.execPath, [
      tsc,
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      'false',
      '--module',
      'node16',
      '--types',
      'node',
      join(outDir, 'consumer-esm.mts'),
      join(outDir, 'consumer-cjs.cts'),
    ]);
  });
});
