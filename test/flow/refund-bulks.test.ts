/**
 * Refunds approved together (src/flow/refund-bulks.ts; docs/api-decisions.md, "Many refunds, one approval") through
 * the real HTTP app on SQLite and PostgreSQL, without a browser: which refunds may form a bulk and why others are
 * refused; a follower never acts on its own (its page is its leader's, its jobs are gone, the sweep leaves it alone);
 * every status the leader takes, each follower takes in the same commit with its own history record and event; the
 * bank list of a bulk offers only banks that make bulk payments.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { formRefundBulk } from '../../src/flow/refund-bulks.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { testSecretBox } from '../helpers/secret-keys.js';
import { injectSandboxFault, startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { continueLinkOf, fieldsAsked, get, headingOf, pastWaitingPage, submit, submitAndFollow } from '../hosted/http-payer.js';

interface Resource {
  readonly paymentId: string;
  readonly redirectUrl: string;
  readonly status: string;
  readonly detailedStatus: string;
}

for (const kind of await testDatabaseKinds()) {
  describe(`refunds approved together (${kind.name})`, () => {
    let app: TestApp;
    let acme: TestClient;
    let other: TestClient;

    before(async () => {
      app = await startTestApp(kind);
      acme = await app.createClient({ name: 'Acme Shop' });
      other = await app.createClient({ name: 'Other Shop' });
    });
    after(() => app?.close());

    /** A completed payment of the client whose payer the bank told, stored as the flow leaves it. */
    async function completedPayment(client: TestClient, options: { currency?: string; merchantIban?: string } = {}): Promise<string> {
      const row = storedPaymentRow(client.clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        amount: '10.00',
        currency: options.currency ?? 'EUR',
        recipient: JSON.stringify({
          account: { number: { type: 'IBAN', value: options.merchantIban ?? 'DE54500105171000007919' } },
          name: 'Acme GmbH',
        }),
        payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE89370400440532013000' }, name: 'Dave Payer' }),
      });
      await app.database.db.insertInto('payments').values(row).execute();
      return row.id;
    }

    async function refund(client: TestClient, paymentId: string, amount: string, webhookUrl?: string): Promise<Resource> {
      const response = await app.request(`/api/v1/ob/payments/${paymentId}/refunds`, {
        method: 'POST',
        token: await client.token(),
        json: {
          amount,
          reference: `Refund ${amount.replace('.', ' ')}`,
          metadata: {
            redirectUri: 'https://merchant.example/refunds/done',
            endToEndId: `refund-${randomUUID()}`,
            ...(webhookUrl === undefined ? {} : { webhookUrl }),
          },
        },
      });
      const body = await response.text();
      assert.equal(response.status, 201, body);
      return JSON.parse(body) as Resource;
    }

    async function resource(client: TestClient, paymentId: string): Promise<Resource> {
      const response = await app.request(`/api/v1/ob/payments/${paymentId}`, { token: await client.token() });
      assert.equal(response.status, 200);
      return (await response.json()) as Resource;
    }

    async function historyOf(paymentId: string): Promise<string[]> {
      const rows = await app.database.db
        .selectFrom('payment_status_history')
        .select('detailed_status')
        .where('payment_id', '=', paymentId)
        .orderBy('sequence')
        .execute();
      return rows.map((row) => row.detailed_status);
    }

    async function jobsOf(paymentId: string): Promise<string[]> {
      const rows = await app.database.db.selectFrom('jobs').select('kind').where('subject_id', '=', paymentId).execute();
      return rows.map((row) => row.kind).sort();
    }

    /** Forms a bulk as a member of acme would, or with `{ operator: true }` as an operator (every client's refunds). */
    const form = (ids: readonly string[], as: { operator?: boolean } = {}) =>
      formRefundBulk(app.database.db, { refundIds: ids, clientScope: as.operator === true ? undefined : acme.clientId, now: new Date() });

    it('refuses what cannot be approved together, and forms nothing then', async () => {
      const paymentId = await completedPayment(acme);
      const [a, b] = [await refund(acme, paymentId, '1.00'), await refund(acme, paymentId, '1.00')];
      const dollars = await refund(acme, await completedPayment(acme, { currency: 'USD' }), '1.00');
      const elsewhere = await refund(acme, await completedPayment(acme, { merchantIban: 'FR1420041010050500013M02606' }), '1.00');
      const theirs = await refund(other, await completedPayment(other), '1.00');

      const refusal = async (ids: readonly string[], code: string, as: { operator?: boolean } = {}) => {
        const result = await form(ids, as);
        assert.equal(result.kind, 'refused');
        assert.equal(result.kind === 'refused' ? result.refusal.code : '', code);
      };
      await refusal([a.paymentId], 'TOO_FEW');
      await refusal([a.paymentId, a.paymentId.toUpperCase()], 'TOO_FEW');
      await refusal([a.paymentId, theirs.paymentId], 'NOT_FOUND');
      // A payment that is not a refund is no refund to approve.
      await refusal([a.paymentId, paymentId], 'NOT_FOUND');
      await refusal([a.paymentId, dollars.paymentId], 'DIFFERENT_CURRENCIES');
      await refusal([a.paymentId, elsewhere.paymentId], 'DIFFERENT_ACCOUNTS');
      // A refund to a UK payer's sort code and account number: no bank that makes bulk payments pays to one.
      const toUkPayer = await completedPayment(acme);
      await app.database.db
        .updateTable('payments')
        .set({
          payer: JSON.stringify({
            account: { type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode: '040004', accountNumber: '10001001' },
            name: 'Alice Happy',
          }),
        })
        .where('id', '=', toUkPayer)
        .execute();
      await refusal([a.paymentId, (await refund(acme, toUkPayer, '1.00')).paymentId], 'UK_ACCOUNT');
      // An operator sees every client's, but a bulk is one client's.
      await refusal([a.paymentId, theirs.paymentId], 'DIFFERENT_CLIENTS', { operator: true });
      // A refund whose approver has chosen a bank already is past the point where a bulk could carry it.
      await app.database.db
        .updateTable('payments')
        .set({ provider_id: '7f7bc6ab-95fd-468a-8fce-7c465d98906d' })
        .where('id', '=', b.paymentId)
        .execute();
      await refusal([a.paymentId, b.paymentId], 'NOT_AWAITING_BANK_CHOICE');
      // A refund under a run's lease is being worked on.
      const c = await refund(acme, paymentId, '1.00');
      await app.database.db
        .updateTable('payments')
        .set({ flow_state: JSON.stringify({ leaseUntil: new Date(Date.now() + 60_000).toISOString() }) })
        .where('id', '=', c.paymentId)
        .execute();
      await refusal([a.paymentId, c.paymentId], 'BUSY');

      const marked = await app.database.db
        .selectFrom('payments')
        .select('id')
        .where('bulk_leader_id', 'is not', null)
        .where('client_id', '=', acme.clientId)
        .execute();
      assert.deepEqual(marked, [], 'a refused bulk marks no refund');
      assert.deepEqual(await jobsOf(a.paymentId), ['flow-expiry'], 'a refused bulk drops no job');
    });

    it('a follower is carried by its leader: one page, no jobs of its own, left alone by the sweep; a refund is in one bulk only', async () => {
      const paymentId = await completedPayment(acme);
      const [leader, follower, third] = [
        await refund(acme, paymentId, '1.00'),
        await refund(acme, paymentId, '2.00'),
        await refund(acme, paymentId, '3.00'),
      ];
      const formed = await form([leader.paymentId, follower.paymentId]);
      assert.deepEqual(formed, { kind: 'formed', leaderId: leader.paymentId });
      assert.deepEqual(await jobsOf(leader.paymentId), ['flow-expiry']);
      assert.deepEqual(await jobsOf(follower.paymentId), [], 'the leader’s jobs carry the follower');
      const again = await form([third.paymentId, follower.paymentId]);
      assert.equal(again.kind === 'refused' ? again.refusal.code : again.kind, 'ALREADY_IN_BULK');

      // The follower's flow link leads to the leader's, where the bulk is approved; the leader's page lists both.
      const followerPage = await get(follower.redirectUrl);
      assert.equal(followerPage.status, 303);
      assert.equal(new URL(followerPage.location ?? '', app.baseUrl).href, leader.redirectUrl);
      // A refund on its own is offered every bank; the bulk only the banks that make bulk payments.
      const alone = await get(`${third.redirectUrl}?country=ALL`);
      assert.ok(alone.html.includes(BANKS.lumiere));
      const bulkList = await get(`${leader.redirectUrl}?country=ALL`);
      assert.ok(bulkList.html.includes(BANKS.hansa) && bulkList.html.includes(BANKS.rheinland));
      assert.ok(!bulkList.html.includes(BANKS.lumiere));
      const leaderPage = await get(leader.redirectUrl);
      assert.equal(leaderPage.status, 200);
      assert.match(leaderPage.html, /You are refunding €3\.00 in total to 2 customers\./);
      assert.match(leaderPage.html, /Refund 1 00/);
      assert.match(leaderPage.html, /Refund 2 00/);

      // A follower without jobs is not a payment without a future: the sweep schedules nothing for it.
      const store = new PaymentStateStore(app.database.db, testSecretBox());
      const withoutFuture = (await store.findWithoutFuture(1000)).map((row) => row.id);
      assert.ok(!withoutFuture.includes(follower.paymentId));
    });

    it('every status the leader takes, each follower takes in the same commit, with its own history and event', async () => {
      const paymentId = await completedPayment(acme);
      const hook = 'https://merchant.example/hooks/refunds';
      const [leader, follower1, follower2] = [
        await refund(acme, paymentId, '1.00'),
        await refund(acme, paymentId, '2.00', hook),
        await refund(acme, paymentId, '3.00'),
      ];
      const formed = await form([leader.paymentId, follower1.paymentId, follower2.paymentId]);
      assert.equal(formed.kind, 'formed');

      // The approver cancels on the bulk's page: all three refunds are cancelled, none is left pending.
      const cancelPage = await get(`${leader.redirectUrl}/cancel`);
      assert.equal(cancelPage.status, 200);
      const cancelled = await submit(leader.redirectUrl, cancelPage.html, 'cancel');
      assert.equal(cancelled.status, 303);
      for (const made of [leader, follower1, follower2]) {
        const now = await resource(acme, made.paymentId);
        assert.equal(now.status, 'FAILED', `${made.paymentId} failed with its leader`);
        assert.equal(now.detailedStatus, 'PAYMENT_REGISTRATION_FAILED');
        assert.deepEqual(await historyOf(made.paymentId), ['PROVIDER_SELECTION_REDIRECT_PENDING', 'PAYMENT_REGISTRATION_FAILED']);
      }
      const events = await app.database.db
        .selectFrom('events')
        .select(['subject_id', 'type'])
        .where('subject_id', 'in', [follower1.paymentId, follower2.paymentId])
        .execute();
      assert.equal(events.length, 4, 'each follower’s first status and its failure are events of its own');
      const deliveries = await app.database.db
        .selectFrom('webhook_events')
        .select(['subject_id'])
        .where('subject_id', '=', follower1.paymentId)
        .execute();
      assert.equal(deliveries.length, 2, 'the follower with a webhookUrl is told of its statuses');

      // Failed refunds free their amounts: the whole payment can be refunded again.
      const after = await refund(acme, paymentId, '10.00');
      assert.equal(after.status, 'PENDING');
    });
  });

  describe(`a bulk of refunds at the bank (${kind.name})`, () => {
    let flow: FlowHarness;
    before(async () => {
      flow = await startFlowHarness(kind, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
    });
    after(() => flow?.close());

    /**
     * Refunds of `amounts` of a completed payment paid into `merchantIban` (a sandbox payer's account, which the
     * refunds are paid from) by dave, formed into one bulk led by the first; their ids, and the leader's flow link.
     */
    async function bulkOf(merchantIban: string, amounts: readonly string[]): Promise<{ ids: string[]; redirectUrl: string }> {
      const row = storedPaymentRow(flow.client.clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        amount: '100.00',
        recipient: JSON.stringify({ account: { number: { type: 'IBAN', value: merchantIban } }, name: 'Acme GmbH' }),
        payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE76500105171000031676' }, name: 'Dave Exempt' }),
      });
      await flow.app.database.db.insertInto('payments').values(row).execute();
      const made: { paymentId: string; redirectUrl: string }[] = [];
      for (const amount of amounts) {
        const response = await flow.app.request(`/api/v1/ob/payments/${row.id}/refunds`, {
          method: 'POST',
          token: await flow.client.token(),
          json: {
            amount,
            reference: `Refund line ${made.length + 1}`,
            metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: `refund-${randomUUID()}` },
          },
        });
        assert.equal(response.status, 201);
        made.push((await response.json()) as { paymentId: string; redirectUrl: string });
      }
      const ids = made.map((refund) => refund.paymentId);
      const formed = await formRefundBulk(flow.app.database.db, { refundIds: ids, clientScope: flow.client.clientId, now: new Date() });
      assert.equal(formed.kind, 'formed');
      return { ids, redirectUrl: made[0]?.redirectUrl ?? '' };
    }

    /** The approver chooses Hansa (our login page, then the one-time code) and logs in as `psuId`; the page after the code. */
    async function approveAtHansa(redirectUrl: string, psuId: string) {
      // Every country's banks (the list opens on one country, which would hide a French bank anyway).
      const everywhere = await get(`${redirectUrl}?country=ALL`, {}, flow.seen);
      assert.ok(everywhere.html.includes(BANKS.rheinland), 'banks making bulk payments are offered');
      assert.ok(!everywhere.html.includes(BANKS.lumiere), 'a bank without bulk payments is not');
      const list = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(list.html), 'Choose your bank');
      const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: BANKS.hansa }, flow.seen);
      assert.deepEqual(fieldsAsked(login.html), ['loginId', 'password']);
      const code = await pastWaitingPage(
        redirectUrl,
        await submitAndFollow(redirectUrl, login.html, 'details', { loginId: psuId, password: TEST_PASSWORD }, flow.seen),
        flow.seen,
      );
      assert.equal(headingOf(code.html), 'Enter your one-time code');
      assert.match(code.html, /in total to 3 customers|in total to 2 customers/);
      return submitAndFollow(redirectUrl, code.html, 'code', { otp: '123456' }, flow.seen);
    }

    it('one authorisation pays them all: one bulk payment at the bank, each refund COMPLETED with its own history', async () => {
      const { ids, redirectUrl } = await bulkOf('DE54500105171000007919', ['1.00', '2.50', '4.00']);
      const outcome = await approveAtHansa(redirectUrl, 'alice');
      assert.equal(continueLinkOf(outcome), `https://merchant.example/refunds/done?paymentId=${ids[0]}`);
      for (const id of ids) await flow.waitFor(id, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const [leaderHistory, ...followerHistories] = await Promise.all(ids.map(async (id) => statuses(await flow.history(id))));
      assert.ok(leaderHistory?.includes('PAYMENT_REGISTRATION_PENDING'));
      for (const history of followerHistories) assert.deepEqual(history, leaderHistory, 'each follower took every status of the leader');
      const rows = await flow.app.database.db
        .selectFrom('payments')
        .select(['provider_id', 'provider_payment_id'])
        .where('id', 'in', ids)
        .execute();
      assert.equal(new Set(rows.map((row) => `${row.provider_id}/${row.provider_payment_id}`)).size, 1, 'one payment at one bank');
      assert.ok(rows[0]?.provider_payment_id !== null);
      await flow.assertPasswordNowhere();
    });

    it('a failing bank leaves the bulk pending, never failed: an unanswered initiation is sent again, every source of its status unanswered for a while, it is asked again', async () => {
      for (const rule of [
        { operations: ['initiatePayment'], paymentService: 'bulk-payments', fault: { kind: 'error', status: 500 }, times: 1 },
        {
          operations: ['getPaymentStatus', 'getPayment'],
          paymentService: 'bulk-payments',
          fault: { kind: 'error', status: 503 },
          times: 4,
        },
      ]) {
        const response = await injectSandboxFault(flow.app, 'hansa', rule);
        assert.equal(response.status, 201, await response.text());
      }
      const { ids, redirectUrl } = await bulkOf('DE54500105171000007919', ['1.10', '2.20']);
      await approveAtHansa(redirectUrl, 'alice');
      for (const id of ids) await flow.waitFor(id, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const rules = await fetch(`${flow.app.baseUrl}/sandbox-bank/hansa/sandbox/faults`, {
        headers: { authorization: `Bearer ${flow.app.config.sandboxOperatorToken}` },
      });
      assert.deepEqual(((await rules.json()) as { faults: unknown[] }).faults, [], 'the bank failed every call the rules named');
      for (const id of ids) {
        const history = await flow.history(id);
        assert.ok(
          history.every((record) => record.status !== 'FAILED'),
          `refund ${id} was never reported failed: ${statuses(history).join(', ')}`,
        );
      }
    });

    it('the bank rejects the bulk: every refund FAILED with the bank’s reason, and their amounts are free to refund again', async () => {
      // erik holds 25.00: neither 30.00 refund can be paid.
      const { ids, redirectUrl } = await bulkOf('DE51500105171000039595', ['30.00', '30.00']);
      await approveAtHansa(redirectUrl, 'erik');
      for (const id of ids) await flow.waitFor(id, (status) => status.endsWith('_FAILED'));
      const outcomes = await Promise.all(ids.map(async (id) => (await flow.history(id)).at(-1)));
      for (const last of outcomes) {
        assert.equal(last?.status, 'FAILED');
        assert.deepEqual(last?.failureReasons, outcomes[0]?.failureReasons, 'the bank’s word for one is its word for all');
      }
      const leader = await flow.app.database.db
        .selectFrom('payments')
        .select('refund_of')
        .where('id', '=', ids[0] ?? '')
        .executeTakeFirstOrThrow();
      const again = await flow.app.request(`/api/v1/ob/payments/${leader.refund_of ?? ''}/refunds`, {
        method: 'POST',
        token: await flow.client.token(),
        json: {
          amount: '100.00',
          reference: 'Refund all',
          metadata: { redirectUri: 'https://merchant.example/r', endToEndId: `r-${randomUUID()}` },
        },
      });
      assert.equal(again.status, 201, 'the failed bulk holds none of the payment’s amount');
    });
  });
}
