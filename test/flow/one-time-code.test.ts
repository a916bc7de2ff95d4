/**
 * A bank error on the one-time code (issue 8, item 10), over plain HTTP: when the bank's SCA status shows the code
 * was not taken, the payer gets the code form again with a notice, at once or once the bank can be asked again;
 * nothing is recorded until the outcome is definite. And expiry always records EXPIRED, even while another request
 * or job asks the bank about the same payment (the withdrawal at the bank is ours, not the payer's).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import {
  fieldsAsked,
  headingOf,
  openFlow,
  submit,
  submitAndFollow,
  type Answer,
  continueLinkOf,
  pastWaitingPage,
} from '../hosted/http-payer.js';
import { injectSandboxFault } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

/** Hansa with the credentials in the creation request, payer with one SCA method: up to the code page. */
const TO_CODE_PAGE = [
  'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
  'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
  'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'PAYMENT_REGISTRATION_PENDING',
  'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_REDIRECT_PENDING',
];

async function fault(flow: FlowHarness, slug: string, rule: Record<string, unknown>): Promise<void> {
  const response = await injectSandboxFault(flow.app, slug, rule);
  assert.equal(response.status, 201);
}

function assertCodeAgain(page: Answer): void {
  assert.equal(headingOf(page.html), 'Enter your one-time code');
  assert.match(page.html, /Your bank could not process the code\. Please enter it again\./);
  assert.deepEqual(fieldsAsked(page.html), ['otp']);
}

describe('a bank error on the one-time code (HTTP)', () => {
  let flow: FlowHarness;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    flow = await startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
  });
  after(async () => {
    await flow?.close();
  });

  async function paysWithCode(redirectUrl: string, page: Answer, paymentId: string): Promise<void> {
    const paid = await submitAndFollow(redirectUrl, page.html, 'code', { otp: '123456' }, flow.seen);
    assert.equal(continueLinkOf(paid), `https://merchant.example/return?paymentId=${paymentId}`);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    const history = await flow.history(paymentId);
    assert.deepEqual(statuses(history), [
      ...TO_CODE_PAGE,
      'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
      'PAYMENT_EXECUTION_PENDING',
      'PAYMENT_EXECUTION_COMPLETED',
    ]);
    assert.equal(history.at(-1)?.status, 'COMPLETED');
    assert.ok(history.every((record) => record.failureReasons === null));
  }

  it('a 500 on the code: the bank shows it did not take it, so the form comes back at once with a notice; the code again pays', async () => {
    await fault(flow, 'hansa', { psuId: 'erik', operations: ['updateAuthorisation'], fault: { kind: 'error', status: 500 }, times: 1 });
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'erik', password: TEST_PASSWORD } } });
    const codePage = await openFlow(created.redirectUrl, flow.seen);
    assert.equal(headingOf(codePage.html), 'Enter your one-time code');
    const again = await submit(created.redirectUrl, codePage.html, 'code', { otp: '123456' }, flow.seen);
    assert.equal(again.status, 200);
    assertCodeAgain(again);
    // Nothing recorded: the payment still waits for the code.
    assert.deepEqual(statuses(await flow.history(created.paymentId)), TO_CODE_PAGE);
    await paysWithCode(created.redirectUrl, again, created.paymentId);
  });

  it('a 500 on the code and on the SCA status: the outcome is open until the bank answers; then the form comes back', async () => {
    await fault(flow, 'hansa', {
      psuId: 'erik',
      operations: ['updateAuthorisation', 'getScaStatus'],
      fault: { kind: 'error', status: 500 },
      times: 2,
    });
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'erik', password: TEST_PASSWORD } } });
    const codePage = await openFlow(created.redirectUrl, flow.seen);
    const waiting = await submitAndFollow(created.redirectUrl, codePage.html, 'code', { otp: '123456' }, flow.seen);
    // Either still waiting for the bank (our waiting page) or already back at the code form.
    const page = await pastWaitingPage(created.redirectUrl, waiting, flow.seen);
    assertCodeAgain(page);
    assert.deepEqual(statuses(await flow.history(created.paymentId)), TO_CODE_PAGE);
    await paysWithCode(created.redirectUrl, page, created.paymentId);
  });

  it('the test password is nowhere: not in any table, log line or response', async () => {
    await flow.assertPasswordNowhere();
  });
});

describe('expiry records EXPIRED, whoever else asks the bank meanwhile', () => {
  let flow: FlowHarness;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    // The decoupled approval is polled every 100 ms, so the poll runs while expiry withdraws the payment at the bank.
    flow = await startFlowHarness(sqlite, { FLOW_DEADLINE_SECONDS: '10', BANK_STATUS_POLL_BASE_MS: '100' });
  });
  after(async () => {
    await flow?.close();
  });

  it('a decoupled approval never given: withdrawn at the bank by expiry, PAYMENT_CONSENT_REDIRECT_FAILED with EXPIRED', async () => {
    // The bank takes its time to withdraw the payment: long enough for the polling job to look meanwhile.
    await fault(flow, 'midi', { operations: ['cancelPayment'], fault: { kind: 'delay', delayMs: 2500 } });
    const created = await flow.create({ provider: { id: BANKS.midi }, sender: { credentials: { id: 'alice' } } });
    await flow.waitFor(created.paymentId, (status) => status.endsWith('_FAILED'));
    const history = await flow.history(created.paymentId);
    assert.deepEqual(statuses(history), [
      'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
      'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
      'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
      'PAYMENT_REGISTRATION_PENDING',
      'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
      'PAYMENT_CONSENT_REDIRECT_PENDING',
      'PAYMENT_CONSENT_REDIRECT_FAILED',
    ]);
    assert.equal(history.at(-1)?.status, 'FAILED');
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['EXPIRED'],
    );
    // No password was given (a decoupled approval): there is nothing to look for.
  });
});
