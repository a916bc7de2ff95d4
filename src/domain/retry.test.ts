import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureReason, type FailureCode } from './detailed-status.js';
import { END_TO_END_ID_MAX_LENGTH, mayRetryWithAnotherBank, retryEndToEndId } from './retry.js';

describe('retryEndToEndId', () => {
  it('appends the attempt to the client id, replacing a retry own suffix rather than stacking it', () => {
    assert.equal(retryEndToEndId({ endToEndId: 'order-1001', retryOf: null }), 'order-1001-R2');
    assert.equal(retryEndToEndId({ endToEndId: 'order-1001-R2', retryOf: 'a' }), 'order-1001-R3');
    assert.equal(retryEndToEndId({ endToEndId: 'order-1001-R9', retryOf: 'a' }), 'order-1001-R10');
    // A client id that merely ends like a retry is the client's own: the suffix is added.
    assert.equal(retryEndToEndId({ endToEndId: 'order-R2', retryOf: null }), 'order-R2-R2');
  });

  it('stays within the API limit, and ids that share a long prefix stay apart', () => {
    const a = `${'x'.repeat(63)}a`;
    const b = `${'x'.repeat(63)}b`;
    const retryA = retryEndToEndId({ endToEndId: a, retryOf: null });
    const retryB = retryEndToEndId({ endToEndId: b, retryOf: null });
    assert.equal(retryA.length, END_TO_END_ID_MAX_LENGTH);
    assert.match(retryA, /^x{52}-[0-9a-f]{8}-R2$/);
    assert.notEqual(retryA, retryB);
    // Its own retry keeps the cut base and counts on.
    const again = retryEndToEndId({ endToEndId: retryA, retryOf: 'a' });
    assert.equal(again, `${retryA.slice(0, -3)}-R3`);
    assert.ok(again.length <= END_TO_END_ID_MAX_LENGTH);
    // Printable ASCII in, printable ASCII out (the API rule for endToEndId).
    assert.match(retryEndToEndId({ endToEndId: '~'.repeat(64), retryOf: null }), /^[\x20-\x7e]+$/);
  });
});

describe('mayRetryWithAnotherBank', () => {
  const failed = (code: FailureCode, overrides: Partial<{ retryAllowed: boolean; providerId: string | null }> = {}) => ({
    retryAllowed: true,
    providerId: 'bank',
    detailedStatus: 'PAYMENT_EXECUTION_FAILED' as const,
    failureReasons: [failureReason(code)],
    ...overrides,
  });

  it('offers another bank for failures another bank could avoid only', () => {
    for (const code of ['INSUFFICIENT_FUNDS', 'BANK_REJECTED', 'PSU_CANCELLED', 'BANK_UNAVAILABLE'] as const)
      assert.equal(mayRetryWithAnotherBank(failed(code)), true, code);
    for (const code of ['EXPIRED', 'PSU_AUTHENTICATION_FAILED', 'SCA_FAILED', 'INVALID_SENDER_DATA', 'INTERNAL_ERROR'] as const)
      assert.equal(mayRetryWithAnotherBank(failed(code)), false, code);
  });

  it('never when the client said no, before a bank was chosen, or for a payment that did not fail', () => {
    assert.equal(mayRetryWithAnotherBank(failed('INSUFFICIENT_FUNDS', { retryAllowed: false })), false);
    assert.equal(mayRetryWithAnotherBank(failed('PSU_CANCELLED', { providerId: null })), false);
    assert.equal(
      mayRetryWithAnotherBank({ ...failed('BANK_REJECTED'), detailedStatus: 'PAYMENT_EXECUTION_COMPLETED', failureReasons: null }),
      false,
    );
    assert.equal(mayRetryWithAnotherBank({ ...failed('BANK_REJECTED'), detailedStatus: 'PAYMENT_EXECUTION_PENDING' }), false);
  });
});
