import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consentOutcome, scaOutcome, type PaymentTransactionState } from '../../../src/connectors/contract.js';
import {
  paymentOutcome,
  failureCodeOfMessages,
  mapConsentStatus,
  mapScaStatus,
  mapTransactionStatus,
} from '../../../src/connectors/berlin-group/status-maps.js';
import { berlinGroupOpenApi } from '../helpers/openapi-validator.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { BERLIN_GROUP_YAML } from '../helpers/openapi-validator.js';

const standard = parse(readFileSync(BERLIN_GROUP_YAML, 'utf8')) as {
  components: { schemas: Record<string, { enum?: string[] }> };
};
const enumOf = (name: string): string[] => standard.components.schemas[name]?.enum ?? [];

const completedIfSetting = { acceptedForExecutionIsCompleted: true };
const completedOnlyWhenSettled = { acceptedForExecutionIsCompleted: false };

describe('transaction status map', () => {
  const expected: Record<string, PaymentTransactionState> = {
    ACCC: 'settled',
    ACCP: 'accepted',
    ACSC: 'settled',
    ACSP: 'accepted-for-execution',
    ACTC: 'accepted',
    ACWC: 'accepted-for-execution',
    ACWP: 'accepted-for-execution',
    RCVD: 'received',
    PDNG: 'pending',
    RJCT: 'rejected',
    CANC: 'cancelled',
    ACFC: 'accepted',
    PATC: 'pending',
    PART: 'pending',
  };

  test('covers every code of the standard’s transactionStatus enumeration', () => {
    assert.deepEqual(new Set(enumOf('transactionStatus')), new Set(Object.keys(expected)));
  });

  for (const [code, state] of Object.entries(expected)) {
    test(`${code} → ${state}, raw code kept`, () => {
      assert.deepEqual(mapTransactionStatus(code), { state, code });
    });
  }

  test('unknown codes map to unknown and stay pending, never failed', () => {
    for (const code of ['XXXX', 'rjct', '', 'constructor', '__proto__', 'ACSC ']) {
      const status = mapTransactionStatus(code);
      assert.equal(status.state, 'unknown', code);
      assert.equal(status.code, code);
      assert.equal(paymentOutcome(status, completedIfSetting), 'pending');
      assert.equal(paymentOutcome(status, completedOnlyWhenSettled), 'pending');
    }
  });

  test('completed: ACSC/ACCC always; ACSP/ACWC/ACWP only with acceptedForExecutionIsCompleted', () => {
    for (const code of ['ACSC', 'ACCC']) {
      assert.equal(paymentOutcome(mapTransactionStatus(code), completedOnlyWhenSettled), 'completed');
      assert.equal(paymentOutcome(mapTransactionStatus(code), completedIfSetting), 'completed');
    }
    for (const code of ['ACSP', 'ACWC', 'ACWP']) {
      assert.equal(paymentOutcome(mapTransactionStatus(code), completedOnlyWhenSettled), 'pending');
      assert.equal(paymentOutcome(mapTransactionStatus(code), completedIfSetting), 'completed');
    }
  });

  test('failed: RJCT and CANC only', () => {
    for (const code of Object.keys(expected)) {
      const failed = paymentOutcome(mapTransactionStatus(code), completedIfSetting) === 'failed';
      assert.equal(failed, code === 'RJCT' || code === 'CANC', code);
    }
  });
});

describe('SCA status map', () => {
  const expected = {
    received: 'received',
    psuIdentified: 'psu-identified',
    psuAuthenticated: 'psu-authenticated',
    scaMethodSelected: 'sca-method-selected',
    started: 'started',
    unconfirmed: 'unconfirmed',
    finalised: 'finalised',
    failed: 'failed',
    exempted: 'exempted',
  } as const;

  test('covers every code of the standard’s scaStatus enumeration', () => {
    assert.deepEqual(new Set(enumOf('scaStatus')), new Set(Object.keys(expected)));
  });

  for (const [code, state] of Object.entries(expected)) {
    test(`${code} → ${state}`, () => assert.deepEqual(mapScaStatus(code), { state, code }));
  }

  test('outcomes: finalised/exempted authorised, failed failed, the rest and unknown pending', () => {
    assert.equal(scaOutcome(mapScaStatus('finalised')), 'authorised');
    assert.equal(scaOutcome(mapScaStatus('exempted')), 'authorised');
    assert.equal(scaOutcome(mapScaStatus('failed')), 'failed');
    for (const code of [
      'received',
      'psuIdentified',
      'psuAuthenticated',
      'scaMethodSelected',
      'started',
      'unconfirmed',
      'FINALISED',
      'weird',
    ]) {
      assert.equal(scaOutcome(mapScaStatus(code)), 'pending', code);
    }
    assert.equal(mapScaStatus('weird').state, 'unknown');
  });
});

describe('consent status map', () => {
  const expected = {
    received: 'received',
    rejected: 'rejected',
    valid: 'valid',
    revokedByPsu: 'revoked',
    expired: 'expired',
    terminatedByTpp: 'terminated',
    partiallyAuthorised: 'partially-authorised',
  } as const;

  test('covers every code of the standard’s consentStatus enumeration', () => {
    assert.deepEqual(new Set(enumOf('consentStatus')), new Set(Object.keys(expected)));
  });

  for (const [code, state] of Object.entries(expected)) {
    test(`${code} → ${state}`, () => assert.deepEqual(mapConsentStatus(code), { state, code }));
  }

  test('outcomes: valid usable; rejected/revoked/expired/terminated failed; others and unknown pending', () => {
    assert.equal(consentOutcome(mapConsentStatus('valid')), 'valid');
    for (const code of ['rejected', 'revokedByPsu', 'expired', 'terminatedByTpp']) {
      assert.equal(consentOutcome(mapConsentStatus(code)), 'failed', code);
    }
    for (const code of ['received', 'partiallyAuthorised', 'somethingNew']) {
      assert.equal(consentOutcome(mapConsentStatus(code)), 'pending', code);
    }
  });
});

describe('tppMessage codes → failure codes', () => {
  const message = (code: string, path?: string) => ({ category: 'ERROR', code, ...(path === undefined ? {} : { path }) });
  const cases: Array<[string, string]> = [
    ['PSU_CREDENTIALS_INVALID', 'PSU_AUTHENTICATION_FAILED'],
    ['CORPORATE_ID_INVALID', 'PSU_AUTHENTICATION_FAILED'],
    ['SCA_INVALID', 'SCA_FAILED'],
    ['SCA_METHOD_UNKNOWN', 'SCA_FAILED'],
    ['FUNDS_NOT_AVAILABLE', 'INSUFFICIENT_FUNDS'],
    ['RESOURCE_EXPIRED', 'EXPIRED'],
    ['CONSENT_EXPIRED', 'EXPIRED'],
    ['CONSENT_INVALID', 'CONSENT_REJECTED'],
    ['CONSENT_UNKNOWN', 'CONSENT_REJECTED'],
    ['FORMAT_ERROR', 'BANK_REJECTED'],
    ['PAYMENT_FAILED', 'BANK_REJECTED'],
    ['PRODUCT_UNKNOWN', 'BANK_REJECTED'],
    ['CERTIFICATE_INVALID', 'BANK_REJECTED'],
    ['SOMETHING_NEW', 'BANK_REJECTED'],
  ];
  for (const [code, failure] of cases) {
    test(`${code} → ${failure}`, () => assert.equal(failureCodeOfMessages([message(code)]), failure));
  }

  test('no messages → BANK_REJECTED', () => assert.equal(failureCodeOfMessages([]), 'BANK_REJECTED'));

  test('format errors about the debtor account → INVALID_SENDER_DATA', () => {
    assert.equal(failureCodeOfMessages([message('FORMAT_ERROR', 'debtorAccount.iban')]), 'INVALID_SENDER_DATA');
    assert.equal(failureCodeOfMessages([message('FORMAT_ERROR', 'creditorAccount.iban')]), 'BANK_REJECTED');
  });

  test('on the one-time-code call, PSU_CREDENTIALS_INVALID (wrong OTP per the guidelines) → SCA_FAILED', () => {
    assert.equal(failureCodeOfMessages([message('PSU_CREDENTIALS_INVALID')], 'authoriseTransaction'), 'SCA_FAILED');
    assert.equal(failureCodeOfMessages([message('PSU_CREDENTIALS_INVALID')], 'updatePsuAuthentication'), 'PSU_AUTHENTICATION_FAILED');
    assert.equal(failureCodeOfMessages([message('SCA_INVALID')], 'authoriseTransaction'), 'SCA_FAILED');
  });

  test('the first specific message wins over generic ones', () => {
    assert.equal(
      failureCodeOfMessages([message('FORMAT_ERROR'), message('PSU_CREDENTIALS_INVALID'), message('SCA_INVALID')]),
      'PSU_AUTHENTICATION_FAILED',
    );
  });

  test('the validator helper is loaded once (sanity of the shared standard file)', () => {
    assert.deepEqual(berlinGroupOpenApi().validateSchema('transactionStatus', 'ACSC'), []);
    assert.notDeepEqual(berlinGroupOpenApi().validateSchema('transactionStatus', 'NOPE'), []);
  });
});
