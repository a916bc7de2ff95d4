/**
 * The console's Banks, Insight, Sandbox and a payment's bank calls in Chromium, over payments that really went
 * through the sandbox bank: the charts render as SVG with their figures as a table; a failing bank is at the top of
 * Banks; a member sees only their client's figures (Insight totals, banks with their traffic) and no Sandbox; an
 * operator adds and clears a sandbox fault, audited; axe-core finds no violation of any impact at 1280×800 and 390×844.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BankCallRecorder } from '../../src/observability/bank-call-records.js';
import { totpCode } from '../../src/people/second-factor.js';
import { consoleUsers, PASSWORD } from '../console/console-http.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { paidAtHansa } from '../helpers/sandbox-payments.js';
import {
  type AxeFinding,
  axeViolationsAtViewports,
  browserSkip,
  launchBrowser,
  signInToConsole,
  startAll,
  VIEWPORTS,
} from './browser-harness.js';
import { BANKS, fixturesWithPassword, TEST_PASSWORD } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('the console’s Banks and Insight in a browser', { skip: browserSkip }, () => {
  let app: TestApp;
  let browser: Browser;
  let acme: TestClient;
  let globex: TestClient;
  let acmeCompleted = '';
  const findings: AxeFinding[] = [];
  const contexts: BrowserContext[] = [];

  /** A payment at Hansa (embedded: the payer's credentials travel in the request), run by the service to its end. */
  const hosted = async (client: TestClient): Promise<void> => {
    const response = await app.request('/api/v1/ob/payments', { method: 'POST', token: await client.token(), json: paymentRequest() });
    assert.equal(response.status, 201);
  };

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: VIEWPORTS[0], locale: 'en-GB' });
    contexts.push(context);
    return context.newPage();
  };

  /** axe-core on the page as it is, at both viewport sizes. */
  const checkAccessibility = async (page: Page): Promise<void> => {
    findings.push(...(await axeViolationsAtViewports(page)));
  };

  const signIn = async (page: Page, email: string): Promise<void> => {
    await page.goto(`${app.baseUrl}/console/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  /** Mia's authenticator, enrolled at her first sign-in here. */
  let memberKey = '';

  /** The operator signs in and enrols an authenticator on the way (a fresh operator each time: no spent codes). */
  let operators = 0;
  const signInOperator = async (page: Page): Promise<void> => {
    operators += 1;
    const email = `olga${operators}@operator.example`;
    await consoleUsers(app).create({ email, name: 'Olga Operator', role: 'operator', password: PASSWORD });
    await signIn(page, email);
    await page.waitForURL(/\/console\/sign-in\/enrol/);
    const key = (await page.locator('code.mono').first().innerText()).replace(/ /g, '');
    await page.getByLabel(/Code/).fill(totpCode(key, new Date()));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/console\/payments$/);
  };

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [app, browser] = await startAll([
      startTestApp(sqlite, {
        workers: true,
        sandboxFixtures: fixturesWithPassword(TEST_PASSWORD),
        env: { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200', WORKER_POLL_INTERVAL_MS: '20' },
      }),
      launchBrowser(),
    ]);
    acme = await app.createClient({ name: 'Acme Shop' });
    globex = await app.createClient({ name: 'Globex' });
    // Acme: one completed, one failed at the bank (dave holds 1000.00 EUR), one waiting for its payer.
    acmeCompleted = await paidAtHansa(app, acme, 12.5, 'PAYMENT_EXECUTION_COMPLETED');
    await paidAtHansa(app, acme, 5000, 'PAYMENT_EXECUTION_FAILED');
    await hosted(acme);
    // Globex: four payments waiting for their payers, and calls to Lumière that found the bank down just now.
    for (let index = 0; index < 4; index += 1) await hosted(globex);
    const recorder = new BankCallRecorder(app.database.db);
    for (let index = 0; index < 5; index += 1) {
      recorder.record({
        at: new Date(Date.now() - index * 60_000).toISOString(),
        bankId: BANKS.lumiere,
        clientId: globex.clientId,
        paymentId: null,
        operation: 'registerPayment',
        outcome: 'unavailable',
        httpStatus: 503,
        latencyMs: 3000 + index,
      });
    }
    await recorder.close();
    await consoleUsers(app).create({
      email: 'mia@acme.example',
      name: 'Mia Member',
      role: 'member',
      clientId: acme.clientId,
      password: PASSWORD,
    });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it('shows an operator every bank, the failing one first, with its health over the last hour and day', async () => {
    const page = await newPage();
    await signInOperator(page);
    await page.getByRole('link', { name: 'Banks' }).click();
    await page.waitForURL(/\/console\/banks$/);
    assert.match(await page.getByRole('status').first().innerText(), /1 bank is failing now[\s\S]*Lumi/);
    const rows = await page.locator('tbody tr').allInnerTexts();
    assert.match(rows[0] ?? '', /Lumi[\s\S]*Failing now[\s\S]*0 %[\s\S]*5 of 5 failed/);
    const hansa = rows.find((row) => row.includes('Hansa')) ?? '';
    assert.match(hansa, /Healthy|Degraded/);
    assert.match(hansa, /\d+(\.\d)? (ms|s)/, 'a p95 latency');
    assert.equal(rows.length, 2, 'the banks called in the last day');
    await page.getByText(/more banks without calls in the last day/).click();
    assert.equal(await page.locator('ul.quiet-banks').getByText('Rheinland Sandbox Bank').isVisible(), true);
    await checkAccessibility(page);
  });

  it('draws Insight as charts with their figures one click away, for every client or one', async () => {
    const page = await newPage();
    await signInOperator(page);
    await page.goto(`${app.baseUrl}/console/insight`);
    assert.equal(await page.locator('figure.chart .plot-wide svg[role="img"]').count(), 5);
    // A phone gets the narrow drawing (text stays readable), a desktop the wide one.
    await page.setViewportSize(VIEWPORTS[1]);
    assert.equal(await page.locator('figure.chart .plot-narrow svg').first().isVisible(), true);
    assert.equal(await page.locator('figure.chart .plot-wide svg').first().isVisible(), false);
    await page.setViewportSize(VIEWPORTS[0]);
    // The outcomes chart: one stack per day, coloured parts for completed and failed.
    const outcomes = page.locator('figure[aria-labelledby="outcomes-title"]');
    assert.ok((await outcomes.locator('rect.completed').count()) >= 1);
    assert.ok((await outcomes.locator('rect.failed').count()) >= 1);
    assert.ok((await outcomes.locator('rect.pending').count()) >= 1);
    assert.match(
      (await outcomes.locator('.plot-wide svg').getAttribute('aria-label')) ?? '',
      /7 payments created, 1 completed .*1 failed, 5 still pending/,
    );
    const funnel = page.locator('figure[aria-labelledby="funnel-title"]');
    assert.match((await funnel.locator('.plot-wide svg').getAttribute('aria-label')) ?? '', /Every bank: of 7 payments, 1 completed/);
    await funnel.getByText('Show the figures as a table').click();
    const funnelRows = await funnel.locator('tbody tr').allInnerTexts();
    assert.match(funnelRows[0] ?? '', /Created[\s\S]*7/);
    assert.match(funnelRows.at(-1) ?? '', /Completed[\s\S]*1/);
    // Payers who paid with another bank after a bank failed them (none here: the chart says so).
    const retries = page.locator('figure[aria-labelledby="retries-title"]');
    assert.match((await retries.locator('.plot-wide svg').getAttribute('aria-label')) ?? '', /another bank could avoid/);
    const completion = page.locator('figure[aria-labelledby="completion-time-title"]');
    assert.match((await completion.locator('.plot-wide svg').getAttribute('aria-label')) ?? '', /^1 completed payment: half within/);
    await checkAccessibility(page);

    // One client's figures, and the funnel of one bank.
    await page.getByLabel('Client').selectOption({ label: 'Globex' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL(/client=/);
    assert.match(
      (await page.locator('figure[aria-labelledby="outcomes-title"] .plot-wide svg').getAttribute('aria-label')) ?? '',
      /4 payments created, 0 completed/,
    );
    // The funnel's banks are those with payments in what is shown: Globex's payments have none yet.
    assert.equal(await page.getByLabel('Funnel of').locator('option').count(), 1);
    await page.getByLabel('Client').selectOption({ label: 'Every client' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('client') === '');
    await page.getByLabel('Funnel of').selectOption({ label: 'Hansa Direktbank Sandbox' });
    await page.getByLabel('Period').selectOption({ label: 'Last 24 hours' });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL(/bank=/);
    assert.match(
      (await funnel.locator('.plot-wide svg').getAttribute('aria-label')) ?? '',
      /Hansa Direktbank Sandbox: of 2 payments, 1 completed \(50 %\)/,
    );
    await checkAccessibility(page);
  });

  it('shows a member their client’s figures only: Insight totals, and the banks their payments called', async () => {
    const page = await newPage();
    memberKey = await signInToConsole(page, app.baseUrl, 'mia@acme.example', memberKey === '' ? {} : { key: memberKey });
    await page.waitForURL(/\/console\/payments$/);
    await page.getByRole('link', { name: 'Insight' }).click();
    await page.waitForURL(/\/console\/insight$/);
    assert.equal(await page.getByLabel('Client').count(), 0, 'no client choice for a member');
    assert.match(
      (await page.locator('figure[aria-labelledby="outcomes-title"] .plot-wide svg').getAttribute('aria-label')) ?? '',
      /3 payments created, 1 completed .*1 failed, 1 still pending/,
    );
    // Another client's id in the address changes nothing.
    await page.goto(`${app.baseUrl}/console/insight?client=${globex.clientId}`);
    assert.match(
      (await page.locator('figure[aria-labelledby="outcomes-title"] .plot-wide svg').getAttribute('aria-label')) ?? '',
      /3 payments created/,
    );
    await checkAccessibility(page);

    await page.getByRole('link', { name: 'Banks' }).click();
    await page.waitForURL(/\/console\/banks$/);
    const rows = await page.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 1, 'only the bank Acme’s payments called');
    assert.match(rows[0] ?? '', /Hansa/);
    assert.doesNotMatch(await page.locator('main').innerText(), /Lumi|failing now:/i);
    await checkAccessibility(page);
  });

  it('lists the bank calls made for a payment on its page', async () => {
    const page = await newPage();
    memberKey = await signInToConsole(page, app.baseUrl, 'mia@acme.example', memberKey === '' ? {} : { key: memberKey });
    await page.waitForURL(/\/console\/payments$/);
    await page.goto(`${app.baseUrl}/console/payments/${acmeCompleted}`);
    const calls = page.locator('section[aria-labelledby="bank-calls"] tbody tr');
    const texts = await calls.allInnerTexts();
    assert.match(texts[0] ?? '', /registerPayment[\s\S]*OK/);
    assert.ok(texts.some((text) => /getPaymentStatus[\s\S]*OK/.test(text)));
    await checkAccessibility(page);
  });

  it('lets an operator make a sandbox bank fail and clear it again, audited; a member never sees the page', async () => {
    const page = await newPage();
    await signInOperator(page);
    await page.getByRole('link', { name: 'Sandbox' }).click();
    await page.waitForURL(/\/console\/sandbox$/);
    await checkAccessibility(page);
    await page.getByLabel('Bank', { exact: true }).selectOption({ label: 'Rheinland Sandbox Bank' });
    await page.getByLabel('Fault').selectOption('error-503');
    await page.getByLabel(/^Operation/).selectOption('initiatePayment');
    await page.getByLabel(/^How many calls/).fill('2');
    await page.getByRole('button', { name: 'Add the fault' }).click();
    await page.waitForURL(/done=added/);
    const rheinland = page.locator('tbody tr', { hasText: 'Rheinland' });
    assert.match(await rheinland.innerText(), /HTTP 503 on initiatePayment, the next 2 calls/);
    await checkAccessibility(page);
    // The bank itself holds the rule, as after `openpis sandbox faults add`.
    const held = (await (
      await fetch(`${app.baseUrl}/sandbox-bank/rheinland/sandbox/faults`, {
        headers: { authorization: `Bearer ${app.config.sandboxOperatorToken}` },
      })
    ).json()) as { faults: unknown[] };
    assert.equal(held.faults.length, 1);
    await rheinland.getByRole('button', { name: /Clear/ }).click();
    await page.waitForURL(/done=cleared/);
    assert.match(await page.locator('tbody tr', { hasText: 'Rheinland' }).innerText(), /None: the bank behaves/);
    const cleared = (await (
      await fetch(`${app.baseUrl}/sandbox-bank/rheinland/sandbox/faults`, {
        headers: { authorization: `Bearer ${app.config.sandboxOperatorToken}` },
      })
    ).json()) as { faults: unknown[] };
    assert.equal(cleared.faults.length, 0);
    // A UK Open Banking sandbox bank, with an operation of its own standard.
    await page.getByLabel('Bank', { exact: true }).selectOption({ label: 'Albion Bank Sandbox' });
    await page.getByLabel('Fault').selectOption('delay-3000');
    await page.getByLabel(/^Operation/).selectOption('getDomesticPayment');
    await page.getByLabel(/^How many calls/).fill('1');
    await page.getByRole('button', { name: 'Add the fault' }).click();
    await page.waitForURL(/done=added/);
    const albion = page.locator('tbody tr', { hasText: 'Albion' });
    assert.match(await albion.innerText(), /3000 ms delay on getDomesticPayment, the next 1 calls/);
    await checkAccessibility(page);
    await albion.getByRole('button', { name: /Clear/ }).click();
    await page.waitForURL(/done=cleared/);
    await page.goto(`${app.baseUrl}/console/audit`);
    const entries = await page.locator('tbody tr').allInnerTexts();
    const added = entries.filter((entry) => entry.includes('sandbox.fault.added'));
    assert.ok(added.some((entry) => /rheinland[\s\S]*initiatePayment/.test(entry)));
    assert.ok(added.some((entry) => /uk\/albion[\s\S]*getDomesticPayment/.test(entry)));
    assert.ok(entries.some((entry) => entry.includes('sandbox.faults.cleared')));

    const member = await newPage();
    memberKey = await signInToConsole(member, app.baseUrl, 'mia@acme.example', memberKey === '' ? {} : { key: memberKey });
    await member.waitForURL(/\/console\/payments$/);
    assert.equal(await member.getByRole('link', { name: 'Sandbox' }).count(), 0);
    assert.equal((await member.goto(`${app.baseUrl}/console/sandbox`))?.status(), 404);
  });

  it('found no accessibility violation of any impact on these pages', () => {
    assert.deepEqual(findings, []);
  });
});
