/** `GET /api/v1/ob/payments`: the caller's payments, newest first, filtered, in cursor pages (docs/api-decisions.md). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';

interface Resource {
  paymentId: string;
  endToEndId: string;
  status: string;
  detailedStatus: string;
  createdAt: string;
  provider?: { id: string; name: string };
}
interface Page {
  items: Resource[];
  nextCursor: string | null;
}
interface ErrorBody {
  title: string;
  statusCode: number;
  message: string;
}

/** A clock the test moves: payments get distinct, known creation times (and some share one). */
function steppedClock(start: string) {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), set: (iso: string) => void (now = new Date(iso).getTime()) };
}

for (const kind of await testDatabaseKinds()) {
  describe(`GET /api/v1/ob/payments [${kind.name}]`, () => {
    const clock = steppedClock('2026-03-01T09:59:59.000Z');
    let t: TestApp;
    let client: TestClient;
    let token: string;
    /** Created by the test, newest first as the list should answer. */
    const created: { paymentId: string; endToEndId: string; createdAt: string }[] = [];
    let rheinlandId: string;

    const list = async (query: string, bearer = token): Promise<Response> => t.request(`/api/v1/ob/payments${query}`, { token: bearer });
    const page = async (query: string, bearer = token): Promise<Page> => {
      const response = await list(query, bearer);
      assert.equal(response.status, 200, await response.clone().text());
      return (await response.json()) as Page;
    };

    before(async () => {
      t = await startTestApp(kind, { now: clock.now });
      client = await t.createClient();
      token = await client.token();
      const rheinland = t.catalogue.banks('sandbox').find((bank) => bank.name === 'Rheinland Sandbox Bank');
      assert.ok(rheinland);
      rheinlandId = rheinland.id;
      // Seven payments: at 10:00:00.000 … 10:00:05.000, two of them at the same millisecond (10:00:03.000).
      const times = ['10:00:00', '10:00:01', '10:00:02', '10:00:03', '10:00:03', '10:00:04', '10:00:05'];
      for (const [index, time] of times.entries()) {
        clock.set(`2026-03-01T${time}.000Z`);
        const request = paymentRequest(index === 2 ? { provider: { id: rheinlandId } } : {});
        const response = await t.request('/api/v1/ob/payments', { method: 'POST', token, json: request });
        assert.equal(response.status, 201);
        const body = (await response.json()) as { paymentId: string; createdAt: string };
        created.push({
          paymentId: body.paymentId,
          endToEndId: (request.metadata as { endToEndId: string }).endToEndId,
          createdAt: body.createdAt,
        });
      }
      // The payment of 10:00:01 fails; the list's status filters must see it.
      const store = new PaymentStateStore(t.database.db, new SecretBox(t.config.secretKeys), clock.now);
      const failing = await store.load(created[1]?.paymentId ?? '');
      assert.ok(failing);
      clock.set('2026-03-01T10:00:30.000Z');
      const moved = await store.transition({
        payment: failing,
        path: [
          { status: 'PAYMENT_REGISTRATION_FAILED', failureReasons: [{ code: 'EXPIRED', message: 'The payer did not finish in time.' }] },
        ],
      });
      assert.equal(moved.kind, 'applied');
      created.sort((a, b) => (a.createdAt === b.createdAt ? (a.paymentId < b.paymentId ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    });
    after(() => t.close());

    it('lists the payments newest first (createdAt, then id, descending), each as the payment resource answers it', async () => {
      const { items, nextCursor } = await page('');
      assert.deepEqual(
        items.map((item) => item.paymentId),
        created.map((payment) => payment.paymentId),
      );
      assert.equal(nextCursor, null);
      const first = items[0];
      assert.ok(first);
      const single = await (await t.request(`/api/v1/ob/payments/${first.paymentId}`, { token })).json();
      assert.deepEqual(first, single);
    });

    it('pages with the cursor: no payment twice, none skipped, the last page has nextCursor null', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const answer = await page(query);
        assert.ok(answer.items.length <= 2);
        seen.push(...answer.items.map((item) => item.paymentId));
        cursor = answer.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);
      assert.equal(pages, 4);
      assert.deepEqual(
        seen,
        created.map((payment) => payment.paymentId),
      );
    });

    it('finds a payment by its endToEndId (after a 409 or a lost answer)', async () => {
      const target = created[3];
      assert.ok(target);
      const again = await t.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: { ...paymentRequest(), metadata: { ...(paymentRequest().metadata as object), endToEndId: target.endToEndId } },
      });
      assert.equal(again.status, 409);
      const { items } = await page(`?endToEndId=${encodeURIComponent(target.endToEndId)}`);
      assert.deepEqual(
        items.map((item) => item.paymentId),
        [target.paymentId],
      );
      assert.deepEqual((await page('?endToEndId=no-such-payment')).items, []);
    });

    it('filters by status and detailed status, repeated or comma-separated, and combines filters with AND', async () => {
      const failedId = created.find((payment) => payment.createdAt === '2026-03-01T10:00:01.000Z')?.paymentId;
      assert.ok(failedId);
      assert.deepEqual(
        (await page('?status=FAILED')).items.map((item) => item.paymentId),
        [failedId],
      );
      assert.equal((await page('?status=PENDING')).items.length, created.length - 1);
      assert.equal((await page('?status=PENDING,FAILED')).items.length, created.length);
      assert.equal((await page('?status=PENDING&status=FAILED')).items.length, created.length);
      assert.deepEqual((await page('?status=COMPLETED')).items, []);
      assert.deepEqual(
        (await page('?detailedStatus=PAYMENT_REGISTRATION_FAILED')).items.map((item) => item.paymentId),
        [failedId],
      );
      assert.deepEqual((await page('?status=PENDING&detailedStatus=PAYMENT_REGISTRATION_FAILED')).items, []);
      const hosted = (await page('?detailedStatus=PROVIDER_SELECTION_REDIRECT_PENDING,FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING'))
        .items;
      assert.equal(hosted.length, created.length - 1);
    });

    it('filters by provider and by creation time (from inclusive, to exclusive, any offset compared in UTC)', async () => {
      const custom = (await page(`?providerId=${rheinlandId}`)).items;
      assert.equal(custom.length, 1);
      assert.equal(custom[0]?.provider?.id, rheinlandId);
      const window = (await page('?createdFrom=2026-03-01T10:00:03.000Z&createdTo=2026-03-01T10:00:05.000Z')).items;
      assert.deepEqual(
        window.map((item) => item.createdAt),
        ['2026-03-01T10:00:04.000Z', '2026-03-01T10:00:03.000Z', '2026-03-01T10:00:03.000Z'],
      );
      const offset = (
        await page(
          `?createdFrom=${encodeURIComponent('2026-03-01T11:00:03+01:00')}&createdTo=${encodeURIComponent('2026-03-01T11:00:04+01:00')}`,
        )
      ).items;
      assert.equal(offset.length, 2);
    });

    it("never shows another client's payments, and refuses another client's cursor", async () => {
      const other = await t.createClient();
      const otherToken = await other.token();
      assert.deepEqual((await page('', otherToken)).items, []);
      const target = created[0];
      assert.ok(target);
      assert.deepEqual((await page(`?endToEndId=${encodeURIComponent(target.endToEndId)}`, otherToken)).items, []);
      const mine = await page('?limit=1');
      assert.ok(mine.nextCursor);
      const stolen = await list(`?cursor=${encodeURIComponent(mine.nextCursor)}`, otherToken);
      assert.equal(stolen.status, 400);
      assert.equal(((await stolen.json()) as ErrorBody).message, 'cursor must be a cursor this list returned to you, unchanged');
    });

    it('answers 400 with the error body for bad filters and altered cursors', async () => {
      const cases: [string, string][] = [
        ['?status=DONE', 'status.0 must be one of the following values: PENDING, COMPLETED, FAILED'],
        ['?limit=0', 'limit must not be less than 1'],
        ['?limit=101', 'limit must not be greater than 100'],
        ['?limit=ten', 'limit must be an integer number'],
        ['?providerId=abc', 'providerId must be a UUID'],
        ['?createdFrom=yesterday', 'createdFrom must be an ISO 8601 date-time'],
        ['?colour=red', 'colour should not exist'],
        ['?cursor=abc', 'cursor must be a cursor this list returned to you, unchanged'],
      ];
      for (const [query, message] of cases) {
        const response = await list(query);
        assert.equal(response.status, 400, query);
        assert.deepEqual(await response.json(), { title: 'Bad Request', statusCode: 400, message }, query);
      }
      const { nextCursor } = await page('?limit=1');
      assert.ok(nextCursor);
      const [payload = '', mac = ''] = nextCursor.split('.');
      const altered = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), createdAt: '2030-01-01T00:00:00.000Z' }),
      ).toString('base64url');
      assert.equal((await list(`?cursor=${encodeURIComponent(`${altered}.${mac}`)}`)).status, 400);
    });

    it('requires payments:read: 401 without a token, 403 without the scope', async () => {
      const anonymous = await t.request('/api/v1/ob/payments');
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="openpis"');
      const writer = await t.createClient({ scopes: ['payments:write'] });
      const forbidden = await list('', await writer.token());
      assert.equal(forbidden.status, 403);
      assert.deepEqual(await forbidden.json(), { title: 'Forbidden', statusCode: 403, message: 'Access denied' });
    });

    it('is rate limited like every endpoint (RateLimit headers)', async () => {
      const response = await list('');
      assert.match(response.headers.get('ratelimit') ?? '', /^"per-client";r=\d+;t=\d+$/);
      assert.match(response.headers.get('ratelimit-policy') ?? '', /^"per-client";q=\d+;w=\d+$/);
    });
  });
}
