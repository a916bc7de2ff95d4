/**
 * The payer's account from Berlin Group answers: the payment resource's `debtorAccount` (an IBAN only) with the
 * status answer's `ownerNames` (1.3.12; owners only) or the resource's `debtorName`. What is not the standard's shape
 * is left out with a reason that names fields and rules, never the values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { debtorAccountOf, ownerNamesOf } from '../../../src/connectors/berlin-group/mapping.js';

const RESOURCE = {
  debtorAccount: { iban: 'DE54500105171000007919', currency: 'EUR' },
  instructedAmount: { currency: 'EUR', amount: '10.50' },
  creditorAccount: { iban: 'DE89370400440532013000' },
  creditorName: 'Acme GmbH',
  transactionStatus: 'ACSC',
};

describe('Berlin Group owner names (status answer)', () => {
  it('takes the owners, joint owners joined, and not a representative or an authorised user', () => {
    assert.deepEqual(ownerNamesOf({ transactionStatus: 'ACSC', ownerNames: [{ name: 'Alice Happy', role: 'owner' }] }), {
      name: 'Alice Happy',
    });
    assert.deepEqual(
      ownerNamesOf({
        transactionStatus: 'ACSC',
        ownerNames: [{ name: 'Alice Happy' }, { name: 'Ann Agent', role: 'legalRepresentative' }, { name: 'Bob Happy', role: 'owner' }],
      }),
      { name: 'Alice Happy, Bob Happy' },
    );
    assert.deepEqual(ownerNamesOf({ transactionStatus: 'ACSC', ownerNames: [{ name: 'Ursula User', role: 'authorisedUser' }] }), {});
  });

  it('says nothing for a 1.3.11 answer (no ownerNames), and not psuName', () => {
    assert.deepEqual(ownerNamesOf({ transactionStatus: 'ACSC' }), {});
    assert.deepEqual(ownerNamesOf({ transactionStatus: 'ACSC', psuName: 'Someone Acting' }), {});
  });

  it('leaves out a malformed list with the reason', () => {
    assert.match(ownerNamesOf({ ownerNames: 'Alice Happy' }).ignored ?? '', /ownerNames is not an array/);
    assert.match(ownerNamesOf({ ownerNames: ['Alice Happy'] }).ignored ?? '', /not an object/);
    assert.match(ownerNamesOf({ ownerNames: [{ name: 'x'.repeat(71) }] }).ignored ?? '', /1 to 70 characters/);
    assert.match(ownerNamesOf({ ownerNames: [{ name: 'Alice\u0007' }] }).ignored ?? '', /1 to 70 characters/);
    assert.match(ownerNamesOf({ ownerNames: [{ name: 'Alice', role: 7 }] }).ignored ?? '', /role is not text/);
    assert.equal(ownerNamesOf({ ownerNames: [{ name: 'Alice Happy', role: 7 }] }).name, undefined);
  });
});

describe('Berlin Group debtor account (payment resource)', () => {
  it("reads the debtor IBAN with the owners' names, else the resource's debtorName", () => {
    assert.deepEqual(debtorAccountOf(RESOURCE, { name: 'Alice Happy' }), {
      kind: 'found',
      payer: { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' },
    });
    assert.deepEqual(debtorAccountOf({ ...RESOURCE, debtorName: 'Alice H.' }, {}), {
      kind: 'found',
      payer: { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice H.' },
    });
    assert.deepEqual(debtorAccountOf({ ...RESOURCE, debtorName: 'Alice H.' }, { name: 'Alice Happy' }), {
      kind: 'found',
      payer: { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' },
    });
  });

  it('takes the account without a name when the bank names nobody, and says why when it named someone badly', () => {
    assert.deepEqual(debtorAccountOf(RESOURCE, {}), {
      kind: 'found',
      payer: { account: { type: 'IBAN', value: 'DE54500105171000007919' } },
    });
    const reading = debtorAccountOf({ ...RESOURCE, debtorName: 'x'.repeat(80) }, { ignored: 'ownerNames is not an array' });
    assert.equal(reading.kind, 'found');
    assert.equal(reading.kind === 'found' ? reading.nameIgnored : undefined, 'ownerNames is not an array');
    const badName = debtorAccountOf({ ...RESOURCE, debtorName: 'x'.repeat(80) }, {});
    assert.match(badName.kind === 'found' ? (badName.nameIgnored ?? '') : '', /debtorName is not text of 1 to 70 characters/);
  });

  it('says nothing while the resource names no debtor account', () => {
    const { debtorAccount, ...withoutDebtor } = RESOURCE;
    assert.ok(debtorAccount !== undefined);
    assert.deepEqual(debtorAccountOf(withoutDebtor, { name: 'Alice Happy' }), { kind: 'absent' });
    assert.deepEqual(debtorAccountOf(undefined, {}), { kind: 'absent' });
  });

  it('leaves out an account that is not an IBAN, or not a valid one, with a reason that carries no value', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['DE54500105171000007919', /debtorAccount is not an object/],
      [{ bban: '500105171000007919' }, /without an IBAN/],
      [{ maskedPan: '123456xxxxxx1234' }, /without an IBAN/],
      [{ iban: 'DE00500105171000007919' }, /debtorAccount\.iban is not a valid IBAN/],
      [{ iban: 12345 }, /not a valid IBAN/],
    ];
    for (const [debtorAccount, reason] of cases) {
      const reading = debtorAccountOf({ ...RESOURCE, debtorAccount }, { name: 'Alice Happy' });
      assert.equal(reading.kind, 'malformed', JSON.stringify(debtorAccount));
      if (reading.kind !== 'malformed') continue;
      assert.match(reading.reason, reason);
      assert.ok(!/\d{6}/.test(reading.reason), 'no account number in the reason');
    }
  });
});
