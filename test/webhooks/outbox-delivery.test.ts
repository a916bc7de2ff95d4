/**
 * The webhook outbox end to end: status records written through the real app and the state store, delivered by
 * the delivery worker to a local HTTPS receiver that verifies every request with the `standardwebhooks` package
 * (the library a client would use).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import type { DetailedStatus } from '../../src/domain/detailed-status.js';
import { createBackgroundWorkers, type BackgroundWorkers } from '../../src/background-workers.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { waitFor } from '../helpers/wait.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { createTestPkiWithCaFile, startReceiver, type ReceivedRequest, type TestReceiver } from './https-receiver.js';
import { SecretBox } from '../../src/crypto/secret-box.js';

interface EventBody {
  type: string;
  timestamp: string;
  data: {
    paymentId: string;
    endToEndId: string;
    statusId: string;
    status: string;
    detailedStatus: string;
    failureReasons: unknown;
    createdAt: string;
    refundOf?: string;
  };
}

const pki = createTestPkiWithCaFile();
const { caFile } = pki;
after(() => pki.remove());

for (const kind of await testDatabaseKinds()) {
  describe(`webhook outbox delivery [${kind.name}]`, () => {
    let t: TestApp;
    let client: TestClient;
    let token: string;
    let workers: BackgroundWorkers;
    let receiver: TestReceiver;
    let store: PaymentStateStore;
    let outbox: WebhookOutbox;

    before(async () => {
      t = await startTestApp(kind, {
        env: {
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_CA_FILE: caFile,
          // 5 s, 5 min, 30 min … become 1 ms, 60 ms, 360 ms …: the whole schedule in seconds.
          WEBHOOK_RETRY_SCALE: '0.0002',
          // Long enough for any answer on a loaded machine; the timeout test's receiver never answers at all.
          WEBHOOK_TIMEOUT_MS: '5000',
          WORKER_POLL_INTERVAL_MS: '20',
        },
      });
      client = await t.createClient();
      token = await client.token();
      receiver = await startReceiver(pki);
      store = new PaymentStateStore(t.database.db, new SecretBox(t.config.secretKeys));
      outbox = new WebhookOutbox(t.database.db, t.database.kind, new SecretBox(t.config.secretKeys));
      workers = createBackgroundWorkers({ config: t.config, database: t.database, logger: t.app.log, jobHandlers: {} });
      workers.start();
    });
    after(async () => {
      await workers.stop();
      await receiver.close();
      await t.close();
    });

    async function createPayment(path: string): Promise<string> {
      const request = paymentRequest();
      (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}${path}`;
      const response = await t.request('/api/v1/ob/payments', { method: 'POST', token, json: request });
      assert.equal(response.status, 201);
      return ((await response.json()) as { paymentId: string }).paymentId;
    }

    async function move(paymentId: string, ...statuses: DetailedStatus[]): Promise<void> {
      const payment = await store.load(paymentId);
      assert.ok(payment);
      const result = await store.transition({ payment, path: statuses.map((status) => ({ status })) });
      assert.equal(result.kind, 'applied');
    }

    const deliveredTo = (path: string): ReceivedRequest[] => receiver.requests.filter((request) => request.path === path);

    function verify(request: ReceivedRequest, secret: string): EventBody {
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      return new Webhook(secret).verify(request.body, headers) as EventBody;
    }

    it('sends one signed event per status record, in order, with the specified body', async () => {
      receiver.routes.set('/ok', (_request, response) => response.writeHead(204).end());
      const paymentId = await createPayment('/ok');
      await move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING', 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
      await move(paymentId, 'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING');
      await waitFor('four deliveries', () => (deliveredTo('/ok').length >= 4 ? true : undefined));

      const history = (await (await t.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token })).json()) as {
        id: string;
        detailedStatus: string;
        status: string;
        createdAt: string;
        failureReasons: unknown;
      }[];
      const bodies = deliveredTo('/ok').map((request) => verify(request, client.webhookSecret));
      assert.equal(bodies.length, history.length);
      bodies.forEach((body, index) => {
        const record = history[index];
        assert.ok(record);
        assert.deepEqual(Object.keys(body), ['type', 'timestamp', 'data']);
        assert.equal(body.type, 'payment.status.updated');
        assert.deepEqual(body.data, {
          paymentId,
          endToEndId: body.data.endToEndId,
          statusId: record.id,
          status: record.status,
          detailedStatus: record.detailedStatus,
          failureReasons: null,
          createdAt: record.createdAt,
        });
        assert.match(body.data.endToEndId, /^e2e-/);
      });
      const ids = deliveredTo('/ok').map((request) => request.headers['webhook-id']);
      assert.equal(new Set(ids).size, ids.length, 'one webhook-id per status record');
      assert.equal(deliveredTo('/ok')[0]?.headers['content-type'], 'application/json');
    });

    it("a refund's webhooks carry refundOf, signed like every payment's; the refunded payment gets none", async () => {
      receiver.routes.set('/refunds', (_request, response) => response.writeHead(204).end());
      const original = storedPaymentRow(client.clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        webhook_url: `${receiver.origin}/refunds`,
        payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' }),
      });
      await t.database.db.insertInto('payments').values(original).execute();
      const response = await t.request(`/api/v1/ob/payments/${original.id}/refunds`, {
        method: 'POST',
        token,
        json: {
          reference: 'Refund order 1001',
          metadata: {
            redirectUri: 'https://merchant.example/r',
            endToEndId: `refund-${original.id}`,
            webhookUrl: `${receiver.origin}/refunds`,
          },
        },
      });
      assert.equal(response.status, 201);
      const refundId = ((await response.json()) as { paymentId: string }).paymentId;
      await move(refundId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING');
      await waitFor('two deliveries', () => (deliveredTo('/refunds').length >= 2 ? true : undefined));
      const bodies = deliveredTo('/refunds').map((request) => verify(request, client.webhookSecret));
      assert.deepEqual(
        bodies.map((body) => [body.data.paymentId, body.data.detailedStatus, body.data.refundOf]),
        [
          [refundId, 'PROVIDER_SELECTION_REDIRECT_PENDING', original.id],
          [refundId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING', original.id],
        ],
      );
      assert.deepEqual(Object.keys(bodies[0]?.data ?? {}), [
        'paymentId',
        'endToEndId',
        'statusId',
        'status',
        'detailedStatus',
        'failureReasons',
        'createdAt',
        'refundOf',
      ]);
    });

    it('retries after 500s and timeouts, keeping later events of the payment behind the failing one', async () => {
      let calls = 0;
      const unanswered: Array<() => void> = [];
      receiver.routes.set('/flaky', (_request, response) => {
        calls += 1;
        if (calls === 1) response.writeHead(500).end();
        // No answer until the test ends: only the timeout can end this attempt.
        else if (calls === 2) unanswered.push(() => response.destroy());
        else response.writeHead(200).end();
      });
      const paymentId = await createPayment('/flaky');
      await move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING');
      const events = await waitFor('both events delivered', async () => {
        const list = await outbox.listForSubject(paymentId);
        return list.length === 2 && list.every((event) => event.state === 'delivered') ? list : undefined;
      });
      const [first, second] = events;
      assert.ok(first && second);
      assert.deepEqual(
        first.attemptLog.map((attempt) => attempt.outcome),
        ['retry', 'retry', 'delivered'],
      );
      assert.equal(first.attemptLog[0]?.statusCode, 500);
      assert.match(first.attemptLog[1]?.error ?? '', /no response within 5000 ms/);
      unanswered.forEach((release) => release());
      assert.equal(second.attempts, 1);
      assert.ok(
        (second.attemptLog[0]?.attemptedAt ?? '') >= (first.attemptLog[2]?.attemptedAt ?? 'z'),
        'the second event waited for the first',
      );
      // Every attempt carries the same webhook-id: receivers deduplicate on it.
      const firstIds = deliveredTo('/flaky')
        .slice(0, 3)
        .map((request) => request.headers['webhook-id']);
      assert.equal(new Set(firstIds).size, 1);
    });

    it('recovers after the receiver was down for a while', async () => {
      const down = await startReceiver(pki);
      const port = down.port;
      await down.close();
      const request = paymentRequest();
      (request.metadata as Record<string, unknown>).webhookUrl = `https://127.0.0.1:${port}/back`;
      const response = await t.request('/api/v1/ob/payments', { method: 'POST', token, json: request });
      const { paymentId } = (await response.json()) as { paymentId: string };
      await waitFor('two failed attempts', async () =>
        ((await outbox.listForSubject(paymentId))[0]?.attempts ?? 0) >= 2 ? true : undefined,
      );
      const { createServer } = await import('node:https');
      const bodies: string[] = [];
      const server = createServer({ key: pki.serverKey, cert: pki.serverCertificate }, (req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          bodies.push(body);
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      try {
        const [event] = await waitFor('delivery after recovery', async () => {
          const list = await outbox.listForSubject(paymentId);
          return list[0]?.state === 'delivered' ? list : undefined;
        });
        assert.ok(event);
        assert.ok(event.attemptLog.slice(0, -1).every((attempt) => attempt.outcome === 'retry' && attempt.statusCode === null));
        assert.equal(bodies.length, 1);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('stops deliveries for a payment once the receiver answers 410', async () => {
      receiver.routes.set('/gone', (_request, response) => response.writeHead(410).end());
      const paymentId = await createPayment('/gone');
      await waitFor('the 410', async () => ((await outbox.listForSubject(paymentId))[0]?.state === 'gone' ? true : undefined));
      await move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING', 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const events = await outbox.listForSubject(paymentId);
      assert.deepEqual(
        events.map((event) => event.state),
        ['gone', 'gone', 'gone'],
      );
      assert.equal(deliveredTo('/gone').length, 1);
    });

    it('signs with both secrets during a rotation, so either verifies', async () => {
      const rotating = await t.createClient();
      const rotatingToken = await rotating.token();
      const { webhookSecret } = await t.clients.rotateWebhookSecret(rotating.clientId, 3600);
      receiver.routes.set('/rotating', (_request, response) => response.writeHead(200).end());
      const request = paymentRequest();
      (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}/rotating`;
      assert.equal((await t.request('/api/v1/ob/payments', { method: 'POST', token: rotatingToken, json: request })).status, 201);
      const delivery = await waitFor('the delivery', () => deliveredTo('/rotating')[0]);
      assert.equal(String(delivery.headers['webhook-signature']).split(' ').length, 2);
      assert.doesNotThrow(() => verify(delivery, rotating.webhookSecret));
      assert.doesNotThrow(() => verify(delivery, webhookSecret));
      assert.throws(() => verify(delivery, client.webhookSecret));
    });

    it('redelivers an event on request with the same webhook-id', async () => {
      receiver.routes.set('/again', (_request, response) => response.writeHead(200).end());
      const paymentId = await createPayment('/again');
      const [event] = await waitFor('the delivery', async () => {
        const list = await outbox.listForSubject(paymentId);
        return list[0]?.state === 'delivered' ? list : undefined;
      });
      assert.ok(event);
      assert.equal(await outbox.redeliver(event.eventId), true);
      await waitFor('the redelivery', () => (deliveredTo('/again').length === 2 ? true : undefined));
      const [firstId, secondId] = deliveredTo('/again').map((request) => request.headers['webhook-id']);
      assert.equal(firstId, secondId);
      assert.equal(await outbox.redeliver('00000000-0000-4000-8000-000000000000'), false);
    });
  });
}
