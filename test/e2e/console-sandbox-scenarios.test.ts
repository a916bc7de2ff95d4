/**
 * The console's Sandbox page makes a scenario payment in Chromium: an operator chooses the scenario and the sandbox
 * client, the page answers at once with the payment's link, and the payment's page shows the timeline reaching the
 * scenario's outcome; axe-core finds no violation of any impact at 1280×800 and 390×844 on the pages on the way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../src/people/second-factor.js';
import { consoleUsers, PASSWORD } from '../console/console-http.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { type AxeFinding, axeViolationsAtViewports, browserSkip, launchBrowser, startAll, VIEWPORTS } from './browser-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('the console’s scenario payments in a browser', { skip: browserSkip }, () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext | undefined;
  const findings: AxeFinding[] = [];

  /** axe-core on the page as it is, at both viewport sizes. */
  const checkAccessibility = async (page: Page): Promise<void> => {
    findings.push(...(await axeViolationsAtViewports(page)));
  };

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [app, browser] = await startAll([
      startTestApp(sqlite, { workers: true, env: { WORKER_POLL_INTERVAL_MS: '50', BANK_STATUS_POLL_BASE_MS: '100' } }),
      launchBrowser(),
    ]);
    await app.createClient({ name: 'Laptop Shop' });
    await app.createClient({ name: 'Live Shop', environment: 'production' });
    await consoleUsers(app).create({ email: 'olga@operator.example', name: 'Olga Operator', role: 'operator', password: PASSWORD });
  });
  after(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it('makes a cancelled payment from the Sandbox page and follows it to its outcome on the payment’s page', async () => {
    context = await browser.newContext({ viewport: VIEWPORTS[0], locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/console/sign-in`);
    await page.getByLabel('Email').fill('olga@operator.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/sign-in\/enrol/);
    const key = (await page.locator('code.mono').first().innerText()).replace(/ /g, '');
    await page.getByLabel(/Code/).fill(totpCode(key, new Date()));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/console\/payments$/);

    await page.getByRole('link', { name: 'Sandbox' }).click();
    await page.waitForURL(/\/console\/sandbox$/);
    await checkAccessibility(page);
    assert.deepEqual(await page.getByLabel('Sandbox client', { exact: true }).locator('option').allInnerTexts(), ['Laptop Shop']);
    await page.getByLabel('Scenario', { exact: true }).selectOption('cancelled');
    await page.getByRole('button', { name: 'Make the payment' }).click();
    await page.waitForURL(/\/console\/sandbox\?started=/);
    await checkAccessibility(page);

    await page.getByRole('status').getByRole('link').click();
    await page.waitForURL(/\/console\/payments\/[0-9a-f-]{36}$/);
    const timeline = page.locator('ol.timeline');
    await waitFor(
      'the timeline to show the cancellation',
      async () => {
        if ((await timeline.innerText()).includes('PSU_CANCELLED')) return true;
        await page.reload();
        return undefined;
      },
      60_000,
      250,
    );
    assert.match(await timeline.innerText(), /FAILED/);
    await checkAccessibility(page);
  });

  it('found no accessibility violation of any impact on these pages', () => {
    assert.deepEqual(findings, []);
  });
});
