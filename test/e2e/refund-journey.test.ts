/**
 * A refund approved by the merchant in a real browser (docs/api-decisions.md, "Refunds"): dave pays the merchant at
 * Hansa; the merchant refunds part of it; the merchant's approver (alice, whose Rheinland account received the
 * payment) opens the refund's redirectUrl, chooses Rheinland and authorises there; the refund is polled to COMPLETED
 * and the original lists it. The approver's first page is saved under /tmp for a look.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { waitFor } from '../helpers/wait.js';
import { browserSkip, launchBrowser, openPage, type Shop, startAll, startShop } from './browser-harness.js';
import { BANKS, TEST_PASSWORD, approveAtSandboxBank, startFlowHarness, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

/** alice's account at the sandbox banks: here the merchant's, which the payment is paid into and the refund paid from. */
const MERCHANT_IBAN = 'DE54500105171000007919';
/** dave's account: the payer's. */
const PAYER_IBAN = 'DE76500105171000031676';

interface Resource {
  readonly paymentId: string;
  readonly redirectUrl: string;
  readonly status: string;
  readonly detailedStatus: string;
  readonly refundOf?: string;
  readonly refunds?: { paymentId: string; amount: number; status: string }[];
  readonly payer?: { account: { type: string; value?: string }; name?: string };
}

describe('a refund approved by the merchant in a browser', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;

  before(async () => {
    assert.ok(sqlite);
    [flow, browser, shop] = await startAll([
      startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '300' }),
      launchBrowser(),
      startShop(),
    ]);
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await flow?.close();
  });

  it('the approver chooses the bank, authorises there, and the refund completes', async () => {
    const token = await flow.client.token();
    const read = async (paymentId: string): Promise<Resource> =>
      (await (await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token })).json()) as Resource;

    // dave pays 25.00 to the merchant at Hansa (embedded: his credentials in the request).
    const paid = await flow.app.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      json: paymentRequest({
        amount: 25,
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'dave', password: TEST_PASSWORD } },
        recipient: {
          account: { number: { type: 'IBAN', value: MERCHANT_IBAN } },
          name: 'Acme GmbH',
          address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
        },
      }),
    });
    assert.equal(paid.status, 201);
    const { paymentId } = (await paid.json()) as { paymentId: string };
    const original = await waitFor('the payment completed with its payer known', async () => {
      const payment = await read(paymentId);
      return payment.status === 'COMPLETED' && payment.payer !== undefined ? payment : undefined;
    });
    assert.equal(original.payer?.account.value, PAYER_IBAN);

    const refunded = await flow.app.request(`/api/v1/ob/payments/${paymentId}/refunds`, {
      method: 'POST',
      token,
      json: {
        amount: '7.50',
        reference: 'Refund order 1001',
        metadata: { redirectUri: `${shop.url}/return`, endToEndId: `refund-${randomUUID()}` },
      },
    });
    const body = await refunded.text();
    assert.equal(refunded.status, 201, body);
    const refund = JSON.parse(body) as Resource;
    assert.equal(refund.refundOf, paymentId);

    const page = await openPage(browser, flow.seen);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(refund.redirectUrl);
    await page.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    await page.screenshot({ path: '/tmp/refund-approver-first-page.png', fullPage: true });
    const firstPage = await page.locator('main').innerText();
    await page.getByRole('button', { name: /Rheinland Sandbox Bank/ }).click();

    // Rheinland's redirect pages: alice logs in and approves the transfer from the merchant's account.
    await approveAtSandboxBank(page, 'alice');
    await page
      .getByRole('heading', { name: /^(Payment complete|Refund complete|Your bank is processing the (payment|refund))$/ })
      .waitFor();
    await page.screenshot({ path: '/tmp/refund-approver-outcome.png', fullPage: true });
    await page.getByRole('link', { name: /^Continue to / }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    assert.equal(new URL(page.url()).searchParams.get('paymentId'), refund.paymentId);

    await flow.waitFor(refund.paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    const done = await read(refund.paymentId);
    assert.equal(done.status, 'COMPLETED');
    assert.equal(done.refundOf, paymentId);
    assert.deepEqual((await read(paymentId)).refunds, [{ paymentId: refund.paymentId, amount: 7.5, status: 'COMPLETED' }]);
    await page.context().close();
    // What the approver read first, for the report of this test's run.
    console.log(`approver's first page:\n${firstPage}`);
  });
});
