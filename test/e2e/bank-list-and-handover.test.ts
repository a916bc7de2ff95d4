/**
 * The bank list on a phone and the desktop-to-phone hand-over in a real browser: at 390×844 the list starts with the
 * search, the countries are collapsed and the page stays well short of a long scroll; at 1280×800 the bank list
 * offers a QR code (hidden on a phone), and when "the phone" (a second browser context) opens its link, the desktop's
 * page turns to "continuing on your phone" by itself and shows the outcome once the phone completed the payment.
 * axe-core finds no violation on these pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { handoverLinkOf } from '../hosted/handover-link.js';
import {
  type AxeFinding,
  axeViolations,
  browserSkip,
  launchBrowser,
  type Shop,
  startAll,
  startShop,
  VIEWPORTS,
} from './browser-harness.js';
import { startFlowHarness, TEST_PASSWORD, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();
const [DESKTOP, PHONE] = VIEWPORTS;

/** Well short of the 1,800-pixel scroll a phone's bank list must not be. */
const PHONE_PAGE_HEIGHT_BOUND = 1500;

const MANY_COUNTRIES = ['DE', 'FR', 'ES', 'IT', 'NL', 'LT', 'LV', 'EE', 'PL'];

describe('the bank list on a phone, and desktop to phone', { skip: browserSkip || (sqlite === undefined ? 'no database' : false) }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  const findings: AxeFinding[] = [];

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [flow, browser, shop] = await startAll([startFlowHarness(sqlite), launchBrowser(), startShop()]);
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await flow?.close();
  });

  const metadata = () => ({
    redirectUri: `${shop.url}/return`,
    psuIpAddress: '203.0.113.7',
    psuUserAgent: 'Mozilla/5.0',
    endToEndId: `handover-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  });

  async function open(viewport: (typeof VIEWPORTS)[number], url: string): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  async function a11y(page: Page, label: string): Promise<void> {
    findings.push(...(await axeViolations(page)).map((finding) => ({ ...finding, page: `${finding.page} (${label})` })));
  }

  const pageHeight = (page: Page): Promise<number> =>
    page.evaluate(
      () => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight,
    );

  it('on a phone: the search first, the countries collapsed, the page short; no QR code', async () => {
    const { redirectUrl } = await flow.create({
      provider: { preferences: { countryCodes: { list: MANY_COUNTRIES, default: 'DE' } } },
      metadata: metadata(),
    });
    const page = await open(PHONE, redirectUrl);
    const search = await page.locator('#q').boundingBox();
    const country = await page.locator('#country').boundingBox();
    assert.ok(search !== null && country !== null && search.y < country.y, 'the search comes before the country');
    assert.ok(search.y + search.height <= PHONE.height, 'the search is in the first screen');
    assert.equal(await page.locator('.handover').isVisible(), false, 'no QR code on a phone');
    const height = await pageHeight(page);
    assert.ok(height <= PHONE_PAGE_HEIGHT_BOUND, `the page is ${height} px high`);
    await a11y(page, 'bank list, phone');

    // Every country: one collapsed group each, and still short; typing opens the groups that match.
    await Promise.all([page.waitForURL(/country=ALL/), page.locator('#country').selectOption('ALL')]);
    const groups = page.locator('details.country-group');
    assert.ok((await groups.count()) >= MANY_COUNTRIES.length - 1);
    assert.equal(await page.locator('details.country-group[open]').count(), 0, 'collapsed');
    const allHeight = await pageHeight(page);
    assert.ok(allHeight <= PHONE_PAGE_HEIGHT_BOUND, `every country: the page is ${allHeight} px high`);
    await a11y(page, 'bank list, every country, phone');
    await page.locator('#q').pressSequentially('baltic');
    assert.deepEqual((await page.locator('button.bank:visible').allInnerTexts()).sort(), [
      'Baltic Sandbox Bank Eesti',
      'Baltic Sandbox Bank Latvija',
      'Baltic Sandbox Bank Lietuva',
    ]);
    assert.equal(await page.locator('#bank-count').innerText(), '3 banks found.');
    await page.locator('#q').fill('');
    await page.locator('#q').dispatchEvent('input');
    assert.equal(await page.locator('details.country-group[open]').count(), 0, 'collapsed again once the search is cleared');
    await page.context().close();
  });

  it('on a desktop: a QR code; the phone takes over, the desktop follows and shows the outcome', async () => {
    const { redirectUrl, paymentId } = await flow.create({
      provider: { preferences: { countryCodes: { list: ['DE', 'FR'], default: 'DE' } } },
      metadata: metadata(),
    });
    const desktop = await open(DESKTOP, redirectUrl);
    const qr = desktop.locator('.handover .qr svg');
    assert.equal(await qr.isVisible(), true, 'the QR code is shown on a desktop');
    const box = await qr.boundingBox();
    assert.ok(box !== null && box.width >= 120 && box.height >= 120, `a code big enough to scan: ${JSON.stringify(box)}`);
    await a11y(desktop, 'bank list with the QR code, desktop');

    // The phone "scans" the code: a second browser context opens its link.
    const link = await handoverLinkOf(flow.app.database.db, flow.app.baseUrl, paymentId);
    const phone = await open(PHONE, link);
    await phone.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    assert.equal(new URL(phone.url()).pathname, new URL(redirectUrl).pathname);

    // The desktop notices by itself and takes no input any more.
    await desktop.getByRole('heading', { name: 'Continuing on your phone' }).waitFor();
    assert.equal(await desktop.locator('main form').count(), 0);
    assert.equal(await desktop.locator('.handover').count(), 0);
    await a11y(desktop, 'taken over, desktop');

    // A second scan (another phone) is told the payment goes on elsewhere.
    const other = await open(PHONE, link);
    assert.equal(await other.locator('h1').innerText(), 'This payment continues on another device');
    await a11y(other, 'hand-over link used again, phone');
    await other.context().close();

    // The phone pays at Rheinland (the bank's pages); the desktop shows the outcome.
    await phone.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).click();
    await phone.locator('#psuId').fill('alice');
    await phone.locator('#password').fill(TEST_PASSWORD);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone
      .getByRole('button', { name: /^(Approve|Share|Continue)$/ })
      .first()
      .click();
    const otp = phone.getByLabel('One-time code');
    if (!(await otp.isVisible()))
      await phone
        .getByRole('button', { name: /^(Approve|Continue)$/ })
        .first()
        .click();
    await otp.fill('123456');
    await phone.getByRole('button', { name: 'Confirm' }).click();
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    await desktop.getByRole('heading', { name: 'Payment complete' }).waitFor();
    await phone.context().close();
    await desktop.context().close();
    assert.equal((await flow.history(paymentId)).at(-1)?.detailedStatus, 'PAYMENT_EXECUTION_COMPLETED');
  });

  it('no accessibility violation of any impact on these pages (axe-core)', () => {
    assert.deepEqual(findings, []);
  });
});
