/**
 * The UK sandbox checks every consent and payment request body against the standard (issue 23, item 10): the
 * project's compact schemas (src/sandbox-bank/uk-open-banking/request-schemas.ts) are held against the
 * Payment Initiation API 4.0.0 YAML on a corpus, and the banks answer a body the standard forbids with 400 and
 * OBErrorResponse1 (U002 invalid, U004 missing, U005 unexpected, with the field's Path) instead of storing and
 * echoing it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { initiationOf } from '../../../src/connectors/uk-open-banking/mapping.js';
import { ObFormatError } from '../../../packages/sandbox-bank/src/uk-open-banking/errors.js';
import { checkRequestBody } from '../../../packages/sandbox-bank/src/uk-open-banking/request-schemas.js';
import { OPERATIONS, ukStandard } from './standard.js';
import { fragmentOf, gbpPayment, payerAtBank, startUkBank, Tpp, type UkBank } from './tpp.js';

type Body = Record<string, unknown>;

/** What our own connector sends (the e2e journeys' bodies), for a GB and a non-GB creditor, with and without remittance. */
function connectorBodies(): Body[] {
  const orders = [
    { creditor: { iban: 'GB33BUKB20201555555555', name: 'ACME Ltd' }, remittanceInformation: 'Order 42' },
    { creditor: { iban: 'DE89370400440532013000', name: 'Händler GmbH' }, remittanceInformation: 'x'.repeat(140) },
    { creditor: { iban: 'GB33BUKB20201555555555', name: 'ACME Ltd' }, remittanceInformation: undefined },
  ];
  return orders.map((order) => {
    const { initiation, risk } = initiationOf({
      endToEndId: `e2e-${randomUUID().slice(0, 8)}`,
      amount: '12.50',
      currency: 'GBP',
      scheme: 'DOMESTIC',
      instantPreferred: false,
      ...order,
    });
    return { Data: { Initiation: initiation }, Risk: risk };
  });
}

const consent = (
  initiation: Body = gbpPayment('1.00'),
  risk: Body = { PaymentContextCode: 'TransferToThirdParty' },
  data: Body = {},
): Body => ({
  Data: { Initiation: initiation, ...data },
  Risk: risk,
});

/** Bodies the standard accepts and the sandbox takes. */
const VALID: ReadonlyArray<readonly [string, Body]> = [
  ["the test TPP's body", consent()],
  ['an empty Risk', consent(undefined, {})],
  [
    'every Risk field the sandbox takes',
    consent(undefined, {
      PaymentContextCode: 'EcommerceMerchantInitiatedPayment',
      MerchantCategoryCode: '5967',
      MerchantCustomerIdentification: 'c-1',
      ContractPresentIndicator: true,
      BeneficiaryPrepopulatedIndicator: false,
    }),
  ],
  [
    'Unstructured remittance of 140 characters',
    consent(gbpPayment('1.00', { RemittanceInformation: { Unstructured: ['x'.repeat(140), 'second line'] } })),
  ],
  [
    'a debtor account and ReadRefundAccount',
    consent(
      gbpPayment('1.00', { DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '11280001234567' } }),
      undefined,
      { ReadRefundAccount: 'Yes' },
    ),
  ],
  [
    'an amount with 5 decimals (the pattern allows; the route refuses more than 2)',
    consent(gbpPayment('1.00', { InstructedAmount: { Amount: '1.00000', Currency: 'GBP' } })),
  ],
  ['SupplementaryData of any shape', consent(gbpPayment('1.00', { SupplementaryData: { anything: { goes: [1, 2] } } }))],
  ...connectorBodies().map((body, index) => [`our connector's body ${index + 1}`, body] as const),
];

/** Bodies the standard forbids: each must be refused by both, with the code and path the sandbox answers. */
const INVALID: ReadonlyArray<readonly [string, Body, { code: string; path: string }]> = [
  [
    'Unstructured as a string (the schema has an array)',
    consent(gbpPayment('1.00', { RemittanceInformation: { Unstructured: 'Order 42' } })),
    { code: 'U002', path: 'Data.Initiation.RemittanceInformation.Unstructured' },
  ],
  [
    'PaymentContextCode EcommerceGoods (a v3 code, not in the v4 list)',
    consent(undefined, { PaymentContextCode: 'EcommerceGoods' }),
    { code: 'U002', path: 'Risk.PaymentContextCode' },
  ],
  [
    'an Unstructured line of 141 characters',
    consent(gbpPayment('1.00', { RemittanceInformation: { Unstructured: ['x'.repeat(141)] } })),
    { code: 'U002', path: 'Data.Initiation.RemittanceInformation.Unstructured[0]' },
  ],
  [
    'an empty Unstructured line',
    consent(gbpPayment('1.00', { RemittanceInformation: { Unstructured: [''] } })),
    { code: 'U002', path: 'Data.Initiation.RemittanceInformation.Unstructured[0]' },
  ],
  ['no Risk', { Data: { Initiation: gbpPayment('1.00') } }, { code: 'U004', path: 'Risk' }],
  [
    'no CreditorAccount.Name',
    consent(gbpPayment('1.00', { CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698' } })),
    { code: 'U004', path: 'Data.Initiation.CreditorAccount.Name' },
  ],
  ['an unknown Initiation field', consent(gbpPayment('1.00', { Colour: 'blue' })), { code: 'U005', path: 'Data.Initiation.Colour' }],
  ['an unknown top-level field', { ...consent(), Meta: {} }, { code: 'U005', path: 'Meta' }],
  [
    'an amount as a number',
    consent(gbpPayment('1.00', { InstructedAmount: { Amount: 1, Currency: 'GBP' } })),
    { code: 'U002', path: 'Data.Initiation.InstructedAmount.Amount' },
  ],
  [
    'an amount with a comma',
    consent(gbpPayment('1.00', { InstructedAmount: { Amount: '1,00', Currency: 'GBP' } })),
    { code: 'U002', path: 'Data.Initiation.InstructedAmount.Amount' },
  ],
  [
    'a lower-case currency',
    consent(gbpPayment('1.00', { InstructedAmount: { Amount: '1.00', Currency: 'gbp' } })),
    { code: 'U002', path: 'Data.Initiation.InstructedAmount.Currency' },
  ],
  [
    'an EndToEndIdentification of 36 characters',
    consent(gbpPayment('1.00', { EndToEndIdentification: 'e'.repeat(36) })),
    { code: 'U002', path: 'Data.Initiation.EndToEndIdentification' },
  ],
  [
    'ReadRefundAccount "yes"',
    consent(undefined, undefined, { ReadRefundAccount: 'yes' }),
    { code: 'U002', path: 'Data.ReadRefundAccount' },
  ],
  [
    'ContractPresentIndicator as a string',
    consent(undefined, { ContractPresentIndicator: 'true' }),
    { code: 'U002', path: 'Risk.ContractPresentIndicator' },
  ],
];

/** Bodies the standard allows but the sandbox does not offer: refused as unexpected (U005), naming the field. */
const NOT_OFFERED: ReadonlyArray<readonly [string, Body, string]> = [
  [
    'structured remittance',
    consent(gbpPayment('1.00', { RemittanceInformation: { Structured: [{ ReferredDocumentAmount: 100 }] } })),
    'Data.Initiation.RemittanceInformation.Structured',
  ],
  [
    'a creditor postal address',
    consent(gbpPayment('1.00', { CreditorPostalAddress: { TownName: 'London', Country: 'GB' } })),
    'Data.Initiation.CreditorPostalAddress',
  ],
  ['a Risk purpose code', consent(undefined, { PaymentPurposeCode: 'CASH' }), 'Risk.PaymentPurposeCode'],
];

function refusal(body: unknown, kind: 'consent' | 'payment' = 'consent'): ObFormatError {
  try {
    checkRequestBody(kind, body);
  } catch (error) {
    assert.ok(error instanceof ObFormatError, String(error));
    return error;
  }
  assert.fail('the sandbox schema accepted the body');
}

describe("UK sandbox request schemas against the standard's YAML", () => {
  const standard = ukStandard();

  for (const [name, body] of VALID) {
    it(`accepts ${name}, as the standard does (consent and payment)`, () => {
      assert.deepEqual(standard.validateRequestBody(OPERATIONS.createConsent, body), [], 'the standard accepts it');
      assert.doesNotThrow(() => checkRequestBody('consent', body));
      const payment = { Data: { ConsentId: 'sdp-1', Initiation: (body['Data'] as Body)['Initiation'] }, Risk: body['Risk'] };
      assert.deepEqual(standard.validateRequestBody(OPERATIONS.createPayment, payment), []);
      assert.doesNotThrow(() => checkRequestBody('payment', payment));
    });
  }

  for (const [name, body, expected] of INVALID) {
    it(`refuses ${name}, as the standard does, with ${expected.code} at ${expected.path}`, () => {
      assert.notDeepEqual(standard.validateRequestBody(OPERATIONS.createConsent, body), [], 'the standard refuses it');
      const answer = refusal(body).body('id-1');
      assert.ok(
        answer.Errors.some((error) => error.ErrorCode === expected.code && error.Path === expected.path),
        JSON.stringify(answer.Errors),
      );
    });
  }

  for (const [name, body, path] of NOT_OFFERED) {
    it(`refuses ${name}, which the standard allows but the sandbox does not offer, as unexpected (U005)`, () => {
      assert.deepEqual(standard.validateRequestBody(OPERATIONS.createConsent, body), [], 'the standard accepts it');
      assert.deepEqual(
        refusal(body)
          .body('id-1')
          .Errors.map((error) => [error.ErrorCode, error.Path]),
        [['U005', path]],
      );
    });
  }

  it('a payment body needs its ConsentId, and takes no ReadRefundAccount', () => {
    const initiation = gbpPayment('1.00');
    const noConsentId = { Data: { Initiation: initiation }, Risk: {} };
    assert.notDeepEqual(standard.validateRequestBody(OPERATIONS.createPayment, noConsentId), []);
    assert.deepEqual(
      refusal(noConsentId, 'payment')
        .body('id')
        .Errors.map((error) => [error.ErrorCode, error.Path]),
      [['U004', 'Data.ConsentId']],
    );
    const refund = { Data: { ConsentId: 'sdp-1', Initiation: initiation, ReadRefundAccount: 'No' }, Risk: {} };
    assert.notDeepEqual(standard.validateRequestBody(OPERATIONS.createPayment, refund), []);
    assert.deepEqual(
      refusal(refund, 'payment')
        .body('id')
        .Errors.map((error) => [error.ErrorCode, error.Path]),
      [['U005', 'Data.ReadRefundAccount']],
    );
  });

  it('lists every problem of a body at once', () => {
    const body = consent(gbpPayment('1.00', { RemittanceInformation: { Unstructured: 'x' }, EndToEndIdentification: '' }), {
      PaymentContextCode: 'EcommerceGoods',
    });
    const paths = refusal(body)
      .body('id')
      .Errors.map((error) => error.Path)
      .sort();
    assert.deepEqual(paths, [
      'Data.Initiation.EndToEndIdentification',
      'Data.Initiation.RemittanceInformation.Unstructured',
      'Risk.PaymentContextCode',
    ]);
  });
});

describe('UK sandbox: a body the standard forbids is answered 400 in OBErrorResponse1, never stored or echoed', () => {
  let bank: UkBank;
  before(async () => {
    bank = await startUkBank();
  });
  after(async () => {
    await bank.close();
  });

  async function postConsent(tpp: Tpp, body: Body) {
    // invalidRequest: our own request check is off; the answer is still checked against the standard.
    return tpp.api('CreateDomesticPaymentConsents', 'POST', '/domestic-payment-consents', {
      token: await tpp.clientCredentialsToken(),
      idempotencyKey: randomUUID(),
      body,
      invalidRequest: true,
    });
  }

  for (const [name, body, expected] of INVALID.slice(0, 3)) {
    it(`consent with ${name}: 400, ${expected.code} at ${expected.path}`, async () => {
      const tpp = await new Tpp(bank, 'albion').register();
      const answer = await postConsent(tpp, body);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.Code, '400 BadRequest');
      assert.ok(typeof answer.body.Id === 'string' && answer.body.Id !== '');
      assert.ok(
        (answer.body.Errors as Array<{ ErrorCode: string; Path?: string }>).some(
          (error) => error.ErrorCode === expected.code && error.Path === expected.path,
        ),
        answer.text,
      );
    });
  }

  it('a payment with a body the standard forbids: 400 (U002), and the consent stays unused', async () => {
    const tpp = await new Tpp(bank, 'albion').register();
    const created = await postConsent(tpp, consent());
    assert.equal(created.status, 201);
    const consentId = created.body.Data.ConsentId as string;
    const visit = await payerAtBank(await tpp.authorizeUrl(consentId), { psuId: 'alice' });
    const code = fragmentOf(visit.location).get('code');
    assert.ok(code);
    const exchanged = await tpp.exchangeCode(code);
    const answer = await tpp.api('CreateDomesticPayments', 'POST', '/domestic-payments', {
      token: exchanged.body.access_token as string,
      idempotencyKey: randomUUID(),
      body: {
        Data: { ConsentId: created.body.Data.ConsentId, Initiation: created.body.Data.Initiation },
        Risk: { PaymentContextCode: 'EcommerceGoods' },
      },
      invalidRequest: true,
    });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(
      (answer.body.Errors as Array<{ ErrorCode: string; Path?: string }>).map((error) => [error.ErrorCode, error.Path]),
      [['U002', 'Risk.PaymentContextCode']],
    );
    // Not consumed: the conforming payment still goes through.
    const paid = await tpp.api('CreateDomesticPayments', 'POST', '/domestic-payments', {
      token: exchanged.body.access_token as string,
      idempotencyKey: randomUUID(),
      body: { Data: { ConsentId: consentId, Initiation: created.body.Data.Initiation }, Risk: created.body.Risk },
    });
    assert.equal(paid.status, 201, paid.text);
  });
});
