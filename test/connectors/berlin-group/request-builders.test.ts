import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PaymentOrder } from '../../../src/connectors/contract.js';
import {
  buildAccountListConsentBody,
  buildPaymentInitiationBody,
  choosePaymentProduct,
  scaPreferenceHeaders,
  tomorrowIsoDate,
} from '../../../src/connectors/berlin-group/request-builders.js';
import { berlinGroupOpenApi } from '../helpers/openapi-validator.js';

const order = (overrides: Partial<PaymentOrder> = {}): PaymentOrder => ({
  endToEndId: 'E2E-0001',
  amount: '12.30',
  currency: 'EUR',
  scheme: 'SEPA',
  instantPreferred: false,
  creditor: {
    iban: 'DE89370400440532013000',
    name: 'Merchant GmbH',
    address: { country: 'DE', city: 'Köln', streetName: 'Domkloster', buildingNumber: '4', postCode: '50667' },
  },
  remittanceInformation: 'Order 4711',
  ...overrides,
});

describe('payment product choice', () => {
  const full = {
    SEPA: 'sepa-credit-transfers',
    SEPA_INSTANT: 'instant-sepa-credit-transfers',
    DOMESTIC: 'pln-credit-transfers',
    DOMESTIC_INSTANT: 'pln-instant-credit-transfers',
  };

  test('instant preferred and the bank has an instant product → instant', () => {
    assert.deepEqual(choosePaymentProduct(full, 'SEPA', true), { product: 'instant-sepa-credit-transfers', instant: true });
    assert.deepEqual(choosePaymentProduct(full, 'DOMESTIC', true), { product: 'pln-instant-credit-transfers', instant: true });
  });

  test('instant preferred but no instant product → standard', () => {
    assert.deepEqual(choosePaymentProduct({ SEPA: 'sepa-credit-transfers' }, 'SEPA', true), {
      product: 'sepa-credit-transfers',
      instant: false,
    });
  });

  test('standard preferred → standard, even when the bank has instant', () => {
    assert.deepEqual(choosePaymentProduct(full, 'SEPA', false), { product: 'sepa-credit-transfers', instant: false });
    assert.deepEqual(choosePaymentProduct(full, 'DOMESTIC', false), { product: 'pln-credit-transfers', instant: false });
  });

  test('a scheme product of another scheme is never used', () => {
    assert.equal(choosePaymentProduct({ SEPA: 'sepa-credit-transfers' }, 'DOMESTIC', false), undefined);
    assert.equal(choosePaymentProduct({ DOMESTIC_INSTANT: 'x' }, 'SEPA', true), undefined);
  });

  test('only an instant product for the scheme → instant as fallback', () => {
    assert.deepEqual(choosePaymentProduct({ SEPA_INSTANT: 'instant-sepa-credit-transfers' }, 'SEPA', false), {
      product: 'instant-sepa-credit-transfers',
      instant: true,
    });
  });
});

describe('payment initiation body', () => {
  const api = berlinGroupOpenApi();

  test('maps every field to the standard’s names', () => {
    const body = buildPaymentInitiationBody(order({ debtor: { iban: 'DE54500105171000007919', currency: 'EUR' } }));
    assert.deepEqual(body, {
      endToEndIdentification: 'E2E-0001',
      debtorAccount: { iban: 'DE54500105171000007919', currency: 'EUR' },
      instructedAmount: { currency: 'EUR', amount: '12.30' },
      creditorAccount: { iban: 'DE89370400440532013000' },
      creditorName: 'Merchant GmbH',
      creditorAddress: { streetName: 'Domkloster', buildingNumber: '4', townName: 'Köln', postCode: '50667', country: 'DE' },
      remittanceInformationUnstructured: 'Order 4711',
    });
    assert.deepEqual(api.validateSchema('paymentInitiation_json', body), []);
  });

  for (const amount of ['0.10', '0.01', '1', '1.5', '999999999.99', '12345678901234', '0.001', '100.000']) {
    test(`amount ${amount} is sent exactly as given`, () => {
      const body = buildPaymentInitiationBody(order({ amount }));
      assert.equal(body.instructedAmount.amount, amount);
      assert.equal(JSON.parse(JSON.stringify(body)).instructedAmount.amount, amount);
      assert.match(JSON.stringify(body), new RegExp(`"amount":"${amount.replace('.', '\\.')}"`));
    });
  }

  for (const amount of ['0,10', '-1.00', '1e3', '.5', '1.', '1.2345', '123456789012345', ' 1.00', 'NaN', '']) {
    test(`amount ${JSON.stringify(amount)} is refused as a caller bug`, () => {
      assert.throws(() => buildPaymentInitiationBody(order({ amount })), TypeError);
    });
  }

  test('optional parts are omitted when unknown', () => {
    const body = buildPaymentInitiationBody(
      order({ creditor: { iban: 'DE89370400440532013000', name: 'M' }, remittanceInformation: undefined }),
    );
    assert.deepEqual(Object.keys(body).sort(), ['creditorAccount', 'creditorName', 'endToEndIdentification', 'instructedAmount']);
    assert.deepEqual(berlinGroupOpenApi({ debtorAccountOptional: true }).validateSchema('paymentInitiation_json', body), []);
  });

  test('debtor without currency sends the IBAN only', () => {
    assert.deepEqual(buildPaymentInitiationBody(order({ debtor: { iban: 'DE54500105171000007919' } })).debtorAccount, {
      iban: 'DE54500105171000007919',
    });
  });
});

describe('consent body and preference headers', () => {
  test('an available-accounts consent valid until tomorrow, one access per day', () => {
    const body = buildAccountListConsentBody(tomorrowIsoDate(new Date('2030-12-31T23:30:00Z')));
    assert.deepEqual(body, {
      access: { availableAccounts: 'allAccounts' },
      recurringIndicator: false,
      validUntil: '2031-01-01',
      frequencyPerDay: 1,
      combinedServiceIndicator: false,
    });
    assert.deepEqual(berlinGroupOpenApi().validateSchema('consents', body), []);
  });

  test('SCA approach preferences', () => {
    assert.deepEqual(scaPreferenceHeaders('REDIRECT'), { 'TPP-Redirect-Preferred': 'true' });
    assert.deepEqual(scaPreferenceHeaders('EMBEDDED'), { 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': 'false' });
    assert.deepEqual(scaPreferenceHeaders('DECOUPLED'), { 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': 'true' });
  });
});
