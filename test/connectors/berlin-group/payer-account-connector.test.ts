/**
 * The Berlin Group connector's payment status with the payer's account, against a scripted bank: the payment
 * resource is read for the debtor account only once the bank has authorised the payment and only while the caller
 * does not know it yet; the owners' names come from the status answer; a resource that cannot be read, or that is not
 * the standard's shape, leaves the status as it is and the payer untold, with the reason.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createConnector, type CallContext } from '../../../src/connectors/index.js';
import { startFakeBank, settings, type FakeAnswer, type FakeBank } from '../helpers/fake-bank.js';
import { bgPayment } from '../helpers/references.js';

const context: CallContext = { requestId: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' };
const payment = bgPayment({ paymentId: 'p-9', paymentService: 'payments', paymentProduct: 'sepa-credit-transfers', links: {} });
const STATUS = '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-9/status';
const RESOURCE = '/xs2a/bank-a/v1/payments/sepa-credit-transfers/p-9';

let bank: FakeBank;
before(async () => {
  bank = await startFakeBank();
});
after(async () => {
  await bank.close();
});
beforeEach(() => {
  bank.requests.length = 0;
});

const connector = () => createConnector(settings(`${bank.origin}/xs2a/bank-a`));

function answers(status: FakeAnswer, resource: FakeAnswer): void {
  bank.handle((request) => (request.url.endsWith('/status') ? status : resource));
}

const resourceBody = (extra: Record<string, unknown> = {}) => ({
  debtorAccount: { iban: 'DE54500105171000007919' },
  instructedAmount: { currency: 'EUR', amount: '0.10' },
  creditorAccount: { iban: 'DE89370400440532013000' },
  creditorName: 'Merchant GmbH',
  transactionStatus: 'ACSC',
  ...extra,
});

describe("Berlin Group payment status with the payer's account", () => {
  test('settled: the debtor account of the payment resource and the owner name of the status answer (1.3.12)', async () => {
    answers(
      { status: 200, body: { transactionStatus: 'ACSC', ownerNames: [{ name: 'Alice Happy', role: 'owner' }] } },
      { status: 200, body: resourceBody() },
    );
    const result = await connector().getPaymentStatus({ context, payment });
    assert.equal(result.outcome, 'completed');
    assert.deepEqual(result.payer, { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' });
    assert.equal(result.payerIgnored, undefined);
    assert.deepEqual(
      bank.requests.map((request) => `${request.method} ${request.url}`),
      [`GET ${STATUS}`, `GET ${RESOURCE}`],
    );
  });

  test("a 1.3.11 status answer: the resource's debtorName names the holder", async () => {
    answers({ status: 200, body: { transactionStatus: 'ACTC' } }, { status: 200, body: resourceBody({ debtorName: 'Alice Happy' }) });
    const result = await connector().getPaymentStatus({ context, payment });
    assert.equal(result.outcome, 'pending');
    assert.deepEqual(result.payer, { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' });
  });

  test('not authorised yet (RCVD, PDNG), failed (RJCT) or known already: no call for it, and no payer', async () => {
    for (const code of ['RCVD', 'PDNG', 'RJCT']) {
      bank.requests.length = 0;
      answers({ status: 200, body: { transactionStatus: code } }, { status: 200, body: resourceBody() });
      const result = await connector().getPaymentStatus({ context, payment });
      assert.equal(result.payer, undefined, code);
      assert.deepEqual(
        bank.requests.map((request) => request.url),
        [STATUS],
        code,
      );
    }
    bank.requests.length = 0;
    answers({ status: 200, body: { transactionStatus: 'ACSC' } }, { status: 200, body: resourceBody() });
    const known = await connector().getPaymentStatus({ context, payment, payerKnown: true });
    assert.equal(known.outcome, 'completed');
    assert.equal(known.payer, undefined);
    assert.deepEqual(
      bank.requests.map((request) => request.url),
      [STATUS],
    );
  });

  test('the status endpoint down: the payment resource gives both the status and the payer, read once', async () => {
    answers({ status: 503 }, { status: 200, body: resourceBody({ debtorName: 'Alice Happy' }) });
    const result = await connector().getPaymentStatus({ context, payment });
    assert.equal(result.outcome, 'completed');
    assert.deepEqual(result.payer, { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' });
    assert.deepEqual(
      bank.requests.map((request) => request.url),
      [STATUS, RESOURCE],
    );
  });

  test('the payment resource failing: the status stands, the payer is untold, with the reason', async () => {
    answers({ status: 200, body: { transactionStatus: 'ACSC' } }, { status: 503 });
    const result = await connector().getPaymentStatus({ context, payment });
    assert.equal(result.outcome, 'completed');
    assert.equal(result.payer, undefined);
    assert.match(result.payerIgnored ?? '', /^the payment resource could not be read/);
  });

  test('a debtor account that is not an IBAN, or owner names of another shape: left out with the reason, never the values', async () => {
    answers(
      { status: 200, body: { transactionStatus: 'ACSC' } },
      { status: 200, body: resourceBody({ debtorAccount: { bban: '500105171000007919' } }) },
    );
    const noIban = await connector().getPaymentStatus({ context, payment });
    assert.equal(noIban.outcome, 'completed');
    assert.equal(noIban.payer, undefined);
    assert.match(noIban.payerIgnored ?? '', /debtorAccount names the account without an IBAN/);
    assert.ok(!(noIban.payerIgnored ?? '').includes('500105171000007919'));

    answers({ status: 200, body: { transactionStatus: 'ACSC', ownerNames: 'Alice Happy' } }, { status: 200, body: resourceBody() });
    const badNames = await connector().getPaymentStatus({ context, payment });
    assert.deepEqual(badNames.payer, { account: { type: 'IBAN', value: 'DE54500105171000007919' } });
    assert.equal(badNames.payerIgnored, 'ownerNames is not an array');
  });
});
