import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DETAILED_STATUSES, isFinal, phaseOf, type DetailedStatus } from './detailed-status.js';
import {
  assertTransition,
  BACK_TO_BANK_SELECTION,
  canTransition,
  failureStatusFrom,
  IllegalTransitionError,
  initialStatus,
  TRANSITIONS,
} from './transitions.js';

const order = (status: DetailedStatus) => DETAILED_STATUSES.indexOf(status);

describe('transition table', () => {
  it('has an entry for each of the 40 detailed statuses', () => {
    assert.equal(DETAILED_STATUSES.length, 40);
    assert.deepEqual(Object.keys(TRANSITIONS).sort(), [...DETAILED_STATUSES].sort());
  });

  it('allows every listed transition and only those', () => {
    let allowed = 0;
    for (const from of DETAILED_STATUSES) {
      for (const to of DETAILED_STATUSES) {
        const listed = TRANSITIONS[from].includes(to);
        assert.equal(canTransition(from, to), listed, `${from} → ${to}`);
        if (listed) {
          allowed += 1;
          assert.doesNotThrow(() => assertTransition(from, to));
        } else {
          assert.throws(() => assertTransition(from, to), IllegalTransitionError);
        }
      }
    }
    assert.ok(allowed > 40);
  });

  it('only moves forward (never to the same status), but for the way back to the bank list', () => {
    for (const from of DETAILED_STATUSES) {
      for (const to of TRANSITIONS[from]) {
        if (to === BACK_TO_BANK_SELECTION) continue;
        assert.ok(order(to) > order(from), `${from} → ${to} goes backwards`);
      }
    }
  });

  it('goes back to the bank list from every open status of phases 1 to 4 and the pending registration, and from nowhere else', () => {
    const from = DETAILED_STATUSES.filter((status) => canTransition(status, BACK_TO_BANK_SELECTION));
    assert.deepEqual(
      from,
      DETAILED_STATUSES.filter(
        (status) =>
          !isFinal(status) &&
          (phaseOf(status) <= 4 || status === 'PAYMENT_REGISTRATION_PENDING') &&
          status !== 'PROVIDER_SELECTION_REDIRECT_PENDING',
      ),
    );
    assert.ok(from.includes('PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING'));
    assert.ok(from.includes('FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING'));
    assert.ok(from.includes('SENDER_AUTHORIZATION_REDIRECT_PENDING'));
    assert.ok(from.includes('SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING'));
    for (const later of [
      'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
      'PAYMENT_CONSENT_REDIRECT_PENDING',
      'PAYMENT_EXECUTION_PENDING',
      'PAYMENT_REGISTRATION_FAILED',
    ] as const) {
      assert.equal(canTransition(later, BACK_TO_BANK_SELECTION), false, later);
    }
    assert.equal(canTransition('PROVIDER_SELECTION_REDIRECT_PENDING', 'PROVIDER_SELECTION_REDIRECT_PENDING'), false);
  });

  it('never leaves a final status, and every pending status has a way forward and a way to fail', () => {
    for (const status of DETAILED_STATUSES) {
      if (isFinal(status)) assert.deepEqual(TRANSITIONS[status], [], status);
      else {
        assert.ok(
          TRANSITIONS[status].some((to) => !to.endsWith('_FAILED')),
          `${status} cannot progress`,
        );
        assert.ok(failureStatusFrom(status) !== undefined, `${status} cannot fail`);
      }
    }
  });

  it('skips phases only from a check, and never jumps more than into the next needed phase', () => {
    for (const from of DETAILED_STATUSES) {
      for (const to of TRANSITIONS[from]) {
        if (to.endsWith('_FAILED')) continue;
        if (phaseOf(to) > phaseOf(from) + 1) {
          assert.ok(from.endsWith('_REQUIRED_CHECK_PENDING') || from === 'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING', `${from} → ${to}`);
        }
      }
    }
  });

  it('fails a waiting step at its own _FAILED status where it has one, before the bank holds the payment at registration', () => {
    assert.equal(failureStatusFrom('PAYMENT_CONSENT_REDIRECT_PENDING'), 'PAYMENT_CONSENT_REDIRECT_FAILED');
    assert.equal(failureStatusFrom('SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING'), 'SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED');
    assert.equal(failureStatusFrom('PROVIDER_SELECTION_REDIRECT_PENDING'), 'PAYMENT_REGISTRATION_FAILED');
    assert.equal(failureStatusFrom('FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING'), 'PAYMENT_REGISTRATION_FAILED');
    assert.equal(failureStatusFrom('PAYMENT_EXECUTION_PENDING'), 'PAYMENT_EXECUTION_FAILED');
    assert.equal(failureStatusFrom('PAYMENT_EXECUTION_COMPLETED'), undefined);
  });

  it('starts hosted payments at bank selection and custom ones at the follow-up data check', () => {
    assert.equal(initialStatus('hosted'), 'PROVIDER_SELECTION_REDIRECT_PENDING');
    assert.equal(initialStatus('custom'), 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
  });

  it('contains the example history of the spec', () => {
    const example: DetailedStatus[] = [
      'PAYMENT_CONSENT_REDIRECT_PENDING',
      'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
      'PAYMENT_EXECUTION_PENDING',
      'PAYMENT_EXECUTION_COMPLETED',
    ];
    for (let i = 1; i < example.length; i += 1) assert.ok(canTransition(example[i - 1] as DetailedStatus, example[i] as DetailedStatus));
  });
});
