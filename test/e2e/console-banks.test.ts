/**
 * The console's bank page in Chromium: an operator opens a sandbox bank from the Banks list, disables it and
 * enables it again (each confirmed), and runs the go-live check against the sandbox bank, its lines shown on the
 * page; a screenshot of the page is written to the test's temporary folder, and axe-core finds no violation.
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor, WAIT_BOUND_MS } from '../helpers/wait.js';
import { consoleUsers, PASSWORD } from '../console/console-http.js';
import { axeViolationsAtViewports, browserSkip, launchBrowser, signInToConsole, startAll } from './browser-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('the console’s bank page in a browser', { skip: browserSkip }, () => {
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [app, browser] = await startAll([startTestApp(sqlite, { banksInDatabase: true }), launchBrowser()]);
    await consoleUsers(app).create({ email: 'olga@operator.example', name: 'Olga Operator', role: 'operator', password: PASSWORD });
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('disables and enables a bank and runs its check, each confirmed', async () => {
    const bank = app.bankRegistry!.list('sandbox').find((entry) => entry.kind === 'bank');
    assert.ok(bank !== undefined);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await signInToConsole(page, app.baseUrl, 'olga@operator.example');
    await page.goto(`${app.baseUrl}/console/banks`);
    // No payment reached the banks yet: they are listed together under a summary, closed.
    await page.getByText(/without calls in the last day/).click();
    await page.getByRole('link', { name: bank.name, exact: true }).first().click();
    await page.waitForURL(`**/console/banks/${bank.id}`);

    await page.getByLabel(/Take this bank off the lists/).check();
    await page.getByRole('button', { name: 'Disable bank' }).click();
    await page.getByText('Bank disabled').waitFor();
    assert.equal((await app.bankRegistry!.store.get(bank.id))?.status, 'disabled');

    await page.getByLabel(/Put this bank back on the lists/).check();
    await page.getByRole('button', { name: 'Enable bank' }).click();
    await page.getByText('Bank enabled').waitFor();
    assert.equal((await app.bankRegistry!.store.get(bank.id))?.status, 'active');

    await page.getByLabel(/Reach this bank now/).check();
    await page.getByRole('button', { name: 'Run the check' }).click();
    // The check runs in the background; the page shows its lines once it is done.
    await waitFor(
      'the check’s lines',
      async () => {
        if ((await page.getByRole('columnheader', { name: 'Reason' }).count()) > 0) return true;
        await page.reload();
        return undefined;
      },
      WAIT_BOUND_MS,
      250,
    );
    const results = await page.locator('section[aria-labelledby="bank-check"] tbody tr').allInnerTexts();
    assert.ok(results.length > 0);
    assert.ok(
      results.some((line) => /^Pass/.test(line.trim())),
      results.join('\n'),
    );
    assert.equal(await page.getByText('Check started').count(), 0, 'the finished check’s lines replace the notice');

    const folder = await mkdtemp(join(tmpdir(), 'openpis-console-bank-'));
    const screenshot = join(folder, 'bank-page.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`screenshot: ${screenshot}`);
    assert.deepEqual(await axeViolationsAtViewports(page), []);
    await context.close();
  });
});
