/**
 * The SDK's events told apart by `type` (packages/sdk/src/types.ts, `FeedEvent` and `WebhookEventBody`), against the
 * real service: a payment link paid by a payer through our pages and another deactivated are read from the real
 * event feed, a `switch` on the event's type narrows its `data` (the paid link's `paymentId` is a string, a payment's
 * status record has its `detailedStatus`), and the same body, signed as its webhook is, verifies with the SDK's
 * helper and narrows the same way. The narrowing is checked by the compiler (`npx tsc --noEmit` reads this file).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  OpenpisClient,
  verifyWebhook,
  type FeedEvent,
  type PaymentLinkCreationRequest,
  type WebhookEventBody,
} from '../../packages/sdk/src/index.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentLinkRequest } from '../helpers/payment-link-requests.js';
import { get, headingOf, pastWaitingPage, submitAndFollow } from '../hosted/http-payer.js';

const [sqlite] = await testDatabaseKinds();

/** What a handler of this SDK's users does: one branch per event type, `data` narrowed in each; unknown ones ignored. */
function describeEvent(body: WebhookEventBody): string {
  switch (body.type) {
    case 'payment.status.updated':
      return `payment ${body.data.paymentId} ${body.data.detailedStatus}`;
    case 'payment_link.paid':
      // A string, not string | undefined: the paid event always names the payment.
      return `link ${body.data.paymentLinkId} paid by ${body.data.paymentId.toLowerCase()}`;
    case 'payment_link.expired':
    case 'payment_link.deactivated':
      return `link ${body.data.paymentLinkId} ${body.data.status}`;
    default:
      return 'a type this SDK does not know yet';
  }
}

describe('SDK feed events told apart by type', () => {
  let flow: FlowHarness;
  let openpis: OpenpisClient;
  before(async () => {
    assert.ok(sqlite);
    flow = await startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
    openpis = new OpenpisClient({ baseUrl: flow.app.baseUrl, clientId: flow.client.clientId, clientSecret: flow.client.clientSecret });
  });
  after(() => flow?.close());

  /** A payer opens the link, continues (with the page's cookie and token) and pays at an embedded bank as alice. */
  async function payLink(url: string): Promise<void> {
    const page = await fetch(url, { redirect: 'manual' });
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .join('; ');
    const csrf = /<input type="hidden" name="csrf" value="([^"]+)">/.exec(await page.text())?.[1];
    assert.ok(csrf !== undefined);
    const continued = await fetch(`${url}/continue`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }).toString(),
    });
    assert.equal(continued.status, 303);
    const redirectUrl = `${flow.app.baseUrl}${continued.headers.get('location') ?? ''}`;
    const list = await get(redirectUrl, {}, flow.seen);
    assert.equal(headingOf(list.html), 'Choose your bank');
    const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: BANKS.italia }, flow.seen);
    let next = await submitAndFollow(redirectUrl, login.html, 'details', { loginId: 'alice', password: TEST_PASSWORD }, flow.seen);
    next = await pastWaitingPage(redirectUrl, next, flow.seen);
    await submitAndFollow(redirectUrl, next.html, 'code', { otp: '123456' }, flow.seen);
  }

  it('reads payment_link.paid and payment_link.deactivated from the real feed and narrows their data by type', async () => {
    const paid = await openpis.paymentLinks.create(paymentLinkRequest() as PaymentLinkCreationRequest);
    const withdrawn = await openpis.paymentLinks.create(paymentLinkRequest() as PaymentLinkCreationRequest);
    await openpis.paymentLinks.deactivate(withdrawn.paymentLinkId);
    await payLink(paid.url);

    let linkEvents: FeedEvent[] = [];
    for (let attempt = 0; attempt < 200 && linkEvents.length < 2; attempt += 1) {
      linkEvents = [];
      for await (const event of openpis.events()) if (event.type !== 'payment.status.updated') linkEvents.push(event);
      if (linkEvents.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const paidLink = await openpis.paymentLinks.get(paid.paymentLinkId);
    assert.equal(paidLink.status, 'PAID');
    assert.deepEqual(
      linkEvents.map((event) => event.type),
      ['payment_link.deactivated', 'payment_link.paid'],
    );

    for (const event of linkEvents) {
      // The type outside is the type inside: narrowing one narrows the body.
      assert.equal(event.data.type, event.type);
      if (event.type === 'payment_link.paid') {
        assert.equal(event.data.data.paymentLinkId, paid.paymentLinkId);
        assert.equal(event.data.data.status, 'PAID');
        assert.equal(event.data.data.paymentId, paidLink.paymentId);
      } else if (event.type === 'payment_link.deactivated') {
        assert.equal(event.data.data.paymentLinkId, withdrawn.paymentLinkId);
        assert.equal(event.data.data.status, 'DEACTIVATED');
        assert.equal(event.data.data.reference, withdrawn.reference);
      }
    }
    assert.match(describeEvent(linkEvents[1]?.data ?? assert.fail('no paid event')), /^link .* paid by [0-9a-f-]{36}$/);

    // A payment's events narrow to its status record; the type filter takes a known type.
    const payments: FeedEvent[] = [];
    for await (const event of openpis.events({ type: 'payment.status.updated', limit: 5 })) payments.push(event);
    const first = payments[0] ?? assert.fail('no payment event');
    // @ts-expect-error -- not narrowed yet: a payment link's event has no detailedStatus
    assert.equal(typeof first.data.data.detailedStatus, 'string');
    if (first.type === 'payment.status.updated') assert.equal(first.data.data.paymentId, paidLink.paymentId);
    else assert.fail(`filtered on payment.status.updated, read a ${first.type}`);
  });

  it('verifies a payment_link webhook with the SDK and narrows it the same way', async () => {
    const link = await openpis.paymentLinks.create(paymentLinkRequest() as PaymentLinkCreationRequest);
    await openpis.paymentLinks.deactivate(link.paymentLinkId);
    let body: FeedEvent['data'] | undefined;
    let id = '';
    for await (const event of openpis.events({ type: 'payment_link.deactivated' }))
      if (event.type === 'payment_link.deactivated' && event.data.data.paymentLinkId === link.paymentLinkId) {
        body = event.data;
        id = event.id;
      }
    assert.ok(body !== undefined, 'the deactivated event is in the feed');
    // Signed as openpis signs the event's webhook (Standard Webhooks), with a secret of the client's kind.
    const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
    const raw = JSON.stringify(body);
    const timestamp = new Date();
    const signature = new Webhook(secret).sign(id, timestamp, raw);
    const verified = verifyWebhook(
      raw,
      { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature },
      secret,
    );
    assert.equal(verified.id, id);
    assert.equal(describeEvent(verified.event), `link ${link.paymentLinkId} DEACTIVATED`);
    if (verified.event.type === 'payment_link.deactivated') assert.equal(verified.event.data.reference, link.reference);
    else assert.fail(`verified a ${verified.event.type}`);
  });
});
