/**
 * The SDK README's code runs as written: the quick start against the real service (an in-process app with its
 * workers and the embedded sandbox bank), and the Fastify webhook receiver against webhooks delivered by the
 * service's own delivery code. Each block is taken from the README by the marker comment above it, with only the
 * package import pointed at the SDK's sources.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { waitUntil } from '../helpers/wait.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { freePort, startTestApp, type TestApp } from '../helpers/test-app.js';
import { deliverWebhook } from '../../src/webhooks/deliver.js';
import { paymentStatusWebhookBody } from '../../src/webhooks/payload.js';
import { generateWebhookSecret } from '../../src/webhooks/signature.js';
import { createWebhookDispatcher } from '../../src/webhooks/ssrf-guard.js';

const packageDir = new URL('../../packages/sdk/', import.meta.url).pathname;
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const sdkSource = pathToFileURL(join(packageDir, 'src/index.ts')).href;

/** The fenced block right after `<!-- <marker>… -->`, as the README has it. */
function readmeBlockAsWritten(marker: string): string {
  const match = new RegExp(`<!-- ${marker}[^>]*-->\\n\`\`\`js\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  assert.ok(match?.[1] !== undefined, `README block ${marker} not found`);
  assert.match(match[1], /from '@openpis\/sdk'/);
  return match[1];
}

/** The same block with its package import pointed at the sources. */
function readmeBlock(marker: string): string {
  return readmeBlockAsWritten(marker).replaceAll("from '@openpis/sdk'", `from '${sdkSource}'`);
}

/** Runs a README block as a module (in a folder inside the package, so its imports resolve as a user's would). */
function runBlock(
  directory: string,
  name: string,
  code: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  const file = join(directory, `${name}.mjs`);
  writeFileSync(file, code);
  const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function exitOf(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('the README code did not finish in time'));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

const [sqlite] = await testDatabaseKinds();

describe('SDK README', () => {
  let directory: string;
  before(() => {
    directory = mkdtempSync(join(packageDir, '.test-build-'));
  });
  after(() => rmSync(directory, { recursive: true, force: true }));

  it('the quick start compiles as strict TypeScript (saved as quickstart.mts), its import as written', async () => {
    const folder = mkdtempSync(join(directory, 'typescript-'));
    writeFileSync(join(folder, 'quickstart.mts'), readmeBlockAsWritten('quick-start'));
    // A user's strict project; `@openpis/sdk` resolves to the SDK's sources instead of an installed build.
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          types: ['node'],
          skipLibCheck: true,
          paths: { '@openpis/sdk': [join(packageDir, 'src/index.ts')] },
        },
        files: ['quickstart.mts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const compiled = spawnSync(process.execPath, [tsc, '-p', join(folder, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(compiled.status, 0, `${compiled.stdout}${compiled.stderr}`);
  });

  describe('the quick start against the real service', () => {
    let service: TestApp;
    before(async () => {
      assert.ok(sqlite !== undefined);
      service = await startTestApp(sqlite, { workers: true, env: { WORKER_POLL_INTERVAL_MS: '50', BANK_STATUS_POLL_BASE_MS: '100' } });
    });
    after(() => service.close());

    it('creates a payment with the sandbox test payer and waits until it is COMPLETED', async () => {
      const client = await service.createClient({ name: 'quick start' });
      const run = runBlock(directory, 'quickstart', readmeBlock('quick-start'), {
        OPENPIS_URL: service.baseUrl,
        OPENPIS_CLIENT_ID: client.clientId,
        OPENPIS_CLIENT_SECRET: client.clientSecret,
      });
      const code = await exitOf(run.child, 80_000);
      assert.equal(code, 0, run.output());
      const paymentId = /Payment (\S+) created; a payer would now be sent to http:\/\/127\.0\.0\.1:\d+\/pay\//.exec(run.output())?.[1];
      assert.ok(paymentId !== undefined, run.output());
      assert.match(run.output(), /Final status: COMPLETED PAYMENT_EXECUTION_COMPLETED/);
      // The service agrees: the payment is this client's and completed.
      const token = await client.token();
      const payment = (await (await service.request(`/api/v1/ob/payments/${paymentId}`, { token })).json()) as { status: string };
      assert.equal(payment.status, 'COMPLETED');
    });
  });

  describe('the Fastify webhook receiver', () => {
    const secret = generateWebhookSecret();
    const dispatcher = createWebhookDispatcher({ allowPrivateTargets: true });
    let receiver: ReturnType<typeof runBlock>;
    let url: string;
    before(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}/webhooks`;
      receiver = runBlock(directory, 'fastify-webhooks', readmeBlock('webhook-fastify'), {
        OPENPIS_WEBHOOK_SECRET: secret,
        PORT: String(port),
      });
      await waitUntil('the receiver to listen', () => receiver.output().includes('listening'));
    });
    after(async () => {
      receiver.child.kill();
      await dispatcher.close();
    });

    const body = paymentStatusWebhookBody({
      paymentId: randomUUID(),
      endToEndId: 'order-7',
      statusId: randomUUID(),
      detailedStatus: 'PAYMENT_EXECUTION_COMPLETED',
      failureReasons: null,
      createdAt: new Date(),
    });
    const deliver = (secrets: string[], now = new Date(), eventId = randomUUID()) =>
      deliverWebhook({ url, eventId, body, secrets, now, dispatcher, timeoutMs: 5000 });

    it('accepts a webhook exactly as the service sends it, and during a secret rotation', async () => {
      const eventId = randomUUID();
      const delivered = await deliver([secret], new Date(), eventId);
      assert.equal(delivered.outcome, 'delivered', delivered.error);
      const paymentId = (JSON.parse(body) as { data: { paymentId: string } }).data.paymentId;
      await waitUntil('the receiver to log the event', () => receiver.output().includes(`webhook ${eventId} ${paymentId} COMPLETED`));
      // New secret first, the receiver's (previous) one second: still verified.
      assert.equal((await deliver([generateWebhookSecret(), secret])).outcome, 'delivered');
    });

    it('refuses with 400 a webhook signed with another secret, or one whose timestamp is stale', async () => {
      const forged = await deliver([generateWebhookSecret()]);
      assert.equal(forged.statusCode, 400);
      const stale = await deliver([secret], new Date(Date.now() - 10 * 60_000));
      assert.equal(stale.statusCode, 400);
    });
  });
});
