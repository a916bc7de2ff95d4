import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { testDatabaseKinds } from '../helpers/databases.js';
import { launchBrowser, openPage, startAll, startShop, type Shop } from './browser-harness.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();
const OUT = '/tmp/i10flow/shots';
let flow: FlowHarness; let browser: Browser; let shop: Shop;
before(async () => { assert.ok(sqlite); [flow, browser, shop] = await startAll([startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '100', BANK_STATUS_POLL_MAX_MS: '300' }), launchBrowser(), startShop()]); });
after(async () => { await browser?.close(); await shop?.close(); await flow?.close(); });
const md = (id: string) => ({ redirectUri: `${shop.url}/return`, psuIpAddress: '203.0.113.7', psuUserAgent: 'Mozilla/5.0', endToEndId: `${id}-${Date.now()}` });
async function shot(page: Page, name: string) {
  for (const [w, h] of [[1280, 800], [390, 844]] as const) { await page.setViewportSize({ width: w, height: h }); await page.screenshot({ path: `${OUT}/${name}-${w}.png`, fullPage: true }); }
}
it('shots', { timeout: 200_000 }, async () => {
  let page = await openPage(browser, flow.seen, 'en-GB');
  let c = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'alice', password: TEST_PASSWORD } }, metadata: md('a') });
  await page.goto(c.redirectUrl); await page.locator('#otp').fill('123456'); await page.locator('button.primary').click();
  await page.getByRole('heading', { name: 'Payment complete' }).waitFor({ timeout: 15000 });
  await page.getByRole('button', { name: 'Stay on this page' }).click();
  await shot(page, 'completed-en');
  c = await flow.create({ provider: { id: BANKS.hansa }, amount: 100, sender: { credentials: { id: 'erik', password: TEST_PASSWORD } }, metadata: md('b') });
  page = await openPage(browser, flow.seen, 'de-DE');
  await page.goto(c.redirectUrl); await page.locator('#otp').fill('123456'); await page.locator('button.primary').click();
  await page.getByRole('heading', { name: 'Zahlung nicht abgeschlossen' }).waitFor({ timeout: 15000 });
  await shot(page, 'failed-de');
  c = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'gustav', password: TEST_PASSWORD } }, metadata: md('c') });
  page = await openPage(browser, flow.seen, 'en-GB');
  await page.goto(c.redirectUrl); await page.locator('#otp').fill('123456'); await page.locator('button.primary').click();
  await page.getByRole('heading', { name: 'Your bank is processing the payment' }).waitFor({ timeout: 15000 });
  await shot(page, 'processing-at-bank-en');
  c = await flow.create({ provider: { id: BANKS.midi }, sender: { credentials: { id: 'alice' } }, metadata: md('d') });
  page = await openPage(browser, flow.seen, 'de-DE');
  await page.goto(c.redirectUrl); if (await page.locator('form[action$="/continue"]').count()) await page.locator('button.primary').click();
  await page.locator('.timer').waitFor(); await shot(page, 'decoupled-de');
  c = await flow.create({ provider: {}, metadata: md('e') });
  page = await openPage(browser, flow.seen, 'en-GB');
  await page.goto(c.redirectUrl); await page.locator('button.bank', { hasText: 'Hansa' }).click(); await page.locator('#password').waitFor();
  await shot(page, 'login-back-en');
  c = await flow.create({ provider: { preferences: { countryCodes: { list: ['LT'], default: 'LT' } } }, metadata: md('f') });
  page = await openPage(browser, flow.seen, 'lt-LT');
  await page.goto(c.redirectUrl); await page.locator('button.bank[value="dae5f840-0eb1-4585-a0cc-3aca700d5e2b"]').click(); await page.locator('p.info').waitFor();
  await shot(page, 'two-logins-lt');
  c = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'carla', password: TEST_PASSWORD } }, metadata: md('g') });
  page = await openPage(browser, flow.seen, 'fr-FR');
  await page.goto(c.redirectUrl); await page.locator('input[name="methodId"]').first().waitFor(); await shot(page, 'methods-fr');
  await page.locator('button.primary').click(); await page.locator('#otp').waitFor(); await shot(page, 'code-fr');
  page = await openPage(browser, flow.seen, 'es-ES');
  await page.goto(`${flow.app.baseUrl}/`); await shot(page, 'front-es');
  await page.goto(`${flow.app.baseUrl}/pay/${'A'.repeat(43)}`); await shot(page, 'invalid-es');
});
