/**
 * "Pay with another bank": a payment that failed for a reason another bank could avoid offers it on the outcome page;
 * the retry is a new payment linked both ways (`retryOf`, `retriedBy`), with an end-to-end id derived from the
 * client's, announced by its first webhook event; the failed payment keeps its history and final status. Two clicks
 * at once make one retry. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { retryFigures } from '../../src/console/insight/retries.js';
import { get, headingOf, pastWaitingPage, submit, submitAndFollow, type Answer } from './http-payer.js';

const kinds = await testDatabaseKinds();

interface PaymentResource {
  paymentId: string;
  status: string;
  detailedStatus: string;
  endToEndId: string;
  redirectUrl: string;
  amount: number;
  retryOf?: string;
  retriedBy?: string;
}

for (const kind of kinds)
  describe(`paying with another bank after a failure (${kind.name})`, () => {
    let flow: FlowHarness;
    let token: string;
    before(async () => {
      flow = await startFlowHarness(kind);
      token = await flow.client.token();
    });
    after(() => flow?.close());

    async function resource(paymentId: string): Promise<PaymentResource> {
      const response = await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token });
      const body = await response.text();
      assert.equal(response.status, 200, body);
      return JSON.parse(body) as PaymentResource;
    }

    /** From the bank list of `redirectUrl`: chooses an embedded bank, logs in as `payer`, enters the code. */
    async function payAtEmbeddedBank(redirectUrl: string, list: Answer, bankId: string, payer: string): Promise<Answer> {
      assert.equal(headingOf(list.html), 'Choose your bank');
      const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: bankId }, flow.seen);
      assert.match(login.html, /name="password"/);
      let page = await submitAndFollow(redirectUrl, login.html, 'details', { loginId: payer, password: TEST_PASSWORD }, flow.seen);
      page = await pastWaitingPage(redirectUrl, page, flow.seen);
      assert.equal(headingOf(page.html), 'Enter your one-time code');
      return pastWaitingPage(redirectUrl, await submitAndFollow(redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen), flow.seen);
    }

    /** A hosted-mode payment of 100 EUR that fails at Hansa for lack of funds (erik has 25). */
    async function failedForFunds(
      overrides: Record<string, unknown> = {},
    ): Promise<{ paymentId: string; redirectUrl: string; endToEndId: string }> {
      const endToEndId = `retry-${kind.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const { paymentId, redirectUrl } = await flow.create({
        amount: 100,
        metadata: {
          redirectUri: 'https://merchant.example/return',
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId,
          webhookUrl: 'https://merchant.example/hooks',
        },
        ...overrides,
      });
      await payAtEmbeddedBank(redirectUrl, await get(redirectUrl, {}, flow.seen), BANKS.hansa, 'erik');
      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_FAILED');
      return { paymentId, redirectUrl, endToEndId };
    }

    it('offers another bank after insufficient funds; the retry is linked, announced, and completes at another bank', async () => {
      const { paymentId, redirectUrl, endToEndId } = await failedForFunds();
      const historyBefore = statuses(await flow.history(paymentId));
      assert.equal(historyBefore.at(-1), 'PAYMENT_EXECUTION_FAILED');

      const outcome = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(outcome.html), 'Payment not completed');
      assert.match(outcome.html, /there is not enough money in the account/);
      assert.match(outcome.html, /from an account at another bank now/);
      assert.match(outcome.html, /<button type="submit" class="primary" id="retry">Pay with another bank<\/button>/);
      // Going back to the shop stays, as the secondary way.
      assert.match(outcome.html, /<a class="button secondary" id="continue" href="https:\/\/merchant\.example\/return\?paymentId=/);
      const german = await get(`${redirectUrl}?lang=de`, {}, flow.seen);
      assert.match(german.html, /Mit einer anderen Bank bezahlen/);

      // Two clicks at once: one retry, and both land on its bank list.
      const [first, second] = await Promise.all([
        submit(redirectUrl, outcome.html, 'retry', {}, flow.seen),
        submit(redirectUrl, outcome.html, 'retry', {}, flow.seen),
      ]);
      assert.equal(first.status, 303);
      assert.equal(second.status, 303);
      assert.ok(first.location?.startsWith('/pay/') === true && first.location !== new URL(redirectUrl).pathname, first.location);
      assert.equal(second.location, first.location);
      const retries = await flow.app.database.db.selectFrom('payments').select(['id']).where('retry_of', '=', paymentId).execute();
      assert.equal(retries.length, 1);
      const retryId = retries[0]?.id ?? '';
      // A later click (the back button, a reload of the form) finds the same retry.
      const third = await submit(redirectUrl, outcome.html, 'retry', {}, flow.seen);
      assert.equal(third.location, first.location);

      // The failed payment keeps its final status and history, and names its retry.
      const old = await resource(paymentId);
      assert.equal(old.status, 'FAILED');
      assert.equal(old.retriedBy, retryId);
      assert.equal(old.retryOf, undefined);
      assert.deepEqual(statuses(await flow.history(paymentId)), historyBefore);
      const listed = await flow.app.request(`/api/v1/ob/payments?endToEndId=${encodeURIComponent(endToEndId)}`, { token });
      const items = ((await listed.json()) as { items: PaymentResource[] }).items;
      assert.equal(items[0]?.retriedBy, retryId);

      // The retry: same amount, derived end-to-end id, linked back, at the bank list.
      const retry = await resource(retryId);
      assert.equal(retry.retryOf, paymentId);
      assert.equal(retry.endToEndId, `${endToEndId}-R2`);
      assert.equal(retry.amount, 100);
      assert.equal(retry.status, 'PENDING');
      assert.equal(retry.detailedStatus, 'PROVIDER_SELECTION_REDIRECT_PENDING');
      // Its first webhook event announces it, with the payment it retries.
      const events = await flow.app.database.db
        .selectFrom('webhook_events')
        .select(['body', 'url'])
        .where('subject_id', '=', retryId)
        .orderBy('sequence')
        .execute();
      assert.equal(events[0]?.url, 'https://merchant.example/hooks');
      const announced = JSON.parse(String(events[0]?.body)) as { data: { paymentId: string; retryOf?: string; endToEndId: string } };
      assert.deepEqual(
        { paymentId: announced.data.paymentId, retryOf: announced.data.retryOf, endToEndId: announced.data.endToEndId },
        { paymentId: retryId, retryOf: paymentId, endToEndId: `${endToEndId}-R2` },
      );

      // The payer pays at another bank and finishes.
      const retryUrl = `${flow.app.baseUrl}${first.location ?? ''}`;
      const done = await payAtEmbeddedBank(retryUrl, await get(retryUrl, {}, flow.seen), BANKS.italia, 'alice');
      assert.ok(['Payment complete', 'Your bank is processing the payment'].includes(headingOf(done.html)), headingOf(done.html));
      await flow.waitFor(retryId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      assert.equal((await resource(paymentId)).status, 'FAILED');
      // The console's funnel counts the recovery: failed at a bank, retried at another, completed there.
      const scope = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 60_000), clientId: flow.client.clientId };
      assert.deepEqual(await retryFigures(flow.app.database.db, scope), { failedAvoidably: 1, retried: 1, retriedCompleted: 1 });
      assert.deepEqual(await retryFigures(flow.app.database.db, { ...scope, clientId: 'someone-else' }), {
        failedAvoidably: 0,
        retried: 0,
        retriedCompleted: 0,
      });
      await flow.assertPasswordNowhere();
    });

    it('custom mode offers it when the client asks, even when the payer saw no page of ours before the failure', async () => {
      // dave needs no SCA: with his credentials in the request the bank executes at once, and rejects 2000 EUR.
      const endToEndId = `custom-retry-${kind.name}-${Date.now()}`;
      const { paymentId, redirectUrl } = await flow.create({
        provider: { id: BANKS.hansa },
        amount: 2000,
        sender: { credentials: { id: 'dave', password: TEST_PASSWORD } },
        metadata: {
          redirectUri: 'https://merchant.example/return',
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId,
          retryWithAnotherBank: true,
        },
      });
      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_FAILED');
      const outcome = await get(redirectUrl, {}, flow.seen);
      assert.match(outcome.html, /there is not enough money in the account/);
      const retried = await submit(redirectUrl, outcome.html, 'retry', {}, flow.seen);
      assert.equal(retried.status, 303);
      const list = await get(`${flow.app.baseUrl}${retried.location ?? ''}`, {}, flow.seen);
      assert.equal(headingOf(list.html), 'Choose your bank');
      const retry = await flow.app.database.db
        .selectFrom('payments')
        .select(['mode', 'provider_id', 'sender', 'end_to_end_id'])
        .where('retry_of', '=', paymentId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(retry, { mode: 'hosted', provider_id: null, sender: null, end_to_end_id: `${endToEndId}-R2` });
    });

    it('no offer when the client said no, nor for failures another bank would meet too; a forged post changes nothing', async () => {
      const refused = await failedForFunds({
        metadata: {
          redirectUri: 'https://merchant.example/return',
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: `no-retry-${kind.name}-${Date.now()}`,
          retryWithAnotherBank: false,
        },
      });
      const page = await get(refused.redirectUrl, {}, flow.seen);
      assert.equal(headingOf(page.html), 'Payment not completed');
      assert.doesNotMatch(page.html, /Pay with another bank|\/retry"/);

      // Cancelled before any bank was chosen: no bank failed, so none is offered instead.
      const { paymentId, redirectUrl } = await flow.create({ provider: {} });
      const list = await get(redirectUrl, {}, flow.seen);
      const confirmation = await get(`${redirectUrl}/cancel`, {}, flow.seen);
      const cancelled = await submit(redirectUrl, confirmation.html, 'cancel', {}, flow.seen);
      assert.equal(cancelled.status, 303);
      const outcome = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(outcome.html), 'Payment cancelled');
      assert.doesNotMatch(outcome.html, /\/retry"/);
      // A retry posted with an earlier page's token is refused as a stale form; nothing is created.
      const forged = await submit(redirectUrl, list.html.replace('/select-bank"', '/retry"'), 'retry', {}, flow.seen);
      assert.equal(forged.status, 403);
      const none = await flow.app.database.db.selectFrom('payments').select('id').where('retry_of', '=', paymentId).execute();
      assert.equal(none.length, 0);
    });

    it('no offer after the payer cancels on our page at a chosen bank: that is their choice, not a failure at the bank', async () => {
      const { paymentId, redirectUrl } = await flow.create({});
      const list = await get(redirectUrl, {}, flow.seen);
      const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: BANKS.hansa }, flow.seen);
      assert.match(login.html, /name="password"/);
      const confirmation = await get(`${redirectUrl}/cancel`, {}, flow.seen);
      assert.equal((await submit(redirectUrl, confirmation.html, 'cancel', {}, flow.seen)).status, 303);
      await flow.waitFor(paymentId, (status) => status.endsWith('_FAILED'));
      const outcome = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(outcome.html), 'Payment cancelled');
      assert.doesNotMatch(outcome.html, /Pay with another bank|\/retry"/);
      const failed = await resource(paymentId);
      assert.equal(failed.retriedBy, undefined);
    });
  });
