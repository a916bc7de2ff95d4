/**
 * The UK sandbox banks' payer pages in a real browser (Debian's Chromium through playwright-core): the hybrid flow
 * from `/authorize` through login, account choice and review to the TPP's redirect URI (served by the test on
 * loopback), Cancel on the login page with its required fields empty, and the decoupled bank's app.
 * Skipped when Chromium is absent, unless OPENPIS_REQUIRE_BROWSER=1 demands it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { gbpPayment, startUkBank, Tpp, type UkBank } from './tpp.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const required = process.env['OPENPIS_REQUIRE_BROWSER'] === '1';
const skip = !available && !required ? `${CHROMIUM} is not installed` : false;

describe('UK sandbox payer pages in a browser', { skip }, () => {
  let bank: UkBank;
  let browser: Browser;
  let tpp: Server;
  let callback: string;

  before(async () => {
    assert.ok(available, `${CHROMIUM} is required (OPENPIS_REQUIRE_BROWSER=1)`);
    bank = await startUkBank();
    tpp = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>TPP</title><h1>Back at the TPP</h1>');
    });
    await new Promise<void>((resolve) => tpp.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(tpp.address() as { port: number }).port}/callback`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => tpp.close(() => resolve()));
    await bank.close();
  });

  it('Bob logs in at Severn, picks his second account, approves, and lands at the TPP with code, id_token and state', async () => {
    const client = await new Tpp(bank, 'severn', callback).register(callback);
    const consent = await client.createConsent(gbpPayment('42.00'));
    const consentId = consent.body.Data.ConsentId as string;
    const page = await browser.newPage();
    await page.goto(await client.authorizeUrl(consentId, { state: 'browser-state', nonce: 'browser-nonce' }));
    assert.match(await page.title(), /Severn Savings/);
    await page.fill('#psuId', 'bob');
    await page.fill('#password', 'sandbox');
    await page.click('button[value=approve]');
    await page.check('input[value="acc-bob-eur-savings"]');
    await page.click('button[value=approve]');
    assert.match((await page.textContent('main')) ?? '', /42\.00 GBP/);
    await Promise.all([page.waitForURL(/\/callback#/), page.click('button[value=approve]')]);
    const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.equal(fragment.get('state'), 'browser-state');
    const code = fragment.get('code') ?? '';
    await client.verifyIdToken(fragment.get('id_token') ?? '', { consentId, nonce: 'browser-nonce', code, state: 'browser-state' });
    const exchanged = await client.exchangeCode(code);
    assert.equal(exchanged.status, 200);
    await page.close();
  });

  it('Cancel on the login page works with the fields empty (formnovalidate) and returns access_denied', async () => {
    const client = await new Tpp(bank, 'albion', callback).register(callback);
    const consent = await client.createConsent(gbpPayment('1.00'));
    const page = await browser.newPage();
    await page.goto(await client.authorizeUrl(consent.body.Data.ConsentId));
    await Promise.all([page.waitForURL(/\/callback#/), page.click('button[value=deny]')]);
    const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.equal(fragment.get('error'), 'access_denied');
    await page.close();
  });

  it("the form_post answer submits itself to the TPP under the page's strict CSP", async () => {
    const client = await new Tpp(bank, 'albion', callback).register(callback);
    const consent = await client.createConsent(gbpPayment('1.00'));
    const page = await browser.newPage();
    await page.goto(await client.authorizeUrl(consent.body.Data.ConsentId, { responseMode: 'form_post' }));
    await page.fill('#psuId', 'alice');
    await page.fill('#password', 'sandbox');
    await page.click('button[value=approve]');
    await Promise.all([page.waitForURL(/\/callback$/), page.click('button[value=approve]')]);
    assert.match((await page.textContent('h1')) ?? '', /Back at the TPP/);
    await page.close();
  });

  it("the decoupled bank's app lists the CIBA request for the signed-in payer and takes the approval", async () => {
    const client = await new Tpp(bank, 'pennine').register();
    const consent = await client.createConsent(gbpPayment('3.30'));
    const started = await client.backchannel(consent.body.Data.ConsentId, 'dave');
    const page = await browser.newPage();
    await page.goto(`${bank.base}/pennine/app`);
    assert.match(await page.title(), /Pennine/);
    await page.fill('#psuId', 'dave');
    await page.fill('#password', 'sandbox');
    await page.click('button[type=submit]');
    assert.match((await page.textContent('main')) ?? '', /3\.30 GBP/);
    await page.click('button[value=approve]');
    assert.match((await page.textContent('main')) ?? '', /Nothing waits/);
    const token = await client.oauthPost('token', {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: started.body.auth_req_id,
    });
    assert.equal(token.status, 200);
    await page.close();
  });
});
