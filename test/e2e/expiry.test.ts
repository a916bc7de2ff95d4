/**
 * Expiry in a real browser: with a 30-second flow deadline and a fast worker, a payer who never picks a bank and
 * a payer who leaves the bank's page without finishing both end FAILED with EXPIRED, at the step they waited in;
 * the bank's payment is withdrawn before ours is failed; a payer who comes back is sent to the shop. The deadline is
 * the time the browser has to reach the bank's approval page: 30 s leaves a loaded machine room.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { browserSkip, launchBrowser, openPage, type Shop, startAll, startShop } from './browser-harness.js';
import { BANKS, PLAIN_TO_REGISTRATION, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('expiry of abandoned flows', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [flow, browser, shop] = await startAll([startFlowHarness(sqlite, { FLOW_DEADLINE_SECONDS: '30' }), launchBrowser(), startShop()]);
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await flow?.close();
  });

  it('fails at the step the payer waited in, with EXPIRED; the payer sees that the time ran out, then goes back to the shop', async () => {
    const metadata = (id: string) => ({
      redirectUri: `${shop.url}/return`,
      psuIpAddress: '203.0.113.7',
      psuUserAgent: 'Mozilla/5.0',
      endToEndId: `${id}-${Date.now()}`,
    });
    const hosted = await flow.create({ metadata: metadata('never-chose') });
    const atBank = await flow.create({ provider: { id: BANKS.rheinland }, metadata: metadata('left-the-bank') });

    const page = await openPage(browser, flow.seen);
    await page.goto(hosted.redirectUrl);
    await page.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    await page.goto(atBank.redirectUrl);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('User ID').fill('alice');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
    // The payer walks away here.

    await flow.waitFor(hosted.paymentId, (status) => status === 'PAYMENT_REGISTRATION_FAILED');
    await flow.waitFor(atBank.paymentId, (status) => status === 'PAYMENT_CONSENT_REDIRECT_FAILED');
    const hostedHistory = await flow.history(hosted.paymentId);
    assert.deepEqual(statuses(hostedHistory), ['PROVIDER_SELECTION_REDIRECT_PENDING', 'PAYMENT_REGISTRATION_FAILED']);
    assert.deepEqual(
      hostedHistory.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['EXPIRED'],
    );
    const bankHistory = await flow.history(atBank.paymentId);
    assert.deepEqual(statuses(bankHistory), [
      ...PLAIN_TO_REGISTRATION,
      'PAYMENT_CONSENT_REDIRECT_PENDING',
      'PAYMENT_CONSENT_REDIRECT_FAILED',
    ]);
    assert.deepEqual(
      bankHistory.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['EXPIRED'],
    );

    // The bank's payment was withdrawn first: approving it now is no longer possible.
    await page.getByRole('button', { name: 'Approve' }).click();
    // Our unused callback after the end leads to the outcome page: the time ran out.
    await page.getByRole('heading', { name: 'Payment not completed' }).waitFor();
    await page.getByText('The time to finish the payment ran out.').waitFor();
    assert.equal(statuses(await flow.history(atBank.paymentId)).at(-1), 'PAYMENT_CONSENT_REDIRECT_FAILED');

    // Back on the flow link after the end: the same outcome page, and Continue to the shop.
    await page.goto(hosted.redirectUrl);
    await page.getByText('The time to finish the payment ran out.').waitFor();
    await page.getByRole('link', { name: 'Continue to Acme GmbH' }).click();
    await page.waitForURL((url) => url.origin === shop.url);
    assert.equal(new URL(page.url()).searchParams.get('paymentId'), hosted.paymentId);
    await page.context().close();
    await flow.assertPasswordNowhere({ loggedIn: 'at the bank' }); // typed on the bank's own page above
  });
});
