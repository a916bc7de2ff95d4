/**
 * The payer's account from a UK domestic payment's `Data.Refund` (OBWriteDomesticResponse5): a sort code and account
 * number or an IBAN is taken with the holder's name; anything else is left out with a reason that names fields and
 * rules, never the values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refundAccountOf } from '../../../src/connectors/uk-open-banking/mapping.js';
import { payerFields } from '../../../src/connectors/payer-details.js';

function refund(account: unknown): Record<string, unknown> {
  return { DomesticPaymentId: 'p-1', Status: 'ACSC', Refund: { Account: account } };
}

describe('UK refund account (Data.Refund)', () => {
  it('reads a sort code and account number with the name, and the roll number where given', () => {
    assert.deepEqual(
      refundAccountOf(
        refund({
          SchemeName: 'UK.OBIE.SortCodeAccountNumber',
          Identification: '08080021325677',
          Name: 'NTPC Inc',
          SecondaryIdentification: '0002',
        }),
      ),
      {
        kind: 'found',
        payer: {
          account: { type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode: '080800', accountNumber: '21325677', rollNumber: '0002' },
          name: 'NTPC Inc',
        },
      },
    );
  });

  it('reads an IBAN in its electronic form', () => {
    const reading = refundAccountOf(
      refund({ SchemeName: 'UK.OBIE.IBAN', Identification: 'GB29 NWBK 6016 1331 9268 19', Name: ' Jane Doe ' }),
    );
    assert.deepEqual(reading, { kind: 'found', payer: { account: { type: 'IBAN', value: 'GB29NWBK60161331926819' }, name: 'Jane Doe' } });
  });

  it('says nothing when the bank sent no Refund (ReadRefundAccount not honoured)', () => {
    assert.deepEqual(refundAccountOf({ DomesticPaymentId: 'p-1', Status: 'ACSC' }), { kind: 'absent' });
    assert.deepEqual(payerFields(refundAccountOf({})), {});
  });

  it('leaves out what is not the standard shape, with a reason that carries no value', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['08080021325677', /Data\.Refund has no Account object/],
      [{ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '0808002132567', Name: 'X' }, /14 digits/],
      [{ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: 8080021325677, Name: 'X' }, /14 digits/],
      [{ SchemeName: 'UK.OBIE.IBAN', Identification: 'GB00NWBK60161331926819', Name: 'X' }, /not a valid IBAN/],
      [{ SchemeName: 'UK.OBIE.PAN', Identification: '5555444433331111', Name: 'X' }, /UK\.OBIE\.PAN is not a sort code/],
      [{ Identification: '08080021325677', Name: 'X' }, /SchemeName is missing/],
      [{ SchemeName: '<script>', Identification: '08080021325677', Name: 'X' }, /SchemeName is missing or not a scheme name/],
    ];
    for (const [account, reason] of cases) {
      const reading = refundAccountOf(refund(account));
      assert.equal(reading.kind, 'malformed', JSON.stringify(account));
      if (reading.kind !== 'malformed') continue;
      assert.match(reading.reason, reason);
      assert.ok(!reading.reason.includes('5555444433331111') && !reading.reason.includes('0808002132567'), 'no value in the reason');
      assert.deepEqual(payerFields(reading), { payerIgnored: reading.reason });
    }
  });

  it('keeps the account but not a name that is missing, too long or holds control characters, and says why', () => {
    for (const name of [undefined, '', 'x'.repeat(351), 'Jane\u0000Doe', 'Jane\nDoe', 42]) {
      const reading = refundAccountOf(
        refund({ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325677', Name: name }),
      );
      assert.equal(reading.kind, 'found');
      if (reading.kind !== 'found') continue;
      assert.equal(reading.payer.name, undefined);
      assert.match(reading.nameIgnored ?? '', /Data\.Refund\.Account\.Name is missing or not text of 1 to 350 characters/);
      assert.deepEqual(payerFields(reading), { payer: reading.payer, payerIgnored: reading.nameIgnored });
    }
  });
});
