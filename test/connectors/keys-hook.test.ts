/**
 * Each standard picks its keys from our identity through one hook in the standards registry: a bank that needs a key
 * we lack is refused when its connector is asked for, naming what is missing; and an identity resolver gives a bank
 * its own identity (its own signing certificate here) without touching a connector.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { connectorCredentials, createConnectors, type ConnectorIdentity } from '../../src/connectors/index.js';
import type { ConnectorSettings } from '../../src/connectors/settings.js';
import { berlinGroupKeyId } from '../../src/connectors/berlin-group/signing.js';
import { settings, startFakeBank, type FakeBank } from './helpers/fake-bank.js';
import { bgPayment } from './helpers/references.js';
import { throwawayCertificate, type KeyAndCertificate } from './helpers/throwaway-certificates.js';

const UK: ConnectorSettings = {
  standard: 'uk-open-banking',
  issuer: 'https://as.bank.example',
  resourceBaseUrl: 'https://rs.bank.example/open-banking/v4.0/pisp',
  clientId: 'openpis',
  tokenEndpointAuthMethod: 'private_key_jwt',
  authorisation: 'redirect',
  signRequests: true,
  verifyResponseSignatures: true,
  jwsIssuer: 'openpis',
  trustAnchor: 'openbanking.org.uk',
  bankTrustAnchor: 'openbanking.org.uk',
  fundsConfirmation: false,
  acceptedForExecutionIsCompleted: false,
  timeoutMs: 2_000,
};

let processSeal: KeyAndCertificate;
let bankSeal: KeyAndCertificate;
let bank: FakeBank;
before(async () => {
  processSeal = throwawayCertificate('/C=DE/O=openpis test/CN=process seal');
  bankSeal = throwawayCertificate('/C=DE/O=openpis test/CN=seal for one bank');
  bank = await startFakeBank(() => ({ status: 200, body: { transactionStatus: 'ACSC' } }));
});
after(async () => {
  await bank.close();
});

describe('keys hook', () => {
  it('a bank that needs a key we lack is refused, naming it', () => {
    assert.throws(() => connectorCredentials(settings('https://xs2a.bank.example', { signRequests: true }), {}), /no signing keys/);
    assert.throws(() => connectorCredentials(UK, {}), /OB_SIGNING_KEY_FILE/);
    assert.throws(() => createConnectors().for(UK), /OB_SIGNING_KEY_FILE/);
    // A bank that signs nothing needs no signing key.
    const unsigned = connectorCredentials(settings('https://xs2a.bank.example'), {});
    assert.deepEqual(unsigned, { signing: undefined, tls: undefined });
  });

  it("an identity resolver gives one bank its own signing certificate; the others keep the process's", async () => {
    const own: ConnectorIdentity = { signing: { privateKeyPem: bankSeal.keyPem, certificatePem: bankSeal.certificatePem } };
    const ownBank = settings(`${bank.origin}/own`, { signRequests: true });
    const otherBank = settings(`${bank.origin}/other`, { signRequests: true });
    const asked: ConnectorSettings[] = [];
    const connectors = createConnectors({
      signing: { privateKeyPem: processSeal.keyPem, certificatePem: processSeal.certificatePem },
      identity: (bankSettings, processIdentity) => {
        asked.push(bankSettings);
        return bankSettings === ownBank ? own : processIdentity;
      },
    });
    for (const bankSettings of [ownBank, otherBank]) {
      // Any signed call will do: the status of a payment the fake bank says is settled (its payer known, so the one
      // call: a settled payment's payer would be read from the payment resource).
      const status = await connectors.for(bankSettings).getPaymentStatus({
        context: { requestId: '6f1c1f5e-6a1b-4a39-9d3c-6a3f0f2b9a10' },
        payment: bgPayment({ paymentId: 'p-1', paymentService: 'payments', paymentProduct: 'sepa-credit-transfers', links: {} }),
        payerKnown: true,
      });
      assert.equal(status.transactionStatus.code, 'ACSC');
    }
    await connectors.close();
    assert.deepEqual(asked, [ownBank, otherBank]);
    const keyIds = bank.requests.map((request) => /keyId="([^"]*)"/.exec(String(request.headers['signature']))?.[1]);
    assert.equal(keyIds.length, 2);
    assert.equal(keyIds[0], berlinGroupKeyId(new X509Certificate(bankSeal.certificatePem)));
    assert.equal(keyIds[1], berlinGroupKeyId(new X509Certificate(processSeal.certificatePem)));
  });
});
