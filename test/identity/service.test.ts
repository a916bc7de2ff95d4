/**
 * The service with our identity towards the banks configured: it says at start which certificates the banks see,
 * warns of one near expiry in the log, the metrics and on every console page an operator opens (members see no
 * such banner); and the connectors really present each standard's certificate in mutual TLS and sign Berlin Group
 * requests with the QSealC.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createConnectors } from '../../src/connectors/index.js';
import { BankIdentities } from '../../src/identity/bank-identities.js';
import { certificateWarnings, loadBankIdentity } from '../../src/identity/identity.js';
import type { ConnectorSettings } from '../../src/connectors/settings.js';
import type { RegisterPaymentInput } from '../../src/connectors/index.js';
import { settings } from '../connectors/helpers/fake-bank.js';
import { returnTo } from '../connectors/helpers/references.js';
import { throwAwaySigningKeys } from '../../src/connectors/uk-open-banking/keys.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { NO_IDENTITY_SOURCES, TestCertificateAuthority, type TestCertificate } from '../helpers/psd2-certificates.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInOperatorAndMember } from '../console/console-http.js';
import { paymentRequest } from '../helpers/payment-requests.js';

const [sqlite] = await testDatabaseKinds();

describe('the service with our certificates towards the banks', () => {
  let authority: TestCertificateAuthority;
  let qwac: TestCertificate;
  let qseal: TestCertificate;
  let app: TestApp;

  before(async () => {
    authority = new TestCertificateAuthority();
    qwac = authority.qwac('qwac', { organisationIdentifier: 'PSDGB-FCA-123456' });
    qseal = authority.qsealc('qseal', { organisationIdentifier: 'PSDGB-FCA-123456', roles: ['PSP_PI'], days: 7 });
    app = await startTestApp(sqlite!, {
      env: {
        LOG_LEVEL: 'info',
        QWAC_CERT_FILE: qwac.certFile,
        QWAC_KEY_FILE: qwac.keyFile,
        QSEAL_P12_FILE: authority.pkcs12(qseal, 'seal password'),
        QSEAL_P12_PASSWORD: 'seal password',
        BANK_CA_FILE: authority.caFile,
      },
    });
  });
  after(async () => {
    await app?.close();
    authority.remove();
  });

  it('logs each certificate at start and warns of the one expiring within 30 days', () => {
    const lines = app.logs.map((line) => JSON.parse(line) as { level: number; msg: string; organisationIdentifier?: string });
    assert.ok(
      lines.some(
        (line) => line.msg === 'bank certificate: Berlin Group mutual TLS (QWAC)' && line.organisationIdentifier === 'PSDGB-FCA-123456',
      ),
    );
    const warnings = lines.filter((line) => line.level === 40 && /QSealC/.test(line.msg));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.msg, /expires on .* \(in [67] days\): renew it/);
  });

  it('exports the days left on each certificate as a metric', async () => {
    const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    assert.match(text, /openpis_bank_certificate_days_left\{use="qwac",subject="CN=[^"]*PSDGB-FCA-123456[^"]*"\} 36[45]/);
    assert.match(text, /openpis_bank_certificate_days_left\{use="qseal",subject="[^"]*"\} [67]\n/);
  });

  it('shows operators a banner on every console page; members see none', async () => {
    const client = await app.createClient({ name: 'Acme' });
    assert.equal(
      (await app.request('/api/v1/ob/payments', { method: 'POST', token: await client.token(), json: paymentRequest() })).status,
      201,
    );
    const { operator, member } = await signedInOperatorAndMember(app, client.clientId);
    for (const path of ['/console/payments', '/console/banks', '/console/clients']) {
      const page = await operator.get(path);
      assert.equal(page.status, 200, path);
      assert.match(
        page.html,
        /<div class="alert" role="alert">Berlin Group request signatures \(QSealC\) CN=.* expires on .*: renew it and update its files<\/div>/,
        path,
      );
    }
    const memberPage = await member.get('/console/payments');
    assert.equal(memberPage.status, 200);
    assert.doesNotMatch(memberPage.html, /class="alert"/);
  });
});

describe('the connectors present each standard its own client certificate', () => {
  let authority: TestCertificateAuthority;
  let server: Server;
  let seen: { subject: string | undefined; signature: string | undefined; certificateHeader: string | undefined }[];
  let baseUrl: string;

  before(async () => {
    authority = new TestCertificateAuthority();
    const serverCertificate = authority.server('bank', ['localhost']);
    seen = [];
    // A bank's server that asks for a client certificate from our CA and answers every call with 503 (no JSON to map).
    server = createServer(
      {
        cert: serverCertificate.certificatePem,
        key: serverCertificate.privateKeyPem,
        ca: authority.caPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (request, response) => {
        const peer = (request.socket as TLSSocket).getPeerX509Certificate();
        seen.push({
          subject: peer?.subject,
          signature: request.headers['signature'] as string | undefined,
          certificateHeader: request.headers['tpp-signature-certificate'] as string | undefined,
        });
        response.writeHead(503, { 'content-type': 'application/json' }).end('{}');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    baseUrl = `https://localhost:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    authority.remove();
  });

  it('the QWAC towards a Berlin Group bank, the transport certificate towards a UK bank, the QSealC in the signature', async () => {
    const qwac = authority.qwac('qwac', { commonName: 'berlin-group-client' });
    const transport = authority.qwac('transport', { commonName: 'uk-transport-client' });
    const qseal = authority.qsealc('qseal');
    // The identity as the service loads it from the operator's files (src/composition.ts).
    const identity = loadBankIdentity({
      qwac: { kind: 'pem', certFile: qwac.certFile, keyFile: qwac.keyFile },
      qseal: { kind: 'pkcs12', file: authority.pkcs12(qseal, 'pw'), password: 'pw' },
      openBankingTransport: { kind: 'pem', certFile: transport.certFile, keyFile: transport.keyFile },
      openBankingSigningCertFile: undefined,
      softwareStatementFile: undefined,
      bankCaFile: authority.caFile,
      expiryWarningDays: 30,
    });
    const openBankingKeys = await throwAwaySigningKeys();
    const connectors = createConnectors({ openBankingKeys, identity: new BankIdentities(identity, openBankingKeys).resolve });
    try {
      await assert.rejects(connectors.for(settings(baseUrl, { signRequests: true })).registerPayment(registration()));
      const uk: ConnectorSettings = {
        standard: 'uk-open-banking',
        issuer: baseUrl,
        resourceBaseUrl: `${baseUrl}/open-banking/v4.0/pisp`,
        clientId: 'our-client',
        tokenEndpointAuthMethod: 'private_key_jwt',
        authorisation: 'redirect',
        responseMode: 'fragment',
        signRequests: true,
        verifyResponseSignatures: true,
        jwsIssuer: 'our-client',
        trustAnchor: 'openbanking.org.uk',
        bankTrustAnchor: 'bank.example',
        fundsConfirmation: true,
        acceptedForExecutionIsCompleted: false,
        timeoutMs: 10000,
      };
      await assert.rejects(
        connectors.for(uk).registerPayment(registration({ currency: 'GBP', scheme: 'DOMESTIC', iban: 'GB33BUKB20201555555555' })),
      );
    } finally {
      await connectors.close();
    }
    assert.match(seen[0]?.subject ?? '', /CN=berlin-group-client/);
    assert.match(seen[0]?.signature ?? '', /^keyId="SN=[0-9A-F]+,CA=CN=Test%20QTSP%20PSD2%20CA/);
    assert.equal(seen[0]?.certificateHeader, new X509Certificate(qseal.certificatePem).raw.toString('base64'));
    assert.ok(seen.length >= 2, 'the UK bank was called too');
    assert.ok(
      seen.slice(1).every((call) => /CN=uk-transport-client/.test(call.subject ?? '')),
      JSON.stringify(seen.slice(1)),
    );
  });

  it("replace the process's towards that bank only, and join the reports with the bank's name", async () => {
    const processQwac = authority.qwac('process-qwac', { commonName: 'process-client' });
    const ownQwac = authority.qwac('own-qwac', { commonName: 'own-client', days: 10 });
    const identity = loadBankIdentity({
      ...NO_IDENTITY_SOURCES,
      qwac: { kind: 'pem', certFile: processQwac.certFile, keyFile: processQwac.keyFile },
      bankCaFile: authority.caFile,
    });
    const identities = new BankIdentities(identity, await throwAwaySigningKeys(), { OWN_QWAC_PASSWORD: 'own pw' });
    const own = settings(baseUrl, {
      identity: { qwac: { p12File: authority.pkcs12(ownQwac, 'own pw'), p12PasswordEnv: 'OWN_QWAC_PASSWORD' } },
    });
    identities.load([{ name: 'Own Bank', connector: own }]);
    const connectors = createConnectors({ openBankingKeys: await throwAwaySigningKeys(), identity: identities.resolve });
    try {
      await assert.rejects(connectors.for(own).registerPayment(registration()));
      await assert.rejects(connectors.for(settings(baseUrl)).registerPayment(registration()));
    } finally {
      await connectors.close();
    }
    assert.match(seen.at(-2)?.subject ?? '', /CN=own-client/);
    assert.match(seen.at(-1)?.subject ?? '', /CN=process-client/);
    const reports = identities.reports(new Date());
    assert.deepEqual(
      reports.map((report) => [report.bank, report.use, report.state]),
      [
        [undefined, 'qwac', 'valid'],
        ['Own Bank', 'qwac', 'expiring'],
      ],
    );
    assert.match(certificateWarnings(reports)[0] ?? '', /^Own Bank's own Berlin Group mutual TLS \(QWAC\) CN=own-client.* expires on /);
  });

  it('a file that cannot be used stops the start with the bank named, and a missing password names its variable', async () => {
    const identity = loadBankIdentity(NO_IDENTITY_SOURCES);
    const identities = new BankIdentities(identity, await throwAwaySigningKeys(), {});
    assert.throws(
      () =>
        identities.load([
          {
            name: 'Broken Bank',
            connector: settings(baseUrl, { identity: { qwac: { certFile: '/nonexistent/q.pem', keyFile: '/nonexistent/q.key' } } }),
          },
        ]),
      (error: Error) =>
        error.name === 'BankIdentityError' &&
        /^Broken Bank: identity\.qwac\.certFile \/nonexistent\/q\.pem does not exist/.test(error.message),
    );
    assert.throws(
      () =>
        identities.load([
          {
            name: 'Locked Bank',
            connector: settings(baseUrl, { identity: { qseal: { p12File: 'seal.p12', p12PasswordEnv: 'SEAL_PASSWORD' } } }),
          },
        ]),
      /the PKCS#12 file seal\.p12 needs its password in the environment variable SEAL_PASSWORD, which is not set/,
    );
  });
});

function registration(
  payment: { currency: string; scheme: 'SEPA' | 'DOMESTIC'; iban: string } = {
    currency: 'EUR',
    scheme: 'SEPA',
    iban: 'DE89370400440532013000',
  },
): RegisterPaymentInput {
  return {
    idempotencyKey: 'k-1',
    context: { requestId: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' },
    payment: {
      endToEndId: 'E2E-1',
      amount: '1.00',
      currency: payment.currency,
      scheme: payment.scheme,
      instantPreferred: false,
      creditor: { iban: payment.iban, name: 'Merchant GmbH' },
      remittanceInformation: 'Order 1',
    },
    returnAddress: returnTo('https://pis.example/cb', 'https://pis.example/nok'),
  };
}
