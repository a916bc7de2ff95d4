/**
 * The example shop (examples/merchant-checkout) in Chromium against a real openpis with its workers and the
 * embedded sandbox bank: cart → "Pay by bank" → our bank selection → the sandbox bank → back at the shop, which
 * shows "confirming" while the bank has not confirmed, and the thank-you page only once the payment is COMPLETED.
 * Its webhooks arrive as on a developer's laptop, forwarded by `openpis listen` (the service itself delivers to
 * public https addresses only), and are verified by the shop.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { OpenpisClient } from '@openpis/sdk';
import { buildShop } from '../../examples/merchant-checkout/src/shop.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { waitUntil } from '../helpers/wait.js';
import { freePort, injectSandboxFault, startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { axeViolations, browserSkip, launchBrowser, openPage } from './browser-harness.js';

const [sqlite] = await testDatabaseKinds();

describe('example shop: pay by bank in a browser', { skip: browserSkip }, () => {
  let service: TestApp;
  let client: TestClient;
  let shop: ReturnType<typeof buildShop>;
  let shopUrl: string;
  let browser: Browser;
  let listener: ChildProcess;
  let listened = '';
  let scratch: string;

  before(async () => {
    assert.ok(sqlite !== undefined);
    service = await startTestApp(sqlite, {
      workers: true,
      env: { WORKER_POLL_INTERVAL_MS: '50', BANK_STATUS_POLL_BASE_MS: '200', BANK_STATUS_POLL_MAX_MS: '500' },
    });
    client = await service.createClient({ name: 'example shop' });
    const port = await freePort();
    shopUrl = `http://127.0.0.1:${port}`;
    shop = buildShop({
      openpis: new OpenpisClient({ baseUrl: service.baseUrl, clientId: client.clientId, clientSecret: client.clientSecret }),
      openpisUrl: service.baseUrl,
      shopUrl,
      webhookSecret: client.webhookSecret,
    });
    await shop.listen({ port, host: '127.0.0.1' });
    // The README's laptop set-up: the client's events forwarded to the shop, signed as webhooks.
    scratch = mkdtempSync(join(tmpdir(), 'openpis-shop-'));
    const database = service.config.database;
    listener = spawn(
      process.execPath,
      [
        ...CLI_ARGS,
        'listen',
        '--client',
        client.clientId,
        '--forward-to',
        `${shopUrl}/webhooks`,
        '--from',
        'start',
        '--position-file',
        join(scratch, 'position.json'),
        '--poll-interval-ms',
        '100',
        '--json',
      ],
      {
        env: {
          ...process.env,
          DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.path}` : database.url,
          BASE_URL: service.baseUrl,
          SECRET_KEYS: TEST_SECRET_KEYS,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    listener.stdout?.on('data', (chunk: Buffer) => (listened += chunk.toString()));
    listener.stderr?.on('data', (chunk: Buffer) => (listened += chunk.toString()));
    browser = await launchBrowser();
  });
  after(async () => {
    if (listener !== undefined && listener.exitCode === null) {
      const exited = new Promise((resolve) => listener.once('exit', resolve));
      listener.kill('SIGINT');
      await exited;
    }
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    await browser?.close();
    await shop?.close();
    await service?.close();
  });

  it('cart → pay → our pages → sandbox bank → back: "confirming" until the payment is COMPLETED, then the thank-you page', async () => {
    const seen: string[] = [];
    const page = await openPage(browser, seen);
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(shopUrl);
    await page.getByLabel(/Coffee mug/).fill('2');
    await page.getByLabel(/Paper filters/).fill('1');
    await page.getByRole('button', { name: 'Go to checkout' }).click();
    await page.getByRole('heading', { name: 'Your cart' }).waitFor();
    assert.match(await page.locator('tfoot').innerText(), /EUR 28\.99/);
    assert.deepEqual(await axeViolations(page), []);

    await page.getByRole('button', { name: 'Pay by bank' }).click();
    await page.waitForURL((url) => url.origin === service.baseUrl && url.pathname.startsWith('/pay/'));
    const order = /\/orders\/([0-9a-f-]{36})/.exec(seen.find((body) => body.includes('/orders/')) ?? '')?.[1];
    assert.ok(order !== undefined, 'the cart page named the order');
    await page.getByRole('heading', { name: 'Choose your bank' }).waitFor();
    // The list filters as the payer types (our page script; the Search button is for browsers without script).
    await page.getByLabel('Search for your bank').fill('rhein');
    await page.getByRole('button', { name: 'Pay with Rheinland Sandbox Bank' }).click();

    // At the bank: alice approves. Until this test lets it, the bank answers no status question, so the payment
    // stays PENDING after she is back.
    await page.getByLabel('User ID').fill('alice');
    await page.getByLabel('Password').fill('sandbox');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page
      .getByRole('button', { name: /^(Approve|Continue)$/ })
      .first()
      .click();
    const otp = page.getByLabel('One-time code');
    if (!(await otp.isVisible()))
      await page
        .getByRole('button', { name: /^(Approve|Continue)$/ })
        .first()
        .click();
    await otp.fill('123456');
    const fault = await injectSandboxFault(service, 'rheinland', {
      operations: ['getPaymentStatus', 'getPayment'],
      fault: { kind: 'error', status: 503 },
    });
    assert.equal(fault.status, 201);
    await page.getByRole('button', { name: 'Confirm' }).click();

    // Back on our pages: the bank has not confirmed yet, so the payer is told it is processing and goes on to the shop.
    await page.getByRole('heading', { name: 'Your bank is processing the payment' }).waitFor();
    await page
      .getByRole('link', { name: /^Continue to / })
      .or(page.getByRole('button', { name: /^Continue to / }))
      .click();
    await page.waitForURL(`${shopUrl}/orders/${order}`);
    await page.getByRole('heading', { name: 'We are confirming your payment' }).waitFor();
    const openpis = new OpenpisClient({ baseUrl: service.baseUrl, clientId: client.clientId, clientSecret: client.clientSecret });
    const [payment] = (await openpis.listPayments({ limit: 1 })).items;
    assert.ok(payment !== undefined);
    assert.equal(payment.status, 'PENDING', 'the bank has not confirmed');
    assert.equal(await page.getByRole('heading', { name: /Thank you/ }).count(), 0, 'no success while PENDING');
    // The page reloads itself and still waits.
    await page.waitForEvent('load');
    await page.getByRole('heading', { name: 'We are confirming your payment' }).waitFor();
    assert.equal((await openpis.getPayment(payment.paymentId)).status, 'PENDING');
    assert.deepEqual(await axeViolations(page), []);

    // The bank answers again: the payment completes, and only then does the shop say thank you.
    const cleared = await fetch(`${service.baseUrl}/sandbox-bank/rheinland/sandbox/faults`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${service.config.sandboxOperatorToken}` },
    });
    assert.ok(cleared.ok);
    await page.getByRole('heading', { name: 'Thank you, your payment is complete' }).waitFor({ timeout: 30_000 });
    assert.equal((await openpis.getPayment(payment.paymentId)).status, 'COMPLETED');
    assert.match(await page.locator('.paid').innerText(), /EUR 28\.99/);
    assert.deepEqual(cspViolations, [], 'the shop’s pages break none of their own policy');

    // Every event of the payment reached the shop's webhook endpoint and was verified there (204; a refused
    // signature is answered 400 and offered again).
    const deliveries = (): Array<{ paymentId?: string; status?: string; statusCode?: number }> =>
      listened
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { paymentId?: string; status?: string; statusCode?: number })
        .filter((line) => line.paymentId === payment.paymentId);
    await waitUntil('the COMPLETED event to be forwarded', () => deliveries().some((delivery) => delivery.status === 'COMPLETED'));
    assert.ok(
      deliveries().every((delivery) => delivery.statusCode === 204),
      listened,
    );
    await page.context().close();
  });

  it('the shop refuses unsigned webhooks and unknown orders, and sends a strict Content-Security-Policy', async () => {
    const forged = await fetch(`${shopUrl}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{"type":"payment.status.updated","data":{}}',
    });
    assert.equal(forged.status, 400);
    assert.equal((await fetch(`${shopUrl}/orders/00000000-0000-4000-8000-000000000000`)).status, 404);
    const home = await fetch(shopUrl);
    const csp = home.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`form-action 'self' ${service.baseUrl.replace(/[.]/g, '\\.')}`));
    assert.doesNotMatch(await home.text(), /<script|https?:\/\/(?!127\.0\.0\.1)/);
  });
});
