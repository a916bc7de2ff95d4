import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DETAILED_STATUSES } from './detailed-status.js';
import { bankFailurePath, pathTo } from './paths.js';
import { canTransition } from './transitions.js';

it('pathTo walks forward edges only, without failures, and every step is allowed', () => {
  assert.deepEqual(pathTo('PAYMENT_CONSENT_REDIRECT_PENDING', 'PAYMENT_EXECUTION_PENDING'), [
    'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
    'PAYMENT_EXECUTION_PENDING',
  ]);
  assert.deepEqual(pathTo('SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING', 'PAYMENT_EXECUTION_PENDING'), [
    'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
    'PAYMENT_REGISTRATION_PENDING',
    'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
    'PAYMENT_EXECUTION_PENDING',
  ]);
  assert.equal(pathTo('PAYMENT_EXECUTION_COMPLETED', 'PAYMENT_EXECUTION_PENDING'), undefined);
  for (const from of DETAILED_STATUSES) {
    const path = pathTo(from, 'PAYMENT_EXECUTION_PENDING');
    if (path === undefined) continue;
    let current = from;
    for (const step of path) {
      assert.ok(canTransition(current, step), `${current} → ${step}`);
      assert.ok(!step.endsWith('_FAILED'));
      current = step;
    }
  }
});

it('a bank failure seen while the payer was at the bank is processed first, then fails that step', () => {
  assert.deepEqual(bankFailurePath('PAYMENT_CONSENT_REDIRECT_PENDING'), [
    'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
    'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
  ]);
  assert.deepEqual(bankFailurePath('PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING'), ['PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED']);
  assert.deepEqual(bankFailurePath('SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING'), [
    'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED',
  ]);
});

it('pathTo never walks the way back to the bank list: a bank answer only moves a payment forward', () => {
  // Reachable from a phase 2 status only through the way back (then forward again).
  assert.equal(pathTo('FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING', 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING'), undefined);
  assert.equal(pathTo('SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING', 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING'), undefined);
});
