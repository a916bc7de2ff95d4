/**
 * Payment links in a real browser: a payer opens a link, continues, chooses a sandbox bank, pays there and is back
 * at the shop; the link is then PAID and its page says so. An expired link says so and offers nothing. The link's
 * pages pass axe at both viewports. The console's Payment links pages are drawn too. Screenshots go to
 * /tmp/openpis-payment-links-*.png.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentLinkRequest } from '../helpers/payment-link-requests.js';
import { consoleUsers, PASSWORD } from '../console/console-http.js';
import {
  type AxeFinding,
  VIEWPORTS,
  axeViolations,
  browserSkip,
  launchBrowser,
  openPage,
  type Shop,
  signInToConsole,
  startAll,
  startShop,
} from './browser-harness.js';
import { approveAtSandboxBank, startFlowHarness, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

interface LinkResource {
  paymentLinkId: string;
  url: string;
  status: string;
  reference: string;
  paymentId?: string;
}

describe('payment links in a browser', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  let token: string;
  const findings: AxeFinding[] = [];

  before(async () => {
    assert.ok(sqlite);
    [flow, browser, shop] = await startAll([
      startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '300' }),
      launchBrowser(),
      startShop(),
    ]);
    token = await flow.client.token();
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await flow?.close();
  });

  async function createLink(overrides: Record<string, unknown> = {}): Promise<LinkResource> {
    const response = await flow.app.request('/api/v1/ob/payment-links', {
      method: 'POST',
      token,
      json: paymentLinkRequest({ metadata: { redirectUri: `${shop.url}/return` }, ...overrides }),
    });
    const body = await response.text();
    assert.equal(response.status, 201, body);
    return JSON.parse(body) as LinkResource;
  }

  async function a11y(page: Page, label: string): Promise<void> {
    const own = page.viewportSize();
    for (const size of VIEWPORTS) {
      await page.setViewportSize(size);
      const found = await axeViolations(page);
      findings.push(...found.map((finding) => ({ ...finding, page: `${finding.page} (${label}, ${size.width}px)` })));
    }
    if (own !== null) await page.setViewportSize(own);
  }

  it('a payer pays a single-use link at a sandbox bank; the link is then PAID and says so', async () => {
    const link = await createLink();
    const page = await openPage(browser, flow.seen);
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'Pay with your bank' }).waitFor();
    assert.match(await page.locator('main').innerText(), /Invoice 2026-001/);
    await a11y(page, 'link page');
    await page.screenshot({ path: '/tmp/openpis-payment-links-link-page.png', fullPage: true });

    await page.getByRole('button', { name: 'Continue to pay' }).click();
    await page.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    await page.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).click();
    await approveAtSandboxBank(page, 'alice');
    await page.getByRole('heading', { name: /^(Payment complete|Your bank is processing the payment)$/ }).waitFor();
    await page.getByRole('link', { name: /^Continue to / }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    const paymentId = new URL(page.url()).searchParams.get('paymentId');
    assert.ok(paymentId !== null);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');

    const read = (await (await flow.app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}`, { token })).json()) as LinkResource;
    assert.equal(read.status, 'PAID');
    assert.equal(read.paymentId, paymentId);
    const later = await openPage(browser, flow.seen);
    await later.goto(link.url);
    await later.getByRole('heading', { name: 'This payment has been made' }).waitFor();
    assert.equal(await later.getByRole('button', { name: 'Continue to pay' }).count(), 0);
    await a11y(later, 'paid link');
    await later.screenshot({ path: '/tmp/openpis-payment-links-paid.png', fullPage: true });
    await page.context().close();
    await later.context().close();
    assert.deepEqual(findings, []);
  });

  it('an expired link says so and starts no payment', async () => {
    const link = await createLink({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    const page = await openPage(browser, flow.seen);
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'Pay with your bank' }).waitFor();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const read = (await (await flow.app.request(`/api/v1/ob/payment-links/${link.paymentLinkId}`, { token })).json()) as LinkResource;
      if (read.status === 'EXPIRED') break;
      assert.ok(Date.now() < deadline, 'the link did not expire');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The page opened before: continuing now says the link expired.
    await page.getByRole('button', { name: 'Continue to pay' }).click();
    await page.getByRole('heading', { name: 'This payment link has expired' }).waitFor();
    await a11y(page, 'expired link');
    await page.screenshot({ path: '/tmp/openpis-payment-links-expired.png', fullPage: true });
    const payments = await flow.app.database.db
      .selectFrom('payments')
      .select('id')
      .where('payment_link_id', '=', link.paymentLinkId)
      .execute();
    assert.equal(payments.length, 0);
    await page.context().close();
    assert.deepEqual(findings, []);
  });

  it("draws the console's Payment links pages with the QR code", async () => {
    await consoleUsers(flow.app).create({
      email: 'mia@links.example',
      name: 'Mia Member',
      role: 'member',
      clientId: flow.client.clientId,
      password: PASSWORD,
    });
    const page = await openPage(browser, flow.seen);
    await page.setViewportSize(VIEWPORTS[0]);
    await signInToConsole(page, flow.app.baseUrl, 'mia@links.example');
    await page.goto(`${flow.app.baseUrl}/console/payment-links`);
    await page.getByRole('heading', { name: 'Payment links', level: 1 }).waitFor();
    await page.screenshot({ path: '/tmp/openpis-payment-links-console-list.png', fullPage: true });
    const link = await createLink({ reference: 'console-shot' });
    await page.goto(`${flow.app.baseUrl}/console/payment-links/${link.paymentLinkId}`);
    await page.getByRole('heading', { name: 'QR code' }).waitFor();
    assert.equal(await page.locator('.qr svg').count(), 1);
    await page.screenshot({ path: '/tmp/openpis-payment-links-console-link.png', fullPage: true });
    await page.context().close();
  });
});
