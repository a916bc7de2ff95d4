/**
 * "Pay with another bank" in a real browser: a payer without the funds at one bank (erik at Hansa, embedded, on our
 * own pages) sees the failure with the offer (axe at 1280×800 and 390×844, English and German), takes it, chooses
 * another bank (Rheinland, its redirect pages) and pays there; the shop gets the retry's id, the failed payment stays
 * failed and names its retry.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import {
  type AxeFinding,
  VIEWPORTS,
  axeViolations,
  browserSkip,
  launchBrowser,
  openPage,
  type Shop,
  startAll,
  startShop,
} from './browser-harness.js';
import { TEST_PASSWORD, approveAtSandboxBank, startFlowHarness, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('paying with another bank in a browser', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  const findings: AxeFinding[] = [];

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

  async function a11y(page: Page, label: string): Promise<void> {
    const own = page.viewportSize();
    for (const size of VIEWPORTS) {
      await page.setViewportSize(size);
      const found = await axeViolations(page);
      findings.push(...found.map((finding) => ({ ...finding, page: `${finding.page} (${label}, ${size.width}px)` })));
    }
    if (own !== null) await page.setViewportSize(own);
  }

  /** Our embedded login and code pages, as `psuId`. */
  async function payOnOurPages(page: Page, psuId: string): Promise<void> {
    await page.getByLabel('Online banking user ID').fill(psuId);
    await page.getByLabel('Online banking password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('One-time code').fill('123456');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
  }

  /** The sandbox bank's redirect pages: log in, approve, one-time code. */

  it('fails for lack of funds at one bank, then pays with another and completes', async () => {
    const endToEndId = `order-${Date.now()}`;
    const { paymentId, redirectUrl } = await flow.create({
      amount: 100,
      provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } },
      metadata: { redirectUri: `${shop.url}/return`, psuIpAddress: '203.0.113.7', psuUserAgent: 'Mozilla/5.0', endToEndId },
    });
    const page = await openPage(browser, flow.seen);
    await page.setViewportSize(VIEWPORTS[1]);
    await page.goto(redirectUrl);
    await page.getByRole('button', { name: 'Pay with Hansa Direktbank Sandbox' }).click();
    await payOnOurPages(page, 'erik');

    // Playwright's own bounds (30 s): the waiting page follows the bank until it rejects the payment.
    await page.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    assert.match(await page.locator('main').innerText(), /not enough money in the account[\s\S]*from an account at another bank now/);
    const offer = page.getByRole('button', { name: 'Pay with another bank' });
    assert.ok(await offer.isVisible());
    // On a phone the offer is in the first screen.
    const box = await offer.boundingBox();
    assert.ok(box !== null && box.y + box.height <= VIEWPORTS[1].height, `the offer is below the first screen: ${JSON.stringify(box)}`);
    await a11y(page, 'failed with the offer');
    // In German too (the language switch of a finished payment).
    await page.goto(`${redirectUrl}?lang=de`);
    await page.getByRole('button', { name: 'Mit einer anderen Bank bezahlen' }).waitFor();
    await a11y(page, 'failed with the offer, German');
    await page.goto(`${redirectUrl}?lang=en`);

    await page.getByRole('button', { name: 'Pay with another bank' }).click();
    await page.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    assert.notEqual(new URL(page.url()).pathname, new URL(redirectUrl).pathname, 'the retry has a link of its own');
    await page.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).click();
    await approveAtSandboxBank(page, 'alice');

    await page.getByRole('heading', { name: /^(Payment complete|Your bank is processing the payment)$/ }).waitFor();
    await page.getByRole('link', { name: /^Continue to / }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    const retryId = new URL(page.url()).searchParams.get('paymentId');
    assert.ok(retryId !== null && retryId !== paymentId, `the shop gets the retry's id, got ${String(retryId)}`);
    await flow.waitFor(retryId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');

    const token = await flow.client.token();
    const old = (await (await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token })).json()) as Record<string, unknown>;
    assert.equal(old['status'], 'FAILED');
    assert.equal(old['retriedBy'], retryId);
    const retry = (await (await flow.app.request(`/api/v1/ob/payments/${retryId}`, { token })).json()) as Record<string, unknown>;
    assert.equal(retry['retryOf'], paymentId);
    assert.equal(retry['endToEndId'], `${endToEndId}-R2`);
    assert.equal(retry['status'], 'COMPLETED');
    await page.context().close();
    assert.deepEqual(findings, []);
  });
});
