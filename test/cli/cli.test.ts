/**
 * The operator CLI's commands around the sandbox bank (a stand-alone bank, its fault rules, scenario payments). The
 * commands on a database are in database-commands.ts, a test file per database.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { PROCESS_BOUND_MS } from '../helpers/wait.js';

const run = promisify(execFile);

describe('openpis sandbox-bank', () => {
  it('runs the sandbox bank on its own port, speaking the Berlin Group API', async () => {
    const { spawn } = await import('node:child_process');
    const { freePort } = await import('../helpers/test-app.js');
    const port = await freePort();
    const child = spawn(process.execPath, [...CLI_ARGS, 'sandbox-bank', '--port', String(port)], {
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('sandbox bank did not start')), PROCESS_BOUND_MS);
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Sandbox bank listening')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      // A request without the standard's mandatory headers gets the standard's FORMAT_ERROR.
      const response = await fetch(`http://127.0.0.1:${port}/rheinland/v1/payments/sepa-credit-transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { tppMessages: { code: string }[] };
      assert.equal(body.tppMessages[0]?.code, 'FORMAT_ERROR');
      // The UK Open Banking banks beside them (docs/sandbox-bank-uk.md).
      const discovery = await fetch(`http://127.0.0.1:${port}/uk/albion/.well-known/openid-configuration`);
      assert.equal(discovery.status, 200);
      assert.equal(((await discovery.json()) as { issuer: string }).issuer, `http://localhost:${port}/uk/albion`);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serves the banks of its own catalogue file (--catalogue), not the built-in ones', async () => {
    const { startSandboxBankProcess } = await import('../helpers/processes.js');
    const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { freePort } = await import('../helpers/test-app.js');
    const directory = mkdtempSync(join(tmpdir(), 'openpis-sandbox-catalogue-'));
    const builtIn = JSON.parse(readFileSync('src/providers/sandbox-catalogue.json', 'utf8')) as {
      providers: { name: string; connector: { baseUrl: string } }[];
    };
    const rheinland = builtIn.providers.find((entry) => entry.connector.baseUrl === '{SANDBOX_BANK_URL}/rheinland');
    assert.ok(rheinland);
    const file = join(directory, 'banks.json');
    writeFileSync(
      file,
      JSON.stringify({
        providers: [{ ...rheinland, name: 'Lakeside Bank', connector: { ...rheinland.connector, baseUrl: '{SANDBOX_BANK_URL}/lakeside' } }],
      }),
    );
    const bank = await startSandboxBankProcess(await freePort(), ['--catalogue', file]);
    try {
      const initiate = (slug: string) =>
        fetch(`${bank.url}/${slug}/v1/payments/sepa-credit-transfers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
      const lakeside = await initiate('lakeside');
      assert.equal(lakeside.status, 400);
      assert.equal(((await lakeside.json()) as { tppMessages: { code: string }[] }).tppMessages[0]?.code, 'FORMAT_ERROR');
      assert.equal((await initiate('rheinland')).status, 404);
    } finally {
      await bank.stop();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('openpis sandbox faults', () => {
  it('adds, lists and clears fault rules of a stand-alone sandbox bank with the operator token; the bank refuses them without it', async () => {
    const { startSandboxBank } = await import('../helpers/processes.js');
    const token = 'operator-token-of-this-test-123';
    const bank = await startSandboxBank({ SANDBOX_OPERATOR_TOKEN: token });
    const faults = (...args: string[]) =>
      run(process.execPath, [...CLI_ARGS, 'sandbox', 'faults', ...args, '--url', bank.url], {
        env: { ...process.env, SANDBOX_OPERATOR_TOKEN: token, LOG_LEVEL: 'silent' },
      });
    try {
      assert.equal((await fetch(`${bank.url}/hansa/sandbox/faults`)).status, 401);
      const rule = '{"operations":["initiatePayment"],"fault":{"kind":"error","status":503},"times":2}';
      const added = JSON.parse((await faults('add', '--bank', 'hansa', '--rule', rule, '--json')).stdout) as { id: string; bank: string };
      assert.equal(added.bank, 'hansa');
      const listed = JSON.parse((await faults('list', '--bank', 'hansa', '--json')).stdout) as { faults: Array<{ id: string }> };
      assert.deepEqual(
        listed.faults.map((entry) => entry.id),
        [added.id],
      );

      // Without --json, text for people: what was added, and a table of the rules.
      const addedText = (await faults('add', '--bank', 'hansa', '--rule', '{"psuId":"dave","fault":{"kind":"delay","delayMs":1500}}'))
        .stdout;
      assert.match(addedText, /^Fault rule [0-9a-f-]{36} added at hansa: delay 1500 ms, every operation, payer dave, every call\n$/);
      const table = (await faults('list', '--bank', 'hansa')).stdout.split('\n');
      assert.match(table[0] ?? '', /^ID +OPERATIONS +PAYER +FAULT +LEFT$/);
      assert.match(table[1] ?? '', new RegExp(`^${added.id} +initiatePayment +\\(any\\) +error 503 +2$`));
      assert.match(table[2] ?? '', /^[0-9a-f-]{36} +\(every\) +dave +delay 1500 ms +\(always\)$/);

      assert.match((await faults('clear', '--bank', 'hansa')).stdout, /cleared/);
      assert.deepEqual((JSON.parse((await faults('list', '--bank', 'hansa', '--json')).stdout) as { faults: unknown[] }).faults, []);
      assert.equal((await faults('list', '--bank', 'hansa')).stdout, 'No fault rules at hansa.\n');
      // A UK Open Banking bank, by its path under the sandbox (uk/<slug>), with its own operations.
      const ukAdded = JSON.parse(
        (
          await faults(
            'add',
            '--bank',
            'uk/albion',
            '--rule',
            '{"operations":["createDomesticPayment"],"fault":{"kind":"error","status":503}}',
            '--json',
          )
        ).stdout,
      ) as { id: string; bank: string };
      assert.equal(ukAdded.bank, 'albion');
      assert.deepEqual(
        (JSON.parse((await faults('list', '--bank', 'uk/albion', '--json')).stdout) as { faults: Array<{ id: string }> }).faults.map(
          (rule) => rule.id,
        ),
        [ukAdded.id],
      );
      assert.match((await faults('clear', '--bank', 'uk/albion')).stdout, /cleared/);
      // Without the token the command says what is missing.
      await assert.rejects(
        run(process.execPath, [...CLI_ARGS, 'sandbox', 'faults', 'list', '--bank', 'hansa', '--url', bank.url], {
          env: { ...process.env, SANDBOX_OPERATOR_TOKEN: '' },
        }),
        (error: { stderr: string }) => /SANDBOX_OPERATOR_TOKEN/.test(error.stderr),
      );
    } finally {
      await bank.stop();
    }
  });

  it('without --url reaches the embedded sandbox bank at the configured BASE_URL (from PORT), and says so clearly when nothing answers there', async () => {
    const { freePort } = await import('../helpers/test-app.js');
    const port = await freePort();
    // A stand-in for the service's embedded sandbox bank at PORT: it answers the operator's list.
    const requests: string[] = [];
    const stand = createServer((request, response) => {
      requests.push(`${request.method} ${request.url} ${request.headers.authorization}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"faults":[]}');
    });
    await new Promise<void>((resolve) => stand.listen(port, '127.0.0.1', resolve));
    const env = {
      ...process.env,
      SANDBOX_OPERATOR_TOKEN: 'operator-token-of-this-test-123',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      BASE_URL: '',
      SANDBOX_BANK_URL: '',
    };
    try {
      const { stdout } = await run(process.execPath, [...CLI_ARGS, 'sandbox', 'faults', 'list', '--bank', 'hansa'], { env });
      assert.equal(stdout, 'No fault rules at hansa.\n');
      assert.deepEqual(requests, ['GET /sandbox-bank/hansa/sandbox/faults Bearer operator-token-of-this-test-123']);
    } finally {
      await new Promise((resolve) => stand.close(resolve));
    }
    // Nothing listens there now: one clear line, exit status 1, no stack trace.
    await assert.rejects(
      run(process.execPath, [...CLI_ARGS, 'sandbox', 'faults', 'list', '--bank', 'hansa'], { env }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.equal(
          error.stderr,
          `The sandbox bank at http://localhost:${port}/sandbox-bank does not answer (ECONNREFUSED): is the service running? Give --url, or set SANDBOX_BANK_URL, BASE_URL or PORT as the service has them.\n`,
        );
        return true;
      },
    );
  });

  it('trigger without --url calls the service at the configured BASE_URL (from PORT), and says so clearly when nothing answers there', async () => {
    const { freePort } = await import('../helpers/test-app.js');
    const port = await freePort();
    const folder = mkdtempSync(join(tmpdir(), 'openpis-trigger-'));
    const env = {
      ...process.env,
      DATABASE_URL: `sqlite:${join(folder, 'openpis.sqlite')}`,
      SECRET_KEYS: TEST_SECRET_KEYS,
      LOG_LEVEL: 'silent',
      PORT: String(port),
      BASE_URL: '',
      SANDBOX_BANK_URL: '',
    };
    try {
      await run(process.execPath, [...CLI_ARGS, 'clients', 'create', '--name', 'trial'], { env });
      await assert.rejects(
        run(process.execPath, [...CLI_ARGS, 'trigger', 'completed'], { env }),
        (error: { code: number; stderr: string }) => {
          assert.equal(error.code, 1);
          assert.match(
            error.stderr,
            new RegExp(`^The service at http://localhost:${port} does not answer \\(is it running\\? set BASE_URL or --url\\)`),
          );
          assert.doesNotMatch(error.stderr, /\n\s+at /);
          return true;
        },
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
