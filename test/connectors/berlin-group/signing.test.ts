/**
 * The standard's HTTP message signature: unit checks of Digest/Signature/keyId, verification by an independent
 * implementation and by the sandbox bank's verifier, and signed calls accepted by a sandbox bank that demands them.
 */
import assert from 'node:assert/strict';
import { X509Certificate, createHash, createVerify, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { RequestSigner, digestHeader, issuerDistinguishedName } from '../../../src/connectors/berlin-group/signing.js';
import { BankRejectedError, createConnectors, type PaymentOrder } from '../../../src/connectors/index.js';
import { inside, returnTo } from '../helpers/references.js';
import { verifyRequestSignature } from '@openpis/sandbox-bank';
import { editBank, startSandboxBank, type SandboxBankHandle } from '../contract/sandbox-bank-fixture.js';
import { throwawayCertificate, type KeyAndCertificate } from '../helpers/throwaway-certificates.js';

let tpp: KeyAndCertificate;
let other: KeyAndCertificate;
before(() => {
  tpp = throwawayCertificate('/C=DE/O=openpis test/CN=openpis test TPP');
  other = throwawayCertificate('/C=DE/CN=someone else');
});

function parseSignature(header: string): Map<string, string> {
  return new Map([...header.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

describe('request signer', () => {
  test('Digest is SHA-256 of the exact body bytes, base64', () => {
    assert.equal(digestHeader(''), `SHA-256=${createHash('sha256').update('').digest('base64')}`);
    assert.equal(digestHeader('{"a":"0.10"}'), `SHA-256=${createHash('sha256').update('{"a":"0.10"}').digest('base64')}`);
  });

  test('signs digest, x-request-id, psu-id, tpp-redirect-uri and date, verifiable with the certificate', () => {
    const signer = new RequestSigner({ privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem });
    const body = JSON.stringify({ instructedAmount: { currency: 'EUR', amount: '0.10' } });
    const headers = {
      'X-Request-ID': randomUUID(),
      'PSU-ID': 'alice',
      'TPP-Redirect-URI': 'https://tpp.example/cb',
      Date: new Date().toUTCString(),
      'PSU-IP-Address': '192.0.2.1',
    };
    const added = signer.sign(headers, body);
    const certificate = new X509Certificate(tpp.certificatePem);
    assert.equal(added['Digest'], digestHeader(body));
    assert.equal(added['TPP-Signature-Certificate'], certificate.raw.toString('base64'));
    const parameters = parseSignature(added['Signature'] ?? '');
    assert.equal(parameters.get('algorithm'), 'rsa-sha256');
    assert.equal(parameters.get('headers'), 'digest x-request-id psu-id tpp-redirect-uri date');
    assert.equal(parameters.get('keyId'), `SN=${certificate.serialNumber},CA=CN=openpis%20test%20TPP,O=openpis%20test,C=DE`);
    assert.equal(issuerDistinguishedName(certificate), 'CN=openpis%20test%20TPP,O=openpis%20test,C=DE');

    const signingString = [
      `digest: ${added['Digest']}`,
      `x-request-id: ${headers['X-Request-ID']}`,
      'psu-id: alice',
      'tpp-redirect-uri: https://tpp.example/cb',
      `date: ${headers.Date}`,
    ].join('\n');
    const verified = createVerify('sha256')
      .update(signingString)
      .verify(certificate.publicKey, parameters.get('signature') ?? '', 'base64');
    assert.equal(verified, true);

    const bySandbox = verifyRequestSignature({ headers: { ...headers, ...added }, body });
    assert.equal(bySandbox.ok, true, JSON.stringify(bySandbox));
    const tampered = verifyRequestSignature({ headers: { ...headers, ...added }, body: body.replace('0.10', '9.10') });
    assert.equal(tampered.ok, false);
  });

  test('headers that are absent are not listed', () => {
    const signer = new RequestSigner({ privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem });
    const added = signer.sign({ 'X-Request-ID': randomUUID() }, '');
    assert.equal(parseSignature(added['Signature'] ?? '').get('headers'), 'digest x-request-id');
  });

  test('a key that does not belong to the certificate is refused at start', () => {
    assert.throws(() => new RequestSigner({ privateKeyPem: other.keyPem, certificatePem: tpp.certificatePem }), /does not belong/);
  });
});

describe('signed calls to a sandbox bank that demands signatures', () => {
  let sandbox: SandboxBankHandle;
  before(async () => {
    sandbox = await startSandboxBank({ editCatalogue: (document) => editBank(document, 'rheinland', { signRequests: true }) });
  });
  after(async () => {
    await sandbox.close();
  });

  const payment: PaymentOrder = {
    endToEndId: 'SIGNED-1',
    amount: '999999999.99',
    currency: 'EUR',
    scheme: 'SEPA',
    instantPreferred: true,
    creditor: { iban: 'DE89370400440532013000', name: 'Merchant' },
  };
  const context = () => ({ requestId: randomUUID(), psuIpAddress: '192.0.2.1' });

  test('initiation (with body) and status (without) are accepted', async () => {
    const connectors = createConnectors({ signing: { privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem } });
    const connector = connectors.for(sandbox.bank('rheinland').connector);
    const initiated = await connector.registerPayment({
      context: context(),
      payment,
      returnAddress: returnTo('https://tpp.example/cb'),
      psuId: 'alice',
      idempotencyKey: randomUUID(),
    });
    assert.equal(inside(initiated.payment)['paymentProduct'], 'instant-sepa-credit-transfers');
    const status = await connector.getPaymentStatus({ context: context(), payment: initiated.payment });
    assert.equal(status.transactionStatus.code, 'RCVD');
    await connectors.close();
  });

  test('a bulk payment is signed as a single one: its initiation and status are accepted', async () => {
    const connectors = createConnectors({ signing: { privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem } });
    const bulk = connectors.for(sandbox.bank('rheinland').connector).bulkPayments;
    assert.ok(bulk !== undefined);
    const debtor = { iban: 'DE54500105171000007919' };
    const initiated = await bulk.registerBulkPayment({
      context: context(),
      payments: [
        { ...payment, endToEndId: 'SIGNED-BULK-1', amount: '0.10', debtor },
        { ...payment, endToEndId: 'SIGNED-BULK-2', amount: '0.20', debtor },
      ],
      returnAddress: returnTo('https://tpp.example/cb'),
      idempotencyKey: randomUUID(),
    });
    assert.equal(inside(initiated.payment)['paymentService'], 'bulk-payments');
    const status = await connectors
      .for(sandbox.bank('rheinland').connector)
      .getPaymentStatus({ context: context(), payment: initiated.payment });
    assert.equal(status.transactionStatus.code, 'RCVD');
    await connectors.close();
  });

  test('a bank that demands signatures with no keys configured is a start-up error', () => {
    assert.throws(() => createConnectors().for(sandbox.bank('rheinland').connector), /signing keys/);
  });

  test('unsigned calls are refused by the bank: BankRejectedError, BANK_REJECTED', async () => {
    const unsigned = createConnectors().for({ ...sandbox.bank('rheinland').connector, signRequests: false });
    await assert.rejects(
      unsigned.registerPayment({
        context: context(),
        payment,
        returnAddress: returnTo('https://tpp.example/cb'),
        idempotencyKey: randomUUID(),
      }),
      (error: unknown) => error instanceof BankRejectedError && error.httpStatus === 401 && error.failureCode === 'BANK_REJECTED',
    );
  });
});
