/**
 * The payer's journey in a real browser: payments created through the API, the payer driven through our hosted
 * pages and the sandbox bank's pages, back to the shop. Each journey asserts the whole status history in order,
 * the final status and failureReasons; at the end, the test password is shown to be in no table, no log line and
 * no response. Every hosted page met is checked with axe-core (no violation of any impact).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { type AxeFinding, axeViolations, browserSkip, launchBrowser, openPage, type Shop, startAll, startShop } from './browser-harness.js';
import {
  BANKS,
  HOSTED_PREFIX,
  PLAIN_TO_REGISTRATION,
  TEST_PASSWORD,
  startFlowHarness,
  statuses,
  type FlowHarness,
} from './flow-harness.js';
import { injectSandboxFault } from '../helpers/test-app.js';

const NEMUNAS = 'dae5f840-0eb1-4585-a0cc-3aca700d5e2b';
const kinds = await testDatabaseKinds();

const REDIRECT_TAIL = ['PAYMENT_CONSENT_REDIRECT_PENDING', 'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING', 'PAYMENT_EXECUTION_PENDING'];

for (const kind of kinds) {
  // The whole suite on SQLite; a representative part on PostgreSQL.
  const full = kind.name === 'sqlite';
  // Journeys not repeated on PostgreSQL are not registered there at all, rather than reported as skipped.
  const sqliteOnly = (name: string, body: () => Promise<void>): void => {
    if (full) it(name, body);
  };
  describe(`payer journeys in a browser (${kind.name})`, { skip: browserSkip }, () => {
    let flow: FlowHarness;
    let browser: Browser;
    let shop: Shop;
    const findings: AxeFinding[] = [];
    const checkedPages = new Set<string>();

    before(async () => {
      [flow, browser, shop] = await startAll([startFlowHarness(kind), launchBrowser(), startShop()]);
    });
    after(async () => {
      await browser?.close();
      await shop?.close();
      await flow?.close();
    });

    const redirectUri = (): string => `${shop.url}/return?order=42`;

    /** Runs axe on our page once per distinct page kind (its heading, and a variant such as "with an error"). */
    async function a11y(page: Page, variant = ''): Promise<void> {
      const heading = `${await page.locator('h1').first().innerText()}${variant === '' ? '' : ` (${variant})`}`;
      if (checkedPages.has(heading)) return;
      checkedPages.add(heading);
      findings.push(...(await axeViolations(page)));
    }

    /** Our outcome page (checked with axe), then Continue to the shop. */
    async function atShop(page: Page, paymentId: string): Promise<void> {
      // Playwright's own bounds (30 s), not shorter ones: a loaded machine is slow to get there.
      await page
        .getByRole('heading', { name: /^(Payment complete|Your bank is processing the payment|Payment not completed|Payment cancelled)$/ })
        .waitFor();
      await a11y(page);
      const onward = page.getByRole('link', { name: /^Continue to / });
      // The completed page may continue by itself meanwhile.
      if (new URL(page.url()).origin !== shop.url) await onward.click({ timeout: 10_000 }).catch(() => undefined);
      await page.waitForURL((url) => url.origin === shop.url);
      const landed = new URL(page.url());
      assert.equal(landed.pathname, '/return');
      assert.equal(landed.searchParams.get('order'), '42');
      assert.equal(landed.searchParams.get('paymentId'), paymentId);
    }

    /** The sandbox bank's redirect pages: log in, (choose an account,) approve, one-time code. */
    async function approveAtBank(page: Page, psuId: string, options: { cancel?: boolean } = {}): Promise<void> {
      await page.getByLabel('User ID').fill(psuId);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      if (options.cancel === true) {
        await page.getByRole('button', { name: 'Cancel' }).click();
        return;
      }
      await page.getByRole('button', { name: 'Log in' }).click();
      await page
        .getByRole('button', { name: /^(Approve|Share|Continue)$/ })
        .first()
        .click();
      const otp = page.getByLabel('One-time code');
      if (!(await otp.isVisible()))
        await page
          .getByRole('button', { name: /^(Approve|Continue)$/ })
          .first()
          .click();
      await page.getByLabel('One-time code').fill('123456');
      await page.getByRole('button', { name: 'Confirm' }).click();
    }

    async function finalHistory(paymentId: string, final: string) {
      await flow.waitFor(paymentId, (status) => status === final);
      return flow.history(paymentId);
    }

    it('hosted selection with country filter, a redirect bank, to COMPLETED', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { preferences: { countryCodes: { list: ['DE', 'FR'], default: 'FR' } } },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `hosted-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('heading', { name: 'Choose your bank' }).waitFor();
      await a11y(page);
      // The default country is preselected: only French banks, and only the two countries of the list.
      assert.equal(await page.getByLabel('Country').inputValue(), 'FR');
      const options = await page.getByLabel('Country').locator('option').allInnerTexts();
      assert.deepEqual(options.slice(1).sort(), ['France', 'Germany']);
      assert.ok(await page.getByRole('button', { name: 'Pay with Banque Lumière Sandbox' }).isVisible());
      assert.equal(await page.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).count(), 0);
      // A new country applies at once; typing filters the list in the page (test/e2e/branding-and-bank-selection.test.ts).
      await Promise.all([page.waitForURL(/country=DE/), page.getByLabel('Country').selectOption('DE')]);
      await page.getByLabel('Search for your bank').fill('rhein');
      await page.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /^Pay with / }).count(), 1);
      await page.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).click();
      await approveAtBank(page, 'alice');
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [...HOSTED_PREFIX, ...PLAIN_TO_REGISTRATION, ...REDIRECT_TAIL, 'PAYMENT_EXECUTION_COMPLETED']);
      assert.equal(history.at(-1)?.status, 'COMPLETED');
      assert.equal(history.at(-1)?.failureReasons, null);
      await page.context().close();
    });

    it('an embedded bank with the credentials entered on our page, to COMPLETED', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.hansa },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `embedded-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('heading', { name: 'Check your payment' }).waitFor();
      await a11y(page);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Online banking user ID').waitFor();
      await a11y(page);
      await page.getByLabel('Online banking user ID').fill('alice');
      await page.getByLabel('Online banking password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('One-time code').fill('123456');
      await a11y(page);
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
        'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
        ...REDIRECT_TAIL,
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      await page.context().close();
    });

    it('credentials in the creation request, several SCA methods and a one-time code (one wrong first), to COMPLETED', async () => {
      const created = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'carla', password: TEST_PASSWORD } },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `methods-${Date.now()}`,
        },
      });
      // The bank was called within the creation request: it already holds the payment.
      assert.ok(JSON.parse(created.body).providerPaymentId);
      const page = await openPage(browser, flow.seen);
      await page.goto(created.redirectUrl);
      await page.getByRole('heading', { name: 'How do you want to confirm?' }).waitFor();
      await a11y(page);
      await page.getByLabel('chipTAN card ending 77').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('One-time code').fill('999999');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await page.getByText('The code is not correct. Please try again.').first().waitFor();
      await a11y(page);
      await page.getByLabel('One-time code').fill('123456');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await atShop(page, created.paymentId);
      const history = await finalHistory(created.paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING',
        ...REDIRECT_TAIL,
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      await page.context().close();
    });

    it('the bank rejects for lack of funds: PAYMENT_EXECUTION_FAILED with INSUFFICIENT_FUNDS', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.rheinland },
        amount: 100,
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `funds-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('button', { name: 'Continue' }).click();
      await approveAtBank(page, 'erik');
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_FAILED');
      assert.deepEqual(statuses(history), [...PLAIN_TO_REGISTRATION, ...REDIRECT_TAIL, 'PAYMENT_EXECUTION_FAILED']);
      assert.equal(history.at(-1)?.status, 'FAILED');
      assert.deepEqual(
        history.at(-1)?.failureReasons?.map((reason) => reason.code),
        ['INSUFFICIENT_FUNDS'],
      );
      await page.context().close();
    });

    it('cancel at the bank: PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED with PSU_CANCELLED', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.rheinland },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `cancel-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('User ID').waitFor();
      // The payer opens our link again while the bank waits: a way back to the bank's page.
      await page.goto(redirectUrl);
      await page.getByRole('heading', { name: 'Approve the payment at Rheinland Sandbox Bank' }).waitFor();
      await a11y(page);
      await page.getByRole('link', { name: 'Continue to Rheinland Sandbox Bank' }).click();
      await approveAtBank(page, 'alice', { cancel: true });
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED');
      assert.deepEqual(statuses(history), [
        ...PLAIN_TO_REGISTRATION,
        'PAYMENT_CONSENT_REDIRECT_PENDING',
        'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
        'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
      ]);
      assert.deepEqual(
        history.at(-1)?.failureReasons?.map((reason) => reason.code),
        ['PSU_CANCELLED'],
      );
      await page.context().close();
    });

    it('a wrong password, then a wrong code: each shown on our page with the attempts left; the retries pay, to COMPLETED', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.hansa },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `wrong-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Online banking user ID').fill('alice');
      await page.getByLabel('Online banking password').fill(`${TEST_PASSWORD}-wrong`);
      await page.getByRole('button', { name: 'Continue' }).click();
      // The bank allows three logins: the payer stays on our page, told so, and tries again.
      await page.getByRole('alert').getByText('Your bank did not accept these login details. Attempts left: 2.').waitFor();
      await a11y(page, 'login refused');
      // The user ID the payer typed is kept (our script, in this tab only); the refused password is not.
      assert.equal(await page.getByLabel('Online banking user ID').inputValue(), 'alice');
      assert.equal(await page.getByLabel('Online banking password').inputValue(), '');
      await page.getByLabel('Online banking password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('One-time code').fill('111111');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await page.getByRole('alert').getByText('The code is not correct. Please try again. Attempts left: 2.').waitFor();
      await a11y(page, 'code refused');
      await page.getByLabel('One-time code').fill('123456');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
        'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
        ...REDIRECT_TAIL,
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      assert.equal(history.at(-1)?.failureReasons, null);
      await page.context().close();
    });

    sqliteOnly('a bank error on the one-time code: the code form again with a notice; the code again pays, to COMPLETED', async () => {
      const fault = await injectSandboxFault(flow.app, 'hansa', {
        psuId: 'erik',
        operations: ['updateAuthorisation'],
        fault: { kind: 'error', status: 500 },
        times: 1,
      });
      assert.equal(fault.status, 201);
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'erik', password: TEST_PASSWORD } },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `code-error-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByLabel('One-time code').fill('123456');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await page.getByRole('status').getByText('Your bank could not process the code. Please enter it again.').waitFor();
      await a11y(page, 'code not processed');
      await page.getByLabel('One-time code').fill('123456');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
        ...REDIRECT_TAIL,
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      assert.equal(history.at(-1)?.failureReasons, null);
      await page.context().close();
    });

    sqliteOnly('decoupled approval in the bank app (the sandbox page stands in), our page polling, to COMPLETED', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.midi },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `decoupled-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Online banking user ID').fill('alice');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Approve the payment in your banking app' }).waitFor();
      await a11y(page);
      const appUrl = await page.getByRole('link', { name: 'Open the sandbox bank app' }).getAttribute('href');
      assert.ok(appUrl !== null);
      const app = await openPage(browser, flow.seen);
      await app.goto(appUrl);
      await app.getByRole('button', { name: 'Approve' }).click();
      await app.getByRole('heading', { name: 'Done' }).waitFor();
      await app.context().close();
      // Our waiting page refreshes itself and sends the payer on once the bank says yes.
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
        'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        ...REDIRECT_TAIL,
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      await page.context().close();
    });

    sqliteOnly('sender account chosen on our page from several (consent at the bank, account list), to COMPLETED', async () => {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: NEMUNAS },
        metadata: {
          redirectUri: redirectUri(),
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `accounts-${Date.now()}`,
        },
      });
      const page = await openPage(browser, flow.seen);
      await page.goto(redirectUrl);
      await page.getByRole('button', { name: 'Continue' }).click();
      await approveAtBank(page, 'bob');
      await page.getByRole('heading', { name: 'Choose the account to pay from' }).waitFor();
      await a11y(page);
      // Bob's CHF account does not fit a EUR payment: two accounts offered.
      assert.equal(await page.getByRole('radio').count(), 2);
      await page.getByLabel(/FR76 3000 6000 0112 3456 7890 189/).check();
      await page.getByRole('button', { name: 'Pay from this account' }).click();
      await approveAtBank(page, 'bob');
      await atShop(page, paymentId);
      const history = await finalHistory(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses(history), [
        'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
        'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
        'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
        'SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING',
        'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING',
        'SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING',
        'SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING',
        'SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING',
        'SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING',
        'SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING',
        'PAYMENT_REGISTRATION_PENDING',
        'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
        ...REDIRECT_TAIL,
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      await page.context().close();
    });

    it('the test password is nowhere: not in any table, log line or response', async () => {
      await flow.assertPasswordNowhere();
    });

    it('the pages of refused requests are accessible too (unknown link, expired form)', async () => {
      const page = await openPage(browser, flow.seen);
      const response = await page.goto(`${flow.app.baseUrl}/pay/${'A'.repeat(43)}`);
      assert.equal(response?.status(), 404);
      await a11y(page);
      const { redirectUrl } = await flow.create();
      const expired = await fetch(`${redirectUrl}/continue`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'csrf=forged',
      });
      assert.equal(expired.status, 403);
      await page.setContent(await expired.text());
      await a11y(page);
      await page.context().close();
    });

    it('every hosted page met has no accessibility violation of any impact (axe-core)', () => {
      assert.ok(checkedPages.size >= (full ? 13 : 9), `pages checked: ${[...checkedPages].join(', ')}`);
      assert.deepEqual(findings, []);
    });
  });
}
