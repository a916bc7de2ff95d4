/**
 * The generic HTTP message signer: its signature verifies with node:crypto against the certificate's public key over
 * the signing string of the headers it lists, the `keyId` is the one the standard's format gives, and the Berlin
 * Group profile is the generic signer with its own `keyId` format and certificate header.
 */
import assert from 'node:assert/strict';
import { X509Certificate, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { BERLIN_GROUP_SIGNATURE, berlinGroupKeyId, RequestSigner } from '../../../src/connectors/berlin-group/signing.js';
import { digestHeader, HttpMessageSigner, signingString, type HttpSignatureProfile } from '../../../src/connectors/http/signature.js';
import { throwawayCertificate, type KeyAndCertificate } from '../helpers/throwaway-certificates.js';

let tpp: KeyAndCertificate;
before(() => {
  tpp = throwawayCertificate('/C=LT/O=openpis test/CN=openpis signer test');
});

function parameters(header: string): Map<string, string> {
  return new Map([...header.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

/** A made-up standard: its keyId is the certificate's SHA-256 fingerprint, it signs digest, date and (request-target)-like x-path. */
const OTHER_STANDARD: HttpSignatureProfile = {
  keyId: (certificate) => `fp:${certificate.fingerprint256.replace(/:/g, '').toLowerCase()}`,
  signedHeaders: ['digest', 'date', 'x-path'],
};

describe('generic HTTP message signer', () => {
  it("signs the listed headers present; the signature verifies with the certificate's public key", () => {
    const signer = new HttpMessageSigner({ privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem }, OTHER_STANDARD);
    const body = '{"amount":"0.10"}';
    const headers = { Date: 'Fri, 27 Nov 2026 23:00:00 GMT', 'X-Path': '/v1/payments', 'X-Other': 'not signed' };
    const added = signer.sign(headers, body);
    const signature = parameters(added['Signature'] ?? '');
    assert.equal(added['Digest'], digestHeader(body));
    assert.equal(signature.get('headers'), 'digest date x-path');
    assert.equal(signature.get('algorithm'), 'rsa-sha256');
    const certificate = new X509Certificate(tpp.certificatePem);
    const signed = `digest: ${digestHeader(body)}\ndate: ${headers.Date}\nx-path: /v1/payments`;
    assert.equal(
      signingString({ digest: digestHeader(body), date: headers.Date, 'x-path': '/v1/payments' }, ['digest', 'date', 'x-path']),
      signed,
    );
    assert.equal(
      createVerify('sha256')
        .update(signed)
        .verify(certificate.publicKey, signature.get('signature') ?? '', 'base64'),
      true,
    );
    // Any change to a signed header or the body breaks it.
    assert.equal(
      createVerify('sha256')
        .update(signed.replace('/v1/payments', '/v1/other'))
        .verify(certificate.publicKey, signature.get('signature') ?? '', 'base64'),
      false,
    );
    assert.notEqual(digestHeader(body.replace('0.10', '9.10')), added['Digest']);
  });

  it("the keyId is the standard's format of the certificate", () => {
    const certificate = new X509Certificate(tpp.certificatePem);
    const other = new HttpMessageSigner({ privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem }, OTHER_STANDARD);
    assert.equal(other.keyId, `fp:${certificate.fingerprint256.replace(/:/g, '').toLowerCase()}`);
    assert.equal(parameters(other.sign({}, '')['Signature'] ?? '').get('keyId'), other.keyId);
    const berlinGroup = new RequestSigner({ privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem });
    assert.equal(berlinGroup.keyId, berlinGroupKeyId(certificate));
    assert.equal(berlinGroup.keyId, `SN=${certificate.serialNumber},CA=CN=openpis%20signer%20test,O=openpis%20test,C=LT`);
    const added = berlinGroup.sign({ 'X-Request-ID': randomUUID() }, '');
    assert.equal(added['TPP-Signature-Certificate'], certificate.raw.toString('base64'));
    assert.equal(parameters(added['Signature'] ?? '').get('keyId'), berlinGroup.keyId);
    assert.deepEqual(BERLIN_GROUP_SIGNATURE.signedHeaders.slice(0, 2), ['digest', 'x-request-id']);
  });

  it('refuses a key that is not the certificate’s, a key rsa-sha256 cannot use, and a keyId with quotes', () => {
    const other = throwawayCertificate('/C=LT/CN=someone else');
    assert.throws(
      () => new HttpMessageSigner({ privateKeyPem: other.keyPem, certificatePem: tpp.certificatePem }, OTHER_STANDARD),
      /does not belong/,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.throws(() => new HttpMessageSigner({ privateKeyPem: ec, certificatePem: tpp.certificatePem }, OTHER_STANDARD), /RSA key/);
    assert.throws(
      () =>
        new HttpMessageSigner({ privateKeyPem: tpp.keyPem, certificatePem: tpp.certificatePem }, { ...OTHER_STANDARD, keyId: () => 'a"b' }),
      /quotes/,
    );
  });
});
