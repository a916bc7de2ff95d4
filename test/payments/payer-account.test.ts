/**
 * The payer's account on the payment resource (docs/api-decisions.md, "The payer's account"), through the real app
 * and the sandbox banks: absent while the payer has not authorised, then, once the bank told it, the account and the
 * holder's name, shown from the same read that first shows COMPLETED. Berlin Group: the debtor account of the payment
 * resource with 1.3.12's owner names; UK Open Banking: the refund account the consent asked for (`Data.Refund`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
/** The sort code of every UK sandbox bank account (packages/sandbox-bank, uk-open-banking/state.ts). */
const SANDBOX_SORT_CODE = '040004';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import { waitFor } from '../helpers/wait.js';
import { get, headingOf, openFlow, submitAndFollow } from '../hosted/http-payer.js';
import { payerInBankApp } from '../sandbox-bank/uk-open-banking/tpp.js';

/** The UK sandbox bank whose payers approve in the bank's app (CIBA). */
const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';

interface PaymentResource {
  readonly status: string;
  readonly detailedStatus: string;
  readonly payer?: { readonly account: Record<string, string>; readonly name?: string };
}

for (const kind of await testDatabaseKinds()) {
  describe(`the payer's account on the payment resource (${kind.name})`, () => {
    let flow: FlowHarness;
    let token: string;

    before(async () => {
      flow = await startFlowHarness(kind, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
      token = await flow.client.token();
    });
    after(async () => {
      await flow?.close();
    });

    async function resource(paymentId: string): Promise<PaymentResource> {
      const response = await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token });
      assert.equal(response.status, 200);
      return (await response.json()) as PaymentResource;
    }

    /** The first read of the resource that shows a final status: the payer must be on it already. */
    function firstFinalRead(paymentId: string): Promise<PaymentResource> {
      return waitFor('a final status', async () => {
        const read = await resource(paymentId);
        return read.status === 'COMPLETED' || read.status === 'FAILED' ? read : undefined;
      });
    }

    it('Berlin Group: none while the payer is asked for the code; the debtor account and owner name once COMPLETED', async () => {
      const created = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'alice', password: TEST_PASSWORD } },
      });
      const codePage = await openFlow(created.redirectUrl, flow.seen);
      assert.equal(headingOf(codePage.html), 'Enter your one-time code');
      // Logged in, the payment registered at the bank, the debtor account settled there: not authorised yet.
      const waiting = await resource(created.paymentId);
      assert.equal(waiting.detailedStatus, 'PAYMENT_CONSENT_REDIRECT_PENDING');
      assert.equal('payer' in waiting, false, 'no payer before the bank says so');

      await submitAndFollow(created.redirectUrl, codePage.html, 'code', { otp: '123456' }, flow.seen);
      const done = await firstFinalRead(created.paymentId);
      assert.equal(done.detailedStatus, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(done.payer, { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' });

      // The list shares the resource's mapping.
      const list = await flow.app.request(`/api/v1/ob/payments?endToEndId=${encodeURIComponent(await endToEndIdOf(created.paymentId))}`, {
        token,
      });
      assert.equal(list.status, 200);
      const items = ((await list.json()) as { items: PaymentResource[] }).items;
      assert.deepEqual(items[0]?.payer, done.payer);
    });

    it('UK Open Banking: none while the payer approves in the app; the refund account by sort code and number once COMPLETED', async () => {
      const created = await flow.app.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
      assert.equal((await get(redirectUrl)).status, 200);
      const waiting = await resource(paymentId);
      assert.equal(waiting.detailedStatus, 'PAYMENT_CONSENT_REDIRECT_PENDING');
      assert.equal('payer' in waiting, false, 'no payer before the bank says so');

      assert.equal(await payerInBankApp({ base: `${flow.app.baseUrl}/sandbox-bank/uk` }, 'pennine', 'alice', 'approve', TEST_PASSWORD), 1);
      const done = await firstFinalRead(paymentId);
      assert.equal(done.detailedStatus, 'PAYMENT_EXECUTION_COMPLETED');
      const account = done.payer?.account;
      assert.equal(account?.['type'], 'SORT_CODE_ACCOUNT_NUMBER');
      assert.equal(account?.['sortCode'], SANDBOX_SORT_CODE);
      assert.match(account?.['accountNumber'] ?? '', /^\d{8}$/);
      assert.equal(done.payer?.name, 'Alice Happy');
      assert.deepEqual(Object.keys(account ?? {}).sort(), ['accountNumber', 'sortCode', 'type']);
    });

    it("stores the payer's details, never the payer's credentials", async () => {
      const rows = await flow.app.database.db.selectFrom('payments').select('payer').where('payer', 'is not', null).execute();
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => !(row.payer ?? '').includes(TEST_PASSWORD)));
      await flow.assertPasswordNowhere();
    });

    async function endToEndIdOf(paymentId: string): Promise<string> {
      const row = await flow.app.database.db
        .selectFrom('payments')
        .select('end_to_end_id')
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return row.end_to_end_id;
    }
  });
}
