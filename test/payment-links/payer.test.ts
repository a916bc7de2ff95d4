/**
 * A payer opening a payment link, through the real HTTP app on SQLite and PostgreSQL: the page, "Continue to pay"
 * starting a payment of the link with the payer's IP address and browser, a single-use link paid in the very commit
 * its payment completes in (and its page saying so), one open payment at a time under ten payers at once, a failed
 * payment freeing the link, an expired link making no payment, and the `payment_link.*` webhooks verified with
 * `standardwebhooks`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentLinkRequest } from '../helpers/payment-link-requests.js';
import { waitFor } from '../helpers/wait.js';
import { createTestPki, startReceiver, type TestReceiver } from '../webhooks/https-receiver.js';
import { get, headingOf, pastWaitingPage, submit, submitAndFollow, type Answer } from '../hosted/http-payer.js';

const kinds = await testDatabaseKinds();

interface LinkResource {
  paymentLinkId: string;
  url: string;
  status: string;
  reference: string;
  paymentId?: string;
  paymentCount: number;
}

/** A browser of its own: the cookies our link page sets, sent back on the same link. */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(readonly userAgent: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      this.cookies.set(name.trim(), value.trim());
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string): Promise<Answer> {
    const response = await fetch(url, { redirect: 'manual', headers: { 'user-agent': this.userAgent, cookie: this.cookieHeader() } });
    this.remember(response);
    return {
      status: response.status,
      location: response.headers.get('location') ?? undefined,
      html: await response.text(),
      headers: response.headers,
    };
  }

  /** Posts the page's "Continue to pay" form with its CSRF token. */
  async continue(url: string, page: string): Promise<Answer> {
    const csrf = /<input type="hidden" name="csrf" value="([^"]+)">/.exec(page)?.[1];
    assert.ok(csrf !== undefined, `no form on the page:\n${page.slice(0, 1500)}`);
    const response = await fetch(`${url}/continue`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'user-agent': this.userAgent, cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }).toString(),
    });
    this.remember(response);
    return {
      status: response.status,
      location: response.headers.get('location') ?? undefined,
      html: await response.text(),
      headers: response.headers,
    };
  }
}

for (const kind of kinds)
  describe(`a payer opening a payment link (${kind.name})`, () => {
    let flow: FlowHarness;
    let token: string;
    let receiver: TestReceiver;
    let dir: string;
    before(async () => {
      const pki = createTestPki();
      dir = mkdtempSync(join(tmpdir(), 'openpis-links-'));
      writeFileSync(join(dir, 'ca.pem'), pki.caCertificate);
      receiver = await startReceiver(pki);
      receiver.routes.set('/hooks', (_request, response) => {
        response.statusCode = 204;
        response.end();
      });
      flow = await startFlowHarness(kind, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CA_FILE: join(dir, 'ca.pem') });
      token = await flow.client.token();
    });
    after(async () => {
      await flow?.close();
      await receiver?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    async function createLink(overrides: Record<string, unknown> = {}): Promise<LinkResource> {
      const response = await flow.app.request('/api/v1/ob/payment-links', { method: 'POST', token, json: paymentLinkRequest(overrides) });
      const body = await response.text();
      assert.equal(response.status, 201, body);
      return JSON.parse(body) as LinkResource;
    }

    async function readLink(id: string): Promise<LinkResource> {
      return (await (await flow.app.request(`/api/v1/ob/payment-links/${id}`, { token })).json()) as LinkResource;
    }

    /** From the bank list of `redirectUrl`: chooses an embedded bank, logs in as `payer`, enters the code. */
    async function payAtEmbeddedBank(redirectUrl: string, bankId: string, payer: string): Promise<Answer> {
      const list = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(list.html), 'Choose your bank');
      const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: bankId }, flow.seen);
      let page = await submitAndFollow(redirectUrl, login.html, 'details', { loginId: payer, password: TEST_PASSWORD }, flow.seen);
      page = await pastWaitingPage(redirectUrl, page, flow.seen);
      return pastWaitingPage(redirectUrl, await submitAndFollow(redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen), flow.seen);
    }

    it('starts a payment of the link with the payer’s address and browser; paid, the link is PAID in the same commit and says so', async () => {
      const link = await createLink({
        metadata: { redirectUri: 'https://merchant.example/return', webhookUrl: `${receiver.origin}/hooks` },
      });
      const payer = new Browser('Mozilla/5.0 (link payer)');
      const page = await payer.get(link.url);
      assert.equal(page.status, 200);
      assert.equal(headingOf(page.html), 'Pay with your bank');
      assert.match(page.html, /Continue to pay/);
      assert.match(page.html, /Invoice 2026-001/);
      assert.match(page.html, /Acme GmbH/);
      // Without the page's token (another site's form): refused, no payment.
      const forged = await fetch(`${link.url}/continue`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'csrf=forged',
      });
      assert.equal(forged.status, 403);

      const continued = await payer.continue(link.url, page.html);
      assert.equal(continued.status, 303, continued.html);
      assert.match(continued.location ?? '', /^\/pay\/[A-Za-z0-9_-]+$/);
      const rows = await flow.app.database.db
        .selectFrom('payments')
        .selectAll()
        .where('payment_link_id', '=', link.paymentLinkId)
        .execute();
      assert.equal(rows.length, 1);
      const row = rows[0];
      assert.ok(row !== undefined);
      assert.equal(row.psu_ip_address, '127.0.0.1');
      assert.equal(row.psu_user_agent, 'Mozilla/5.0 (link payer)');
      assert.equal(row.end_to_end_id, `${link.reference}-1`);
      assert.equal(row.mode, 'hosted');
      // The fresh flow every new payment starts with (src/domain/fresh-flow.ts): its deadline counted from its making.
      assert.equal(row.detailed_status, 'PROVIDER_SELECTION_REDIRECT_PENDING');
      assert.equal(Date.parse(row.flow_expires_at) - Date.parse(row.created_at), flow.app.config.flowDeadlineSeconds * 1000);
      assert.equal(row.provider_payment_id, null);
      const resource = (await (await flow.app.request(`/api/v1/ob/payments/${row.id}`, { token })).json()) as { paymentLinkId?: string };
      assert.equal(resource.paymentLinkId, link.paymentLinkId);
      // The same browser opening the link again goes back to its own payment.
      const again = await payer.get(link.url);
      assert.equal(again.status, 303);
      assert.equal(again.location, continued.location);
      // Another payer meanwhile: the link is being paid.
      const other = await new Browser('other').get(link.url);
      assert.equal(headingOf(other.html), 'This link is being paid right now');
      assert.doesNotMatch(other.html, /Continue to pay/);

      const redirectUrl = `${flow.app.baseUrl}${continued.location ?? ''}`;
      await payAtEmbeddedBank(redirectUrl, BANKS.italia, 'alice');
      await flow.waitFor(row.id, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const paid = await readLink(link.paymentLinkId);
      assert.equal(paid.status, 'PAID');
      assert.equal(paid.paymentId, row.id);
      // One commit: the link changed at the very time the payment's COMPLETED record was written.
      const completed = await flow.app.database.db
        .selectFrom('payment_status_history')
        .select('created_at')
        .where('payment_id', '=', row.id)
        .where('detailed_status', '=', 'PAYMENT_EXECUTION_COMPLETED')
        .executeTakeFirstOrThrow();
      const linkRow = await flow.app.database.db
        .selectFrom('payment_links')
        .select('updated_at')
        .where('id', '=', link.paymentLinkId)
        .executeTakeFirstOrThrow();
      assert.equal(linkRow.updated_at, completed.created_at);
      const closed = await new Browser('late').get(link.url);
      assert.equal(closed.status, 410);
      assert.equal(headingOf(closed.html), 'This payment has been made');
      assert.doesNotMatch(closed.html, /Continue to pay/);

      // The payment's events carry the link; the link's own event is delivered, signed.
      const paymentEvents = await flow.app.database.db.selectFrom('events').select('body').where('subject_id', '=', row.id).execute();
      assert.ok(
        paymentEvents.every(
          (event) => (JSON.parse(event.body) as { data: { paymentLinkId?: string } }).data.paymentLinkId === link.paymentLinkId,
        ),
      );
      const delivery = await waitFor('the payment_link.paid webhook', () =>
        receiver.requests.find((request) => request.path === '/hooks' && request.body.includes('"payment_link.paid"')),
      );
      const verified = new Webhook(flow.client.webhookSecret).verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }) as { type: string; data: Record<string, unknown> };
      assert.equal(verified.type, 'payment_link.paid');
      assert.deepEqual(Object.keys(verified.data), ['paymentLinkId', 'reference', 'status', 'paymentId', 'createdAt']);
      assert.equal(verified.data.paymentId, row.id);
      const feed = await flow.app.request('/api/v1/events?type=payment_link.paid&limit=100', { token });
      const items = ((await feed.json()) as { items: { id: string; data: { data: { paymentLinkId: string } } }[] }).items;
      assert.equal(items.filter((item) => item.data.data.paymentLinkId === link.paymentLinkId).length, 1);
    });

    it('lets one of ten payers at once start a payment of a single-use link; a failed payment frees it', async () => {
      const link = await createLink({ amount: 100 });
      const payers = Array.from({ length: 10 }, (_, index) => new Browser(`payer ${String(index)}`));
      const pages = await Promise.all(payers.map((payer) => payer.get(link.url)));
      const answers = await Promise.all(payers.map((payer, index) => payer.continue(link.url, pages[index]?.html ?? '')));
      const started = answers.filter((answer) => answer.status === 303);
      assert.equal(started.length, 1, answers.map((answer) => answer.status).join(','));
      assert.ok(
        answers
          .filter((answer) => answer.status !== 303)
          .every((answer) => answer.status === 409 && /being paid right now/.test(answer.html)),
      );
      const payments = await flow.app.database.db
        .selectFrom('payments')
        .select(['id'])
        .where('payment_link_id', '=', link.paymentLinkId)
        .execute();
      assert.equal(payments.length, 1);

      // erik's account lacks 100 EUR: the payment fails, and the next payer may start one.
      const first = payments[0]?.id ?? '';
      await payAtEmbeddedBank(`${flow.app.baseUrl}${started[0]?.location ?? ''}`, BANKS.hansa, 'erik');
      await flow.waitFor(first, (status) => status === 'PAYMENT_EXECUTION_FAILED');
      const next = new Browser('next payer');
      const page = await next.get(link.url);
      assert.equal(headingOf(page.html), 'Pay with your bank');
      const continued = await next.continue(link.url, page.html);
      assert.equal(continued.status, 303);
      const after = await flow.app.database.db
        .selectFrom('payments')
        .select(['end_to_end_id'])
        .where('payment_link_id', '=', link.paymentLinkId)
        .orderBy('created_at')
        .execute();
      assert.deepEqual(
        after.map((payment) => payment.end_to_end_id),
        [`${link.reference}-1`, `${link.reference}-2`],
      );
      assert.equal((await readLink(link.paymentLinkId)).status, 'ACTIVE');
    });

    it("a payer's retry with another bank takes over the link's payment in progress; no other payer starts one meanwhile", async () => {
      const link = await createLink({ amount: 100 });
      const payer = new Browser('retrying payer');
      const continued = await payer.continue(link.url, (await payer.get(link.url)).html);
      assert.equal(continued.status, 303);
      const redirectUrl = `${flow.app.baseUrl}${continued.location ?? ''}`;
      const [first] = await flow.app.database.db
        .selectFrom('payments')
        .select('id')
        .where('payment_link_id', '=', link.paymentLinkId)
        .execute();
      assert.ok(first !== undefined);
      await payAtEmbeddedBank(redirectUrl, BANKS.hansa, 'erik');
      await flow.waitFor(first.id, (status) => status === 'PAYMENT_EXECUTION_FAILED');
      const outcome = await get(redirectUrl, {}, flow.seen);
      const retried = await submit(redirectUrl, outcome.html, 'retry', {}, flow.seen);
      assert.equal(retried.status, 303);
      const retry = await flow.app.database.db
        .selectFrom('payments')
        .select(['id', 'payment_link_id', 'end_to_end_id'])
        .where('retry_of', '=', first.id)
        .executeTakeFirstOrThrow();
      assert.equal(retry.payment_link_id, link.paymentLinkId);
      assert.equal(retry.end_to_end_id, `${link.reference}-1-R2`);
      const held = await flow.app.database.db
        .selectFrom('payment_links')
        .select('open_payment_id')
        .where('id', '=', link.paymentLinkId)
        .executeTakeFirstOrThrow();
      assert.equal(held.open_payment_id, retry.id);
      const other = await new Browser('someone else').get(link.url);
      assert.equal(headingOf(other.html), 'This link is being paid right now');
      // The retry completes at another bank: it pays the link.
      await payAtEmbeddedBank(`${flow.app.baseUrl}${retried.location ?? ''}`, BANKS.italia, 'alice');
      await flow.waitFor(retry.id, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const paid = await readLink(link.paymentLinkId);
      assert.equal(paid.status, 'PAID');
      assert.equal(paid.paymentId, retry.id);
    });

    it('skips a number whose end-to-end id the client already used for a payment of its own', async () => {
      const link = await createLink({ reusable: true });
      await flow.create({
        metadata: {
          redirectUri: 'https://merchant.example/return',
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'x',
          endToEndId: `${link.reference}-1`,
        },
      });
      const payer = new Browser('reusable payer');
      const continued = await payer.continue(link.url, (await payer.get(link.url)).html);
      assert.equal(continued.status, 303, continued.html);
      const payments = await flow.app.database.db
        .selectFrom('payments')
        .select('end_to_end_id')
        .where('payment_link_id', '=', link.paymentLinkId)
        .execute();
      assert.deepEqual(
        payments.map((payment) => payment.end_to_end_id),
        [`${link.reference}-2`],
      );
      // A reusable link lets the next payer start another at once.
      const next = new Browser('second reusable payer');
      assert.equal((await next.continue(link.url, (await next.get(link.url)).html)).status, 303);
      assert.equal((await readLink(link.paymentLinkId)).paymentCount, 3);
    });

    it('shows an expired link as expired and starts no payment', async () => {
      const link = await createLink({ expiresAt: new Date(Date.now() + 1500).toISOString() });
      const payer = new Browser('too late');
      const page = await payer.get(link.url);
      assert.equal(page.status, 200);
      await waitFor('the link to expire', async () => ((await readLink(link.paymentLinkId)).status === 'EXPIRED' ? true : undefined));
      const closed = await payer.get(link.url);
      assert.equal(closed.status, 410);
      assert.equal(headingOf(closed.html), 'This payment link has expired');
      // The form of the page opened before still makes no payment.
      const continued = await payer.continue(link.url, page.html);
      assert.equal(continued.status, 410);
      const payments = await flow.app.database.db
        .selectFrom('payments')
        .select('id')
        .where('payment_link_id', '=', link.paymentLinkId)
        .execute();
      assert.equal(payments.length, 0);
      const unknown = await new Browser('x').get(`${flow.app.baseUrl}/link/AAAAAAAAAAAAAAAAAAAAAA`);
      assert.equal(unknown.status, 404);
    });

    it('delivers a closed link’s event as a signed webhook: deactivated, and expired', async () => {
      const hooks = { redirectUri: 'https://merchant.example/return', webhookUrl: `${receiver.origin}/hooks` };
      const deactivated = await createLink({ metadata: hooks });
      const answer = await flow.app.request(`/api/v1/ob/payment-links/${deactivated.paymentLinkId}/deactivate`, { method: 'POST', token });
      assert.equal(answer.status, 200);
      const expired = await createLink({ metadata: hooks, expiresAt: new Date(Date.now() + 1500).toISOString() });
      for (const [link, type, status] of [
        [deactivated, 'payment_link.deactivated', 'DEACTIVATED'],
        [expired, 'payment_link.expired', 'EXPIRED'],
      ] as const) {
        const delivery = await waitFor(`the ${type} webhook`, () =>
          receiver.requests.find(
            (request) => request.path === '/hooks' && request.body.includes(link.paymentLinkId) && request.body.includes(type),
          ),
        );
        const verified = new Webhook(flow.client.webhookSecret).verify(delivery.body, {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        }) as { type: string; data: Record<string, unknown> };
        assert.equal(verified.type, type);
        assert.equal(verified.data['paymentLinkId'], link.paymentLinkId);
        assert.equal(verified.data['status'], status);
        assert.equal(verified.data['paymentId'], undefined, 'only a paid link names a payment');
      }
    });
  });
