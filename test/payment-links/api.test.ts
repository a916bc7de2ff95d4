/**
 * The payment links API through the real HTTP app, on SQLite and PostgreSQL: creation and its rules (those of a
 * payment, and the link's own), 409 on a reference used before, another client's link is 404, the cursor-paged list,
 * deactivation (idempotent; 409 once paid or expired), the expiry job, and the `payment_link.*` events in the feed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentLinkRequest } from '../helpers/payment-link-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

interface LinkResource {
  paymentLinkId: string;
  url: string;
  status: string;
  reference: string;
  reusable: boolean;
  amount: number;
  currency: string;
  expiresAt: string;
  createdAt: string;
  paymentCount: number;
}

const kinds = await testDatabaseKinds();

for (const kind of kinds)
  describe(`payment links API (${kind.name})`, () => {
    let app: TestApp;
    let client: TestClient;
    let token: string;
    before(async () => {
      app = await startTestApp(kind, { workers: true, env: { WORKER_POLL_INTERVAL_MS: '50' } });
      client = await app.createClient();
      token = await client.token();
    });
    after(() => app?.close());

    async function create(
      overrides: Record<string, unknown> = {},
      as = token,
    ): Promise<{ status: number; body: string; link: LinkResource }> {
      const response = await app.request('/api/v1/ob/payment-links', { method: 'POST', token: as, json: paymentLinkRequest(overrides) });
      const body = await response.text();
      return { status: response.status, body, link: JSON.parse(body) as LinkResource };
    }

    it('creates an ACTIVE single-use link for 24 hours by default, with its URL, and reads it back', async () => {
      const before = Date.now();
      const { status, body, link } = await create();
      assert.equal(status, 201, body);
      assert.equal(link.status, 'ACTIVE');
      assert.equal(link.reusable, false);
      assert.equal(link.amount, 10.5);
      assert.equal(link.currency, 'EUR');
      assert.equal(link.paymentCount, 0);
      assert.match(link.url, new RegExp(`^${app.baseUrl}/link/[A-Za-z0-9_-]{22}$`));
      const lifetime = Date.parse(link.expiresAt) - before;
      assert.ok(lifetime > 23.9 * 3600_000 && lifetime <= 24 * 3600_000 + 60_000, String(lifetime));
      const read = await app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}`, { token });
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), link);
      // The expiry job is born with the link.
      const jobs = await app.database.db
        .selectFrom('jobs')
        .select(['kind', 'subject_type', 'run_at'])
        .where('subject_id', '=', link.paymentLinkId)
        .execute();
      assert.deepEqual(jobs, [{ kind: 'payment-link-expiry', subject_type: 'payment_link', run_at: link.expiresAt }]);
    });

    it("refuses what a payment would refuse and the link's own rules, all in one message", async () => {
      const { status, body } = await create({
        amount: 10.555,
        currency: 'USD',
        metadata: { redirectUri: 'http://merchant.example/return', psuIpAddress: '203.0.113.7' },
      });
      assert.equal(status, 400, body);
      assert.match(body, /metadata must not have additional property psuIpAddress|psuIpAddress/);
      const semantic = await create({ amount: 10.555, currency: 'USD', metadata: { redirectUri: 'http://merchant.example/return' } });
      assert.equal(semantic.status, 400, semantic.body);
      const message = (JSON.parse(semantic.body) as { message: string }).message;
      assert.match(message, /amount must not have more than 2 decimal places for USD/);
      assert.match(message, /currency must be EUR for the SEPA payment scheme/);
      assert.match(message, /metadata\.redirectUri must be an https URL/);
      const past = await create({ expiresAt: new Date(Date.now() - 1000).toISOString() });
      assert.equal(past.status, 400);
      assert.match(past.body, /expiresAt must be in the future/);
      const far = await create({ expiresAt: new Date(Date.now() + 91 * 86_400_000).toISOString() });
      assert.equal(far.status, 400);
      assert.match(far.body, /expiresAt must be at most 90 days ahead/);
      const longReference = await create({ reference: 'x'.repeat(49) });
      assert.equal(longReference.status, 400);
      assert.match(longReference.body, /reference/);
      const withoutScope = await app.request('/api/v1/ob/payment-links', {
        method: 'POST',
        token: await client.token('payments:read'),
        json: paymentLinkRequest(),
      });
      assert.equal(withoutScope.status, 403);
    });

    it('answers 409 to a second link with the same reference, and 404 for another client', async () => {
      const first = await create({ reference: `dup-${kind.name}` });
      assert.equal(first.status, 201, first.body);
      const second = await create({ reference: `dup-${kind.name}` });
      assert.equal(second.status, 409, second.body);
      assert.equal(
        (JSON.parse(second.body) as { message: string }).message,
        `A payment link with reference "dup-${kind.name}" already exists`,
      );
      const other = await app.createClient();
      const otherToken = await other.token();
      // The other client may use the same reference; it cannot see the first client's link.
      assert.equal((await create({ reference: `dup-${kind.name}` }, otherToken)).status, 201);
      const foreign = await app.request(`/api/v1/ob/payment-links/${first.link.paymentLinkId}`, { token: otherToken });
      assert.equal(foreign.status, 404);
      const foreignDeactivate = await app.request(`/api/v1/ob/payment-links/${first.link.paymentLinkId}/deactivate`, {
        method: 'POST',
        token: otherToken,
      });
      assert.equal(foreignDeactivate.status, 404);
    });

    it('lists the links newest first in pages, with filters, and refuses a cursor of another list', async () => {
      const lister = await app.createClient();
      const listerToken = await lister.token();
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1)
        ids.push((await create({ reference: `page-${String(index)}` }, listerToken)).link.paymentLinkId);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
        const response = await app.request(`/api/v1/ob/payment-links${query}`, { token: listerToken });
        assert.equal(response.status, 200);
        const page = (await response.json()) as { items: LinkResource[]; nextCursor: string | null };
        assert.ok(page.items.length <= 2);
        seen.push(...page.items.map((item) => item.paymentLinkId));
        cursor = page.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(seen, [...ids].reverse());
      const byReference = await app.request('/api/v1/ob/payment-links?reference=page-3', { token: listerToken });
      assert.deepEqual(
        ((await byReference.json()) as { items: LinkResource[] }).items.map((item) => item.paymentLinkId),
        [ids[3]],
      );
      const payments = await app.request('/api/v1/ob/payments?limit=1', { token: listerToken });
      assert.equal(payments.status, 200);
      const wrong = await app.request('/api/v1/ob/payment-links?cursor=eyJ4IjoxfQ.abc', { token: listerToken });
      assert.equal(wrong.status, 400);
    });

    it('deactivates an ACTIVE link once, with its event; again is the same answer', async () => {
      const { link } = await create({ metadata: { redirectUri: 'https://merchant.example/return' } });
      const first = await app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}/deactivate`, { method: 'POST', token });
      assert.equal(first.status, 200);
      const deactivated = (await first.json()) as LinkResource;
      assert.equal(deactivated.status, 'DEACTIVATED');
      const again = await app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}/deactivate`, { method: 'POST', token });
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), deactivated);
      const events = await app.database.db
        .selectFrom('events')
        .select(['type', 'subject_type', 'body'])
        .where('subject_id', '=', link.paymentLinkId)
        .execute();
      assert.equal(events.length, 1);
      assert.equal(events[0]?.type, 'payment_link.deactivated');
      assert.equal(events[0]?.subject_type, 'payment_link');
      const body = JSON.parse(events[0]?.body ?? '{}') as { type: string; data: Record<string, unknown> };
      assert.deepEqual(Object.keys(body.data), ['paymentLinkId', 'reference', 'status', 'createdAt']);
      assert.equal(body.data.status, 'DEACTIVATED');
      // The link's jobs go with it.
      const jobs = await app.database.db.selectFrom('jobs').select('id').where('subject_id', '=', link.paymentLinkId).execute();
      assert.equal(jobs.length, 0);
    });

    it('expires a link at its expiresAt (the job), with its event in the feed; deactivating it then is 409', async () => {
      const { link } = await create({ expiresAt: new Date(Date.now() + 1500).toISOString() });
      await waitFor('the link to expire', async () => {
        const read = await app.database.db
          .selectFrom('payment_links')
          .select('status')
          .where('id', '=', link.paymentLinkId)
          .executeTakeFirst();
        return read?.status === 'EXPIRED' ? true : undefined;
      });
      const read = (await (await app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}`, { token })).json()) as LinkResource;
      assert.equal(read.status, 'EXPIRED');
      const refused = await app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}/deactivate`, { method: 'POST', token });
      assert.equal(refused.status, 409);
      const feed = await app.request('/api/v1/events?type=payment_link.expired&limit=100', { token });
      const items = ((await feed.json()) as { items: { type: string; data: { data: { paymentLinkId: string; status: string } } }[] }).items;
      const mine = items.filter((item) => item.data.data.paymentLinkId === link.paymentLinkId);
      assert.equal(mine.length, 1);
      assert.equal(mine[0]?.data.data.status, 'EXPIRED');
    });
  });
