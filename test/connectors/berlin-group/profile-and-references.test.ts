/** The Berlin Group profile (from the bank's settings, pure) and the checked decoding of the opaque references. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BankProtocolError, bankProfile, createConnector, toBankReference, type CallContext } from '../../../src/connectors/index.js';
import { berlinGroupProfile } from '../../../src/connectors/berlin-group/profile.js';
import { settings } from '../helpers/fake-bank.js';
import { bgPayment } from '../helpers/references.js';

const context: CallContext = { requestId: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' };
const base = 'http://127.0.0.1:9/xs2a/bank-a';

describe('berlinGroupProfile', () => {
  test('embedded: login id and password; limits from the settings, else 3', () => {
    const embedded = berlinGroupProfile(
      settings(base, { scaApproaches: ['EMBEDDED', 'REDIRECT'], requiresSenderAuthorization: true, loginAttempts: 5, timeoutMs: 7000 }),
    );
    assert.deepEqual(embedded, {
      scaApproach: 'EMBEDDED',
      needsLoginId: true,
      needsPassword: true,
      loginBeforeRegistration: true,
      needsSenderAccount: false,
      senderAccountChosenAtBank: false,
      loginAttempts: 5,
      oneTimeCodeAttempts: 3,
      fundsConfirmation: false,
      answerTimeoutMs: 7000,
      statusNotifications: false,
      paysToUkAccounts: false,
    });
  });

  test('decoupled: the login id only; redirect: nothing; the sender account as the settings say', () => {
    const decoupled = berlinGroupProfile(settings(base, { scaApproaches: ['DECOUPLED'] }));
    assert.equal(decoupled.needsLoginId, true);
    assert.equal(decoupled.needsPassword, false);
    const redirect = berlinGroupProfile(settings(base, { requiresDebtorAccount: true }));
    assert.equal(redirect.scaApproach, 'REDIRECT');
    assert.equal(redirect.needsLoginId, false);
    assert.equal(redirect.needsSenderAccount, true);
  });

  test('bankProfile gives the connector’s own profile; capabilities follow the settings', () => {
    const redirect = settings(base);
    assert.deepEqual(bankProfile(redirect), createConnector(redirect).profile);
    assert.equal(createConnector(redirect).embedded, undefined);
    assert.equal(createConnector(redirect).accountInformation, undefined);
    assert.notEqual(createConnector(settings(base, { scaApproaches: ['EMBEDDED'] })).embedded, undefined);
    assert.notEqual(createConnector(settings(base, { scaApproaches: ['DECOUPLED'] })).embedded, undefined);
    assert.notEqual(createConnector(settings(base, { accountInformation: true })).accountInformation, undefined);
  });
});

describe('references', () => {
  test('a reference this connector did not make is a BankProtocolError, before any bank call', async () => {
    const connector = createConnector(settings(base));
    for (const payment of [
      toBankReference({ kind: 'consent', consentId: 'c', links: {} }),
      toBankReference({ kind: 'payment', paymentId: 'p', paymentService: 'payments', links: {} }),
      toBankReference({
        kind: 'payment',
        paymentId: 'p',
        paymentService: 'payments',
        paymentProduct: 'sepa-credit-transfers',
        links: { self: 7 },
      }),
    ]) {
      await assert.rejects(connector.getPaymentStatus({ context, payment }), BankProtocolError);
    }
    const payment = bgPayment({ paymentId: 'p', paymentService: 'payments', paymentProduct: 'sepa-credit-transfers', links: {} });
    await assert.rejects(
      connector.completeAuthorisation({ context, payment, authorisation: toBankReference({ authorisationId: 42, links: {} }) }),
      BankProtocolError,
    );
  });
});
