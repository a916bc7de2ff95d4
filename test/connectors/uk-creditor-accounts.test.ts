/**
 * Which connectors pay to a UK sort code and account number (a refund to a UK payer, docs/api-decisions.md
 * "Refunds"): the profile says so (`paysToUkAccounts`), and a Berlin Group bank asked to pay to one anyway refuses
 * with a plain Error (our bug: the bank list never offers it such a refund), while an IBAN creditor is unchanged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditorIbanOf, type PaymentOrder } from '../../src/connectors/contract.js';
import { buildPaymentInitiationBody } from '../../src/connectors/berlin-group/request-builders.js';

const order = (creditor: PaymentOrder['creditor']): PaymentOrder => ({
  endToEndId: 'E2E-0001',
  amount: '12.30',
  currency: 'GBP',
  scheme: 'DOMESTIC',
  instantPreferred: false,
  creditor,
  remittanceInformation: 'Refund 4711',
});

describe('a UK creditor account', () => {
  it('is read as an IBAN only where there is one', () => {
    assert.equal(creditorIbanOf({ iban: 'GB29NWBK60161331926819' }), 'GB29NWBK60161331926819');
    assert.throws(
      () => creditorIbanOf({ ukAccount: { sortCode: '601613', accountNumber: '31926819' } }),
      (error: unknown) => error instanceof Error && !(error instanceof TypeError) && /IBANs only/.test(error.message),
    );
  });

  it('is refused by the Berlin Group request builder with a plain Error; an IBAN creditor goes as before', () => {
    assert.throws(
      () => buildPaymentInitiationBody(order({ ukAccount: { sortCode: '601613', accountNumber: '31926819' }, name: 'Alice Happy' })),
      /IBANs only/,
    );
    const body = buildPaymentInitiationBody(order({ iban: 'GB29NWBK60161331926819', name: 'Alice Happy' }));
    assert.deepEqual(body.creditorAccount, { iban: 'GB29NWBK60161331926819' });
  });
});
