/**
 * A refund to a UK payer known only by sort code and account number, end to end over HTTP with no browser, on SQLite
 * and PostgreSQL (docs/api-decisions.md, "Refunds"): alice pays at the UK sandbox bank Pennine (decoupled: she approves
 * in the bank's app) into tom's account, named by a GB IBAN; her bank tells her refund account by sort code and
 * account number; the merchant refunds her; the approver is offered the UK Open Banking banks only (not Thames, a GB
 * bank on Berlin Group), chooses Pennine, and tom approves in the app, where the bank shows the refund's creditor as
 * `UK.OBIE.SortCodeAccountNumber` with alice's 14 digits; the refund completes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { composeIBAN } from 'ibantools';
import { startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import { approveInUkBankApp } from '../helpers/sandbox-payments.js';
import { waitFor } from '../helpers/wait.js';
import { fieldsAsked, get, headingOf, submit, submitAndFollow, type Answer } from '../hosted/http-payer.js';

/** GB banks of the sandbox catalogue: three on UK Open Banking, one (Thames) on Berlin Group. */
const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';
const ALBION = '6ed27f43-4c88-4544-81eb-366a9a31cf0b';
const SEVERN = '8f122a75-4f74-4977-a9c4-75d48312f79a';
const THAMES = '7b798cf4-cf1e-4d39-aa9c-f17dba789ca7';

/**
 * UK sandbox accounts are numbered in fixture order under one sort code (packages/sandbox-bank,
 * uk-open-banking/state.ts): alice's is the first, tom's (his only one) the fifteenth.
 */
const ALICE_UK_ACCOUNT = '04000410001001';
const TOM_UK_ACCOUNT = '04000410015015';
/** Tom's account as a GB IBAN (the bank code is not used for routing: sort code and account number are). */
const TOM_GB_IBAN = composeIBAN({ countryCode: 'GB', bban: `SAND${TOM_UK_ACCOUNT}` }) ?? '';

interface Resource {
  readonly paymentId: string;
  readonly redirectUrl: string;
  readonly status: string;
  readonly detailedStatus: string;
  readonly refundOf?: string;
  readonly payer?: { readonly account: Record<string, string>; readonly name?: string };
  readonly recipient?: { readonly account: { readonly number: Record<string, string> }; readonly name: string };
}

for (const kind of await testDatabaseKinds()) {
  describe(`a refund to a UK payer by sort code and account number, end to end (${kind.name})`, () => {
    let flow: FlowHarness;
    let token: string;

    before(async () => {
      flow = await startFlowHarness(kind, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
      token = await flow.client.token();
    });
    after(async () => {
      await flow?.close();
    });

    async function resource(paymentId: string): Promise<Resource> {
      const response = await flow.app.request(`/api/v1/ob/payments/${paymentId}`, { token });
      const body = await response.text();
      assert.equal(response.status, 200, body);
      return JSON.parse(body) as Resource;
    }

    /** The page after `page`, past our waiting page, once it is no longer "We are processing your payment". */
    async function settled(redirectUrl: string, page: Answer): Promise<Answer> {
      let current = page;
      await waitFor('the flow to move past the waiting page', async () => {
        if (headingOf(current.html) !== 'We are processing your payment') return true;
        current = await get(redirectUrl, {}, flow.seen);
        return headingOf(current.html) === 'We are processing your payment' ? undefined : true;
      });
      return current;
    }

    it("pays the refund to the payer's sort code and account number through a UK Open Banking bank", async () => {
      // alice pays 12.00 GBP into tom's account at Pennine, approving in her bank's app.
      const created = await flow.app.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: ukPaymentRequest(PENNINE, {
          amount: 12,
          sender: { credentials: { id: 'alice' } },
          recipient: {
            account: { number: { type: 'IBAN', value: TOM_GB_IBAN } },
            name: 'Tom Sterling',
            address: { country: 'GB', city: 'London', streetName: 'High Street', buildingNumber: '1', postCode: 'EC1A 1AA' },
          },
        }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
      assert.equal((await get(redirectUrl)).status, 200);
      assert.equal(await approveInUkBankApp(flow.app.baseUrl, 'pennine', 'alice'), 1);
      const paid = await waitFor('the payment COMPLETED with its payer known', async () => {
        const read = await resource(paymentId);
        return read.detailedStatus === 'PAYMENT_EXECUTION_COMPLETED' && read.payer !== undefined ? read : undefined;
      });
      assert.deepEqual(paid.payer, {
        account: { type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode: ALICE_UK_ACCOUNT.slice(0, 6), accountNumber: ALICE_UK_ACCOUNT.slice(6) },
        name: 'Alice Happy',
      });

      // The merchant refunds 5.00: paid to alice's sort code and account number.
      const refundResponse = await flow.app.request(`/api/v1/ob/payments/${paymentId}/refunds`, {
        method: 'POST',
        token,
        json: {
          amount: '5.00',
          reference: 'Refund order 1001',
          metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: `refund-${randomUUID()}` },
        },
      });
      const refundBody = await refundResponse.text();
      assert.equal(refundResponse.status, 201, refundBody);
      const refund = JSON.parse(refundBody) as Resource;
      assert.equal(refund.refundOf, paymentId);
      assert.deepEqual(refund.recipient, {
        account: { number: { type: 'SORT_CODE_ACCOUNT_NUMBER', value: ALICE_UK_ACCOUNT } },
        name: 'Alice Happy',
      });

      // The approver's bank list: the UK Open Banking banks, not Thames (Berlin Group pays to no sort code).
      const list = await get(refund.redirectUrl, {}, flow.seen);
      assert.equal(headingOf(list.html), 'Choose your bank');
      for (const bank of [PENNINE, ALBION, SEVERN]) assert.ok(list.html.includes(bank), `UK Open Banking bank ${bank} is offered`);
      assert.ok(!list.html.includes(THAMES), 'a GB bank on Berlin Group is not offered');
      // Thames, posted all the same, is not taken: the refund still waits for a bank.
      await submit(refund.redirectUrl, list.html, 'select-bank', { providerId: THAMES }, flow.seen);
      const stillNone = await flow.app.database.db
        .selectFrom('payments')
        .select('provider_id')
        .where('id', '=', refund.paymentId)
        .executeTakeFirstOrThrow();
      assert.equal(stillNone.provider_id, null);

      // tom (who holds the account the payment was paid into) chooses Pennine and gives his login id.
      const again = await get(refund.redirectUrl, {}, flow.seen);
      let page = await submitAndFollow(refund.redirectUrl, again.html, 'select-bank', { providerId: PENNINE }, flow.seen);
      if (page.html.includes('/continue"')) page = await submitAndFollow(refund.redirectUrl, page.html, 'continue', {}, flow.seen);
      assert.deepEqual(fieldsAsked(page.html), ['loginId'], page.html.slice(0, 2000));
      assert.ok(page.html.includes('Sort code 04-00-04, account 10001001'), 'the summary names the sort code and account, not an IBAN');
      const waiting = await settled(
        refund.redirectUrl,
        await submitAndFollow(refund.redirectUrl, page.html, 'details', { loginId: 'tom' }, flow.seen),
      );
      assert.equal(waiting.status, 200);

      // In the bank's app, the request shows the creditor as the bank received it: alice's sort code and account.
      const appPages: string[] = [];
      assert.equal(await approveInUkBankApp(flow.app.baseUrl, 'pennine', 'tom', appPages), 1);
      const request = appPages.find((html) => html.includes('name="request"')) ?? '';
      assert.match(request, new RegExp(`<dt>Recipient sort code and account</dt><dd>${ALICE_UK_ACCOUNT}</dd>`), request.slice(0, 3000));
      assert.match(request, /<dt>To<\/dt><dd>Alice Happy<\/dd>/);

      await flow.waitFor(refund.paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED', 30_000);
      const done = await resource(refund.paymentId);
      assert.equal(done.status, 'COMPLETED');
      assert.deepEqual(done.recipient, refund.recipient);
      const original = await resource(paymentId);
      assert.deepEqual((original as unknown as { refunds: unknown }).refunds, [
        { paymentId: refund.paymentId, amount: 5, status: 'COMPLETED' },
      ]);
    });
  });
}
