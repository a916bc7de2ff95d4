/**
 * The API reference page (`/docs`) works with no network beyond the service: in a real browser it renders the
 * operations of our OpenAPI document, and no request goes to another host (no outside fonts, scripts or buttons).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { browserSkip, launchBrowser } from '../e2e/browser-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('API reference page', { skip: browserSkip }, () => {
  let t: TestApp;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
  });
  after(() => t.close());

  it('renders the operations from /openapi.json and asks nothing of any other host', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const origin = new URL(t.baseUrl).origin;
      const elsewhere: string[] = [];
      // Anything not for the service is recorded and refused, so the page must do without it.
      await page.route('**/*', async (route) => {
        const url = route.request().url();
        if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      const response = await page.goto(`${t.baseUrl}/docs`);
      assert.equal(response?.ok(), true);
      await page.getByText('/api/v1/ob/payments', { exact: false }).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      assert.deepEqual(elsewhere, []);
      assert.equal(await page.getByText(/Ask AI|Deploy/).count(), 0);
    } finally {
      await browser.close();
    }
  });
});
