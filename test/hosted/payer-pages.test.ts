/**
 * What the payer's pages say, over HTTP: the outcome of a failed payment in plain words, the status endpoint the
 * waiting pages' script asks, the methods of a bank named in the payer's language with the bank's own words marked
 * as the bank's, the warning before a bank that asks for two logins, the front door and the favicon.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { failureGroupOf } from '../../src/hosted/outcome/step.js';
import { FAILURE_CODES } from '../../src/domain/detailed-status.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { continueLinkOf, get, headingOf, openFlow, submit, submitAndFollow } from './http-payer.js';

const [sqlite] = await testDatabaseKinds();
const NEMUNAS = 'dae5f840-0eb1-4585-a0cc-3aca700d5e2b';

describe('what the payer pages say', () => {
  let flow: FlowHarness;
  before(async () => {
    assert.ok(sqlite);
    flow = await startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
  });
  after(() => flow?.close());

  it('groups every failure code for the payer', () => {
    assert.equal(failureGroupOf(['INSUFFICIENT_FUNDS']), 'funds');
    assert.equal(failureGroupOf(['PSU_CANCELLED']), 'cancelled');
    assert.equal(failureGroupOf(['SCA_FAILED']), 'authentication');
    assert.equal(failureGroupOf([]), 'technical');
    for (const code of FAILURE_CODES) assert.ok(failureGroupOf([code]) !== undefined, code);
  });

  it('a payment the bank rejects for lack of funds: the outcome page says so and what to do, in the payer language', async () => {
    const { paymentId, redirectUrl } = await flow.create({
      provider: { id: BANKS.hansa },
      amount: 100,
      sender: { credentials: { id: 'erik', password: TEST_PASSWORD } },
    });
    const code = await openFlow(redirectUrl, flow.seen);
    assert.equal(headingOf(code.html), 'Enter your one-time code');
    const approved = await submitAndFollow(redirectUrl, code.html, 'code', { otp: '123456' }, flow.seen);
    assert.equal(continueLinkOf(approved), `https://merchant.example/return?paymentId=${paymentId}`);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_FAILED');
    const failed = await get(redirectUrl, {}, flow.seen);
    assert.equal(headingOf(failed.html), 'Payment not completed');
    assert.match(failed.html, /there is not enough money in the account/);
    assert.match(failed.html, /another account or another way to pay/);
    assert.equal(continueLinkOf(failed), `https://merchant.example/return?paymentId=${paymentId}`);
    // The language switch works on a finished payment too (nothing is stored any more).
    const german = await get(`${redirectUrl}?lang=de`, {}, flow.seen);
    assert.equal(headingOf(german.html), 'Zahlung nicht abgeschlossen');
    assert.match(german.html, /nicht ausreichend gedeckt/);
    // A finished payment's page has no form: nothing to post, no page token.
    assert.doesNotMatch(failed.html, /<form method="post"|name="csrf"/);
    // The status endpoint answers the view only.
    const status = await get(`${redirectUrl}/status`, {}, flow.seen);
    assert.equal(status.status, 200);
    assert.deepEqual(JSON.parse(status.html), { view: 'outcome:PAYMENT_EXECUTION_FAILED' });
    assert.equal(status.headers.get('cache-control'), 'no-store');
    assert.equal((await get(`${flow.app.baseUrl}/pay/${'x'.repeat(43)}/status`, {}, flow.seen)).status, 404);
    await flow.assertPasswordNowhere();
  });

  it('names the bank methods in the payer language and marks the bank own words as the bank', async () => {
    const { redirectUrl } = await flow.create({
      provider: { id: BANKS.hansa },
      sender: { credentials: { id: 'carla', password: TEST_PASSWORD } },
    });
    const methods = await openFlow(redirectUrl, flow.seen);
    assert.equal(headingOf(methods.html), 'How do you want to confirm?');
    assert.match(
      methods.html,
      /<strong>Code by text message \(SMS\)<\/strong><span class="bank-says">Your bank says: “SMS to \+49 160 xxxxx 28”<\/span>/,
    );
    assert.match(methods.html, /<strong>chipTAN \(card reader\)<\/strong>/);
    assert.match(methods.html, /<strong>Code in your banking app \(pushTAN\)<\/strong>/);
    const german = await get(`${redirectUrl}?lang=de`, {}, flow.seen);
    assert.match(
      german.html,
      /<strong>Code per SMS<\/strong><span class="bank-says">Ihre Bank schreibt: „SMS to \+49 160 xxxxx 28“<\/span>/,
    );
    const sms = /name="methodId" value="([^"]+)"/.exec(german.html)?.[1] ?? '';
    const code = await submitAndFollow(redirectUrl, german.html, 'method', { methodId: sms }, flow.seen);
    assert.equal(headingOf(code.html), 'Geben Sie Ihren Einmalcode ein');
    assert.match(
      code.html,
      /<p class="method"><span><strong>Code per SMS<\/strong><span class="bank-says">Ihre Bank schreibt: „SMS to \+49 160 xxxxx 28“<\/span><\/span><\/p>/,
    );
  });

  it('warns before the first login at a bank that asks for two (an account list first), in hosted and custom mode', async () => {
    const hosted = await flow.create({ provider: {} });
    const list = await get(hosted.redirectUrl, {}, flow.seen);
    const chosen = await submit(hosted.redirectUrl, list.html, 'select-bank', { providerId: NEMUNAS }, flow.seen);
    // Not straight to the bank: our page first, with the warning and the link on.
    assert.equal(chosen.status, 303);
    assert.equal(chosen.location, new URL(hosted.redirectUrl).pathname);
    const before = await get(hosted.redirectUrl, {}, flow.seen);
    assert.match(before.html, /will ask you to log in twice: first to share your list of accounts, then to approve the payment\./);
    assert.match(before.html, /class="button primary" href="[^"]*\/sandbox-bank\/nemunas\//);

    const custom = await flow.create({ provider: { id: NEMUNAS } }, { 'accept-language': 'lt' });
    const review = await get(custom.redirectUrl, {}, flow.seen);
    assert.match(review.html, /paprašys prisijungti du kartus/);
    // A bank with one login says nothing of the kind.
    const plain = await flow.create({ provider: { id: BANKS.rheinland } });
    assert.doesNotMatch((await get(plain.redirectUrl, {}, flow.seen)).html, /log in twice/);
  });

  it('the front door says what the service is and links the API reference and the sandbox test payers; every page has our icon', async () => {
    const door = await get(`${flow.app.baseUrl}/`, { 'accept-language': 'fr' });
    assert.equal(door.status, 200);
    assert.equal(headingOf(door.html), 'Payer par banque, en toute sécurité');
    assert.match(door.html, /href="\/docs"/);
    assert.match(door.html, new RegExp(`href="${flow.app.baseUrl}/sandbox-bank/"`));
    assert.doesNotMatch(door.html, /Console/);
    assert.match(door.html, /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/);
    assert.match((await get(`${flow.app.baseUrl}/?lang=en`)).html, /<h1>Pay by bank, securely<\/h1>/);
    const icon = await get(`${flow.app.baseUrl}/favicon.svg`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
    assert.match(icon.html, /^<svg /);
    const ico = await get(`${flow.app.baseUrl}/favicon.ico`);
    assert.equal(ico.status, 301);
    assert.equal(ico.location, '/favicon.svg');
    const unknown = await get(`${flow.app.baseUrl}/pay/${'x'.repeat(43)}`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.html, /<link rel="icon" href="\/favicon\.svg"/);
  });
});
