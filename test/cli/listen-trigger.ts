/**
 * `openpis trigger` and `openpis listen` against a running service (an in-process app with its workers and the
 * embedded sandbox bank) sharing its database with the CLI, as on a developer's machine; and the output rules of
 * the CLI (tables with headers, ids checked, JSON bodies as JSON). Each test file beside this one
 * (listen-trigger-*.test.ts) runs them on one database.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { waitUntil } from '../helpers/wait.js';
import { testDatabaseKind, type TestDatabaseKind } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { CLI_ARGS } from '../helpers/cli.js';

const run = promisify(execFile);

function databaseUrl(config: TestApp['config']['database']): string {
  return config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url;
}

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook receiver on loopback recording what arrives; answers with the scripted statuses first, then 204. */
async function startReceiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statuses.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received, server };
}

interface TriggerOutput {
  scenario: string;
  paymentId: string;
  clientId: string;
  status: string;
  detailedStatus: string;
  failureReasons: { code: string }[] | null;
  reachedExpectedOutcome: boolean;
  history: { status: string; detailedStatus: string }[];
}

/** Registers the tests on one database, PostgreSQL only when reachable. */
export async function describeListenAndTrigger(database: TestDatabaseKind['name']): Promise<void> {
  const kind = await testDatabaseKind(database);
  if (kind === undefined) return;
  describe(`openpis trigger and listen [${kind.name}]`, () => {
    let service: TestApp;
    let client: TestClient;
    let env: NodeJS.ProcessEnv;
    let scratch: string;
    const cli = async (...args: string[]) => (await run(process.execPath, [...CLI_ARGS, ...args], { env, timeout: 170_000 })).stdout;

    before(async () => {
      service = await startTestApp(kind, { workers: true, env: { WORKER_POLL_INTERVAL_MS: '50', BANK_STATUS_POLL_BASE_MS: '100' } });
      client = await service.createClient({ name: 'laptop shop' });
      env = {
        ...process.env,
        DATABASE_URL: databaseUrl(service.config.database),
        BASE_URL: service.baseUrl,
        SECRET_KEYS: TEST_SECRET_KEYS,
        LOG_LEVEL: 'silent',
      };
      scratch = mkdtempSync(join(tmpdir(), 'openpis-listen-'));
    });
    after(async () => {
      await service.close();
      rmSync(scratch, { recursive: true, force: true });
    });

    const expectations: Array<[string, string, string | undefined]> = [
      ['completed', 'COMPLETED', undefined],
      ['insufficient-funds', 'FAILED', 'INSUFFICIENT_FUNDS'],
      ['rejected', 'FAILED', 'BANK_REJECTED'],
      ['cancelled', 'FAILED', 'PSU_CANCELLED'],
      ['expired', 'FAILED', 'EXPIRED'],
      ['refunded', 'COMPLETED', undefined],
    ];
    for (const [scenario, status, failureCode] of expectations) {
      it(`trigger ${scenario}: a sandbox payment reaches ${failureCode ?? status} with no browser; its id and history are printed`, async () => {
        const output = JSON.parse(
          await cli('trigger', scenario, '--client', client.clientId, '--deadline-seconds', '1', '--json'),
        ) as TriggerOutput;
        assert.equal(output.scenario, scenario);
        assert.equal(output.clientId, client.clientId);
        assert.equal(output.status, status);
        assert.deepEqual(
          (output.failureReasons ?? []).map((reason) => reason.code),
          failureCode === undefined ? [] : [failureCode],
        );
        assert.equal(output.reachedExpectedOutcome, true);
        assert.equal(output.history.at(-1)?.detailedStatus, output.detailedStatus);
        assert.ok(output.history.length >= 2);
        // The service agrees, through the client's own view.
        const payment = (await (
          await service.request(`/api/v1/ob/payments/${output.paymentId}`, { token: await client.token() })
        ).json()) as { status: string };
        assert.equal(payment.status, status);
        if (scenario === 'refunded') {
          // The payment printed is the refund, completed, of a completed payment that lists it.
          const refunded = (await (
            await service.request(`/api/v1/ob/payments/${String((output as { refundOf?: string }).refundOf)}`, {
              token: await client.token(),
            })
          ).json()) as { status: string; refunds?: { paymentId: string; status: string }[] };
          assert.equal(refunded.status, 'COMPLETED');
          assert.deepEqual(refunded.refunds, [{ paymentId: output.paymentId, amount: 1, status: 'COMPLETED' }]);
        }
      });
    }

    it('refunds create: refunds a completed payment as its client through the running service, and says why it cannot', async () => {
      const paid = JSON.parse(await cli('trigger', 'completed', '--client', client.clientId, '--json')) as TriggerOutput;
      const refund = JSON.parse(
        await cli(
          'refunds',
          'create',
          '--payment',
          paid.paymentId,
          '--amount',
          '0.40',
          '--reference',
          'Refund order 7',
          '--end-to-end-id',
          `cli-refund-${paid.paymentId}`,
          '--redirect-uri',
          'http://localhost/refunds',
          '--json',
        ),
      ) as { paymentId: string; refundOf: string; amount: number; status: string; redirectUrl: string };
      assert.equal(refund.refundOf, paid.paymentId);
      assert.equal(refund.amount, 0.4);
      assert.equal(refund.status, 'PENDING');
      const text = await cli(
        'refunds',
        'create',
        '--payment',
        paid.paymentId,
        '--reference',
        'Refund order 7',
        '--end-to-end-id',
        `cli-rest-${paid.paymentId}`,
        '--redirect-uri',
        'http://localhost/refunds',
      );
      assert.match(
        text,
        new RegExp(`^Refund [0-9a-f-]{36} of payment ${paid.paymentId}: 0.6 EUR, PENDING\nThe merchant's approver authorises it at: http`),
      );
      await assert.rejects(
        cli(
          'refunds',
          'create',
          '--payment',
          paid.paymentId,
          '--reference',
          'More',
          '--end-to-end-id',
          `cli-more-${paid.paymentId}`,
          '--redirect-uri',
          'http://localhost/r',
        ),
        (error: { stderr: string }) => /answered 409: .*REFUND_EXCEEDS_REMAINING: 0\.00 EUR is left/.test(error.stderr),
      );
    });

    it('trigger prints the payment and its history as a table for people; refuses bad input clearly', async () => {
      const text = await cli('trigger', 'completed', '--client', client.clientId);
      assert.match(
        text,
        /^Payment [0-9a-f-]{36} \(trigger-completed-\w+\) at Hansa Direktbank Sandbox, test payer dave: COMPLETED PAYMENT_EXECUTION_COMPLETED\n/,
      );
      assert.match(text, /\nCREATED +STATUS +DETAILED STATUS +FAILURE\n/);
      assert.match(text, /PAYMENT_EXECUTION_COMPLETED\s*$/);
      await assert.rejects(cli('trigger', 'paid-twice', '--client', client.clientId), (error: { stderr: string }) =>
        /value 'paid-twice' is invalid for argument 'scenario'/.test(error.stderr),
      );
      await assert.rejects(cli('trigger', 'completed', '--client', 'acme'), (error: { stderr: string }) =>
        /--client must be a UUID/.test(error.stderr),
      );
      const production = await service.createClient({ name: 'live', environment: 'production' });
      await assert.rejects(cli('trigger', 'completed', '--client', production.clientId), (error: { stderr: string }) =>
        /sandbox payments only/.test(error.stderr),
      );
    });

    it('listen forwards each event signed exactly as a webhook, keeps its position across restarts and stops on SIGINT', async () => {
      const receiver = await startReceiver([503]);
      const positionFile = join(scratch, `${kind.name}.json`);
      const start = (): { child: ChildProcess; output: () => string } => {
        const child = spawn(
          process.execPath,
          [
            ...CLI_ARGS,
            'listen',
            '--client',
            client.clientId,
            '--forward-to',
            receiver.url,
            '--position-file',
            positionFile,
            '--poll-interval-ms',
            '100',
            '--json',
          ],
          { env, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        return { child, output: () => output };
      };
      const stop = async (listener: { child: ChildProcess }): Promise<number | null> => {
        const exited = new Promise<number | null>((resolve) => listener.child.once('exit', (code) => resolve(code)));
        listener.child.kill('SIGINT');
        return exited;
      };
      const token = await client.token();
      const createPayment = async (): Promise<string> => {
        const response = await service.request('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest() });
        assert.equal(response.status, 201);
        return ((await response.json()) as { paymentId: string }).paymentId;
      };
      try {
        // First run: no position file, so only events from now on (the triggers above are history).
        const first = start();
        await waitUntil('listen to start', () => first.output().includes('"listening":true'));
        const paymentId = await createPayment();
        // The receiver's first answer is 503: the event is offered again, as the service would retry it.
        await waitUntil('the event to be forwarded again after a 503', () => receiver.received.length >= 2);
        assert.equal(await stop(first), 0, first.output());
        assert.match(first.output(), /"stopped":true/);

        const events = await service.database.db
          .selectFrom('events')
          .selectAll()
          .where('subject_id', '=', paymentId)
          .orderBy('position')
          .execute();
        assert.equal(events.length, 1, 'a hosted payment starts with one status');
        const [event] = events;
        assert.ok(event !== undefined);
        const verifier = new Webhook(client.webhookSecret);
        for (const delivery of receiver.received) {
          assert.equal(delivery.headers['webhook-id'], event.id, 'webhook-id is the event id');
          assert.equal(delivery.body, event.body, 'the body bytes are the event’s');
          assert.equal(delivery.headers['content-type'], 'application/json');
          assert.match(delivery.headers['user-agent'] ?? '', /^openpis-webhooks\//);
          const verified = verifier.verify(delivery.body, delivery.headers as Record<string, string>) as { data: { paymentId: string } };
          assert.equal(verified.data.paymentId, paymentId);
        }
        assert.deepEqual(JSON.parse(readFileSync(positionFile, 'utf8')), { position: event.position });

        // Second run resumes after the kept position: what happened while it was down arrives, nothing twice.
        const whileDown = await createPayment();
        const second = start();
        await waitUntil('the event written while listen was down', () =>
          receiver.received.some((delivery) => delivery.body.includes(whileDown)),
        );
        assert.equal(await stop(second), 0, second.output());
        assert.equal(
          receiver.received.filter((delivery) => delivery.headers['webhook-id'] === event.id).length,
          2,
          'the first event is not sent again',
        );
      } finally {
        receiver.server.close();
      }
    });

    it('listen changes nothing for the service: its webhooks still refuse loopback targets', async () => {
      const response = await service.request('/api/v1/ob/payments', {
        method: 'POST',
        token: await client.token(),
        json: paymentRequest({ metadata: { ...(paymentRequest().metadata as object), webhookUrl: 'https://127.0.0.1:3000/webhooks' } }),
      });
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { message: string }).message, /metadata\.webhookUrl must point to a public address/);
    });

    it('clients list is a table with headers; ids are checked; webhooks list --json shows bodies as JSON', async () => {
      const text = await cli('clients', 'list');
      const [header, ...rows] = text.trimEnd().split('\n');
      assert.match(header ?? '', /^CLIENT ID +ENVIRONMENT +STATE +CREATED +SCOPES +NAME$/);
      assert.ok(rows.some((row) => row.startsWith(client.clientId) && row.endsWith('laptop shop')));
      const nameColumn = (header ?? '').indexOf('NAME');
      assert.ok(
        rows.every((row) => row.length >= nameColumn),
        'columns are aligned under their headers',
      );
      await assert.rejects(cli('clients', 'disable', 'not-an-id'), (error: { stderr: string }) =>
        /clientId must be a UUID/.test(error.stderr),
      );
      await assert.rejects(cli('webhooks', 'redeliver', '42'), (error: { stderr: string }) => /eventId must be a UUID/.test(error.stderr));

      const withHook = paymentRequest({
        metadata: { ...(paymentRequest().metadata as object), webhookUrl: 'https://receiver.example/webhooks' },
      });
      const created = (await (
        await service.request('/api/v1/ob/payments', { method: 'POST', token: await client.token(), json: withHook })
      ).json()) as { paymentId: string };
      const listed = JSON.parse(await cli('webhooks', 'list', '--payment', created.paymentId, '--json')) as Array<{
        body: { type: string; data: { paymentId: string } };
      }>;
      assert.equal(listed[0]?.body.type, 'payment.status.updated');
      assert.equal(listed[0]?.body.data.paymentId, created.paymentId);
    });
  });
}
