/**
 * Our identity towards the banks (issue 24, part 1): certificates shaped like eIDAS QWAC/QSealC, made by openssl at
 * test time, read as PEM pairs and as PKCS#12; what an operator is shown of them; and every way a file can be wrong
 * stops with a message naming the setting.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeCertificate } from '../../src/identity/certificate.js';
import { loadCertifiedKey } from '../../src/identity/credentials.js';
import { certificateReports, certificateWarnings, loadBankIdentity } from '../../src/identity/identity.js';
import { NO_IDENTITY_SOURCES, TestCertificateAuthority, type TestCertificate } from '../helpers/psd2-certificates.js';

const NO_SOURCES = NO_IDENTITY_SOURCES;

describe('our certificates towards the banks', () => {
  let authority: TestCertificateAuthority;
  let qwac: TestCertificate;
  let qseal: TestCertificate;
  let other: TestCertificate;

  before(() => {
    authority = new TestCertificateAuthority();
    qwac = authority.qwac('qwac', { organisationIdentifier: 'PSDGB-FCA-123456', roles: ['PSP_PI', 'PSP_AI'] });
    qseal = authority.qsealc('qseal', { organisationIdentifier: 'PSDDE-BAFIN-987654', roles: ['PSP_PI'], days: 10 });
    other = authority.server('bank');
  });
  after(() => authority.remove());

  it('reads the subject, the PSD2 authorisation number, roles and authority, and the validity', () => {
    const description = describeCertificate(qwac.certificatePem);
    assert.equal(description.organisationIdentifier, 'PSDGB-FCA-123456');
    assert.equal(description.commonName, '0015800001041RbAAI');
    assert.equal(description.organisation, 'Example TPP Ltd');
    assert.deepEqual(description.psd2, {
      roles: ['PSP_PI', 'PSP_AI'],
      authorityName: 'Financial Conduct Authority',
      authorityId: 'GB-FCA',
    });
    assert.match(description.subject, /^CN=0015800001041RbAAI,organizationIdentifier=PSDGB-FCA-123456,O=Example TPP Ltd,C=GB$/);
    assert.match(description.issuer, /CN=Test QTSP PSD2 CA/);
    assert.ok(Date.parse(description.notAfter) > Date.now() + 300 * 24 * 60 * 60 * 1000);
    assert.match(description.fingerprintSha256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('a certificate without the PSD2 statement has no roles, and no organisation identifier when its subject has none', () => {
    const description = describeCertificate(other.certificatePem);
    assert.equal(description.psd2, undefined);
    assert.equal(description.organisationIdentifier, undefined);
  });

  it('loads a PEM pair and a PKCS#12 file to the same certificate and key', () => {
    const fromPem = loadCertifiedKey({ kind: 'pem', certFile: qwac.certFile, keyFile: qwac.keyFile }, 'QWAC');
    const p12 = authority.pkcs12(qwac, 'correct horse');
    const fromP12 = loadCertifiedKey({ kind: 'pkcs12', file: p12, password: 'correct horse' }, 'QWAC');
    assert.equal(
      describeCertificate(fromP12.certificatePem).fingerprintSha256,
      describeCertificate(fromPem.certificatePem).fingerprintSha256,
    );
    assert.match(fromP12.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
  });

  it('says which setting is wrong: a wrong password, a missing file, a key of another certificate', () => {
    const p12 = authority.pkcs12(qseal, 'right');
    assert.throws(
      () => loadCertifiedKey({ kind: 'pkcs12', file: p12, password: 'wrong' }, 'QSEAL'),
      /QSEAL_P12_FILE .* QSEAL_P12_PASSWORD is wrong/,
    );
    assert.throws(
      () => loadCertifiedKey({ kind: 'pem', certFile: join(authority.dir, 'absent.pem'), keyFile: qwac.keyFile }, 'QWAC'),
      /QWAC_CERT_FILE .*absent\.pem does not exist/,
    );
    assert.throws(
      () => loadCertifiedKey({ kind: 'pem', certFile: qwac.certFile, keyFile: qseal.keyFile }, 'QWAC'),
      /QWAC: the private key does not belong to the certificate/,
    );
    const notPem = join(authority.dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    assert.throws(
      () => loadCertifiedKey({ kind: 'pem', certFile: notPem, keyFile: qwac.keyFile }, 'OB_TRANSPORT'),
      /OB_TRANSPORT_CERT_FILE .* holds no PEM certificate/,
    );
  });

  it('reports each certificate with its state, and warns within the warning days and after expiry', () => {
    const identity = loadBankIdentity({
      ...NO_SOURCES,
      qwac: { kind: 'pem', certFile: qwac.certFile, keyFile: qwac.keyFile },
      qseal: { kind: 'pem', certFile: qseal.certFile, keyFile: qseal.keyFile },
    });
    const now = new Date();
    const reports = certificateReports(identity, now);
    assert.deepEqual(
      reports.map((report) => [report.use, report.state]),
      [
        ['qwac', 'valid'],
        ['qseal', 'expiring'],
      ],
    );
    const warnings = certificateWarnings(reports);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^Berlin Group request signatures \(QSealC\) CN=.* expires on .* \(in (9|10) days\)/);

    const muchLater = new Date(now.getTime() + 400 * 24 * 60 * 60 * 1000);
    assert.deepEqual(
      certificateReports(identity, muchLater).map((report) => report.state),
      ['expired', 'expired'],
    );
    assert.match(certificateWarnings(certificateReports(identity, muchLater))[0]!, /expired on .*: the banks refuse it/);
  });

  it('reads the software statement assertion and adds BANK_CA_FILE to the trusted CAs', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'PS256', kid: 'directory-key' })).toString('base64url');
    const claims = Buffer.from(
      JSON.stringify({
        iss: 'OpenBanking Ltd',
        iat: 1_700_000_000,
        software_id: 'soft-1',
        org_id: 'org-9',
        software_redirect_uris: ['https://pay.example/pay/return'],
      }),
    ).toString('base64url');
    const ssaFile = join(authority.dir, 'ssa.jwt');
    writeFileSync(ssaFile, `${header}.${claims}.c2lnbmF0dXJl\n`);
    const identity = loadBankIdentity({ ...NO_SOURCES, softwareStatementFile: ssaFile, bankCaFile: authority.caFile });
    assert.equal(identity.softwareStatement?.softwareId, 'soft-1');
    assert.equal(identity.softwareStatement?.organisationId, 'org-9');
    assert.deepEqual(identity.softwareStatement?.redirectUris, ['https://pay.example/pay/return']);
    assert.equal(identity.softwareStatement?.issuedAt, '2023-11-14T22:13:20.000Z');
    assert.ok(identity.bankCas?.includes(authority.caPem));
    assert.ok((identity.bankCas?.length ?? 0) > 1, "Node's own CAs stay trusted");

    writeFileSync(ssaFile, 'not a jwt');
    assert.throws(() => loadBankIdentity({ ...NO_SOURCES, softwareStatementFile: ssaFile }), /OB_SSA_FILE .* is not a JWT/);
  });
});
