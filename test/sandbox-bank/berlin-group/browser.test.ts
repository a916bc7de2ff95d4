/**
 * The payer pages in a real browser (Debian's Chromium through playwright-core): the redirect approach from the
 * bank's login to the TPP's redirect URI, served by the test itself on loopback; approve and cancel.
 * Skipped when Chromium is absent, unless OPENPIS_REQUIRE_BROWSER=1 demands it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { SEPA_PAYMENT, startHarness, xs2aHeaders, type Harness } from '../harness.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const required = process.env['OPENPIS_REQUIRE_BROWSER'] === '1';
const skip = !available && !required ? `${CHROMIUM} is not installed` : false;

describe('payer pages in a browser', { skip }, () => {
  let bank: Harness;
  let browser: Browser;
  let tpp: Server;
  let tppUrl: string;
  const landings: string[] = [];

  before(async () => {
    assert.ok(available, `${CHROMIUM} is required (OPENPIS_REQUIRE_BROWSER=1)`);
    bank = await startHarness();
    tpp = createServer((request, response) => {
      landings.push(request.url ?? '');
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>TPP</title><h1>Back at the TPP</h1>');
    });
    await new Promise<void>((resolve) => tpp.listen(0, '127.0.0.1', resolve));
    tppUrl = `http://127.0.0.1:${(tpp.address() as { port: number }).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    await bank?.close();
    await new Promise<void>((resolve) => (tpp === undefined ? resolve() : tpp.close(() => resolve())));
  });

  async function createPayment(): Promise<{ redirect: string; status: string }> {
    const created = await bank.call('initiatePayment', 'POST', '/rheinland/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'TPP-Redirect-URI': `${tppUrl}/ok?ref=1`, 'TPP-Nok-Redirect-URI': `${tppUrl}/nok?ref=1` }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });
    assert.equal(created.status, 201);
    return { redirect: bank.local(created.body._links.scaRedirect.href), status: created.body._links.status.href };
  }

  async function transactionStatus(href: string): Promise<string> {
    return (await bank.call('getPaymentInitiationStatus', 'GET', href, { headers: xs2aHeaders() })).body.transactionStatus;
  }

  it('login → review → approve → code lands on the TPP redirect URI', async () => {
    const payment = await createPayment();
    const page = await browser.newPage();
    try {
      await page.goto(payment.redirect);
      await page.getByLabel('User ID').fill('alice');
      await page.getByLabel('Password').fill('sandbox');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
      assert.match(await page.content(), /Merchant &amp; Co &lt;Test&gt;/);
      assert.match(await page.locator('dl').innerText(), /123\.45 EUR[\s\S]*NL91ABNA0417164300[\s\S]*Invoice 2026-042/);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByLabel('One-time code').fill('123456');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(`${tppUrl}/ok?ref=1`);
      assert.equal(await page.locator('h1').innerText(), 'Back at the TPP');
    } finally {
      await page.close();
    }
    assert.ok(landings.includes('/ok?ref=1'));
    assert.equal(await transactionStatus(payment.status), 'ACSC');
  });

  it('cancel at the review lands on the nok URI', async () => {
    const payment = await createPayment();
    const page = await browser.newPage();
    try {
      await page.goto(payment.redirect);
      await page.getByLabel('User ID').fill('alice');
      await page.getByLabel('Password').fill('sandbox');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${tppUrl}/nok?ref=1`, { timeout: 15_000 });
    } finally {
      await page.close();
    }
    assert.equal(await transactionStatus(payment.status), 'CANC');
  });

  // Cancel must work on every page, whatever the form's fields hold: a `required` field left empty must not
  // block it (the browser validates before submitting unless the button says `formnovalidate`).
  it('cancel on the login page, with the fields empty, lands on the nok URI and cancels the payment', async () => {
    const payment = await createPayment();
    const page = await browser.newPage();
    try {
      await page.goto(payment.redirect);
      await page.getByRole('heading', { name: /Log in to/ }).waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${tppUrl}/nok?ref=1`, { timeout: 15_000 });
    } finally {
      await page.close();
    }
    assert.equal(await transactionStatus(payment.status), 'CANC');
  });

  it('cancel on the one-time code page, with the code empty, lands on the nok URI and cancels the payment', async () => {
    const payment = await createPayment();
    const page = await browser.newPage();
    try {
      await page.goto(payment.redirect);
      await page.getByLabel('User ID').fill('alice');
      await page.getByLabel('Password').fill('sandbox');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByLabel('One-time code').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${tppUrl}/nok?ref=1`, { timeout: 15_000 });
    } finally {
      await page.close();
    }
    assert.equal(await transactionStatus(payment.status), 'CANC');
  });

  it('cancel on the SCA method page lands on the nok URI and cancels the payment', async () => {
    const payment = await createPayment();
    const page = await browser.newPage();
    try {
      await page.goto(payment.redirect);
      await page.getByLabel('User ID').fill('carla');
      await page.getByLabel('Password').fill('sandbox');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'How do you want to confirm?' }).waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${tppUrl}/nok?ref=1`, { timeout: 15_000 });
    } finally {
      await page.close();
    }
    assert.equal(await transactionStatus(payment.status), 'CANC');
  });

  it('a wrong password shows the attempts left, in the browser', async () => {
    const payment = await createPayment();
    const page = await browser.newPage();
    try {
      await page.goto(payment.redirect);
      await page.getByLabel('User ID').fill('alice');
      await page.getByLabel('Password').fill('nope');
      await page.getByRole('button', { name: 'Log in' }).click();
      assert.match(await page.getByRole('alert').innerText(), /2 attempts left/);
    } finally {
      await page.close();
    }
  });
});
