import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decimalFromScaled, normalisedDecimalString, scaledAmount } from './money.js';

it('normalises a decimal string to the currency digits, refusing more decimals than the currency has', () => {
  assert.equal(normalisedDecimalString('10.5', 'EUR'), '10.50');
  assert.equal(normalisedDecimalString('007', 'EUR'), '7.00');
  assert.equal(normalisedDecimalString('5', 'JPY'), '5');
  assert.equal(normalisedDecimalString('1.234', 'KWD'), '1.234');
  assert.equal(normalisedDecimalString('1.234', 'EUR'), undefined);
  assert.equal(normalisedDecimalString('5.0', 'JPY'), undefined);
  assert.equal(normalisedDecimalString('-1', 'EUR'), undefined);
  assert.equal(normalisedDecimalString('1e2', 'EUR'), undefined);
});

it('turns sums of scaled amounts back into exact decimals of the currency', () => {
  assert.equal(decimalFromScaled(105000n, 'EUR'), '10.50');
  assert.equal(decimalFromScaled(0n, 'EUR'), '0.00');
  assert.equal(decimalFromScaled(30000n, 'JPY'), '3');
  assert.equal(decimalFromScaled(12345n, 'KWD'), '1.234');
  assert.equal(decimalFromScaled(-20000n, 'EUR'), '-2.00');
  // Ten refunds of 0.10 leave exactly 9.00 of 10.00: no floating point on the way.
  const ten = Array.from({ length: 10 }, () => BigInt(scaledAmount('0.10') ?? 0)).reduce((sum, part) => sum + part, 0n);
  assert.equal(decimalFromScaled(BigInt(scaledAmount('10.00') ?? 0) - ten, 'EUR'), '9.00');
  assert.equal(decimalFromScaled(9999999999900n, 'EUR'), '999999999.99');
});
