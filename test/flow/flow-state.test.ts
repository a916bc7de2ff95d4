/**
 * The stored flow state is checked when read: a row written by this version (and the earlier ones, which wrote the
 * same JSON) reads as it is; a corrupt row fails with an error naming the payment and the field, never as a silent
 * cast that a step would trip over later.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorruptFlowStateError, flowStateOf, toStoredFlowState } from '../../src/flow/flow-state.js';

/** A row's flow state as the engine writes it mid-flow (embedded bank, code page), every kind of field present. */
const WRITTEN_ROW: Record<string, unknown> = {
  pageKey: 'k3y',
  callback: { hash: 'abc', purpose: 'payment' },
  spentCallbackHash: 'def',
  bankPayment: { paymentId: 'P-1', product: 'sepa-credit-transfers', links: { self: '/v1/payments/P-1' } },
  authorisation: { authorisationId: 'A-1' },
  scaApproach: 'EMBEDDED',
  scaMethods: [{ id: 'sms', type: 'SMS_OTP', name: 'SMS' }],
  chosenScaMethod: { id: 'sms', type: 'SMS_OTP' },
  challenge: { otpMaxLength: 6, otpFormat: 'integer', data: ['x'] },
  accounts: [{ iban: 'DE89370400440532013000', currency: 'EUR', name: 'Giro' }],
  heldSecret: 'sealed',
  reconciling: true,
  openCall: { operation: 'authoriseTransaction', sentAt: '2026-11-28T04:00:00.000Z' },
  failedLogins: 1,
  failedCodes: 2,
  senderAccountFromPayer: true,
  codeNotProcessed: true,
  outcomeShown: true,
  cancelledOnPage: true,
  bankPendingAlerted: true,
};

describe('reading the stored flow state', () => {
  it('reads a row written by the engine as it is, and an absent state as an empty one', () => {
    const state = flowStateOf({ id: 'p1', flowState: WRITTEN_ROW });
    assert.deepEqual(toStoredFlowState(state), WRITTEN_ROW);
    assert.deepEqual(flowStateOf({ id: 'p1', flowState: null }), {});
  });

  it('lets through a field it does not know (a row of a later version)', () => {
    const state = flowStateOf({ id: 'p1', flowState: { pageKey: 'k', somethingNew: { a: 1 } } });
    assert.equal(state.pageKey, 'k');
  });

  it('refuses a corrupt row with the payment and the field named', () => {
    assert.throws(
      () => flowStateOf({ id: 'pay-7', flowState: { failedLogins: 'two' } }),
      (error: unknown) => error instanceof CorruptFlowStateError && /pay-7/.test(error.message) && /failedLogins/.test(error.message),
    );
    assert.throws(
      () => flowStateOf({ id: 'pay-8', flowState: { openCall: { operation: 'launchRocket', sentAt: 'now' } } }),
      (error: unknown) => error instanceof CorruptFlowStateError && /openCall/.test(error.message),
    );
  });
});
