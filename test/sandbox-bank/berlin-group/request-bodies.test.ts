/**
 * The Berlin Group sandbox's request body checks (src/sandbox-bank/berlin-group/xs2a-bodies.ts) held against the
 * standard's YAML, NextGenPSD2 1.3.12 (issue 23, item 10): on a corpus of bodies, whatever the sandbox accepts the
 * standard accepts (with the one documented reading: `debtorAccount` may be left out), and what the standard forbids
 * the sandbox refuses with `tppMessages` of category ERROR, code FORMAT_ERROR, the field's path and a text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  buildAccountListConsentBody,
  buildBulkPaymentInitiationBody,
  buildPaymentInitiationBody,
} from '../../../src/connectors/berlin-group/request-builders.js';
import { Xs2aError } from '../../../packages/sandbox-bank/src/berlin-group/errors.js';
import {
  checkAuthorisationBody,
  checkBulkPaymentBody,
  checkConsentBody,
  checkPaymentBody,
} from '../../../packages/sandbox-bank/src/berlin-group/xs2a-bodies.js';
import { parseBody } from '../../../packages/sandbox-bank/src/berlin-group/xs2a-support.js';
import { SEPA_PAYMENT, startHarness, xs2aHeaders, type Harness } from '../harness.js';
import { Standard, STANDARD_PATH, type JsonObject } from '../standard.js';

/** `debtorAccount` optional (docs/sandbox-bank.md, "Where the sandbox reads the standard loosely"); request bodies only. */
function readings(document: JsonObject): void {
  const schemas = (document['components'] as JsonObject)['schemas'] as JsonObject;
  const payment = schemas['paymentInitiation_json'] as JsonObject;
  payment['required'] = (payment['required'] as string[]).filter((name) => name !== 'debtorAccount');
}
const standard = new Standard(STANDARD_PATH, readings);

type Body = Record<string, unknown>;
const payment = (changes: Body = {}): Body => ({
  endToEndIdentification: 'E2E-1',
  instructedAmount: { currency: 'EUR', amount: '12.50' },
  creditorAccount: { iban: 'DE89370400440532013000' },
  creditorName: 'Merchant GmbH',
  remittanceInformationUnstructured: 'Order 42',
  ...changes,
});

function problems(check: Parameters<typeof parseBody>[0], body: unknown): Xs2aError | undefined {
  try {
    parseBody(check, body);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof Xs2aError, String(error));
    return error;
  }
}

const VALID_PAYMENTS: ReadonlyArray<readonly [string, Body]> = [
  ['a minimal SEPA payment', payment()],
  [
    'with a debtor account, a BIC and an address',
    payment({
      debtorAccount: { iban: 'DE02120300000000202051', currency: 'EUR' },
      creditorAgent: 'COBADEFFXXX',
      creditorAddress: { streetName: 'Hauptstraße', buildingNumber: '1', townName: 'Berlin', postCode: '10115', country: 'DE' },
    }),
  ],
  ['remittance of 140 characters', payment({ remittanceInformationUnstructured: 'x'.repeat(140) })],
  [
    "our connector's body",
    buildPaymentInitiationBody({
      endToEndId: 'E2E-42',
      amount: '0.10',
      currency: 'EUR',
      scheme: 'SEPA',
      instantPreferred: false,
      creditor: {
        iban: 'DE89370400440532013000',
        name: 'Merchant GmbH',
        address: { streetName: 'Hauptstraße', buildingNumber: '1', postCode: '10115', city: 'Berlin', country: 'DE' },
      },
      debtor: { iban: 'DE02120300000000202051' },
      remittanceInformation: 'Order 1',
    }) as unknown as Body,
  ],
];

const INVALID_PAYMENTS: ReadonlyArray<readonly [string, Body, string]> = [
  ['no creditorName', payment({ creditorName: undefined }), 'creditorName'],
  ['creditorName of 71 characters', payment({ creditorName: 'n'.repeat(71) }), 'creditorName'],
  ['remittance of 141 characters', payment({ remittanceInformationUnstructured: 'x'.repeat(141) }), 'remittanceInformationUnstructured'],
  ['remittance as an array', payment({ remittanceInformationUnstructured: ['Order 42'] }), 'remittanceInformationUnstructured'],
  ['an amount as a number', payment({ instructedAmount: { currency: 'EUR', amount: 12.5 } }), 'instructedAmount.amount'],
  ['a lower-case currency', payment({ instructedAmount: { currency: 'eur', amount: '1.00' } }), 'instructedAmount.currency'],
  ['an IBAN with spaces', payment({ creditorAccount: { iban: 'DE89 3704 0044 0532 0130 00' } }), 'creditorAccount.iban'],
  ['an IBAN in lower case', payment({ creditorAccount: { iban: 'de89370400440532013000' } }), 'creditorAccount.iban'],
  ['an address without country', payment({ creditorAddress: { townName: 'Berlin' } }), 'creditorAddress.country'],
  [
    'a street name of 71 characters',
    payment({ creditorAddress: { streetName: 's'.repeat(71), country: 'DE' } }),
    'creditorAddress.streetName',
  ],
  ['an endToEndIdentification of 36 characters', payment({ endToEndIdentification: 'e'.repeat(36) }), 'endToEndIdentification'],
];

/**
 * The standard's `amount` and `bicfi` patterns are unanchored, so read literally they let `1.2345` (it contains
 * `1.234`) and a 9-letter BIC (it contains 8) through; the sandbox anchors them, as the Implementation Guidelines mean.
 */
const STRICTER: ReadonlyArray<readonly [string, Body, string]> = [
  ['an amount with 4 decimals', payment({ instructedAmount: { currency: 'EUR', amount: '1.2345' } }), 'instructedAmount.amount'],
  ['a BIC of 9 characters', payment({ creditorAgent: 'COBADEFFX' }), 'creditorAgent'],
];

describe('Berlin Group sandbox request bodies against psd2-api-1.3.12.yaml', () => {
  for (const [name, body] of VALID_PAYMENTS) {
    it(`payment: accepts ${name}, as the standard does`, () => {
      assert.deepEqual(standard.validateRequestBody('initiatePayment', body), []);
      assert.equal(problems(checkPaymentBody, body), undefined);
    });
  }

  for (const [name, body, field] of INVALID_PAYMENTS) {
    it(`payment: refuses ${name}, as the standard does, with FORMAT_ERROR at ${field}`, () => {
      const clean = JSON.parse(JSON.stringify(body)) as Body;
      assert.notDeepEqual(standard.validateRequestBody('initiatePayment', clean), [], 'the standard refuses it');
      const error = problems(checkPaymentBody, clean);
      assert.ok(error, 'the sandbox refuses it');
      const messages = error.body().tppMessages;
      assert.ok(
        messages.every((message) => message.category === 'ERROR' && message.code === 'FORMAT_ERROR' && typeof message.text === 'string'),
      );
      assert.ok(
        messages.some((message) => message.path === field),
        JSON.stringify(messages),
      );
    });
  }

  for (const [name, body, field] of STRICTER) {
    it(`payment: refuses ${name} (the standard's pattern is unanchored; anchored here)`, () => {
      assert.ok(
        problems(checkPaymentBody, body)
          ?.body()
          .tppMessages.some((message) => message.path === field),
      );
    });
  }

  it('payment: every problem of a body is listed', () => {
    const error = problems(checkPaymentBody, payment({ creditorName: 'n'.repeat(71), remittanceInformationUnstructured: 'x'.repeat(141) }));
    assert.deepEqual(
      error
        ?.body()
        .tppMessages.map((message) => message.path)
        .sort(),
      ['creditorName', 'remittanceInformationUnstructured'],
    );
  });

  it("consent: our connector's account-list consent is accepted by both; a wrong date, a missing field or a wrong type is refused by both", () => {
    const ours = buildAccountListConsentBody('2026-03-03') as unknown as Body;
    assert.deepEqual(standard.validateRequestBody('createConsent', ours), []);
    assert.equal(problems(checkConsentBody, ours), undefined);
    const invalid: ReadonlyArray<readonly [Body, string]> = [
      [{ ...ours, validUntil: '03.03.2026' }, 'validUntil'],
      [{ ...ours, recurringIndicator: 'false' }, 'recurringIndicator'],
      [{ ...ours, frequencyPerDay: undefined }, 'frequencyPerDay'],
      [{ ...ours, access: { availableAccounts: 'everything' } }, 'access.availableAccounts'],
    ];
    for (const [body, field] of invalid) {
      const clean = JSON.parse(JSON.stringify(body)) as Body;
      assert.notDeepEqual(standard.validateRequestBody('createConsent', clean), [], `the standard refuses ${field}`);
      const error = problems(checkConsentBody, clean);
      assert.ok(
        error?.body().tppMessages.some((message) => message.path === field),
        `the sandbox refuses ${field}: ${JSON.stringify(error?.body())}`,
      );
    }
  });

  it('authorisation: the bodies of the embedded steps are accepted by both; a too-long method id or a non-string password is refused by both', () => {
    for (const body of [{ psuData: { password: 'sandbox' } }, { authenticationMethodId: 'SMS_OTP' }, { scaAuthenticationData: '123456' }]) {
      assert.deepEqual(standard.validateRequestBody('updatePaymentPsuData', body), [], JSON.stringify(body));
      assert.equal(problems(checkAuthorisationBody, body), undefined);
    }
    for (const [body, field] of [
      [{ authenticationMethodId: 'm'.repeat(36) }, 'authenticationMethodId'],
      [{ psuData: { password: 1234 } }, 'psuData.password'],
    ] as const) {
      assert.notDeepEqual(standard.validateRequestBody('updatePaymentPsuData', body), [], `the standard refuses ${field}`);
      assert.ok(
        problems(checkAuthorisationBody, body)
          ?.body()
          .tppMessages.some((message) => message.path === field),
        `the sandbox refuses ${field}`,
      );
    }
  });
});

const bulk = (changes: Body = {}): Body => ({
  batchBookingPreferred: false,
  debtorAccount: { iban: 'DE02120300000000202051', currency: 'EUR' },
  payments: [payment(), payment({ endToEndIdentification: 'E2E-2', creditorAccount: { iban: 'NL91ABNA0417164300' } })],
  ...changes,
});

describe('Berlin Group sandbox bulk payment bodies against psd2-api-1.3.12.yaml', () => {
  const order = (endToEndId: string, amount: string) => ({
    endToEndId,
    amount,
    currency: 'EUR',
    scheme: 'SEPA' as const,
    instantPreferred: false,
    creditor: { iban: 'DE89370400440532013000', name: 'Merchant GmbH' },
    debtor: { iban: 'DE02120300000000202051' },
    remittanceInformation: `Refund ${endToEndId}`,
  });
  const valid: ReadonlyArray<readonly [string, Body]> = [
    ['a minimal bulk of two', bulk()],
    ['with debtorName and requestedExecutionDate', bulk({ debtorName: 'Shop GmbH', requestedExecutionDate: '2026-03-03' })],
    ['one payment (the standard sets no minimum above one)', bulk({ payments: [payment()] })],
    ["our connector's bulk body", buildBulkPaymentInitiationBody([order('R-1', '0.10'), order('R-2', '19.99')]) as unknown as Body],
  ];
  for (const [name, body] of valid) {
    it(`bulk: accepts ${name}, as the standard does`, () => {
      assert.deepEqual(standard.validateRequestBody('initiatePayment', body), []);
      assert.equal(problems(checkBulkPaymentBody, body), undefined);
    });
  }

  const invalid: ReadonlyArray<readonly [string, Body, string]> = [
    ['no debtorAccount', bulk({ debtorAccount: undefined }), 'debtorAccount'],
    ['no payments', bulk({ payments: undefined }), 'payments'],
    ['a payment without creditorName', bulk({ payments: [payment({ creditorName: undefined })] }), 'payments[0].creditorName'],
    [
      'a payment with an IBAN with spaces',
      bulk({ payments: [payment({ creditorAccount: { iban: 'DE89 3704' } })] }),
      'payments[0].creditorAccount.iban',
    ],
    ['batchBookingPreferred as a string', bulk({ batchBookingPreferred: 'false' }), 'batchBookingPreferred'],
    ['a debtorName of 71 characters', bulk({ debtorName: 'd'.repeat(71) }), 'debtorName'],
  ];
  for (const [name, body, field] of invalid) {
    it(`bulk: refuses ${name}, as the standard does, with FORMAT_ERROR at ${field}`, () => {
      const clean = JSON.parse(JSON.stringify(body)) as Body;
      assert.notDeepEqual(standard.validateRequestBody('initiatePayment', clean), [], 'the standard refuses it');
      assert.ok(
        problems(checkBulkPaymentBody, clean)
          ?.body()
          .tppMessages.some((message) => message.path === field),
        `the sandbox refuses ${field}`,
      );
    });
  }

  it('bulk: refuses 101 payments (the sandbox bank holds at most 100 in one bulk)', () => {
    const body = bulk({ payments: Array.from({ length: 101 }, () => payment()) });
    assert.ok(
      problems(checkBulkPaymentBody, body)
        ?.body()
        .tppMessages.some((message) => message.path === 'payments'),
    );
  });
});

describe('Berlin Group sandbox: a payment body the standard forbids is answered 400 FORMAT_ERROR, never stored', () => {
  let bank: Harness;
  before(async () => {
    bank = await startHarness();
  });
  after(async () => {
    await bank.close();
  });

  it('an IBAN with spaces and an over-long creditor name: one tppMessage each, with its path; a conforming retry is created', async () => {
    const headers = xs2aHeaders({ 'TPP-Redirect-URI': 'https://tpp.example/return' });
    const url = '/rheinland/v1/payments/sepa-credit-transfers';
    const body = { ...SEPA_PAYMENT, creditorAccount: { iban: 'DE89 3704 0044 0532 0130 00' }, creditorName: 'n'.repeat(71) };
    // The request is malformed on purpose; the answer is still checked against the standard.
    const refused = await bank.call('initiatePayment', 'POST', url, { headers, body, invalidRequest: true });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(
      (refused.body.tppMessages as Array<{ category: string; code: string; path?: string }>)
        .map((message) => [message.category, message.code, message.path])
        .sort(),
      [
        ['ERROR', 'FORMAT_ERROR', 'creditorAccount.iban'],
        ['ERROR', 'FORMAT_ERROR', 'creditorName'],
      ],
    );
    const created = await bank.call('initiatePayment', 'POST', url, {
      headers,
      body: SEPA_PAYMENT,
      debtorAccountOptional: !('debtorAccount' in SEPA_PAYMENT),
    });
    assert.equal(created.status, 201, created.text);
  });
});
