/**
 * `GET /api/v1/events`: the caller's event feed. The same events as the webhooks — the same ids and the very same
 * body bytes — for every payment, webhook URL or not; oldest first, in cursor pages a consumer can poll with.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '../../src/crypto/secret-box.js';
import type { DetailedStatus } from '../../src/domain/detailed-status.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import { EventFeed } from '../../src/webhooks/event-feed.js';
import { createBackgroundWorkers, type BackgroundWorkers } from '../../src/background-workers.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { createTestPkiWithCaFile, startReceiver, type TestReceiver } from './https-receiver.js';

interface FeedItem {
  id: string;
  type: string;
  createdAt: string;
  data: { type: string; timestamp: string; data: { paymentId: string; statusId: string; detailedStatus: string } };
}
interface Feed {
  items: FeedItem[];
  nextCursor: string;
}

const pki = createTestPkiWithCaFile();
const { caFile } = pki;
after(() => pki.remove());

for (const kind of await testDatabaseKinds()) {
  describe(`GET /api/v1/events [${kind.name}]`, () => {
    let t: TestApp;
    let client: TestClient;
    let token: string;
    let workers: BackgroundWorkers;
    let receiver: TestReceiver;
    let store: PaymentStateStore;

    before(async () => {
      t = await startTestApp(kind, {
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CA_FILE: caFile, WORKER_POLL_INTERVAL_MS: '20' },
      });
      client = await t.createClient();
      token = await client.token();
      receiver = await startReceiver(pki);
      receiver.routes.set('/hooks', (_request, response) => response.writeHead(204).end());
      store = new PaymentStateStore(t.database.db, new SecretBox(t.config.secretKeys));
      workers = createBackgroundWorkers({ config: t.config, database: t.database, logger: t.app.log, jobHandlers: {} });
      workers.start();
    });
    after(async () => {
      await workers.stop();
      await receiver.close();
      await t.close();
    });

    async function createPayment(bearer: string, webhookPath?: string): Promise<string> {
      const request = paymentRequest();
      if (webhookPath !== undefined) (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}${webhookPath}`;
      const response = await t.request('/api/v1/ob/payments', { method: 'POST', token: bearer, json: request });
      assert.equal(response.status, 201);
      return ((await response.json()) as { paymentId: string }).paymentId;
    }

    async function move(paymentId: string, ...statuses: DetailedStatus[]): Promise<void> {
      const payment = await store.load(paymentId);
      assert.ok(payment);
      assert.equal((await store.transition({ payment, path: statuses.map((status) => ({ status })) })).kind, 'applied');
    }

    async function feed(query = '', bearer = token): Promise<{ feed: Feed; raw: string }> {
      const response = await t.request(`/api/v1/events${query}`, { token: bearer });
      const raw = await response.text();
      assert.equal(response.status, 200, raw);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      return { feed: JSON.parse(raw) as Feed, raw };
    }

    /** Every event after `cursor`, page by page. */
    async function readAll(cursor: string | undefined, limit: number): Promise<{ items: FeedItem[]; cursor: string }> {
      const items: FeedItem[] = [];
      let next = cursor;
      for (let pages = 0; pages < 50; pages += 1) {
        const { feed: page } = await feed(`?limit=${limit}${next === undefined ? '' : `&after=${encodeURIComponent(next)}`}`);
        items.push(...page.items);
        next = page.nextCursor;
        if (page.items.length < limit) break;
      }
      assert.ok(next);
      return { items, cursor: next };
    }

    it('carries every webhook of a payment with the same id and the same body bytes', async () => {
      const paymentId = await createPayment(token, '/hooks');
      await move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING', 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
      const delivered = await waitFor('three deliveries', () => {
        const requests = receiver.requests.filter((request) => request.path === '/hooks');
        return requests.length >= 3 ? requests : undefined;
      });
      const { feed: page, raw } = await feed();
      const ofPayment = page.items.filter((item) => item.data.data.paymentId === paymentId);
      assert.equal(ofPayment.length, 3);
      for (const [index, request] of delivered.entries()) {
        const item = ofPayment[index];
        assert.ok(item);
        assert.equal(item.id, request.headers['webhook-id']);
        assert.equal(item.type, 'payment.status.updated');
        // The webhook verifies with the client's secret, and the feed holds its body byte for byte.
        new Webhook(client.webhookSecret).verify(request.body, {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        });
        assert.ok(raw.includes(`"data":${request.body}`), 'the webhook body is embedded unchanged');
        assert.deepEqual(item.data, JSON.parse(request.body));
        assert.equal(item.createdAt, item.data.timestamp);
      }
      const history = (await (await t.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token })).json()) as {
        id: string;
      }[];
      assert.deepEqual(
        ofPayment.map((item) => item.data.data.statusId),
        history.map((record) => record.id),
      );
    });

    it('records events of payments without a webhook URL too, and polls on from nextCursor', async () => {
      const start = await readAll(undefined, 100);
      const paymentId = await createPayment(token);
      await move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING');
      const { feed: next } = await feed(`?after=${encodeURIComponent(start.cursor)}`);
      assert.deepEqual(
        next.items.map((item) => [item.data.data.paymentId, item.data.data.detailedStatus]),
        [
          [paymentId, 'PROVIDER_SELECTION_REDIRECT_PENDING'],
          [paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING'],
        ],
      );
      // Nothing new: no items, and a cursor that still polls from the same place.
      const { feed: idle } = await feed(`?after=${encodeURIComponent(next.nextCursor)}`);
      assert.deepEqual(idle.items, []);
      await move(paymentId, 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
      const { feed: later } = await feed(`?after=${encodeURIComponent(idle.nextCursor)}`);
      assert.deepEqual(
        later.items.map((item) => item.data.data.detailedStatus),
        ['FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING'],
      );
    });

    it('pages oldest first with limit: every event once, in order', async () => {
      const whole = await readAll(undefined, 100);
      const paged = await readAll(undefined, 2);
      assert.deepEqual(
        paged.items.map((item) => item.id),
        whole.items.map((item) => item.id),
      );
      assert.equal(new Set(whole.items.map((item) => item.id)).size, whole.items.length);
      const times = whole.items.map((item) => item.createdAt);
      assert.deepEqual(times, [...times].sort());
    });

    it('filters by type, moving the cursor past events of other types', async () => {
      const all = await readAll(undefined, 100);
      const typed = await feed('?type=payment.status.updated&limit=100');
      assert.equal(typed.feed.items.length, all.items.length);
      const other = await feed('?type=payout.created');
      assert.deepEqual(other.feed.items, []);
      // The cursor is past every event so far: polling with it yields only what comes next.
      assert.deepEqual((await feed(`?after=${encodeURIComponent(other.feed.nextCursor)}`)).feed.items, []);
    });

    it("numbers a client's events 1, 2, 3 … without gap or repeat when its payments change status at the same time", async () => {
      const busy = await t.createClient();
      const busyToken = await busy.token();
      const paymentIds = await Promise.all(Array.from({ length: 12 }, () => createPayment(busyToken)));
      // Some move one status, some three in one transition (three events numbered by one write).
      await Promise.all(
        paymentIds.map((paymentId, index) =>
          index % 2 === 0
            ? move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING')
            : move(
                paymentId,
                'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING',
                'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
                'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
              ),
        ),
      );
      const events = await new EventFeed(t.database.db).after(busy.clientId, 0, 100);
      assert.deepEqual(
        events.map((event) => event.position),
        Array.from({ length: 6 * 2 + 6 * 4 }, (_, index) => index + 1),
      );
      // Each payment's events in order: the feed's order is commit order.
      for (const [index, paymentId] of paymentIds.entries()) {
        const ofPayment = events
          .filter((event) => event.body.includes(paymentId))
          .map((event) => (JSON.parse(event.body) as FeedItem['data']).data.detailedStatus);
        const moved =
          index % 2 === 0
            ? ['PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING']
            : [
                'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING',
                'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
                'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
              ];
        assert.deepEqual(ofPayment, ['PROVIDER_SELECTION_REDIRECT_PENDING', ...moved]);
        // A transition's events are consecutive in the feed.
        const positions = events
          .filter((event) => event.body.includes(paymentId))
          .slice(1)
          .map((event) => event.position);
        assert.deepEqual(
          positions,
          positions.map((_, offset) => (positions[0] ?? 0) + offset),
        );
      }
    });

    it('numbers creations and status changes made at the same time in one sequence, and a refused duplicate takes no position', async () => {
      const mixed = await t.createClient();
      const mixedToken = await mixed.token();
      const first = await Promise.all(Array.from({ length: 4 }, () => createPayment(mixedToken)));
      const repeated = paymentRequest();
      const create = (): Promise<Response> => t.request('/api/v1/ob/payments', { method: 'POST', token: mixedToken, json: repeated });
      // Creations (one of them repeated ten times at once) while the first payments change status.
      const [, responses] = await Promise.all([
        Promise.all(first.map((paymentId) => move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING'))),
        Promise.all(Array.from({ length: 10 }, create)),
        Promise.all(Array.from({ length: 4 }, () => createPayment(mixedToken))),
      ]);
      assert.deepEqual(responses.map((response) => response.status).sort(), [201, ...Array<number>(9).fill(409)]);
      const last = await createPayment(mixedToken);
      const events = await new EventFeed(t.database.db).after(mixed.clientId, 0, 100);
      // 4 creations, 4 status changes, 1 + 4 creations, then the last: 14 events numbered 1 … 14.
      assert.deepEqual(
        events.map((event) => event.position),
        Array.from({ length: 14 }, (_, index) => index + 1),
      );
      assert.ok(events.at(-1)?.body.includes(last));
    });

    if (kind.name === 'postgres') {
      it("numbers the feed without rewriting the client's row, which every insert naming the client locks for its foreign key", async () => {
        // A row both share-locked by concurrent inserts and rewritten at each of their commits gets a new lock group
        // and version at every commit; one client's creations slowed by two thirds within a minute (migration 0014).
        const quiet = await t.createClient();
        const quietToken = await quiet.token();
        const rowVersion = async (): Promise<string> => {
          const { rows } = await sql<{ version: string }>`SELECT xmin::text AS version FROM clients WHERE id = ${quiet.clientId}`.execute(
            t.database.db,
          );
          return rows[0]?.version ?? 'missing';
        };
        const before = await rowVersion();
        const paymentIds = await Promise.all(Array.from({ length: 4 }, () => createPayment(quietToken)));
        await Promise.all(paymentIds.map((paymentId) => move(paymentId, 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING')));
        assert.equal(await new EventFeed(t.database.db).latestPosition(quiet.clientId), 8);
        assert.equal(await rowVersion(), before);
      });
    }

    it("never shows another client's events and refuses its cursor", async () => {
      const other = await t.createClient();
      const otherToken = await other.token();
      const { feed: empty } = await feed('', otherToken);
      assert.deepEqual(empty.items, []);
      const mine = await feed('?limit=1');
      const stolen = await t.request(`/api/v1/events?after=${encodeURIComponent(mine.feed.nextCursor)}`, { token: otherToken });
      assert.equal(stolen.status, 400);
      assert.deepEqual(await stolen.json(), {
        title: 'Bad Request',
        statusCode: 400,
        message: 'after must be a cursor this list returned to you, unchanged',
      });
      // A payment cursor is no event cursor either.
      await createPayment(token);
      await createPayment(token);
      const payments = (await (await t.request('/api/v1/ob/payments?limit=1', { token })).json()) as { nextCursor: string };
      assert.equal((await t.request(`/api/v1/events?after=${encodeURIComponent(payments.nextCursor)}`, { token })).status, 400);
    });

    it('answers 400 for bad parameters, 401 without a token and 403 without payments:read', async () => {
      for (const [query, message] of [
        ['?limit=0', 'limit must not be less than 1'],
        ['?limit=101', 'limit must not be greater than 100'],
        ['?after=xyz', 'after must be a cursor this list returned to you, unchanged'],
        ['?type=PAYMENT', 'type has an invalid format'],
        ['?since=1', 'since should not exist'],
      ] as const) {
        const response = await t.request(`/api/v1/events${query}`, { token });
        assert.equal(response.status, 400, query);
        assert.deepEqual(await response.json(), { title: 'Bad Request', statusCode: 400, message }, query);
      }
      assert.equal((await t.request('/api/v1/events')).status, 401);
      const writer = await t.createClient({ scopes: ['payments:write'] });
      assert.equal((await t.request('/api/v1/events', { token: await writer.token() })).status, 403);
    });
  });
}
