/**
 * Two refunds approved from the console in Chromium (docs/console.md, "Refunds"): dave pays the merchant at Hansa;
 * the merchant makes two refunds of it through the API; a member of the merchant selects both on the Refunds page and
 * approves them one after another, each in its own tab through the hosted flow at Rheinland (alice holds the
 * merchant's account there); the approval page, reloading itself, shows both COMPLETED. Then three refunds approved
 * together: one bulk payment at Rheinland, one authorisation, all three COMPLETED. Screenshots under /tmp; axe-core
 * finds no violation on the Refunds pages (and the bulk's bank list) at 1280×800 and 390×844.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { consoleUsers, PASSWORD } from '../console/console-http.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paidAtHansa } from '../helpers/sandbox-payments.js';
import { waitFor } from '../helpers/wait.js';
import {
  type AxeFinding,
  axeViolationsAtViewports,
  browserSkip,
  launchBrowser,
  signInToConsole,
  startAll,
  VIEWPORTS,
} from './browser-harness.js';
import { TEST_PASSWORD, startFlowHarness, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

/** alice's account at the sandbox banks: the merchant's, which the payment is paid into and the refunds paid from. */
const MERCHANT_IBAN = 'DE54500105171000007919';

/** The approver authorises the refund open in `tab` at Rheinland, as alice, up to our outcome page. */
async function approveAtRheinland(tab: Page): Promise<void> {
  await tab.getByRole('heading', { name: 'Choose your bank' }).waitFor();
  await tab.getByRole('button', { name: /Rheinland Sandbox Bank/ }).click();
  await tab.getByLabel('User ID').fill('alice');
  await tab.getByLabel('Password').fill(TEST_PASSWORD);
  await tab.getByRole('button', { name: 'Log in' }).click();
  await tab
    .getByRole('button', { name: /^(Approve|Continue)$/ })
    .first()
    .click();
  const otp = tab.getByLabel('One-time code');
  if (!(await otp.isVisible()))
    await tab
      .getByRole('button', { name: /^(Approve|Continue)$/ })
      .first()
      .click();
  await otp.fill('123456');
  await tab.getByRole('button', { name: 'Confirm' }).click();
  await tab.getByRole('heading', { name: /^(Payment complete|Refund complete|Your bank is processing the (payment|refund))$/ }).waitFor();
}

describe('refunds approved one after another from the console', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let context: BrowserContext | undefined;
  const findings: AxeFinding[] = [];

  before(async () => {
    assert.ok(sqlite);
    [flow, browser] = await startAll([
      startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '300' }),
      launchBrowser(),
    ]);
    await consoleUsers(flow.app).create({
      email: 'rita@acme.example',
      name: 'Rita Refunds',
      role: 'member',
      clientId: flow.client.clientId,
      password: PASSWORD,
    });
  });
  after(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await flow?.close();
  });

  /**
   * dave pays `amount` at Hansa into alice's account (the merchant's), the payer becomes known, and the merchant
   * refunds `amounts` of it through the API, each with `reference` and its number; the payment's and refunds' ids.
   */
  async function paidAndRefunded(
    amount: number,
    amounts: readonly string[],
    reference: string,
  ): Promise<{ paymentId: string; refunds: string[] }> {
    const token = await flow.client.token();
    const paymentId = await paidAtHansa(flow.app, flow.client, amount, 'PAYMENT_EXECUTION_COMPLETED', {
      recipient: {
        account: { number: { type: 'IBAN', value: MERCHANT_IBAN } },
        name: 'Acme GmbH',
        address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
      },
    });
    await waitFor('the payer known', async () => {
      const row = await flow.app.database.db.selectFrom('payments').select('payer').where('id', '=', paymentId).executeTakeFirstOrThrow();
      return row.payer === null ? undefined : true;
    });
    const refunds: string[] = [];
    for (const each of amounts) {
      const response = await flow.app.request(`/api/v1/ob/payments/${paymentId}/refunds`, {
        method: 'POST',
        token,
        json: {
          amount: each,
          reference: `${reference} ${refunds.length + 1}`,
          metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: `refund-${randomUUID()}` },
        },
      });
      const body = await response.text();
      assert.equal(response.status, 201, body);
      refunds.push((JSON.parse(body) as { paymentId: string }).paymentId);
    }
    return { paymentId, refunds };
  }

  it('selects two refunds, approves each at the bank in its own tab, and sees both COMPLETED', async () => {
    const { paymentId, refunds } = await paidAndRefunded(25, ['5.00', '7.50'], 'Refund order 1001 part');

    context = await browser.newContext({ viewport: VIEWPORTS[0], locale: 'en-GB' });
    const page = await context.newPage();
    await signInToConsole(page, flow.app.baseUrl, 'rita@acme.example');
    await page.getByRole('link', { name: 'Refunds' }).click();
    await page.waitForURL(/\/console\/refunds$/);
    findings.push(...(await axeViolationsAtViewports(page)));
    await page.screenshot({ path: '/tmp/console-refunds-awaiting.png', fullPage: true });
    await page.setViewportSize(VIEWPORTS[1]);
    await page.screenshot({ path: '/tmp/console-refunds-awaiting-phone.png', fullPage: true });
    await page.setViewportSize(VIEWPORTS[0]);
    await page.getByRole('checkbox', { name: /5\.00 EUR/ }).check();
    await page.getByRole('checkbox', { name: /7\.50 EUR/ }).check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.waitForURL(/\/console\/refunds\/approve\?/);
    findings.push(...(await axeViolationsAtViewports(page)));
    assert.match(await page.locator('main').innerText(), /Or approve them one after another/);
    await page.screenshot({ path: '/tmp/console-refunds-approve-before.png', fullPage: true });

    // The page stands still until asked; the approver asks it to follow the refunds.
    await page.getByRole('link', { name: /^Check every \d+ seconds by itself$/ }).click();
    await page.waitForURL(/follow=yes/);
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 2);
    for (const amount of ['5.00 EUR', '7.50 EUR']) {
      const row = rows.filter({ hasText: amount });
      const [tab] = await Promise.all([context.waitForEvent('page'), row.getByRole('link', { name: /^Approve/ }).click()]);
      await approveAtRheinland(tab);
      await tab.close();
      // The page reloads itself while a refund is under way; the row shows the bank's outcome.
      await waitFor(
        `the ${amount} refund completed on the page`,
        async () => ((await row.innerText()).includes('Completed') ? true : undefined),
        60_000,
        250,
      );
    }
    for (const refundId of refunds) await flow.waitFor(refundId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    assert.equal(await page.locator('tbody tr .badge.completed').count(), 2);
    assert.match(await page.locator('main').innerText(), /None of these refunds awaits approval any more/);
    assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0, 'nothing under way: the page stops reloading');
    await page.screenshot({ path: '/tmp/console-refunds-approve-after.png', fullPage: true });

    await page.goto(`${flow.app.baseUrl}/console/payments/${paymentId}`);
    const listed = page.locator('section[aria-labelledby="refunds"] tbody tr');
    assert.equal(await listed.count(), 2);
    assert.equal(await listed.locator('.badge.completed').count(), 2);
    await page.screenshot({ path: '/tmp/console-refunds-payment.png', fullPage: true });
    await page.goto(`${flow.app.baseUrl}/console/refunds`);
    assert.match(await page.locator('main').innerText(), /No refunds awaiting approval/);
  });

  it('selects three refunds, approves them together in one authorisation at the bank, and sees all three COMPLETED', async () => {
    const amounts = ['4.00', '6.00', '8.50'];
    const { refunds } = await paidAndRefunded(30, amounts, 'Refund order 2002 line');

    context ??= await browser.newContext({ viewport: VIEWPORTS[0], locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${flow.app.baseUrl}/console/refunds`);
    if (page.url().includes('/sign-in')) await signInToConsole(page, flow.app.baseUrl, 'rita@acme.example');
    await page.goto(`${flow.app.baseUrl}/console/refunds`);
    for (const amount of amounts) await page.getByRole('checkbox', { name: new RegExp(`${amount.replace('.', '\\.')} EUR`) }).check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.waitForURL(/\/console\/refunds\/approve\?/);
    const together = page.getByRole('heading', { name: 'Approve all 3 together' });
    await together.waitFor();
    assert.match(await page.locator('main').innerText(), /18\.50 EUR in all/);
    findings.push(...(await axeViolationsAtViewports(page)));
    await page.screenshot({ path: '/tmp/console-refunds-together.png', fullPage: true });

    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: /^Approve all together/ }).click()]);
    // The bulk's flow: every refund listed with the total, and only the banks that make bulk payments offered.
    await tab.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    const summary = await tab.locator('.summary').innerText();
    assert.match(summary, /You are refunding €18\.50 in total to 3 customers/);
    for (const line of [1, 2, 3]) assert.match(summary, new RegExp(`Refund order 2002 line ${line}`));
    // Every country's banks, not only the country the list opens on: a bank without bulk payments is still not offered.
    const everywhere = new URL(tab.url());
    everywhere.searchParams.set('country', 'ALL');
    await tab.goto(everywhere.href);
    assert.equal(await tab.getByRole('button', { name: /Rheinland Sandbox Bank/ }).count(), 1);
    assert.equal(await tab.getByRole('button', { name: /Banque Lumière/ }).count(), 0, 'a bank without bulk payments is not offered');
    findings.push(...(await axeViolationsAtViewports(tab)));
    await tab.screenshot({ path: '/tmp/refunds-together-bank-list.png', fullPage: true });
    await tab.setViewportSize(VIEWPORTS[1]);
    await tab.screenshot({ path: '/tmp/refunds-together-bank-list-phone.png', fullPage: true });
    await tab.setViewportSize(VIEWPORTS[0]);
    await approveAtRheinland(tab);
    // The outcome's receipt is the bulk's: the total, and each refund.
    assert.equal(await tab.locator('.bulk-lines tbody tr').count(), 3);
    await tab.screenshot({ path: '/tmp/refunds-together-outcome.png', fullPage: true });
    await tab.close();

    for (const refundId of refunds) await flow.waitFor(refundId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    // One payment at the bank for all three: the same bank payment id on each, and one authorisation by the approver.
    const rows = await flow.app.database.db
      .selectFrom('payments')
      .select(['id', 'provider_payment_id', 'bulk_leader_id'])
      .where('id', 'in', refunds)
      .execute();
    assert.equal(new Set(rows.map((row) => row.provider_payment_id)).size, 1);
    const leaders = new Set(rows.map((row) => row.bulk_leader_id));
    assert.equal(leaders.size, 1, 'one bulk');
    assert.ok(refunds.includes([...leaders][0] ?? ''), 'led by one of its refunds');
    await page.getByRole('link', { name: 'Check status' }).click();
    assert.equal(await page.locator('tbody tr .badge.completed').count(), 3);
    await page.screenshot({ path: '/tmp/console-refunds-together-after.png', fullPage: true });
  });

  it('found no accessibility violation of any impact on the Refunds pages', () => {
    assert.deepEqual(findings, [], JSON.stringify(findings, null, 1));
  });
});
