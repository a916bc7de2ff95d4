/**
 * Start-up depends on no timer a busy machine can miss: Fastify's plugin timeout (10 s by default) once failed the
 * service at load ~19 with "Plugin did not start in time" while the sandbox bank made its RSA keys. The keys are
 * now made beside start-up (the first signing request waits for them), and the timer is off in every app we build.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildSandboxBankApp } from '@openpis/sandbox-bank';
import { DEFAULT_AUTHENTICATION_ATTEMPTS, loadCatalogue } from '../../src/providers/catalogue.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startService } from '../helpers/processes.js';
import { waitUntil } from '../helpers/wait.js';
import { startupBanner } from '../../src/start-up-banner.js';

const sqlite = (await testDatabaseKinds()).find((kind) => kind.name === 'sqlite');

describe('start-up under load', () => {
  let t: TestApp;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
  });
  after(async () => t?.close());

  it('the service waits for its plugins however long they take (no plugin timeout)', () => {
    assert.equal(t.app.initialConfig.pluginTimeout, 0);
  });

  it('the stand-alone sandbox bank likewise, and its UK banks sign with their keys once made', async () => {
    const bank = buildSandboxBankApp({
      catalogue: loadCatalogue(undefined, 'http://127.0.0.1:1'),
      publicUrl: 'http://127.0.0.1:1',
      authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
    });
    try {
      assert.equal(bank.initialConfig.pluginTimeout, 0);
      await bank.ready();
      // Two banks, two keys of their own, served whole once made.
      const keys = await Promise.all(
        ['albion', 'pennine'].map(async (slug) => {
          const response = await bank.inject({ method: 'GET', url: `/uk/${slug}/jwks` });
          assert.equal(response.statusCode, 200);
          const [key] = response.json<{ keys: Array<{ kid: string; kty: string; n: string; d?: string }> }>().keys;
          assert.equal(key?.kty, 'RSA');
          assert.equal(key?.d, undefined, 'the public key only');
          return key?.kid;
        }),
      );
      assert.notEqual(keys[0], keys[1]);
    } finally {
      await bank.close();
    }
  });
});

describe('the start-up banner', () => {
  it('names the console, the sandbox banks with a test payer, and how to make the first operator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openpis-banner-'));
    const service = await startService({ DATABASE_URL: `sqlite:${join(dir, 'banner.sqlite')}` });
    try {
      // Printed in one write; the bound only keeps a broken start from hanging the test.
      await waitUntil('the whole banner', () => service.output().includes('--role operator'));
      const output = service.output();
      assert.match(output, new RegExp(`Console: +${service.url}/console`));
      assert.match(
        output,
        new RegExp(`Sandbox banks: +${service.url}/sandbox-bank \\(test payers, e\\.g\\. alice / password sandbox / code 123456`),
      );
      assert.match(output, /Create the first operator[^\n]*\n +npx openpis users create --email \S+ --name "[^"]+" --role operator/);
    } finally {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out what does not apply: the operator hint once there is one, the API and console in a worker', () => {
    const config = {
      baseUrl: 'https://pay.example',
      processRole: 'all' as const,
      database: { kind: 'postgres' as const, url: 'postgres://x' },
    };
    const withOperator = startupBanner({ config, metricsAddress: undefined, consoleUsers: 1, sandbox: undefined, demo: undefined });
    assert.match(withOperator, /Console: +https:\/\/pay\.example\/console/);
    assert.doesNotMatch(withOperator, /users create|Sandbox banks/);
    const worker = startupBanner({
      config: { ...config, processRole: 'worker' },
      metricsAddress: 'http://127.0.0.1:9464',
      consoleUsers: 0,
      sandbox: undefined,
      demo: undefined,
    });
    assert.doesNotMatch(worker, /Console|API reference|users create/);
    assert.match(worker, /Metrics: +http:\/\/127\.0\.0\.1:9464\/metrics/);
  });
});
