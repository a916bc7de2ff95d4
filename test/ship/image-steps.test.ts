/**
 * The container image, built and run without a container engine (none is on the machines this runs on): the
 * Dockerfile's steps (test/ship/image-steps.ts; container-files.test.ts keeps the two in step) on a clean copy of the
 * committed tree, the production install in a fresh folder holding only what the final stage copies, then the
 * compiled service from that folder as PROCESS_ROLE=api and PROCESS_ROLE=worker on PostgreSQL beside the stand-alone
 * sandbox bank, with the migrate step before them, as compose.yaml runs them; a payment is completed through them.
 *
 * Minutes of work (a full install, the build, a production install with better-sqlite3's native build), so it
 * runs only with OPENPIS_TEST_IMAGE_STEPS=1: `.ci/run` runs it as a step of its own after `npm test`. It tests the
 * committed tree (HEAD), not uncommitted changes. Every process listens on loopback; processes, the database and the
 * temporary folder are removed at the end, whatever happened.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { BUILD_STAGE, CLI_COMMAND, DEPENDENCIES_STAGE, FINAL_STAGE, ROLES, SERVICE_COMMAND, sandboxBankCommand } from './image-steps.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENABLED = process.env.OPENPIS_TEST_IMAGE_STEPS === '1';
/** Bounds: one install or build step; a process getting ready; the payment reaching its end. */
const STEP_TIMEOUT_MS = 8 * 60_000;
const READY_TIMEOUT_MS = 60_000;
const PAYMENT_TIMEOUT_MS = 60_000;
/** Hansa Direktbank Sandbox: embedded approach, so the test payer's credentials travel in the creation request. */
const HANSA = '495d948e-1ce8-45f5-b49a-4e988781ec0d';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** A Dockerfile RUN command, through a shell like Docker's, in `cwd`; npm reads its cache first (npm_config_prefer_offline). */
async function step(command: string, cwd: string, log?: (message: string) => void): Promise<void> {
  const started = Date.now();
  try {
    await run('sh', ['-c', command], {
      cwd,
      timeout: STEP_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} (in ${cwd}) failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`, { cause: error });
  }
  // How long each step took, in the test's output (not asserted): what the image build costs in CI.
  log?.(`${command}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

describe(
  'the container image, step by step',
  { skip: ENABLED ? false : 'set OPENPIS_TEST_IMAGE_STEPS=1 (.ci/run does)', timeout: 12 * 60_000 },
  () => {
    let folder: string;
    let image: string;
    let database: TestDatabase | undefined;
    const processes: ChildProcess[] = [];

    before(() => {
      folder = mkdtempSync(join(tmpdir(), 'openpis-image-'));
    });
    after(async () => {
      await Promise.all(
        processes.map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(killer);
        }),
      );
      await database?.drop();
      rmSync(folder, { recursive: true, force: true });
    });

    /** A process of the image (cwd: the final stage's folder) that is ready once `ready` appears in its output. */
    async function start(args: readonly string[], env: Record<string, string>, ready: RegExp): Promise<() => string> {
      const [command, ...rest] = args;
      assert.equal(command, 'node');
      const child = spawn(process.execPath, rest, {
        cwd: image,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      processes.push(child);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${args.join(' ')} was not ready in time:\n${output}`)), READY_TIMEOUT_MS);
        const check = (): void => {
          if (!ready.test(output)) return;
          clearTimeout(timer);
          resolve();
        };
        child.stdout?.on('data', check);
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`${args.join(' ')} exited (${code}):\n${output}`));
        });
      });
      return () => output;
    }

    it('builds the image from a clean copy of the committed tree, with production dependencies only in the final stage', async (context) => {
      const log = (message: string): void => context.diagnostic(message);
      const clone = join(folder, 'clone');
      mkdirSync(clone);
      await step(`git -C '${ROOT}' archive --format=tar HEAD | tar -x -C '${clone}'`, folder);

      // Stage 1: only what it copies, then its commands.
      const build = join(folder, 'build');
      for (const path of BUILD_STAGE.copies) cpSync(join(clone, path), join(build, path), { recursive: true });
      for (const command of BUILD_STAGE.commands) await step(command, build, log);
      assert.ok(existsSync(join(build, 'dist', 'server.js')));
      assert.ok(existsSync(join(build, 'dist', 'providers', 'sandbox-catalogue.json')), 'the data files the code reads beside itself');
      assert.ok(
        existsSync(join(build, 'packages', 'sandbox-bank', 'dist', 'shared', 'fixtures', 'test-payers.json')),
        "the sandbox banks' package, built with its data files",
      );

      // Stage 2: the manifests, the production install.
      const dependencies = join(folder, 'dependencies');
      for (const path of DEPENDENCIES_STAGE.copies) cpSync(join(clone, path), join(dependencies, path), { recursive: true });
      for (const command of DEPENDENCIES_STAGE.commands) await step(command, dependencies, log);

      // Stage 3: only what the final stage copies.
      image = join(folder, 'image');
      for (const path of FINAL_STAGE.fromClone) cpSync(join(clone, path), join(image, path), { recursive: true });
      for (const path of FINAL_STAGE.fromDependencies)
        cpSync(join(dependencies, path), join(image, path), { recursive: true, verbatimSymlinks: true });
      for (const path of FINAL_STAGE.fromBuild) cpSync(join(build, path), join(image, path), { recursive: true });

      for (const development of ['typescript', 'tsx', 'esbuild', '@types/node', 'playwright-core']) {
        assert.equal(
          existsSync(join(image, 'node_modules', development)),
          false,
          `${development} is a development dependency: not in the image`,
        );
      }
      for (const production of ['fastify', 'better-sqlite3', 'kysely', 'pg'])
        assert.ok(existsSync(join(image, 'node_modules', production)), production);
      assert.equal(existsSync(join(image, 'src')), false);
      // The service imports the sandbox banks' package by name: the install's link finds its compiled code.
      assert.ok(existsSync(join(image, 'node_modules', '@openpis', 'sandbox-bank', 'dist', 'index.js')), "the sandbox banks' package");
      assert.equal(existsSync(join(image, 'packages', 'sandbox-bank', 'src')), false);
    });

    it('runs the compiled service as an API and a worker on PostgreSQL beside the stand-alone sandbox bank, and completes a payment through them', async (context) => {
      assert.ok(image !== undefined && existsSync(join(image, 'dist')), 'the image was built (previous test)');
      const kind = (await testDatabaseKinds()).find((candidate) => candidate.name === 'postgres');
      if (kind === undefined) {
        context.skip('PostgreSQL is not reachable (OPENPIS_REQUIRE_POSTGRES=1 makes that a failure)');
        return;
      }
      database = await kind.create();
      assert.equal(database.config.kind, 'postgres');
      const databaseUrl = database.config.kind === 'postgres' ? database.config.url : '';

      const bankPort = await freePort();
      const bankUrl = `http://127.0.0.1:${bankPort}`;
      const operatorToken = randomBytes(24).toString('base64url');
      await start(
        sandboxBankCommand('127.0.0.1', bankPort, bankUrl),
        { SANDBOX_OPERATOR_TOKEN: operatorToken, LOG_LEVEL: 'warn' },
        /Sandbox bank listening/,
      );

      const apiPort = await freePort();
      const baseUrl = `http://127.0.0.1:${apiPort}`;
      // What deploy/openpis.env gives every process (SECRET_SETTINGS), on loopback.
      const settings = {
        DATABASE_URL: databaseUrl,
        SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        SANDBOX_OPERATOR_TOKEN: operatorToken,
        BASE_URL: baseUrl,
        SANDBOX_BANK_URL: bankUrl,
        HOST: '127.0.0.1',
        METRICS_PORT: 'off',
        LOG_LEVEL: 'warn',
        CREATE_DEMO_CLIENT: 'false',
      };
      const cli = async (...args: string[]): Promise<string> => {
        const [, ...rest] = CLI_COMMAND;
        const { stdout } = await run(process.execPath, [...rest, ...args], {
          cwd: image,
          env: { PATH: process.env.PATH ?? '', ...settings },
          timeout: 60_000,
        });
        return stdout;
      };

      // compose.yaml's migrate step first; then one process per role.
      assert.match(await cli('migrate'), /Applied: 0001_/);
      const ports: Record<(typeof ROLES)[number], number> = { api: apiPort, worker: await freePort() };
      const outputs: Array<() => string> = [];
      for (const role of ROLES) {
        outputs.push(await start(SERVICE_COMMAND, { ...settings, PORT: String(ports[role]), PROCESS_ROLE: role }, /openpis is listening/));
      }
      // The image's HEALTHCHECK: /readyz of each process.
      for (const role of ROLES) assert.equal((await fetch(`http://127.0.0.1:${ports[role]}/readyz`)).status, 200, role);
      assert.match(outputs[0]?.() ?? '', /Role: +API only/);
      assert.match(outputs[1]?.() ?? '', /Role: +workers only/);

      const client = JSON.parse(await cli('clients', 'create', '--name', 'image-steps', '--json')) as {
        clientId: string;
        clientSecret: string;
      };
      const tokenAnswer = await fetch(`${baseUrl}/api/v1/auth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      assert.equal(tokenAnswer.status, 200);
      const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
      const authorised = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

      // A page of the compiled service (templates, translations, the sandbox catalogue's banks), and the API reference
      // served from the production dependencies.
      const hosted = await fetch(`${baseUrl}/api/v1/ob/payments`, {
        method: 'POST',
        headers: authorised,
        body: JSON.stringify(paymentRequest()),
      });
      assert.equal(hosted.status, 201);
      const { redirectUrl } = (await hosted.json()) as { redirectUrl: string };
      const page = await fetch(redirectUrl);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await page.text(), /Hansa Direktbank Sandbox/);
      assert.equal((await fetch(`${baseUrl}/docs/`)).status, 200);

      // A payment the worker drives to its end at the stand-alone sandbox bank (test payer dave, fixtures' password).
      const created = await fetch(`${baseUrl}/api/v1/ob/payments`, {
        method: 'POST',
        headers: authorised,
        body: JSON.stringify(paymentRequest({ provider: { id: HANSA }, sender: { credentials: { id: 'dave', password: 'sandbox' } } })),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const { paymentId } = (await created.json()) as { paymentId: string };
      let detailedStatus = '';
      const deadline = Date.now() + PAYMENT_TIMEOUT_MS;
      while (Date.now() < deadline) {
        const latest = await fetch(`${baseUrl}/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { headers: authorised });
        assert.equal(latest.status, 200);
        detailedStatus = ((await latest.json()) as { detailedStatus: string }).detailedStatus;
        if (detailedStatus === 'PAYMENT_EXECUTION_COMPLETED' || detailedStatus.startsWith('PAYMENT_EXECUTION_FAILED')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(
        detailedStatus,
        'PAYMENT_EXECUTION_COMPLETED',
        `the payment ended ${detailedStatus}\n${outputs.map((output) => output()).join('\n')}`,
      );

      // The sandbox bank's operator routes answer the token the processes were given (SANDBOX_OPERATOR_TOKEN).
      const faults = await fetch(`${bankUrl}/hansa/sandbox/faults`, { headers: { authorization: `Bearer ${operatorToken}` } });
      assert.equal(faults.status, 200);
    });
  },
);
