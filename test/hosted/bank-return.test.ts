/**
 * The bank's return hands the connector everything: the per-payment callback takes a query and a posted form and
 * passes both (without our own `result` marker) to the connector's `completeAuthorisation`, with the `state` the
 * return was verified against; the fixed return URL finds the payment by `state` (single use, like the callback);
 * and the fixed URL's fragment page is allowed its one script by the hash in its own CSP.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { CompleteAuthorisationInput, Connectors } from '../../src/connectors/index.js';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { get, post, submit } from './http-payer.js';

const [kind] = await testDatabaseKinds();

/** What the engine handed the connectors' `completeAuthorisation`, in order. */
const completions: CompleteAuthorisationInput[] = [];

function recordingCompletions(connectors: Connectors): Connectors {
  return {
    for(settings) {
      const connector = connectors.for(settings);
      return new Proxy(connector, {
        get(target, property, receiver) {
          if (property !== 'completeAuthorisation') return Reflect.get(target, property, receiver);
          return (input: CompleteAuthorisationInput) => {
            completions.push(input);
            return target.completeAuthorisation(input);
          };
        },
      });
    },
    close: () => connectors.close(),
  };
}

describe('the bank return, handed to the connector', () => {
  let flow: FlowHarness;
  before(async () => {
    if (kind === undefined) throw new Error('no database');
    flow = await startFlowHarness(kind, {}, { wrapConnectors: recordingCompletions });
  });
  after(async () => {
    await flow?.close();
  });

  /** A Rheinland (redirect) payment whose payer approved at the bank: the callback URL the bank sent the payer to. */
  async function approvedAtTheBank(): Promise<{ paymentId: string; callback: URL; secret: string }> {
    const created = await flow.create({ provider: { id: BANKS.rheinland } });
    const review = await get(created.redirectUrl, {}, flow.seen);
    const continued = await submit(created.redirectUrl, review.html, 'continue', {}, flow.seen);
    assert.equal(continued.status, 303);
    const atBank = await completeBankPages(new URL(continued.location ?? '', created.redirectUrl).href, {
      psuId: 'alice',
      password: TEST_PASSWORD,
      otp: '123456',
    });
    const callback = new URL(atBank.redirectedTo ?? '');
    const match = new RegExp(`^/pay/return/${created.paymentId}/([A-Za-z0-9_-]{43})$`).exec(callback.pathname);
    assert.ok(match?.[1] !== undefined, callback.href);
    return { paymentId: created.paymentId, callback, secret: match[1] };
  }

  const completionFor = (state: string): CompleteAuthorisationInput | undefined =>
    completions.find((input) => input.returned?.expectedState === state);

  it('a form posted to the callback and its query reach completeAuthorisation; the payment goes on', async () => {
    const { paymentId, callback, secret } = await approvedAtTheBank();
    callback.searchParams.set('bank_hint', 'h-1');
    const answer = await post(callback.href, { code: 'code-123', id_token: 'token-456' }, { 'sec-fetch-site': 'cross-site' }, flow.seen);
    assert.equal(answer.status, 303);
    assert.match(answer.location ?? '', /^\/pay\/[A-Za-z0-9_-]{43}$/);

    const completed = completionFor(`${paymentId}.${secret}`);
    assert.ok(completed?.returned !== undefined, 'the engine passed the return');
    assert.deepEqual(completed.returned.data.form, { code: 'code-123', id_token: 'token-456' });
    assert.equal(completed.returned.data.query['bank_hint'], 'h-1');
    assert.equal(completed.returned.data.query['result'], undefined, 'our own routing parameter is removed');
    assert.equal(completed.returned.data.nok, false);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
  });

  it('the "not OK" return says so, and only our marker is taken from the query', async () => {
    const { paymentId, callback, secret } = await approvedAtTheBank();
    callback.searchParams.set('result', 'nok');
    callback.searchParams.set('error', 'access_denied');
    assert.equal((await get(callback.href, {}, flow.seen)).status, 303);
    const completed = completionFor(`${paymentId}.${secret}`);
    assert.equal(completed?.returned?.data.nok, true);
    assert.deepEqual(completed?.returned?.data.query, { error: 'access_denied' });
    assert.deepEqual(completed?.returned?.data.form, {});
  });

  it('/pay/return finds the payment by state; a wrong or malformed state is refused, a used one reaches the connector never again', async () => {
    const { paymentId, callback, secret } = await approvedAtTheBank();
    const fixed = `${flow.app.baseUrl}/pay/return`;
    const state = `${paymentId}.${secret}`;

    assert.equal((await get(`${fixed}?state=${paymentId}.${'A'.repeat(43)}&code=c`, {}, flow.seen)).status, 404);
    assert.equal((await get(`${fixed}?state=not-ours&code=c`, {}, flow.seen)).status, 404);
    assert.equal((await post(fixed, { state: `${paymentId}.${'B'.repeat(43)}`, code: 'c' }, {}, flow.seen)).status, 404);
    assert.equal(completionFor(state), undefined, 'nothing reached the connector');

    const answer = await get(`${fixed}?state=${encodeURIComponent(state)}&code=code-789`, {}, flow.seen);
    assert.equal(answer.status, 303);
    const completed = completionFor(state);
    assert.deepEqual(completed?.returned?.data.query, { state, code: 'code-789' });
    assert.equal(completed?.returned?.data.nok, false);

    // Single use: the state, posted this time, and the per-payment callback of the same secret. The payment's flow
    // is over (the bank executes it): the payer is led to its outcome page, and the connector hears nothing more.
    const reused = await post(fixed, { state, code: 'code-789' }, {}, flow.seen);
    assert.equal(reused.status, 303);
    assert.equal(reused.location, answer.location);
    assert.equal((await get(callback.href, {}, flow.seen)).location, answer.location);
    assert.equal(completions.filter((input) => input.returned?.expectedState === state).length, 1);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
  });

  it('/pay/return without a state answers the fragment page, its script allowed by its hash alone', async () => {
    const page = await get(`${flow.app.baseUrl}/pay/return`, {}, flow.seen);
    assert.equal(page.status, 200);
    const scripts = [...page.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    assert.equal(scripts.length, 1);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, new RegExp(`script-src 'sha256-${hash.replace(/[+/=]/g, (character) => `\\${character}`)}'`));
    assert.ok(!csp.includes('unsafe-inline') && !/script-src[^;]*'self'/.test(csp), csp);
    assert.match(page.html, /<noscript>/);
    assert.match(scripts[0] ?? '', /location\.hash/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
  });
});
