/**
 * The engine and the hosted pages over plain HTTP (no browser): a redirect payment end to end, refused callbacks
 * (replayed, forged), CSRF, the flow link's reach, a double submit racing, and the language switch.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { BANKS, PLAIN_TO_REGISTRATION, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { continueLinkOf, get, headingOf, submit } from './http-payer.js';

const kinds = await testDatabaseKinds();

for (const kind of kinds) {
  describe(`hosted flow over HTTP (${kind.name})`, () => {
    let flow: FlowHarness;
    before(async () => {
      flow = await startFlowHarness(kind);
    });
    after(async () => {
      await flow?.close();
    });

    /** Creates a custom-mode Rheinland payment and takes the payer to the bank's page. */
    async function toTheBank(): Promise<{ paymentId: string; redirectUrl: string; bankUrl: string }> {
      const created = await flow.create({ provider: { id: BANKS.rheinland } });
      const review = await get(created.redirectUrl, {}, flow.seen);
      assert.equal(review.status, 200);
      assert.match(review.html, /10[.,]50/);
      const continued = await submit(created.redirectUrl, review.html, 'continue', {}, flow.seen);
      assert.equal(continued.status, 303);
      assert.ok(continued.location?.includes('/sandbox-bank/rheinland/sca/'), continued.location);
      return { ...created, bankUrl: new URL(continued.location ?? '', created.redirectUrl).href };
    }

    it('a redirect bank: review, the bank, our callback, the outcome page, execution polled to COMPLETED; a used callback leads to the outcome, a forged one is refused', async () => {
      const { paymentId, redirectUrl, bankUrl } = await toTheBank();
      const atBank = await completeBankPages(bankUrl, { psuId: 'alice', password: TEST_PASSWORD, otp: '123456' });
      assert.ok(atBank.redirectedTo?.includes(`/pay/return/${paymentId}/`), atBank.redirectedTo);
      const callback = atBank.redirectedTo ?? '';
      const returned = await get(callback, {}, flow.seen);
      assert.equal(returned.status, 303);
      assert.equal(returned.location, `/pay/${new URL(redirectUrl).pathname.split('/')[2]}`);
      const back = await get(new URL(returned.location ?? '', redirectUrl).href, {}, flow.seen);
      assert.equal(continueLinkOf(back), `https://merchant.example/return?paymentId=${paymentId}`);
      assert.match(headingOf(back.html), /^(Your bank is processing the payment|Payment complete)$/);

      // The payer reloads the used callback (or comes back to it through the history): the outcome again, nothing more.
      const replay = await get(callback, {}, flow.seen);
      assert.equal(replay.status, 303);
      assert.equal(replay.location, returned.location);
      const forged = await get(callback.replace(/\/[^/?]+(\?|$)/, `/${'A'.repeat(43)}$1`), {}, flow.seen);
      assert.equal(forged.status, 404);
      assert.ok(flow.app.logs.some((line) => line.includes('bank callback refused')));

      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const done = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(done.html), 'Payment complete');
      assert.match(done.html, /data-auto-continue="\d+"/);
      assert.match(done.html, /<noscript><meta http-equiv="refresh" content="\d+;url=https:\/\/merchant\.example\/return\?paymentId=/);
      assert.match(done.html, /Invoice 2026-001/);
      assert.deepEqual(statuses(await flow.history(paymentId)), [
        ...PLAIN_TO_REGISTRATION,
        'PAYMENT_CONSENT_REDIRECT_PENDING',
        'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
        'PAYMENT_EXECUTION_PENDING',
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      const changes = flow.app.logs.filter((line) => line.includes('payment status changed') && line.includes(paymentId));
      assert.ok(changes.length >= 8 && changes.every((line) => /"from":"\w+","to":"\w+"/.test(line) && line.includes('requestId')));
      await flow.assertPasswordNowhere({ loggedIn: 'at the bank' }); // typed on the bank's pages above
    });
  });
}
