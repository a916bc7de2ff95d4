/**
 * A CLI command loads what it needs and nothing more: start-up is mostly module loading
 * (docs/performance.md#start-up-of-the-cli-and-the-service), so a command that reads the database must not load the
 * sandbox bank, the HTTP server, the provider catalogue's validation, the logo decoder or the webhook sender. The modules a command resolved are recorded by a module hook (fixtures/record-modules.mjs).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CLI_ENTRY, CLI_NODE_ARGS } from '../helpers/cli.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';

const run = promisify(execFile);
const RECORDER = new URL('./fixtures/record-modules.mjs', import.meta.url).pathname;
/** Packages and folders (of the sources, or of the build the CLI may run from) a database-only command has no use for. */
const HEAVY = [
  /\/node_modules\/typebox\//,
  /\/node_modules\/sharp\//,
  /\/node_modules\/fastify\//,
  /\/node_modules\/undici\//,
  /\/sandbox-bank\//,
  /\/(src|dist)\/connectors\//,
  /\/(src|dist)\/providers\//,
  /\/(src|dist)\/hosted\//,
  /\/(src|dist)\/flow\//,
];

describe('CLI start-up', () => {
  let folder: string;
  const modulesOf = async (...args: string[]): Promise<string[]> => {
    const record = join(folder, `modules-${args.join('-')}.txt`);
    await run(process.execPath, [...CLI_NODE_ARGS, '--import', RECORDER, CLI_ENTRY, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${join(folder, 'openpis.sqlite')}`,
        SECRET_KEYS: TEST_SECRET_KEYS,
        LOG_LEVEL: 'silent',
        OPENPIS_RECORD_MODULES: record,
      },
    });
    return readFileSync(record, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  };
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'openpis-cli-start-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const command of [
    ['clients', 'list'],
    ['clients', 'list', '--json'],
    ['users', 'list'],
    ['webhooks', 'list', '--payment', '0b6f4c5e-3d2a-4f1b-9c8d-7e6f5a4b3c2d'],
    ['secrets', 'generate-key'],
  ]) {
    it(`${command.join(' ')} loads none of the sandbox bank, server, catalogue, logo or webhook-sending modules`, async () => {
      const modules = await modulesOf(...command);
      assert.ok(
        modules.some((url) => /\/(src\/cli\/main\.ts|dist\/cli\/main\.js)$/.test(url)),
        'the recorder saw the CLI load',
      );
      const heavy = modules.filter((url) => HEAVY.some((pattern) => pattern.test(url)));
      assert.deepEqual(
        [...new Set(heavy.map((url) => url.replace(/^.*?\/(node_modules\/(@[^/]+\/)?[^/]+|(src|dist)\/[^/]+)\/.*$/, '$1')))],
        [],
      );
    });
  }
});
