/**
 * The API reference page (`/docs`) works with no network beyond the service: in a real browser it renders the
 * operations of our OpenAPI document, every request it makes goes to the service (no outside fonts, scripts or
 * buttons of a hosted service: "Ask AI", "Generate MCP" and "Deploy" came with the Scalar reference that /docs used
 * to be, replaced by Swagger UI from the package's own files), and its "Try it out" of the creation operation, with
 * the document's example as it is, creates a payment.
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

  it('renders the operations, asks nothing of any other host, and creates a payment from the example', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const origin = new URL(t.baseUrl).origin;
      const requested: string[] = [];
      const elsewhere: string[] = [];
      // Every request is recorded; anything not for the service is refused, so the page must do without it.
      await page.route('**/*', async (route) => {
        const url = route.request().url();
        requested.push(url);
        if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      const response = await page.goto(`${t.baseUrl}/docs`);
      assert.equal(response?.ok(), true);
      await page.getByText('/api/v1/ob/payments', { exact: false }).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      assert.ok(
        requested.some((url) => url === `${origin}/docs/json`),
        requested.join('\n'),
      );
      assert.deepEqual(elsewhere, []);
      assert.equal(await page.getByText(/Ask AI|Generate MCP|Deploy/).count(), 0);
      // The project's name heads the page, not Swagger UI's bar with the framework's logo and its "Explore" box.
      assert.equal(await page.title(), 'openpis API');
      await page
        .getByRole('heading', { name: /openpis: payment initiation API/ })
        .first()
        .waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('.topbar').count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Explore' }).count(), 0);
      assert.equal(await page.locator('img[src^="data:image/svg"]').count(), 0);

      // Try it out, as an integrator would: authorise with a token, then send the creation example unchanged.
      const client = await t.createClient();
      await page.locator('button.authorize').first().click();
      const bearer = page.locator('.dialog-ux .auth-container').filter({ hasText: 'bearerAuth' });
      await bearer.locator('input').fill(await client.token());
      await bearer.locator('button.authorize').click();
      await page.locator('.dialog-ux button.btn-done').first().click();
      const operation = page.locator('#operations-Payments-createPayment');
      await operation.locator('.opblock-summary').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByRole('button', { name: 'Execute' }).click();
      const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      assert.equal((await status.innerText()).trim(), '201');
      assert.deepEqual(elsewhere, []);
    } finally {
      await browser.close();
    }
  });
});
