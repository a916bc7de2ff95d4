/**
 * The payer's pages in a real browser, each behaviour in two languages and at both viewports (1280×800, 390×844):
 * the outcome pages (completed with its automatic continue and the way to stay, failed with the reason and what to
 * do), going back to the bank list, buttons that show they work and cannot be pressed twice, the decoupled waiting
 * page (progress, time left, following the status by script), the warning before two logins, methods named in the
 * payer's language, and the front door. Every page met is checked with axe-core at both viewports (no violation of
 * any impact). At the end, the password, the flow links and the page tokens are in no table and no log line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import {
  type AxeFinding,
  axeViolations,
  browserSkip,
  holdClock,
  launchBrowser,
  openPage,
  runClockUntilVisible,
  type Shop,
  startAll,
  startShop,
} from './browser-harness.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from './flow-harness.js';

const NEMUNAS = 'dae5f840-0eb1-4585-a0cc-3aca700d5e2b';
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };
const [sqlite] = await testDatabaseKinds();

describe('payer pages in a browser', { skip: browserSkip }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  const findings: AxeFinding[] = [];
  const checked: string[] = [];
  /** Every page token (CSRF) and flow link the payer's pages carried, for the canary at the end. */
  const pageTokens = new Set<string>();

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

  const metadata = (id: string) => ({
    redirectUri: `${shop.url}/return`,
    psuIpAddress: '203.0.113.7',
    psuUserAgent: 'Mozilla/5.0',
    endToEndId: `${id}-${Date.now()}`,
  });

  async function payerPage(locale: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await openPage(browser, flow.seen, locale);
    await page.setViewportSize(viewport);
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/pay/') && /^\/pay\/[A-Za-z0-9_-]{43}/.test(url.pathname)) pageTokens.add(url.pathname.slice(5, 48));
      response.text().then(
        (body) => {
          for (const match of body.matchAll(/name="csrf" value="([^"]+)"/g)) pageTokens.add(match[1] ?? '');
        },
        () => undefined,
      );
    });
    return page;
  }

  /** axe-core at both viewports, the page's own size restored after. */
  async function a11y(page: Page, label: string): Promise<void> {
    const own = page.viewportSize();
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      const found = await axeViolations(page);
      findings.push(...found.map((finding) => ({ ...finding, page: `${finding.page} (${label}, ${size.width}px)` })));
      checked.push(`${label} ${size.width}`);
    }
    if (own !== null) await page.setViewportSize(own);
  }

  /** An embedded payment with the credentials at creation: the payer's first page is the one-time code. */
  async function toCodePage(
    locale: string,
    viewport: typeof WIDE,
    psuId: string,
    amount = 10.5,
  ): Promise<{ page: Page; paymentId: string }> {
    const created = await flow.create({
      provider: { id: BANKS.hansa },
      amount,
      sender: { credentials: { id: psuId, password: TEST_PASSWORD } },
      metadata: metadata(psuId),
    });
    const page = await payerPage(locale, viewport);
    await page.goto(created.redirectUrl);
    await page.locator('#otp').waitFor();
    return { page, paymentId: created.paymentId };
  }

  /** From the one-time code page, the right code: the outcome page with this heading. */
  async function codeToOutcome(
    locale: string,
    viewport: typeof WIDE,
    psuId: string,
    heading: string,
    amount?: number,
  ): Promise<{ page: Page; paymentId: string }> {
    const reached = await toCodePage(locale, viewport, psuId, amount);
    await reached.page.locator('#otp').fill('123456');
    await reached.page.locator('button.primary').click();
    await reached.page.getByRole('heading', { name: heading }).waitFor();
    return reached;
  }

  /** Continue on the outcome page: the shop's return address with the payment id. */
  async function continueToShop(page: Page, paymentId: string): Promise<void> {
    await page.locator('#continue').click();
    await page.waitForURL((url) => url.origin === shop.url);
    assert.equal(new URL(page.url()).searchParams.get('paymentId'), paymentId);
    await page.context().close();
  }

  it('completed (English, wide): a receipt, then the payer stays; (German, narrow): it continues to the shop by itself', async () => {
    // The completed page goes on to the shop by itself after 6 seconds of the page's clock, which the test holds, so
    // the receipt and the accessibility check are seen however slow the machine is.
    const english = await toCodePage('en-GB', WIDE, 'alice');
    await holdClock(english.page);
    await english.page.locator('#otp').fill('123456');
    await english.page.locator('button.primary').click();
    await runClockUntilVisible(english.page, english.page.getByRole('heading', { name: 'Payment complete' }), 'the completed page');
    await a11y(english.page, 'completed en');
    const receipt = english.page.locator('dl.receipt');
    assert.match(await receipt.innerText(), /€10\.50[\s\S]*Acme GmbH[\s\S]*Invoice 2026-001[\s\S]*Hansa/);
    await english.page.getByText(/Taking you back to Acme GmbH in \d seconds\./).waitFor();
    await english.page.getByRole('button', { name: 'Stay on this page' }).click();
    await english.page.clock.runFor(7_000);
    assert.equal(new URL(english.page.url()).origin, flow.app.baseUrl, 'the payer stayed');
    assert.equal(await english.page.locator('#continue').innerText(), 'Continue to Acme GmbH');
    await continueToShop(english.page, english.paymentId);

    const german = await toCodePage('de-DE', NARROW, 'alice');
    await holdClock(german.page);
    await german.page.locator('#otp').fill('123456');
    await german.page.getByRole('button', { name: 'Zahlung bestätigen' }).click();
    await runClockUntilVisible(german.page, german.page.getByRole('heading', { name: 'Zahlung abgeschlossen' }), 'the completed page');
    await german.page.getByText(/Sie werden in \d Sekunden zu Acme GmbH zurückgeleitet\./).waitFor();
    await german.page.clock.runFor(7_000);
    await german.page.waitForURL((url) => url.origin === shop.url);
    assert.equal(new URL(german.page.url()).searchParams.get('paymentId'), german.paymentId);
    await german.page.context().close();
  });

  it('failed (French, narrow; English, wide): the reason in plain words and what to do next', async () => {
    for (const [locale, viewport, heading, reason] of [
      ['fr-FR', NARROW, 'Paiement non effectué', 'le solde du compte est insuffisant'],
      ['en-GB', WIDE, 'Payment not completed', 'there is not enough money in the account'],
    ] as const) {
      const { page, paymentId } = await codeToOutcome(locale, viewport, 'erik', heading, 100);
      await page.getByText(reason).waitFor();
      await a11y(page, `failed ${locale}`);
      await continueToShop(page, paymentId);
    }
  });

  it('still processing at the bank (Lithuanian, narrow; English, wide): what it means, the shop will be told, Continue', async () => {
    for (const [locale, viewport, heading, told] of [
      ['lt-LT', NARROW, 'Jūsų bankas vykdo mokėjimą', 'Acme GmbH bus informuotas'],
      ['en-GB', WIDE, 'Your bank is processing the payment', 'Acme GmbH will be told as soon as your bank confirms it.'],
    ] as const) {
      const { page, paymentId } = await codeToOutcome(locale, viewport, 'gustav', heading);
      await page.getByText(told).waitFor();
      assert.equal(await page.locator('main[data-status-url] progress').count(), 1, 'the page follows the status');
      await a11y(page, `processing at the bank ${locale}`);
      await continueToShop(page, paymentId);
    }
  });

  it('going back (English, wide; Lithuanian, narrow): from the bank login to the bank list, and on with another bank', async () => {
    for (const [locale, viewport, back, listHeading] of [
      ['en-GB', WIDE, 'Choose another bank', 'Choose your bank'],
      ['lt-LT', NARROW, 'Pasirinkti kitą banką', null],
    ] as const) {
      const { redirectUrl } = await flow.create({
        provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } },
        metadata: metadata('back'),
      });
      const page = await payerPage(locale, viewport);
      await page.goto(redirectUrl);
      const list = await page.locator('h1').innerText();
      if (listHeading !== null) assert.equal(list, listHeading);
      await page.locator('button.bank', { hasText: 'Hansa' }).click();
      await page.locator('#password').waitFor();
      await a11y(page, `login with back ${locale}`);
      await page.getByRole('button', { name: back }).click();
      await page.getByRole('heading', { name: list }).waitFor();
      await page.locator('button.bank', { hasText: 'Rheinland' }).click();
      await page.waitForURL((url) => url.pathname.includes('/sandbox-bank/rheinland/'));
      await page.context().close();
    }
  });

  it('a pressed button shows it works and cannot be pressed twice (English, wide; Spanish, narrow)', async () => {
    for (const [locale, viewport] of [
      ['en-GB', WIDE],
      ['es-ES', NARROW],
    ] as const) {
      const { redirectUrl } = await flow.create({ provider: { id: BANKS.rheinland }, metadata: metadata('busy') });
      const page = await payerPage(locale, viewport);
      await page.goto(redirectUrl);
      await a11y(page, `review ${locale}`);
      let posts = 0;
      // The answer never comes (204: the browser stays on the page): the payer's view while the bank is called.
      await page.route('**/continue', async (route) => {
        posts += 1;
        await route.fulfill({ status: 204 });
      });
      const button = page.locator('button.primary');
      await button.click();
      await page.locator('button.primary[disabled][aria-busy="true"].busy').waitFor();
      assert.equal(await page.locator('form[method="post"] button:not([disabled])').count(), 0, 'every button of the page is held');
      // Pressed again (a script's click reaches a disabled button's form no more than a payer's does).
      await page.evaluate(
        'document.querySelector("button.primary").click(); document.querySelector("form[action$=\'/continue\']").requestSubmit()',
      );
      await page.waitForTimeout(300);
      assert.equal(posts, 1);
      await page.context().close();
    }
  });

  it('decoupled (German, narrow; English, wide): progress, "open your bank app" with the time left; the page follows the approval', async () => {
    for (const [locale, viewport, openApp, timeLeft] of [
      ['de-DE', NARROW, 'Öffnen Sie die App Ihrer Bank', /Verbleibende Zeit für die Freigabe: etwa \d+ Min\./],
      ['en-GB', WIDE, "Open your bank's app", /Time left to approve: about \d+ min\./],
    ] as const) {
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.midi },
        sender: { credentials: { id: 'alice' } },
        metadata: metadata('decoupled'),
      });
      const page = await payerPage(locale, viewport);
      await page.goto(redirectUrl);
      if ((await page.locator('form[action$="/continue"]').count()) > 0) await page.locator('button.primary').click();
      await page.getByText(openApp).waitFor();
      assert.match(await page.locator('.timer').innerText(), timeLeft);
      assert.equal(await page.locator('progress').count(), 1);
      await a11y(page, `decoupled ${locale}`);
      const appUrl = await page.locator('a[target="_blank"]').getAttribute('href');
      assert.ok(appUrl !== null);
      let reloads = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) reloads += 1;
      });
      const app = await openPage(browser, flow.seen);
      await app.goto(appUrl);
      await app.getByRole('button', { name: 'Approve' }).click();
      await app.getByRole('heading', { name: 'Done' }).waitFor();
      await app.context().close();
      // The script saw the status change and reloaded once: the outcome.
      await page.locator('#continue').waitFor({ timeout: 20_000 });
      assert.ok(reloads <= 2, `reloads: ${reloads}`);
      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      await page.context().close();
    }
  });

  it('a bank that asks for two logins says so first (Spanish, narrow; English, wide)', async () => {
    for (const [locale, viewport, warning] of [
      ['es-ES', NARROW, 'le pedirá iniciar sesión dos veces'],
      ['en-GB', WIDE, 'will ask you to log in twice'],
    ] as const) {
      const { redirectUrl } = await flow.create({
        provider: { preferences: { countryCodes: { list: ['LT'], default: 'LT' } } },
        metadata: metadata('twice'),
      });
      const page = await payerPage(locale, viewport);
      await page.goto(redirectUrl);
      await page.locator(`button.bank[value="${NEMUNAS}"]`).click();
      await page.getByText(warning).waitFor();
      await a11y(page, `two logins ${locale}`);
      await page.locator('a.button.primary').click();
      await page.waitForURL((url) => url.pathname.includes('/sandbox-bank/nemunas/'));
      await page.context().close();
    }
  });

  it('methods named in the payer language, the bank words marked as the bank (German, narrow; English, wide)', async () => {
    for (const [locale, viewport, sms, says] of [
      ['de-DE', NARROW, 'Code per SMS', 'Ihre Bank schreibt: „SMS to +49 160 xxxxx 28“'],
      ['en-GB', WIDE, 'Code by text message (SMS)', 'Your bank says: “SMS to +49 160 xxxxx 28”'],
    ] as const) {
      const created = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'carla', password: TEST_PASSWORD } },
        metadata: metadata('methods'),
      });
      const page = await payerPage(locale, viewport);
      await page.goto(created.redirectUrl);
      await page.getByText(sms).waitFor();
      await page.getByText(says).waitFor();
      await a11y(page, `methods ${locale}`);
      await page.getByLabel(sms).check();
      await page.locator('button.primary').click();
      await page.locator('#otp').waitFor();
      assert.match(await page.locator('p.method').innerText(), new RegExp(sms.replace(/[()+]/g, '\\$&')));
      await a11y(page, `code ${locale}`);
      await page.context().close();
    }
  });

  it('the front door (French, narrow; English, wide): what the service is, the API reference, the sandbox test payers', async () => {
    for (const [locale, viewport, heading, sandbox] of [
      ['fr-FR', NARROW, 'Payer par banque, en toute sécurité', 'Banques de test et payeurs de test'],
      ['en-GB', WIDE, 'Pay by bank, securely', 'Sandbox banks and test payers'],
    ] as const) {
      const page = await payerPage(locale, viewport);
      await page.goto(`${flow.app.baseUrl}/`);
      await page.getByRole('heading', { name: heading }).waitFor();
      assert.equal(await page.locator('link[rel="icon"]').getAttribute('href'), '/favicon.svg');
      await a11y(page, `front door ${locale}`);
      await page.getByRole('link', { name: new RegExp(sandbox) }).click();
      await page.getByText('alice').first().waitFor();
      await page.goto(`${flow.app.baseUrl}/`);
      await page.locator('a.door[href="/docs"]').click();
      await page.waitForURL((url) => url.pathname.startsWith('/docs'));
      await page.context().close();
    }
  });

  it('the password, the flow links and the page tokens are in no table and no log line; the password in no response', async () => {
    await flow.assertPasswordNowhere();
    const db = flow.app.database.db;
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    const dump = (
      await Promise.all(tables.rows.map(async ({ name }) => JSON.stringify((await sql`select * from ${sql.table(name)}`.execute(db)).rows)))
    ).join('\n');
    const logs = flow.app.logs.join('\n');
    assert.ok(pageTokens.size > 10, `tokens seen: ${pageTokens.size}`);
    for (const token of pageTokens) {
      assert.ok(!dump.includes(token), 'a page token or flow link is in a table');
      assert.ok(!logs.includes(token), 'a page token or flow link is in the logs');
    }
  });

  it('every page met has no accessibility violation of any impact, at both viewports (axe-core)', () => {
    assert.ok(checked.length >= 30, `checked: ${checked.join(', ')}`);
    assert.deepEqual(findings, []);
  });
});
