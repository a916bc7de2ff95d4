/**
 * The payer's steps in a real browser: on a phone the login form is on the first screen; a refused password keeps
 * the user ID the payer typed; "Cancel payment" asks first (with and without script) and ends on the cancelled page
 * with the way back to the shop; and the sandbox banks' own pages (redirect login, approval, code, the decoupled
 * app page, a UK bank's login) pass axe-core. Every page met is checked with axe-core at 1280×800 and 390×844.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import {
  type AxeFinding,
  axeViolationsAtViewports,
  browserSkip,
  launchBrowser,
  openPage,
  type Shop,
  startAll,
  startShop,
} from './browser-harness.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from './flow-harness.js';

const NARROW = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 800 };
const ALBION = '6ed27f43-4c88-4544-81eb-366a9a31cf0b';
const [sqlite] = await testDatabaseKinds();

describe('the payer steps in a browser', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  const findings: AxeFinding[] = [];
  const checked: string[] = [];

  before(async () => {
    assert.ok(sqlite);
    [flow, browser, shop] = await startAll([
      startFlowHarness(sqlite, { OPERATOR_NAME: 'Example Pay', OPERATOR_TERMS_URL: 'https://pay.example/terms' }),
      launchBrowser(),
      startShop(),
    ]);
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
    endToEndId: `say-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  });

  async function a11y(page: Page, label: string): Promise<void> {
    const found = await axeViolationsAtViewports(page);
    findings.push(...found.map((finding) => ({ ...finding, page: `${finding.page} (${label})` })));
    checked.push(label);
  }

  /** A custom-mode payment at Hansa without credentials: the review, then our login form. */
  async function toLoginForm(viewport: typeof NARROW, javaScriptEnabled = true): Promise<{ page: Page; paymentId: string }> {
    const { paymentId, redirectUrl } = await flow.create({ provider: { id: BANKS.hansa }, metadata: metadata() });
    const context = await browser.newContext({ locale: 'en-GB', viewport, javaScriptEnabled });
    const page = await context.newPage();
    page.on('response', (response) =>
      response.text().then(
        (body) => flow.seen.push(body),
        () => undefined,
      ),
    );
    await page.goto(redirectUrl);
    await page.getByRole('heading', { name: 'Check your payment' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#loginId').waitFor();
    return { page, paymentId };
  }

  it('on a phone the login form is on the first screen, above the payment details', async () => {
    const { page } = await toLoginForm(NARROW);
    const loginTop = (await page.locator('#loginId').boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const button = await page.getByRole('button', { name: 'Continue' }).boundingBox();
    const summaryTop = (await page.locator('.summary').boundingBox())?.y ?? 0;
    // Header, heading, the payment sentence and the intro: the user ID field starts well within the first screen,
    // and Continue is on it too (it was 700 pixels down under the payment box).
    assert.ok(loginTop < 420, `the user ID field starts at ${loginTop}px`);
    assert.ok(
      button !== null && button.y + button.height <= NARROW.height,
      `Continue ends at ${button === null ? '?' : button.y + button.height}px`,
    );
    assert.ok(summaryTop > loginTop, 'the payment details come after the form');
    await a11y(page, 'login form');
    await page.context().close();
  });

  it('a refused password keeps the user ID; the empty form names the fields', async () => {
    const { page } = await toLoginForm(WIDE);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#error-summary').waitFor();
    assert.deepEqual(await page.locator('#error-summary li').allInnerTexts(), [
      'Enter your online banking user ID.',
      'Enter your online banking password.',
    ]);
    await a11y(page, 'login form with errors');
    await page.locator('#loginId').fill('alice');
    await page.locator('#password').fill('not-the-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByText(/Your bank did not accept these login details\./)
      .first()
      .waitFor();
    assert.equal(await page.locator('#loginId').inputValue(), 'alice', 'the user ID is kept');
    assert.equal(await page.locator('#password').inputValue(), '', 'the password is not');
    // Kept for that one answer only: nothing is left in the tab's storage.
    assert.equal(await page.evaluate('sessionStorage.length'), 0);
    await a11y(page, 'login refused');
    await page.locator('#password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#loginId, #otp, #methodId, [name=methodId]').first().waitFor();
    assert.equal(await page.locator('#loginId').count(), 0, 'logged in');
    await page.context().close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`"Cancel payment" asks first and ends on the cancelled page with the way back to the shop (script ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { page, paymentId } = await toLoginForm(NARROW, javaScriptEnabled);
      const cancel = page.getByRole('link', { name: 'Cancel payment' });
      // Secondary: a link under the form, not a full-width button.
      const continueBox = await page.getByRole('button', { name: 'Continue' }).boundingBox();
      const cancelBox = await cancel.boundingBox();
      assert.ok(
        continueBox !== null && cancelBox !== null && cancelBox.width < continueBox.width / 2,
        'the cancel link is smaller than Continue',
      );
      await cancel.click();
      await page.getByRole('heading', { name: 'Cancel this payment?' }).waitFor();
      if (javaScriptEnabled) await a11y(page, 'cancel confirmation');
      await page.getByRole('link', { name: 'No, go on with the payment' }).click();
      await page.locator('#loginId').waitFor();
      await page.getByRole('link', { name: 'Cancel payment' }).click();
      await page.getByRole('button', { name: 'Yes, cancel the payment' }).click();
      await page.getByRole('heading', { name: 'Payment cancelled' }).waitFor();
      await page.getByText('You cancelled the payment.').waitFor();
      if (javaScriptEnabled) await a11y(page, 'cancelled');
      await flow.waitFor(paymentId, (status) => status.endsWith('_FAILED'));
      await page.getByRole('link', { name: /^Continue to / }).click();
      await page.waitForURL((url) => url.origin === shop.url);
      assert.equal(new URL(page.url()).searchParams.get('paymentId'), paymentId);
      await page.context().close();
    });
  }

  it('the sandbox banks’ own pages pass axe: redirect login, approval and code, the decoupled app page, a UK bank', async () => {
    const page = await openPage(browser, flow.seen);
    await page.setViewportSize(WIDE);
    // Rheinland: the bank's login page, its approval, its one-time code.
    const rheinland = await flow.create({ provider: { id: BANKS.rheinland }, metadata: metadata() });
    await page.goto(rheinland.redirectUrl);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('User ID').waitFor();
    await a11y(page, 'sandbox bank login');
    await page.getByLabel('User ID').fill('alice');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    const approve = page.getByRole('button', { name: /^(Approve|Continue)$/ }).first();
    await approve.waitFor();
    await a11y(page, 'sandbox bank approval');
    await approve.click();
    await page.getByLabel('One-time code').waitFor();
    await a11y(page, 'sandbox bank code');

    // Midi: the page standing in for the bank's app.
    const midi = await flow.create({ provider: { id: BANKS.midi }, sender: { credentials: { id: 'alice' } }, metadata: metadata() });
    await page.goto(midi.redirectUrl);
    // It opens in a tab of its own (the payer's page keeps waiting): opened here instead.
    const appUrl = await page.getByRole('link', { name: 'Open the sandbox bank app' }).getAttribute('href');
    assert.ok(appUrl !== null);
    await page.goto(new URL(appUrl, page.url()).toString());
    await page.locator('main').waitFor();
    await a11y(page, 'sandbox bank app');

    // Albion: a UK Open Banking bank's login.
    const albion = await flow.create({ ...ukPaymentRequest(ALBION), metadata: metadata() });
    await page.goto(albion.redirectUrl);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('User ID').waitFor();
    await a11y(page, 'UK sandbox bank login');
    await page.context().close();
  });

  it('no page met has an axe violation at either size', () => {
    assert.ok(checked.length >= 8, `checked: ${checked.join(', ')}`);
    assert.deepEqual(findings, []);
  });
});
