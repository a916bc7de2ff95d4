/**
 * Payer journeys at the UK Open Banking sandbox banks, in a real browser, through our hosted pages: payments created
 * through the API, the payer driven through the bank's pages (hybrid flow) or its app (CIBA), back to the shop. Each
 * journey asserts the whole status history in order, the final status and failureReasons.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { IBANS } from '../helpers/payment-requests.js';
import { type AxeFinding, axeViolations, browserSkip, launchBrowser, openPage, type Shop, startAll, startShop } from './browser-harness.js';
import { TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from './flow-harness.js';

/** The UK sandbox banks of the built-in catalogue. */
export const UK_BANKS = {
  albion: '6ed27f43-4c88-4544-81eb-366a9a31cf0b',
  pennine: 'f9649db5-0013-49e6-8e71-bc2f4f38f24b',
  severn: '8f122a75-4f74-4977-a9c4-75d48312f79a',
} as const;

const CUSTOM_TO_CONSENT = [
  'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
  'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'PAYMENT_REGISTRATION_PENDING',
  'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_REDIRECT_PENDING',
];

const kinds = await testDatabaseKinds();
// The journeys run on SQLite; the engine's storage is shared with the Berlin Group journeys, which run on both.
const sqlite = kinds.filter((kind) => kind.name === 'sqlite');

for (const kind of sqlite) {
  describe(`UK Open Banking payer journeys in a browser (${kind.name})`, { skip: browserSkip }, () => {
    let flow: FlowHarness;
    let browser: Browser;
    let shop: Shop;
    const findings: AxeFinding[] = [];

    before(async () => {
      [flow, browser, shop] = await startAll([startFlowHarness(kind), launchBrowser(), startShop()]);
    });
    after(async () => {
      await browser?.close();
      await shop?.close();
      await flow?.close();
    });

    /** A domestic payment in GBP to a GB account, at one UK bank. */
    function create(bank: string, options: { amount?: number; loginId?: string } = {}) {
      return flow.create({
        provider: { id: bank },
        paymentScheme: { name: 'DOMESTIC' },
        currency: 'GBP',
        amount: options.amount ?? 10.5,
        recipient: {
          account: { number: { type: 'IBAN', value: IBANS.GB } },
          name: 'Acme Ltd',
          address: { country: 'GB', city: 'London', streetName: 'High Street', buildingNumber: '1', postCode: 'EC1A 1AA' },
        },
        ...(options.loginId === undefined ? {} : { sender: { credentials: { id: options.loginId } } }),
        metadata: {
          redirectUri: `${shop.url}/return?order=7`,
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `uk-${Date.now()}`,
        },
      });
    }

    async function atShop(page: Page, paymentId: string): Promise<void> {
      // Our outcome page first (the payer sees what happened), then Continue to the shop.
      await page.getByRole('link', { name: /^Continue to / }).click({ timeout: 45_000 });
      await page.waitForURL((url) => url.origin === shop.url, { timeout: 45_000 });
      const landed = new URL(page.url());
      assert.equal(landed.pathname, '/return');
      assert.equal(landed.searchParams.get('paymentId'), paymentId);
    }

    /** From our first page (the review of a custom-mode payment) to the bank. */
    async function toBank(page: Page, redirectUrl: string): Promise<void> {
      await page.goto(redirectUrl);
      const review = page.getByRole('heading', { name: 'Check your payment' });
      if (await review.isVisible()) {
        findings.push(...(await axeViolations(page)));
        await page.getByRole('button', { name: 'Continue' }).click();
      }
    }

    /** The UK sandbox bank's pages: log in, choose an account where asked, approve (or cancel). */
    async function atBank(page: Page, psuId: string, options: { cancel?: boolean; account?: string } = {}): Promise<void> {
      await page.getByLabel('User ID').fill(psuId);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      if (options.cancel === true) {
        await page.getByRole('button', { name: 'Cancel' }).click();
        return;
      }
      await page.getByRole('button', { name: 'Log in' }).click();
      if (options.account !== undefined) {
        await page.getByRole('heading', { name: 'Pay from which account?' }).waitFor();
        await page.getByText(options.account).click();
        await page.locator('button[value=approve]').click();
      }
      await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
      await page.locator('button[value=approve]').click();
    }

    async function finalHistory(paymentId: string, final: string) {
      await flow.waitFor(paymentId, (status) => status === final);
      return flow.history(paymentId);
    }

    /** A payment at a redirect bank, the payer at the bank's pages, back at the shop; the history once `final`. */
    async function redirectJourney(
      bank: string,
      psuId: string,
      final: string,
      options: { amount?: number; account?: string; cancel?: boolean } = {},
    ) {
      const { paymentId, redirectUrl } = await create(bank, options.amount === undefined ? {} : { amount: options.amount });
      const page = await openPage(browser, flow.seen);
      await toBank(page, redirectUrl);
      await atBank(page, psuId, options);
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, final);
      await page.context().close();
      return history;
    }

    const RETURNED = [...CUSTOM_TO_CONSENT, 'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING'];

    it('a redirect bank (hybrid flow): the payer approves at the bank, to COMPLETED', async () => {
      const history = await redirectJourney(UK_BANKS.albion, 'alice', 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [...RETURNED, 'PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED']);
      assert.equal(history.at(-1)?.status, 'COMPLETED');
      assert.equal(history.at(-1)?.failureReasons, null);
    });

    it('a redirect bank where the payer picks one of several accounts at the bank (form_post answer), to COMPLETED', async () => {
      const history = await redirectJourney(UK_BANKS.severn, 'bob', 'PAYMENT_EXECUTION_COMPLETED', { account: '10003003' });
      assert.deepEqual(statuses(history), [...RETURNED, 'PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED']);
      assert.equal(history.at(-1)?.failureReasons, null);
    });

    it('a decoupled bank (CIBA): the payer approves in the bank app while our page waits, to COMPLETED', async () => {
      const { paymentId, redirectUrl } = await create(UK_BANKS.pennine, { loginId: 'alice' });
      const page = await openPage(browser, flow.seen);
      await toBank(page, redirectUrl);
      await page.getByRole('heading', { name: /banking app/i }).waitFor();
      findings.push(...(await axeViolations(page)));
      // The bank app, on the payer's other device.
      const app = await openPage(browser, flow.seen);
      await app.goto(`${flow.app.baseUrl}/sandbox-bank/uk/pennine/app`);
      await app.getByLabel('User ID').fill('alice');
      await app.getByLabel('Password').fill(TEST_PASSWORD);
      await app.getByRole('button', { name: 'Sign in' }).click();
      await app.locator('button[value=approve]').first().click();
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [...RETURNED, 'PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED']);
      assert.equal(history.at(-1)?.failureReasons, null);
      await app.context().close();
      await page.context().close();
    });

    it('cancelled at the bank: PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED with PSU_CANCELLED', async () => {
      const history = await redirectJourney(UK_BANKS.albion, 'alice', 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED', { cancel: true });
      assert.deepEqual(statuses(history), [...RETURNED, 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED']);
      assert.equal(history.at(-1)?.status, 'FAILED');
      assert.deepEqual(
        history.at(-1)?.failureReasons?.map((reason) => reason.code),
        ['PSU_CANCELLED'],
      );
    });

    it('insufficient funds: the bank confirms no funds, the payment is never submitted, INSUFFICIENT_FUNDS', async () => {
      // erik holds 25.00 GBP; Albion confirms funds before the payment is submitted.
      const history = await redirectJourney(UK_BANKS.albion, 'erik', 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED', { amount: 100 });
      assert.deepEqual(statuses(history), [...RETURNED, 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED']);
      assert.equal(history.at(-1)?.status, 'FAILED');
      assert.deepEqual(
        history.at(-1)?.failureReasons?.map((reason) => reason.code),
        ['INSUFFICIENT_FUNDS'],
      );
    });

    it('insufficient funds at a bank without a funds check: the bank rejects the payment (AM04), INSUFFICIENT_FUNDS', async () => {
      const history = await redirectJourney(UK_BANKS.severn, 'erik', 'PAYMENT_EXECUTION_FAILED', { amount: 100 });
      assert.deepEqual(statuses(history), [...RETURNED, 'PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_FAILED']);
      assert.equal(history.at(-1)?.status, 'FAILED');
      assert.deepEqual(
        history.at(-1)?.failureReasons?.map((reason) => reason.code),
        ['INSUFFICIENT_FUNDS'],
      );
    });

    it('our pages met on the way have no accessibility violation of any impact (axe-core)', () => {
      assert.deepEqual(findings, []);
    });

    it('the password is in no table, no log line and no response', async () => {
      await flow.assertPasswordNowhere({ loggedIn: 'at the bank' }); // typed on the UK banks' own pages
    });
  });
}
