/**
 * The UK Open Banking connector end to end against the UK sandbox banks: redirect (hybrid flow), decoupled
 * (CIBA), funds confirmation, rejection after authorisation, the payment-details fallback, forged returns,
 * repeated completions and bank failures. Every resource request we send is checked against the standard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BankProtocolError, BankRejectedError, BankUnavailableError } from '../../../src/connectors/errors.js';
import type { BankReference, ReturnAddress } from '../../../src/connectors/contract.js';
import { TokenCache } from '../../../src/connectors/http/oauth2.js';
import { createUkOpenBankingConnector } from '../../../src/connectors/uk-open-banking/index.js';
import { exchangeRecorder } from './exchange-recorder.js';
import type { WireRequest } from '../helpers/recording-dispatcher.js';
import { OPERATIONS } from '../../sandbox-bank/uk-open-banking/standard.js';
import { payerAtBank, payerInBankApp, startUkBank, type PayerChoices, type UkBank } from '../../sandbox-bank/uk-open-banking/tpp.js';
import {
  assertAnswersConform,
  assertRequestsConform,
  connectorFor,
  context,
  countOf,
  operationOf,
  order,
  ourSigningKeys,
  REDIRECT_URI,
  returnOf,
  tampered,
  type ConnectorUnderTest,
} from './fixture.js';

let bank: UkBank;
const opened: ConnectorUnderTest[] = [];
before(async () => {
  bank = await startUkBank();
});
after(async () => {
  for (const test of opened) await test.close();
  await bank.close();
});

async function connector(slug: string, overrides: Parameters<typeof connectorFor>[2] = {}): Promise<ConnectorUnderTest> {
  const test = await connectorFor(bank, slug, overrides);
  opened.push(test);
  return test;
}

function returnAddress(state = `st-${Math.random().toString(36).slice(2)}`): ReturnAddress {
  return { uri: `${REDIRECT_URI}/per-payment`, registeredUri: REDIRECT_URI, state };
}

/** Consent → redirect → the payer at the bank's pages: what the connector needs to complete. */
async function redirectedPayer(test: ConnectorUnderTest, choices: PayerChoices, amount = '12.50') {
  const registered = await test.connector.registerPayment({
    context: context(),
    payment: order(amount),
    idempotencyKey: `pay-${Math.random()}`,
  });
  assert.deepEqual(registered.next, { kind: 'start-authorisation', needs: 'nothing' });
  assert.equal(registered.transactionStatus.state, 'received');
  assert.equal(registered.transactionStatus.code, 'AWAU');
  const address = returnAddress();
  const started = await test.connector.startAuthorisation({ context: context(), payment: registered.payment, returnAddress: address });
  assert.equal(started.next.kind, 'redirect');
  const url = started.next.kind === 'redirect' ? started.next.url : '';
  const visit = await payerAtBank(url, choices);
  return { registered, started, address, visit };
}

async function complete(
  test: ConnectorUnderTest,
  flow: Awaited<ReturnType<typeof redirectedPayer>>,
  payment: BankReference = flow.registered.payment,
) {
  return test.connector.completeAuthorisation({
    context: context(),
    payment,
    authorisation: flow.started.authorisation,
    returned: { data: returnOf(flow.visit.location), expectedState: flow.address.state },
  });
}

describe('UK connector: redirect bank (hybrid flow)', () => {
  it('alice authorises at Albion; the payment is submitted and settles (ACSC)', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'alice' });
    assert.deepEqual(flow.visit.steps, ['login', 'review']);
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'authorised');
    assert.equal(completed.scaStatus.state, 'finalised');
    assert.ok(completed.payment, 'the submitted payment replaces the consent');
    assert.ok(completed.providerPaymentId);
    assert.notEqual(completed.providerPaymentId, flow.registered.providerPaymentId);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: completed.payment });
    assert.deepEqual(status.transactionStatus, { state: 'settled', code: 'ACSC' });
    assert.equal(status.outcome, 'completed');
    // The refund account the consent asked for (ReadRefundAccount), from the payment's Data.Refund.
    assert.deepEqual(status.payer, {
      account: { type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode: '040004', accountNumber: '10001001' },
      name: 'Alice Happy',
    });
    assert.equal(status.payerIgnored, undefined);
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 1);
    assertRequestsConform(test.requests);
    assertAnswersConform(test.exchanges);
    const consentRequest = test.requests.find(
      (request) => request.method === 'POST' && request.url.pathname.endsWith('/domestic-payment-consents'),
    );
    const body = JSON.parse(consentRequest?.bodyText ?? '{}') as {
      Data: { ReadRefundAccount?: string; Initiation: Record<string, unknown> };
    };
    assert.equal(body.Data.ReadRefundAccount, 'Yes');
    assert.equal(body.Data.Initiation['LocalInstrument'], 'UK.OBIE.FPS');
    assert.deepEqual(body.Data.Initiation['CreditorAccount'], {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '20201555555555',
      Name: 'ACME Ltd',
    });
  });

  it('bob chooses one of his accounts at Severn; the payment settles (ACCC) after settlement time', async () => {
    const test = await connector('severn');
    const flow = await redirectedPayer(test, { psuId: 'bob', accountId: undefined });
    assert.deepEqual(flow.visit.steps, ['login', 'account', 'review']);
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'authorised');
    assert.ok(completed.payment);
    bank.clock.advance(10 * 60_000);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: completed.payment });
    assert.equal(status.transactionStatus.code, 'ACCC');
    assert.equal(status.outcome, 'completed');
    // The account bob chose at the bank, named by its holder.
    assert.equal(status.payer?.account.type, 'SORT_CODE_ACCOUNT_NUMBER');
    assert.equal(status.payer?.name, 'Bob Many-Accounts');
    assertRequestsConform(test.requests);
    assertAnswersConform(test.exchanges);
  });

  it('the payer denies at the bank: failed, PSU_CANCELLED, and nothing is submitted', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'alice', decision: 'deny' });
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'failed');
    assert.equal(completed.failureCode, 'PSU_CANCELLED');
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 0);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: flow.registered.payment });
    assert.equal(status.transactionStatus.state, 'rejected');
    assert.equal(status.outcome, 'failed');
  });

  it('erik with funds confirmation: INSUFFICIENT_FUNDS and no payment submitted', async () => {
    const test = await connector('albion', { fundsConfirmation: true });
    assert.equal(test.connector.profile.fundsConfirmation, true);
    const flow = await redirectedPayer(test, { psuId: 'erik' }, '100.00');
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'failed');
    assert.equal(completed.failureCode, 'INSUFFICIENT_FUNDS');
    assert.equal(countOf(test.requests, OPERATIONS.fundsConfirmation), 1);
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 0);
    assertRequestsConform(test.requests);
    assertAnswersConform(test.exchanges);
  });

  it('fiona: authorised and submitted, then rejected by the bank (NOAS → BANK_REJECTED)', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'fiona' });
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'authorised');
    assert.ok(completed.payment);
    bank.clock.advance(60_000);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: completed.payment });
    assert.equal(status.transactionStatus.state, 'rejected');
    assert.equal(status.outcome, 'failed');
    assert.equal(status.failureCode, 'BANK_REJECTED');
    assert.deepEqual(
      status.bankMessages.map((message) => message.code),
      ['NOAS'],
    );
  });

  it('julia: the payment resource answers 503, the status is read through payment-details', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'julia' });
    const completed = await complete(test, flow);
    assert.ok(completed.payment);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: completed.payment });
    assert.deepEqual(status.transactionStatus, { state: 'settled', code: 'ACSC' });
    assert.equal(countOf(test.requests, OPERATIONS.getPayment), 1);
    assert.equal(countOf(test.requests, OPERATIONS.paymentDetails), 1);
    // payment-details carries no refund account: the payer is not told by this answer.
    assert.equal(status.payer, undefined);
  });

  it('refuses a return with another state, and an id_token for another nonce, without paying', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'alice' });
    await assert.rejects(
      test.connector.completeAuthorisation({
        context: context(),
        payment: flow.registered.payment,
        authorisation: flow.started.authorisation,
        returned: {
          data: { ...returnOf(flow.visit.location), form: { ...returnOf(flow.visit.location).form, state: 'forged' } },
          expectedState: flow.address.state,
        },
      }),
      BankProtocolError,
    );
    await assert.rejects(
      test.connector.completeAuthorisation({
        context: context(),
        payment: flow.registered.payment,
        authorisation: tampered(flow.started.authorisation, { nonce: 'another-nonce' }),
        returned: { data: returnOf(flow.visit.location), expectedState: flow.address.state },
      }),
      BankProtocolError,
    );
    const forgedToken = returnOf(flow.visit.location);
    const [header, payload] = (forgedToken.form['id_token'] ?? '').split('.');
    await assert.rejects(
      test.connector.completeAuthorisation({
        context: context(),
        payment: flow.registered.payment,
        authorisation: flow.started.authorisation,
        returned: {
          data: { ...forgedToken, form: { ...forgedToken.form, id_token: `${header}.${payload}.AAAA` } },
          expectedState: flow.address.state,
        },
      }),
      BankProtocolError,
    );
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 0);
    // The genuine return still works: the refused ones spent nothing.
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'authorised');
  });

  it('a repeated completion submits the payment only once', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'alice' });
    const first = await complete(test, flow);
    assert.ok(first.payment);
    const callsBefore = test.requests.length;
    const again = await complete(test, flow, first.payment);
    assert.equal(again.next.kind, 'authorised');
    assert.equal(again.providerPaymentId, first.providerPaymentId);
    assert.equal(test.requests.length, callsBefore, 'no call to the bank');
    // With the old reference (the engine lost the first answer) the spent code is indeterminate, never a 2nd payment.
    await assert.rejects(complete(test, flow), BankProtocolError);
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 1);
  });

  it('the submission gets no answer (503): the token is handed to the engine to hold, and the next completion pays once with it', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'alice' });
    bank.faults.inject({ bank: 'albion', operations: ['createDomesticPayment'], fault: { kind: 'error', status: 503 }, times: 1 });
    const lost = await complete(test, flow);
    assert.equal(lost.next.kind, 'wait');
    assert.equal(lost.scaStatus.state, 'unconfirmed');
    assert.equal(lost.payment, undefined);
    assert.ok(lost.heldSecret !== undefined && lost.heldSecret.length > 0, 'the token to hold');
    // The code is spent: only the held token goes on, and the payment is submitted once with it.
    await assert.rejects(complete(test, flow), BankProtocolError);
    const paid = await test.connector.completeAuthorisation({
      context: context(),
      payment: flow.registered.payment,
      authorisation: lost.authorisation,
      heldSecret: lost.heldSecret,
    });
    assert.equal(paid.next.kind, 'authorised');
    assert.equal(paid.heldSecret, undefined, 'nothing more to hold');
    assert.ok(paid.payment);
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 2, 'the failed try and the one that paid');
    assert.equal((await test.connector.getPaymentStatus({ context: context(), payment: paid.payment })).outcome, 'completed');
  });

  it('without a return, reads the consent: still at the bank → started', async () => {
    const test = await connector('albion');
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-progress' });
    const started = await test.connector.startAuthorisation({
      context: context(),
      payment: registered.payment,
      returnAddress: returnAddress(),
    });
    const progress = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: started.authorisation,
    });
    assert.equal(progress.scaStatus.state, 'started');
    assert.equal(progress.next.kind, 'wait');
    const cancelled = await test.connector.cancelPayment({ context: context(), payment: registered.payment });
    assert.equal(cancelled.cancelled, true);
  });
});

describe('UK connector: form_post response mode', () => {
  it('the bank posts the answer to our callback; the connector reads it from the form', async () => {
    const test = await connector('albion', { responseMode: 'form_post' });
    const flow = await redirectedPayer(test, { psuId: 'alice' });
    assert.equal(flow.visit.location, undefined, 'no redirect: a self-submitting form');
    const form = Object.fromEntries(
      [...flow.visit.lastHtml.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1] ?? '', unescapeHtml(match[2] ?? '')]),
    );
    assert.ok(form['code'] && form['id_token']);
    const completed = await test.connector.completeAuthorisation({
      context: context(),
      payment: flow.registered.payment,
      authorisation: flow.started.authorisation,
      returned: { data: { query: {}, form, nok: false }, expectedState: flow.address.state },
    });
    assert.equal(completed.next.kind, 'authorised');
  });
});

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('UK connector: decoupled bank (CIBA)', () => {
  it('the payer approves in the Pennine app while we poll; the payment is submitted', async () => {
    const test = await connector('pennine');
    assert.equal(test.connector.profile.scaApproach, 'DECOUPLED');
    assert.equal(test.connector.profile.needsLoginId, true);
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba' });
    assert.deepEqual(registered.next, { kind: 'start-authorisation', needs: 'psu-identification' });
    const started = await test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'alice' } });
    assert.equal(started.next.kind, 'wait');
    assert.equal(started.next.kind === 'wait' ? started.next.approvalUrl : undefined, `${bank.base}/pennine/app`);
    const pending = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: started.authorisation,
    });
    assert.equal(pending.next.kind, 'wait');
    assert.equal(await payerInBankApp(bank, 'pennine', 'alice', 'approve'), 1);
    const completed = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: pending.authorisation,
    });
    assert.equal(completed.next.kind, 'authorised');
    assert.ok(completed.payment);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: completed.payment });
    assert.equal(status.outcome, 'completed');
    assertRequestsConform(test.requests);
    assertAnswersConform(test.exchanges);
  });

  it('the CIBA grant got the token but the submission timed out: the held token submits on the next poll', async () => {
    // The time limit is for every call of the test, the ones that must succeed too: generous for a loaded machine (a
    // 300 ms limit timed out the second submission as well there); the held answer outlasts it.
    const test = await connector('pennine', { timeoutMs: 5_000 });
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba-held' });
    const started = await test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'alice' } });
    assert.equal(await payerInBankApp(bank, 'pennine', 'alice', 'approve'), 1);
    bank.faults.inject({ bank: 'pennine', operations: ['createDomesticPayment'], fault: { kind: 'timeout', holdMs: 6_000 }, times: 1 });
    const lost = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: started.authorisation,
    });
    assert.equal(lost.next.kind, 'wait');
    assert.ok(lost.heldSecret);
    const paid = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: lost.authorisation,
      heldSecret: lost.heldSecret,
    });
    assert.equal(paid.next.kind, 'authorised');
    assert.ok(paid.payment);
    assert.equal((await test.connector.getPaymentStatus({ context: context(), payment: paid.payment })).outcome, 'completed');
  });

  it('the bank took the submission but its answer was lost (5xx after acting): the held token submits again without a funds check, and gets the same payment', async () => {
    const test = await connector('pennine', { fundsConfirmation: true });
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba-taken' });
    const started = await test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'alice' } });
    assert.equal(await payerInBankApp(bank, 'pennine', 'alice', 'approve'), 1);
    bank.faults.inject({
      bank: 'pennine',
      operations: ['createDomesticPayment'],
      fault: { kind: 'error', status: 503, afterActing: true },
      times: 1,
    });
    const lost = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: started.authorisation,
    });
    assert.equal(lost.next.kind, 'wait');
    assert.ok(lost.heldSecret);
    const fundsChecksBefore = countOf(test.requests, OPERATIONS.fundsConfirmation);
    assert.equal(fundsChecksBefore, 1, 'the first submission was checked for funds');
    const paid = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: lost.authorisation,
      heldSecret: lost.heldSecret,
    });
    assert.equal(paid.next.kind, 'authorised');
    assert.ok(paid.payment);
    assert.equal(countOf(test.requests, OPERATIONS.fundsConfirmation), fundsChecksBefore, 'no funds check on the consumed consent');
    assert.equal(countOf(test.requests, OPERATIONS.createPayment), 2, 'the submission was sent twice');
    const submissions = test.requests.filter((request) => operationOf(request) === OPERATIONS.createPayment);
    assert.equal(new Set(submissions.map((request) => request.headers['x-idempotency-key'])).size, 1, 'with one idempotency key');
    assert.equal((await test.connector.getPaymentStatus({ context: context(), payment: paid.payment })).outcome, 'completed');
  });

  it('a start whose answer was lost, repeated: the second request goes to a new consent (one request per consent, the first one unfindable), which the payer approves and we pay', async () => {
    const test = await connector('pennine');
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba-lost' });
    // The first request reaches the bank; its answer (the auth_req_id) is what we lose.
    await test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'alice' } });
    await assert.rejects(
      test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'alice' } }),
      BankRejectedError,
      'the bank allows one open backchannel request per consent',
    );
    const again = await test.connector.startAuthorisation({
      context: context(),
      payment: registered.payment,
      psu: { id: 'alice' },
      earlierStartUnanswered: true,
    });
    assert.equal(again.next.kind, 'wait');
    assert.ok(again.payment, 'the new consent replaces the first');
    assert.ok(again.providerPaymentId !== undefined && again.providerPaymentId !== registered.providerPaymentId);
    // The payer approves both requests in the app: only the new consent's grant is ours to exchange.
    assert.equal(await payerInBankApp(bank, 'pennine', 'alice', 'approve'), 2);
    const completed = await test.connector.completeAuthorisation({
      context: context(),
      payment: again.payment,
      authorisation: again.authorisation,
    });
    assert.equal(completed.next.kind, 'authorised');
    assert.ok(completed.payment);
    assert.equal((await test.connector.getPaymentStatus({ context: context(), payment: completed.payment })).outcome, 'completed');
    // The first consent was never paid: authorised at most, it cannot execute without our submission.
    const first = await test.connector.getPaymentStatus({ context: context(), payment: registered.payment });
    assert.equal(first.transactionStatus.state, 'received');
    assertRequestsConform(test.requests);
  });

  it('the payer denies in the app: failed, PSU_CANCELLED', async () => {
    const test = await connector('pennine');
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba-deny' });
    const started = await test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'carla' } });
    await payerInBankApp(bank, 'pennine', 'carla', 'deny');
    const completed = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: started.authorisation,
    });
    assert.equal(completed.next.kind, 'failed');
    assert.equal(completed.failureCode, 'PSU_CANCELLED');
  });

  it('the payer never decides: the request expires, failed SCA_FAILED', async () => {
    const test = await connector('pennine');
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba-expire' });
    const started = await test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'dave' } });
    bank.clock.advance(11 * 60_000);
    const completed = await test.connector.completeAuthorisation({
      context: context(),
      payment: registered.payment,
      authorisation: started.authorisation,
    });
    assert.equal(completed.next.kind, 'failed');
    assert.equal(completed.failureCode, 'SCA_FAILED');
  });

  it('an unknown payer id is refused as PSU_AUTHENTICATION_FAILED', async () => {
    const test = await connector('pennine');
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-ciba-unknown' });
    await assert.rejects(
      test.connector.startAuthorisation({ context: context(), payment: registered.payment, psu: { id: 'nobody' } }),
      (error: unknown) => {
        assert.ok(error instanceof BankRejectedError);
        assert.equal(error.failureCode, 'PSU_AUTHENTICATION_FAILED');
        return true;
      },
    );
  });
});

describe('UK connector: logs', () => {
  it('logs method, path, status and duration, never tokens, assertions, codes or bodies', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (fields: Record<string, unknown>, message: string) => lines.push(JSON.stringify({ ...fields, message })),
      warn: (fields: Record<string, unknown>, message: string) => lines.push(JSON.stringify({ ...fields, message })),
    };
    const test = await connectorFor(bank, 'albion', {}, logger);
    opened.push(test);
    const flow = await redirectedPayer(test, { psuId: 'alice' });
    const completed = await complete(test, flow);
    assert.equal(completed.next.kind, 'authorised');
    // Discovery and JWKS may come from the per-issuer cache: token, consent, token, payment at least.
    assert.ok(lines.length >= 4, lines.join('\n'));
    const code = returnOf(flow.visit.location).form['code'] ?? '';
    for (const line of lines) {
      assert.doesNotMatch(line, /Bearer|eyJ|ACME|Order 42|client_assertion/);
      assert.ok(!line.includes(code), 'no authorisation code');
      const fields = JSON.parse(line) as Record<string, unknown>;
      assert.ok(typeof fields['path'] === 'string' && !String(fields['path']).includes('?'));
    }
  });
});

describe('UK connector: the client-credentials token', () => {
  const clientCredentialsRequests = (requests: readonly WireRequest[]): number =>
    requests.filter((request) => request.url.pathname.endsWith('/token') && /grant_type=client_credentials/.test(request.bodyText ?? ''))
      .length;

  it('is fetched once for consents and status reads while it lives, concurrent calls included', async () => {
    // Our clock stands still: the token (3600 s at the sandbox) is alive throughout for us.
    const tokens = new TokenCache({ now: () => new Date('2026-03-02T10:00:00Z') });
    const test = await connectorFor(bank, 'albion', {}, undefined, tokens);
    opened.push(test);
    const first = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-token-1' });
    await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-token-2' });
    const reads = await Promise.all(
      Array.from({ length: 20 }, () => test.connector.getPaymentStatus({ context: context(), payment: first.payment })),
    );
    assert.ok(reads.every((read) => read.transactionStatus.code === 'AWAU'));
    assert.equal(clientCredentialsRequests(test.requests), 1);
    assert.equal(countOf(test.requests, OPERATIONS.getConsent), 20);
  });

  it('is never reused with another client certificate (a token may be bound to the certificate it was issued to)', async () => {
    const tokens = new TokenCache({ now: () => new Date('2026-03-02T10:00:00Z') });
    const first = await connectorFor(bank, 'albion', {}, undefined, tokens, 'AA:01');
    opened.push(first);
    await first.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-cert-1' });
    // The same registration (issuer, client id, signing key) through another transport certificate: a token of its own.
    const recording = exchangeRecorder();
    const dependencies = { dispatcher: recording.dispatcher, now: () => bank.clock.now, keys: await ourSigningKeys(), tokens };
    const otherCertificate = createUkOpenBankingConnector(first.settings, { ...dependencies, transportCertificateFingerprint: 'BB:02' });
    await otherCertificate.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-cert-2' });
    assert.equal(clientCredentialsRequests(recording.requests), 1);
    // The first certificate again: its token is still there.
    const sameCertificate = createUkOpenBankingConnector(first.settings, { ...dependencies, transportCertificateFingerprint: 'AA:01' });
    await sameCertificate.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-cert-3' });
    assert.equal(clientCredentialsRequests(recording.requests), 1);
    await recording.close();
  });

  it('a token the bank no longer accepts (401) is dropped and the call made once more with a fresh one', async () => {
    const tokens = new TokenCache({ now: () => new Date('2026-03-02T10:00:00Z') });
    const test = await connectorFor(bank, 'albion', {}, undefined, tokens);
    opened.push(test);
    const registered = await test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-token-401' });
    assert.equal(clientCredentialsRequests(test.requests), 1);
    // The bank's clock passes the token's end; ours does not, so we still hold it and the bank answers 401.
    bank.clock.advance(2 * 3600_000);
    const status = await test.connector.getPaymentStatus({ context: context(), payment: registered.payment });
    assert.ok(status.transactionStatus.code !== '');
    assert.equal(clientCredentialsRequests(test.requests), 2);
    assert.deepEqual(
      test.exchanges.filter((exchange) => operationOf(exchange.request) === OPERATIONS.getConsent).map((exchange) => exchange.status),
      [401, 200],
    );
  });
});

describe('UK connector: bank failures', () => {
  it('a 5xx on the consent is BankUnavailableError; the same idempotency key then creates one consent', async () => {
    const test = await connector('albion');
    bank.faults.inject({ bank: 'albion', operations: ['createDomesticPaymentConsent'], fault: { kind: 'error', status: 500 }, times: 1 });
    const payment = order();
    await assert.rejects(test.connector.registerPayment({ context: context(), payment, idempotencyKey: 'k-5xx' }), BankUnavailableError);
    const first = await test.connector.registerPayment({ context: context(), payment, idempotencyKey: 'k-5xx' });
    const second = await test.connector.registerPayment({ context: context(), payment, idempotencyKey: 'k-5xx' });
    assert.equal(first.providerPaymentId, second.providerPaymentId);
  });

  it('a bank slower than the time limit is BankUnavailableError (timeout)', async () => {
    const test = await connector('albion', { timeoutMs: 300 });
    bank.faults.inject({
      bank: 'albion',
      operations: ['createDomesticPaymentConsent'],
      fault: { kind: 'delay', delayMs: 1_000 },
      times: 1,
    });
    await assert.rejects(
      test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-slow' }),
      (error: unknown) => {
        assert.ok(error instanceof BankUnavailableError);
        assert.equal(error.reason, 'timeout');
        return true;
      },
    );
  });

  it('a submitted payment cannot be cancelled; its status is reported', async () => {
    const test = await connector('albion');
    const flow = await redirectedPayer(test, { psuId: 'gustav' });
    const completed = await complete(test, flow);
    assert.ok(completed.payment);
    const cancelled = await test.connector.cancelPayment({ context: context(), payment: completed.payment });
    assert.equal(cancelled.cancelled, false);
    assert.equal(cancelled.transactionStatus?.state, 'accepted-for-execution');
  });

  it('a client the bank does not know is a loud, definite refusal', async () => {
    const test = await connector('albion', { clientId: 'not-registered' });
    await assert.rejects(
      test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-client' }),
      (error: unknown) => {
        assert.ok(error instanceof BankRejectedError);
        assert.equal(error.messages[0]?.code, 'invalid_client');
        return true;
      },
    );
  });

  it('an answer signed under another trust anchor than configured is a protocol error', async () => {
    const test = await connector('albion', { bankTrustAnchor: 'another-anchor' });
    await assert.rejects(
      test.connector.registerPayment({ context: context(), payment: order(), idempotencyKey: 'k-tan' }),
      BankProtocolError,
    );
  });
});
