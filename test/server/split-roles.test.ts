/**
 * API and worker processes apart never complete a payment at a sandbox bank embedded in each of them (each has a
 * bank of its own, in memory): such a start is refused, pointing at `openpis sandbox-bank` and SANDBOX_BANK_URL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { loadCatalogue, parseCatalogue } from '../../src/providers/catalogue.js';
import { embeddedSandboxProblem } from '../../src/runtime.js';
import { runToExit } from '../helpers/processes.js';
import { freePort } from '../helpers/test-app.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';

const BUILT_IN_CATALOGUE = new URL('../../src/providers/sandbox-catalogue.json', import.meta.url);

describe('split process roles and the sandbox bank', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'openpis-split-roles-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const role of ['api', 'worker'] as const) {
    it(`PROCESS_ROLE=${role} with the embedded sandbox bank does not start, and says what to do`, async () => {
      const port = await freePort();
      const result = await runToExit(['--import', 'tsx', 'src/server.ts'], {
        PROCESS_ROLE: role,
        PORT: String(port),
        METRICS_PORT: 'off',
        BASE_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: `sqlite:${join(dir, `${role}.sqlite`)}`,
        SECRET_KEYS: TEST_SECRET_KEYS,
        LOG_LEVEL: 'warn',
      });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /PROCESS_ROLE=.*openpis sandbox-bank.*SANDBOX_BANK_URL/);
      assert.doesNotMatch(result.stdout, /openpis is listening/);
      assert.doesNotMatch(result.stderr, /^\s+at /m);
    });
  }

  it('starts with a shared sandbox bank, in one process, or with a catalogue that does not use the sandbox bank', () => {
    const builtIn = (url?: string) => {
      const config = loadConfig({ PROCESS_ROLE: 'worker', ...(url === undefined ? {} : { SANDBOX_BANK_URL: url }) });
      return { config, catalogue: loadCatalogue(undefined, config.sandboxBank.url) };
    };
    const embedded = builtIn();
    assert.ok(embedded.catalogue.usesSandboxBank);
    assert.notEqual(embeddedSandboxProblem(embedded.config, embedded.catalogue), undefined);
    assert.equal(embeddedSandboxProblem({ ...embedded.config, processRole: 'all' }, embedded.catalogue), undefined);
    const shared = builtIn('http://127.0.0.1:8090');
    assert.equal(embeddedSandboxProblem(shared.config, shared.catalogue), undefined);

    // An operator's own catalogue of real banks needs no sandbox bank at all.
    const builtInDocument = JSON.parse(readFileSync(BUILT_IN_CATALOGUE, 'utf8')) as { providers: Array<Record<string, unknown>> };
    const real = builtInDocument.providers.find(
      (provider) => JSON.stringify(provider).includes('{SANDBOX_BANK_URL}') && provider.subsidiaries === undefined,
    );
    assert.ok(real);
    const own = {
      ...builtInDocument,
      providers: [JSON.parse(JSON.stringify(real).replaceAll('{SANDBOX_BANK_URL}', 'https://bank.example'))],
    };
    const ownCatalogue = parseCatalogue(own, embedded.config.sandboxBank.url);
    assert.equal(ownCatalogue.usesSandboxBank, false);
    assert.equal(embeddedSandboxProblem(embedded.config, ownCatalogue), undefined);
  });
});
