/** The UK connector's pure mappings: account identification, Initiation, statuses, errors, profile. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  consentTransactionState,
  creditorAccountOf,
  failureCodeOfReason,
  idempotencyKeyOf,
  initiationOf,
  messagesOfObError,
  outcomeOf,
  paymentTransactionState,
} from '../../../src/connectors/uk-open-banking/mapping.js';
import { UkOpenBankingSettingsSchema, type UkOpenBankingSettings } from '../../../src/connectors/uk-open-banking/settings.js';
import { ukOpenBankingProfile } from '../../../src/connectors/uk-open-banking/profile.js';
import { leftHalfHash } from '../../../src/connectors/uk-open-banking/jose.js';
import { Value } from 'typebox/value';
import { order } from './fixture.js';

describe('UK mapping: creditor account', () => {
  it('turns a GB IBAN into sort code (chars 9–14) and account number (chars 15–22)', () => {
    assert.deepEqual(creditorAccountOf({ iban: 'GB33 BUKB 2020 1555 5555 55' }, 'ACME Ltd'), {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '20201555555555',
      Name: 'ACME Ltd',
    });
  });

  it('keeps any other IBAN as UK.OBIE.IBAN', () => {
    assert.deepEqual(creditorAccountOf({ iban: 'DE89370400440532013000' }, 'Muster GmbH'), {
      SchemeName: 'UK.OBIE.IBAN',
      Identification: 'DE89370400440532013000',
      Name: 'Muster GmbH',
    });
  });

  it("refuses an invalid IBAN as the caller's mistake", () => {
    assert.throws(() => creditorAccountOf({ iban: 'GB00BUKB20201555555555' }, 'x'), TypeError);
  });

  it('sends a UK account (a refund to a UK payer) as its sort code and account number, with the roll number if any', () => {
    assert.deepEqual(creditorAccountOf({ ukAccount: { sortCode: '601613', accountNumber: '31926819' } }, 'Alice Happy'), {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '60161331926819',
      Name: 'Alice Happy',
    });
    assert.deepEqual(
      creditorAccountOf({ ukAccount: { sortCode: '040004', accountNumber: '10001001', rollNumber: 'ROLL-0042' } }, 'Bob Saver'),
      {
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: '04000410001001',
        Name: 'Bob Saver',
        SecondaryIdentification: 'ROLL-0042',
      },
    );
    assert.throws(() => creditorAccountOf({ ukAccount: { sortCode: '60-16-13', accountNumber: '31926819' } }, 'x'), TypeError);
  });

  it("puts a UK creditor account into the Initiation's CreditorAccount", () => {
    const { initiation } = initiationOf(
      order('5.00', { creditor: { ukAccount: { sortCode: '040004', accountNumber: '10001001' }, name: 'Alice Happy' } }),
    );
    assert.deepEqual(initiation['CreditorAccount'], {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '04000410001001',
      Name: 'Alice Happy',
    });
  });
});

describe('UK mapping: Initiation and Risk', () => {
  it('builds the v4 Initiation with FPS, the exact amount and unstructured remittance', () => {
    const payment = order('0.10');
    const { initiation, risk } = initiationOf(payment);
    assert.equal(initiation['InstructionIdentification'], payment.endToEndId);
    assert.equal(initiation['EndToEndIdentification'], payment.endToEndId);
    assert.equal(initiation['LocalInstrument'], 'UK.OBIE.FPS');
    assert.deepEqual(initiation['InstructedAmount'], { Amount: '0.10', Currency: 'GBP' });
    assert.deepEqual(initiation['RemittanceInformation'], { Unstructured: ['Order 42'] });
    assert.deepEqual(risk, { PaymentContextCode: 'TransferToThirdParty' });
  });

  it('refuses a currency other than GBP', () => {
    assert.throws(() => initiationOf(order('1.00', { currency: 'EUR' })), TypeError);
  });
});

describe('UK mapping: statuses', () => {
  it('maps payment statuses and outcomes', () => {
    const cases: Array<[string, string, string, string]> = [
      ['RCVD', 'pending', 'pending', 'pending'],
      ['PDNG', 'pending', 'pending', 'pending'],
      ['ACSP', 'accepted-for-execution', 'pending', 'completed'],
      ['ACWC', 'accepted-for-execution', 'pending', 'completed'],
      ['ACWP', 'accepted-for-execution', 'pending', 'completed'],
      ['ACSC', 'settled', 'completed', 'completed'],
      ['ACCC', 'settled', 'completed', 'completed'],
      ['RJCT', 'rejected', 'failed', 'failed'],
      ['XXXX', 'unknown', 'pending', 'pending'],
    ];
    for (const [code, state, strict, lenient] of cases) {
      const mapped = paymentTransactionState(code);
      assert.equal(mapped, state, code);
      assert.equal(outcomeOf(mapped, false), strict, `${code} strict`);
      assert.equal(outcomeOf(mapped, true), lenient, `${code} accepted-for-execution is completed`);
    }
  });

  it('never reports a consent as accepted: nothing is submitted before authorisation completes', () => {
    assert.equal(consentTransactionState('AWAU'), 'received');
    assert.equal(consentTransactionState('AUTH'), 'received');
    assert.equal(consentTransactionState('COND'), 'received');
    assert.equal(consentTransactionState('RJCT'), 'rejected');
    assert.equal(consentTransactionState('EXPD'), 'unknown');
  });

  it('AM04 means insufficient funds, any other reason a bank rejection', () => {
    assert.equal(failureCodeOfReason('AM04'), 'INSUFFICIENT_FUNDS');
    assert.equal(failureCodeOfReason('NOAS'), 'BANK_REJECTED');
    assert.equal(failureCodeOfReason(undefined), 'BANK_REJECTED');
  });
});

describe('UK mapping: errors, keys, hashes, profile', () => {
  it('keeps codes and paths of OBErrorResponse1, never the free text', () => {
    const messages = messagesOfObError({ Errors: [{ ErrorCode: 'U002', Message: 'Name "Alice" is invalid', Path: 'Data.Initiation' }] });
    assert.deepEqual(messages, [{ category: 'ERROR', code: 'U002', path: 'Data.Initiation' }]);
    assert.deepEqual(messagesOfObError('<html>'), []);
  });

  it('derives idempotency keys of at most 40 characters, stable per seed', () => {
    const hash = (value: string): string => value.repeat(10);
    const key = idempotencyKeyOf('payment', 'consent-1', hash);
    assert.ok(key.length <= 40);
    assert.equal(key, idempotencyKeyOf('payment', 'consent-1', hash));
    assert.notEqual(key, idempotencyKeyOf('consent', 'consent-1', hash));
  });

  it('computes OIDC c_hash/s_hash as the left half of SHA-256, base64url (16 bytes → 22 characters)', () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223 b00361a396177a9cb410ff61f20015ad; left half, base64url.
    assert.equal(leftHalfHash('abc'), Buffer.from('ba7816bf8f01cfea414140de5dae2223', 'hex').toString('base64url'));
  });

  it('derives the profile: redirect needs nothing, decoupled the login id', () => {
    const settings: UkOpenBankingSettings = {
      standard: 'uk-open-banking',
      issuer: '{SANDBOX_BANK_URL}/uk/albion',
      resourceBaseUrl: '{SANDBOX_BANK_URL}/uk/albion/open-banking/v4.0/pisp',
      clientId: 'c',
      tokenEndpointAuthMethod: 'private_key_jwt',
      authorisation: 'redirect',
      signRequests: true,
      verifyResponseSignatures: true,
      jwsIssuer: 'c',
      trustAnchor: 'openbanking.org.uk',
      fundsConfirmation: false,
      acceptedForExecutionIsCompleted: false,
      timeoutMs: 10_000,
    };
    assert.ok(Value.Check(UkOpenBankingSettingsSchema, settings));
    assert.ok(!Value.Check(UkOpenBankingSettingsSchema, { ...settings, extra: true }), 'no unknown settings');
    const redirect = ukOpenBankingProfile(settings);
    assert.equal(redirect.scaApproach, 'REDIRECT');
    assert.equal(redirect.needsLoginId, false);
    assert.equal(redirect.senderAccountChosenAtBank, true);
    assert.equal(redirect.paysToUkAccounts, true, 'pays to a sort code and account number (a refund to a UK payer)');
    const decoupled = ukOpenBankingProfile({ ...settings, authorisation: 'decoupled', fundsConfirmation: true });
    assert.equal(decoupled.scaApproach, 'DECOUPLED');
    assert.equal(decoupled.needsLoginId, true);
    assert.equal(decoupled.needsPassword, false);
    assert.equal(decoupled.fundsConfirmation, true);
  });
});
