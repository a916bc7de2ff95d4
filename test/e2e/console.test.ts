/**
 * The console in Chromium: an operator signs in and enrols an authenticator (reading the key off the page), a
 * member is locked out after five wrong passwords, every console page is checked by axe-core (0 violations of any
 * impact) at 1280×800 and 390×844, a member never reaches another client's payment by address or by search, a
 * webhook event is redelivered with one click and the audit log shows it, an operator uploads a client's logo
 * (an SVG refused with the reason, a PNG shown).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { totpCode } from '../../src/people/second-factor.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { consoleUsers, PASSWORD } from '../console/console-http.js';
import {
  type AxeFinding,
  axeViolationsAtViewports,
  browserSkip,
  launchBrowser,
  signInToConsole,
  startAll,
  VIEWPORTS,
} from './browser-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('the console in a browser', { skip: browserSkip }, () => {
  let app: TestApp;
  let browser: Browser;
  let acme: TestClient;
  let globex: TestClient;
  let acmePayment: string;
  let globexPayment: string;
  let operatorKey = '';
  /** Mia's authenticator, enrolled at her first sign-in. */
  let memberKey = '';
  /** When the enrolment's code was typed: a code of that 30-second step is spent. */
  let enrolledAt = 0;
  const findings: AxeFinding[] = [];
  const contexts: BrowserContext[] = [];

  const create = async (client: TestClient, amount: number): Promise<string> => {
    const request = paymentRequest({ amount });
    const metadata = { ...(request['metadata'] as Record<string, unknown>), webhookUrl: 'https://shop.example/hooks' };
    const response = await app.request('/api/v1/ob/payments', {
      method: 'POST',
      token: await client.token(),
      json: { ...request, metadata },
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { paymentId: string }).paymentId;
  };

  const newPage = async (viewport: (typeof VIEWPORTS)[number] = VIEWPORTS[0]): Promise<Page> => {
    const context = await browser.newContext({ viewport, locale: 'en-GB' });
    contexts.push(context);
    return context.newPage();
  };

  /** axe-core on the page as it is, at both viewport sizes. */
  const checkAccessibility = async (page: Page): Promise<void> => {
    findings.push(...(await axeViolationsAtViewports(page)));
  };

  const signIn = async (page: Page, email: string, password = PASSWORD): Promise<void> => {
    await page.goto(`${app.baseUrl}/console/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [app, browser] = await startAll([startTestApp(sqlite), launchBrowser()]);
    acme = await app.createClient({ name: 'Acme Shop' });
    globex = await app.createClient({ name: 'Globex' });
    acmePayment = await create(acme, 10.5);
    await create(acme, 249.99);
    globexPayment = await create(globex, 75);
    const users = consoleUsers(app);
    await users.create({ email: 'olga@operator.example', name: 'Olga Operator', role: 'operator', password: PASSWORD });
    await users.create({ email: 'mia@acme.example', name: 'Mia Member', role: 'member', clientId: acme.clientId, password: PASSWORD });
    await users.create({ email: 'lou@acme.example', name: 'Lou Locked', role: 'member', clientId: acme.clientId, password: PASSWORD });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it('signs an operator in with a password and a newly enrolled authenticator', async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/console`);
    assert.match(page.url(), /\/console\/sign-in/);
    await checkAccessibility(page);
    await signIn(page, 'olga@operator.example');
    await page.waitForURL(/\/console\/sign-in\/enrol/);
    assert.equal(await page.getByRole('img', { name: /QR code/ }).isVisible(), true);
    await checkAccessibility(page);
    operatorKey = (await page.locator('code.mono').first().innerText()).replace(/ /g, '');
    await page.getByLabel(/Code/).fill('000000' === totpCode(operatorKey, new Date()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.match(await page.getByRole('alert').innerText(), /That code is not right/);
    await checkAccessibility(page);
    enrolledAt = Date.now();
    await page.getByLabel(/Code/).fill(totpCode(operatorKey, new Date(enrolledAt)));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/console\/payments$/);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Payments');
  });

  it('opens every console page for the operator, each free of accessibility violations', async () => {
    const page = await newPage();
    await signIn(page, 'olga@operator.example');
    await page.waitForURL(/\/console\/sign-in\/code/);
    await checkAccessibility(page);
    // A code works once: while the enrolment's 30-second step lasts, wait for the next one.
    const step = (at: number): number => Math.floor(at / 30_000);
    if (step(Date.now()) === step(enrolledAt)) await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 200);
    await page.getByLabel(/Code/).fill(totpCode(operatorKey, new Date()));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/console\/payments$/);
    const paths = [
      '/console/payments',
      `/console/payments?status=PENDING&min=10&max=100`,
      '/console/payments?q=no-such-payment',
      `/console/payments/${globexPayment}`,
      '/console/clients',
      `/console/clients/${acme.clientId}`,
      '/console/people',
      '/console/audit',
      '/console/account/password',
      '/console/no-such-page',
    ];
    for (const path of paths) {
      await page.goto(`${app.baseUrl}${path}`);
      await checkAccessibility(page);
    }
    const mia = (await consoleUsers(app).find('mia@acme.example')).id;
    await page.goto(`${app.baseUrl}/console/people/${mia}`);
    await checkAccessibility(page);

    // A password change refused (the current one is wrong): the reason, with the fields marked.
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password', { exact: true }).fill('plum rocket lantern meadow');
    await page.getByLabel('New password again').fill('plum rocket lantern meadow');
    await page.getByRole('button', { name: 'Change password' }).click();
    assert.match(await page.getByRole('alert').innerText(), /The current password is not right/);
    assert.equal(await page.getByLabel('Current password').inputValue(), '');
    await checkAccessibility(page);

    // The client's logo, uploaded through the page's file input: an SVG is refused with the reason, a PNG is shown.
    await page.goto(`${app.baseUrl}/console/clients/${acme.clientId}`);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40"/></svg>');
    await page.getByLabel(/^Logo file/).setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: svg });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    assert.match(await page.getByRole('alert').innerText(), /SVG logos are not taken/);
    await checkAccessibility(page);
    const png = await sharp({ create: { width: 300, height: 100, channels: 4, background: '#0a5c36' } })
      .png()
      .toBuffer();
    await page.getByLabel(/^Logo file/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.waitForURL(/done=logo/);
    assert.match(await page.getByRole('status').first().innerText(), /Logo saved/);
    const logo = page.getByRole('img', { name: 'Logo of Acme Shop' });
    assert.match((await logo.getAttribute('src')) ?? '', /^\/pay\/assets\/logos\/[0-9a-f]{64}\.png$/);
    assert.equal(
      await logo.evaluate((image: unknown) => {
        const { complete, naturalWidth } = image as { complete: boolean; naturalWidth: number };
        return complete ? naturalWidth : 0;
      }),
      300,
    );
    await checkAccessibility(page);
  });

  it('locks a member out after five wrong passwords, and says so', async () => {
    const page = await newPage(VIEWPORTS[1]);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await signIn(page, 'lou@acme.example', `wrong password ${attempt}`);
      assert.match(await page.getByRole('alert').innerText(), /The email or the password is wrong/);
    }
    await signIn(page, 'lou@acme.example', 'wrong password 5');
    assert.match(await page.getByRole('alert').innerText(), /locked until/);
    await signIn(page, 'lou@acme.example');
    assert.match(await page.getByRole('alert').innerText(), /locked until/);
    await checkAccessibility(page);
  });

  it('keeps a member to their client: another client’s payment is not found by address or by search', async () => {
    const page = await newPage(VIEWPORTS[1]);
    memberKey = await signInToConsole(page, app.baseUrl, 'mia@acme.example');
    await page.waitForURL(/\/console\/payments$/);
    await checkAccessibility(page);
    assert.equal(await page.locator(`a[href="/console/payments/${globexPayment}"]`).count(), 0);
    assert.equal(await page.locator(`a[href="/console/payments/${acmePayment}"]`).count(), 1);
    const answer = await page.goto(`${app.baseUrl}/console/payments/${globexPayment}`);
    assert.equal(answer?.status(), 404);
    assert.match(await page.locator('main').innerText(), /There is nothing here/);
    await page.goto(`${app.baseUrl}/console/payments`);
    await page.getByLabel(/^Search/).fill(globexPayment);
    await page.getByRole('button', { name: 'Show payments' }).click();
    assert.match(await page.locator('main').innerText(), /No payment matches these filters/);
    assert.equal((await page.goto(`${app.baseUrl}/console/people`))?.status(), 404);
    assert.equal((await page.goto(`${app.baseUrl}/console/clients/${globex.clientId}`))?.status(), 404);
    await page.goto(`${app.baseUrl}/console/clients/${acme.clientId}`);
    await checkAccessibility(page);
  });

  it('redelivers a webhook event with one click, and the audit log shows who did it', async () => {
    const page = await newPage();
    await signInToConsole(page, app.baseUrl, 'mia@acme.example', { key: memberKey });
    await page.waitForURL(/\/console\/payments$/);
    await page.locator(`a[href="/console/payments/${acmePayment}"]`).click();
    await page.waitForURL(new RegExp(acmePayment));
    await checkAccessibility(page);
    await page
      .getByRole('button', { name: /Redeliver/ })
      .first()
      .click();
    await page.waitForURL(/done=redelivered/);
    assert.match(await page.getByRole('status').first().innerText(), /queued/);
    await checkAccessibility(page);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(/\/console\/audit$/);
    // Newest first: the payment page shown after the redelivery, then the redelivery itself.
    const rows = await page.locator('tbody tr').allInnerTexts();
    assert.match(rows[0] ?? '', /payment\.viewed/);
    const redelivered = rows[1] ?? '';
    assert.match(redelivered, /webhook\.redelivered/);
    assert.match(redelivered, /mia@acme\.example/);
    assert.match(redelivered, new RegExp(acmePayment));
    assert.match(redelivered, /127\.0\.0\.1/);
    assert.match(redelivered, /HeadlessChrome/);
    await checkAccessibility(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.goto(`${app.baseUrl}/console/audit`);
    assert.match(page.url(), /\/console\/sign-in/);
  });

  it('found no accessibility violation of any impact on any console page', () => {
    assert.deepEqual(findings, []);
  });
});
