import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertMove, IllegalTransitionError, isFinalIn } from './lifecycle.js';
import { linkPaymentEndToEndId, PAYMENT_LINK_LIFECYCLE, PAYMENT_LINK_REFERENCE_MAX_LENGTH } from './payment-link.js';
import { psuIpAddressOf } from './psu-address.js';
import { END_TO_END_ID_MAX_LENGTH } from './retry.js';

it('a payment link goes from ACTIVE to PAID, EXPIRED or DEACTIVATED, each final', () => {
  for (const to of ['PAID', 'EXPIRED', 'DEACTIVATED'] as const) {
    assertMove(PAYMENT_LINK_LIFECYCLE, 'ACTIVE', to);
    assert.ok(isFinalIn(PAYMENT_LINK_LIFECYCLE, to));
    for (const next of PAYMENT_LINK_LIFECYCLE.statuses)
      assert.throws(() => assertMove(PAYMENT_LINK_LIFECYCLE, to, next), IllegalTransitionError);
  }
  assert.throws(() => assertMove(PAYMENT_LINK_LIFECYCLE, 'ACTIVE', 'ACTIVE'), /payment_link status transition ACTIVE → ACTIVE/);
});

it("a link's payments' end-to-end ids fit the API's limit with their retry suffix", () => {
  const longest = linkPaymentEndToEndId('r'.repeat(PAYMENT_LINK_REFERENCE_MAX_LENGTH), 999_999_999);
  assert.equal(longest, `${'r'.repeat(48)}-999999999`);
  assert.ok(`${longest}-R2`.length <= END_TO_END_ID_MAX_LENGTH);
});

it("the payer's address as the banks take it: IPv4, or IPv6 in eight groups", () => {
  assert.equal(psuIpAddressOf('203.0.113.7'), '203.0.113.7');
  assert.equal(psuIpAddressOf('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(psuIpAddressOf('2001:db8::7'), '2001:db8:0:0:0:0:0:7');
  assert.equal(psuIpAddressOf('::1'), '0:0:0:0:0:0:0:1');
  assert.equal(psuIpAddressOf('not an address'), undefined);
});
