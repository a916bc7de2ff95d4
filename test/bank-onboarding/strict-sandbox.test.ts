/**
 * The strict sandbox bank (issue 24, parts 3-5) over loopback HTTPS: what it refuses and in which shape (Berlin
 * Group tppMessages, UK OBErrorResponse1, RFC 7591 registration errors), UK dynamic client registration from our
 * side (register, read, update, delete) of a bank added to the database, the registration kept among its sealed
 * secrets and used by the bank registry at once, and `banks check` against a correct configuration and wrong ones.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { generateKeyPair } from 'jose';
import type { HttpMessageSigner } from '../../src/connectors/http/signature.js';
import { RequestSigner } from '../../src/connectors/berlin-group/signing.js';
import { checkBank, type BankCheckReport } from '../../src/bank-onboarding/check.js';
import { onboardingSetup } from '../../src/bank-onboarding/setup.js';
import { runRegistration } from '../../src/bank-onboarding/uk-registration.js';
import { RegistrationRefusedError } from '../../src/connectors/uk-open-banking/registration.js';
import { writeFileSync } from 'node:fs';
import { BankRegistrationSecrets } from '../../src/providers/bank-registrations.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { BERLIN_GROUP_BANK, SIGNING_KID, softwareStatement, startStrictWorld, UK_BANK, type StrictWorld } from './strict-world.js';

const PAYMENT = JSON.stringify({
  instructedAmount: { currency: 'EUR', amount: '1.00' },
  creditorAccount: { iban: 'DE89370400440532013000' },
  creditorName: 'Test',
});

describe('strict sandbox bank', () => {
  let world: StrictWorld;
  /** The service's database and banks, the UK bank added as an operator adds one. */
  let runtime: Runtime;
  let store: BankRegistrationSecrets;
  /** The go-live tools' setup over the database's banks, with these settings in place of the world's. */
  const setupWith = (overrides: Record<string, string> = {}) => onboardingSetup(world.config(overrides), runtime.catalogue);

  before(async () => {
    world = await startStrictWorld();
    runtime = await openRuntime(world.config());
    await runtime.catalogue.store.add(world.ukBankEntry);
    await runtime.catalogue.refresh();
    store = new BankRegistrationSecrets(runtime.catalogue.store);
  });
  after(async () => {
    await runtime?.database.close();
    await world?.close();
  });

  /** An HTTPS call to the bank as a TPP with this client certificate (or none). */
  async function call(
    path: string,
    options: {
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      cert?: { certificatePem: string; privateKeyPem: string };
    } = {},
  ): Promise<{ status: number; json: unknown; headers: Record<string, unknown> }> {
    const agent = new Agent({
      connect: {
        ca: world.ca.caPem,
        ...(options.cert === undefined ? {} : { cert: options.cert.certificatePem, key: options.cert.privateKeyPem }),
      },
    });
    try {
      const answer = await request(`${world.sandboxUrl}${path}`, {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
        dispatcher: agent,
      });
      const text = await answer.body.text();
      return { status: answer.statusCode, json: text === '' ? undefined : (JSON.parse(text) as unknown), headers: answer.headers };
    } finally {
      await agent.close();
    }
  }

  function signedPaymentHeaders(seal: { certificatePem: string; privateKeyPem: string }): Record<string, string> {
    const signer: HttpMessageSigner = new RequestSigner(seal);
    const headers = {
      'content-type': 'application/json',
      'x-request-id': randomUUID(),
      'psu-ip-address': '192.0.2.1',
      'tpp-redirect-uri': 'https://localhost/pay/return',
    };
    return { ...headers, ...signer.sign(headers, PAYMENT) };
  }

  const xs2aCode = (json: unknown): string | undefined => (json as { tppMessages?: { code: string }[] }).tppMessages?.[0]?.code;

  describe('Berlin Group', () => {
    const path = '/rheinland/v1/payments/sepa-credit-transfers';

    it('refuses a call without a client certificate: 401 CERTIFICATE_MISSING in tppMessages', async () => {
      const answer = await call(path, { method: 'POST', headers: signedPaymentHeaders(world.qseal), body: PAYMENT });
      assert.equal(answer.status, 401);
      assert.equal(xs2aCode(answer.json), 'CERTIFICATE_MISSING');
    });

    it('refuses a client certificate of a CA it does not trust: CERTIFICATE_INVALID', async () => {
      const wrong = world.otherCa.qwac('wrong-qwac');
      const answer = await call(path, { method: 'POST', headers: signedPaymentHeaders(world.qseal), body: PAYMENT, cert: wrong });
      assert.equal(answer.status, 401);
      assert.equal(xs2aCode(answer.json), 'CERTIFICATE_INVALID');
    });

    it('refuses an unsigned request: the signature certificate is missing', async () => {
      const answer = await call(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': randomUUID(), 'psu-ip-address': '192.0.2.1' },
        body: PAYMENT,
        cert: world.qwac,
      });
      assert.equal(answer.status, 401);
      assert.equal(xs2aCode(answer.json), 'CERTIFICATE_MISSING');
    });

    it('refuses a signature that does not verify: SIGNATURE_INVALID', async () => {
      const headers = signedPaymentHeaders(world.qseal);
      const name = Object.keys(headers).find((header) => header.toLowerCase() === 'signature') ?? 'Signature';
      headers[name] = (headers[name] ?? '').replace(
        /signature="([A-Za-z0-9+/])/,
        (_all, first: string) => `signature="${first === 'A' ? 'B' : 'A'}`,
      );
      const answer = await call(path, { method: 'POST', headers, body: PAYMENT, cert: world.qwac });
      assert.equal(answer.status, 401);
      assert.equal(xs2aCode(answer.json), 'SIGNATURE_INVALID');
    });

    it('refuses a seal of a CA it does not trust, and a seal of another organisation', async () => {
      const untrusted = await call(path, {
        method: 'POST',
        headers: signedPaymentHeaders(world.otherCa.qsealc('other-seal')),
        body: PAYMENT,
        cert: world.qwac,
      });
      assert.equal(untrusted.status, 401);
      assert.equal(xs2aCode(untrusted.json), 'CERTIFICATE_INVALID');
      const stranger = world.ca.qsealc('stranger-seal', { organisationIdentifier: 'PSDDE-BAFIN-999999' });
      const otherOrganisation = await call(path, {
        method: 'POST',
        headers: signedPaymentHeaders(stranger),
        body: PAYMENT,
        cert: world.qwac,
      });
      assert.equal(otherOrganisation.status, 401);
      assert.match(JSON.stringify(otherOrganisation.json), /PSDDE-BAFIN-999999/);
    });

    it('accepts a signed request over mutual TLS with the right certificates', async () => {
      const answer = await call(path, { method: 'POST', headers: signedPaymentHeaders(world.qseal), body: PAYMENT, cert: world.qwac });
      assert.equal(answer.status, 201, JSON.stringify(answer.json));
      assert.equal((answer.json as { transactionStatus: string }).transactionStatus, 'RCVD');
    });
  });

  describe('UK Open Banking', () => {
    it('refuses the API without a client certificate in OBErrorResponse1', async () => {
      const answer = await call('/uk/albion/open-banking/v4.0/pisp/domestic-payment-consents/x', {
        headers: { authorization: 'Bearer x' },
      });
      assert.equal(answer.status, 403);
      const body = answer.json as { Code: string; Errors: { ErrorCode: string; Message: string }[] };
      assert.equal(body.Errors[0]?.ErrorCode, 'U006');
      assert.match(body.Errors[0]?.Message ?? '', /client certificate/);
      assert.ok(answer.headers['x-jws-signature'], 'the refusal is signed like every OBErrorResponse1');
    });

    it('registers clients only through dynamic client registration', async () => {
      const answer = await call('/uk/albion/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jwks: { keys: [{ kty: 'RSA', kid: 'k', n: 'AQAB', e: 'AQAB' }] } }),
        cert: world.transport,
      });
      assert.equal(answer.status, 400);
      assert.equal((answer.json as { error: string }).error, 'invalid_client_metadata');
    });

    it('refuses a client it does not know at the token endpoint (invalid_client)', async () => {
      const answer = await call('/uk/albion/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=nobody',
        cert: world.transport,
      });
      assert.equal(answer.status, 401);
      assert.equal((answer.json as { error: string }).error, 'invalid_client');
    });

    it('refuses a software statement the directory did not sign (unapproved_software_statement)', async () => {
      const impostor = await generateKeyPair('PS256');
      const forged = join(world.ca.dir, 'forged-ssa.jwt');
      writeFileSync(forged, await softwareStatement(impostor.privateKey, { keys: [] }));
      const setup = setupWith({ OB_SSA_FILE: forged });
      await assert.rejects(runRegistration(setup, UK_BANK, 'register', store), (error: unknown) => {
        assert.ok(error instanceof RegistrationRefusedError);
        assert.equal(error.error, 'unapproved_software_statement');
        assert.match(error.message, /directory/);
        return true;
      });
    });

    it('registers, reads, updates and deletes a client through DCR, keeping the token sealed', async () => {
      const setup = setupWith();
      const registered = await runRegistration(setup, UK_BANK, 'register', store);
      const clientId = registered.registration?.clientId;
      assert.ok(clientId !== undefined);
      assert.equal(registered.registration?.jwsIssuer, '0015800001041RbAAI/openpisTestSoftware1');
      const kept = await store.get(UK_BANK);
      assert.ok(kept?.registrationAccessToken !== undefined);
      const row = await runtime.database.db.selectFrom('banks').selectAll().where('id', '=', UK_BANK).executeTakeFirstOrThrow();
      assert.ok(row.secrets_sealed !== null);
      assert.ok(!JSON.stringify(row).includes(kept.registrationAccessToken), 'the token is sealed at rest');
      assert.ok(!JSON.stringify(row).includes(clientId), 'the client id is sealed with it');
      // The service's banks use the registered client at once (no restart).
      await runtime.catalogue.refresh();
      const found = runtime.catalogue.findInAnyEnvironment(UK_BANK);
      assert.ok(found.kind === 'bank' && found.bank.connector.standard === 'uk-open-banking');
      assert.equal(found.bank.connector.clientId, clientId);
      assert.equal(found.bank.connector.jwsIssuer, '0015800001041RbAAI/openpisTestSoftware1');

      const read = await runRegistration(setup, UK_BANK, 'read', store);
      assert.equal(read.atTheBank?.['client_id'], clientId);
      assert.equal(read.atTheBank?.['software_id'], 'openpisTestSoftware1');
      assert.equal(read.atTheBank?.['registration_access_token'], undefined, 'a read never shows the token again');

      const updated = await runRegistration(setup, UK_BANK, 'update', store);
      assert.equal(updated.registration?.clientId, clientId);

      await runRegistration(setup, UK_BANK, 'delete', store);
      assert.equal(await store.get(UK_BANK), undefined);
      assert.equal(await runtime.catalogue.store.secretsOf(UK_BANK), undefined, 'no secret of it is left');
      await runtime.catalogue.refresh();
      const afterDelete = runtime.catalogue.findInAnyEnvironment(UK_BANK);
      assert.ok(afterDelete.kind === 'bank' && afterDelete.bank.connector.standard === 'uk-open-banking');
      assert.notEqual(afterDelete.bank.connector.clientId, clientId, 'the service no longer uses the deleted client');
      // The bank forgot it: the token endpoint no longer knows the client.
      const token = await call('/uk/albion/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${clientId}`,
        cert: world.transport,
      });
      assert.equal(token.status, 401);
    });
  });

  describe('banks check', () => {
    const lineOf = (report: BankCheckReport, check: string) => report.lines.find((line) => line.check === check);
    const failures = (report: BankCheckReport): string =>
      report.lines
        .filter((line) => line.outcome === 'fail')
        .map((line) => `${line.check}: ${line.reason}`)
        .join('\n');

    it('passes a Berlin Group bank configured correctly, every answer as the standard defines it', async () => {
      const report = await checkBank(setupWith(), BERLIN_GROUP_BANK);
      assert.equal(report.failed, false, failures(report));
      assert.equal(lineOf(report, 'tls')?.outcome, 'pass');
      assert.equal(lineOf(report, 'create payment')?.outcome, 'pass');
      assert.equal(lineOf(report, 'read payment')?.outcome, 'pass');
      assert.equal(lineOf(report, 'cancel payment')?.outcome, 'pass');
      const answers = report.lines.filter((line) => line.check.startsWith('answer '));
      assert.ok(
        answers.some((line) => line.check.startsWith('answer initiatePayment (HTTP 201)')),
        JSON.stringify(report.lines),
      );
      assert.ok(answers.every((line) => line.outcome === 'pass'));
    });

    it('fails a wrong client certificate with the reason', async () => {
      const wrong = world.otherCa.qwac('wrong-qwac-2');
      const report = await checkBank(setupWith({ QWAC_CERT_FILE: wrong.certFile, QWAC_KEY_FILE: wrong.keyFile }), BERLIN_GROUP_BANK);
      assert.equal(report.failed, true);
      assert.match(
        lineOf(report, 'create payment')?.reason ?? '',
        /CERTIFICATE_INVALID.*not issued by a CA this bank trusts.*the bank does not accept our certificate/s,
      );
    });

    it('fails a bad signature (a seal the bank does not trust) with the reason', async () => {
      const seal = world.otherCa.qsealc('untrusted-seal');
      const report = await checkBank(setupWith({ QSEAL_CERT_FILE: seal.certFile, QSEAL_KEY_FILE: seal.keyFile }), BERLIN_GROUP_BANK);
      assert.equal(report.failed, true);
      assert.match(lineOf(report, 'create payment')?.reason ?? '', /TPP-Signature-Certificate/);
    });

    it('fails an unregistered UK client, saying to register', async () => {
      await store.remove(UK_BANK);
      const report = await checkBank(setupWith(), UK_BANK, store);
      assert.equal(report.failed, true);
      assert.equal(lineOf(report, 'registration')?.outcome, 'warn');
      assert.match(lineOf(report, 'token')?.reason ?? '', /invalid_client.*openpis banks register/s);
    });

    it('passes a UK bank once registered: token, consent created and read, answers as the standard defines them', async () => {
      const setup = setupWith();
      await runRegistration(setup, UK_BANK, 'register', store);
      const report = await checkBank(setup, UK_BANK, store);
      assert.equal(report.failed, false, failures(report));
      assert.equal(lineOf(report, 'token')?.outcome, 'pass');
      assert.ok(
        report.lines.some((line) => line.check === 'answer CreateDomesticPaymentConsents (HTTP 201)' && line.outcome === 'pass'),
        JSON.stringify(report.lines),
      );
      await runRegistration(setup, UK_BANK, 'delete', store);
    });

    /** Gives a bank entry its own `identity` files (connector settings) for the length of `work`, then takes them away. */
    async function withOwnIdentity(bankId: string, identity: Record<string, unknown>, work: () => Promise<void>): Promise<void> {
      const stored = await runtime.catalogue.store.get(bankId);
      assert.ok(stored !== undefined);
      const entry = stored.entry as unknown as { connector: Record<string, unknown> };
      await runtime.catalogue.store.update(bankId, { ...entry, connector: { ...entry.connector, identity } });
      await runtime.catalogue.refresh();
      try {
        await work();
      } finally {
        await runtime.catalogue.store.update(bankId, stored.entry);
        await runtime.catalogue.refresh();
      }
    }

    it("checks a Berlin Group bank with the certificates of its own entry, not the process's", async () => {
      // The process's certificates are of a CA the bank does not trust; the bank's entry names the right ones.
      const wrongQwac = world.otherCa.qwac('process-qwac');
      const wrongSeal = world.otherCa.qsealc('process-seal');
      const setup = setupWith({
        QWAC_CERT_FILE: wrongQwac.certFile,
        QWAC_KEY_FILE: wrongQwac.keyFile,
        QSEAL_CERT_FILE: wrongSeal.certFile,
        QSEAL_KEY_FILE: wrongSeal.keyFile,
      });
      const own = {
        qwac: { certFile: world.qwac.certFile, keyFile: world.qwac.keyFile },
        qseal: { certFile: world.qseal.certFile, keyFile: world.qseal.keyFile },
      };
      await withOwnIdentity(BERLIN_GROUP_BANK, own, async () => {
        const report = await checkBank(setup, BERLIN_GROUP_BANK);
        assert.equal(report.failed, false, failures(report));
        assert.equal(lineOf(report, 'create payment')?.outcome, 'pass');
        // The certificate lines are the entry's own, said so; the process's (unused here) are not reported.
        const certificates = report.lines.filter((line) => line.check.startsWith('certificate '));
        assert.deepEqual(certificates.map((line) => line.check).sort(), ['certificate qseal', 'certificate qwac']);
        assert.ok(
          certificates.every((line) => line.reason.includes("the bank entry's own")),
          JSON.stringify(certificates),
        );
      });
    });

    it("names the bank entry's file that cannot be read, in a failed line", async () => {
      const own = { qwac: { certFile: join(world.ca.dir, 'missing.pem'), keyFile: world.qwac.keyFile } };
      await withOwnIdentity(BERLIN_GROUP_BANK, own, async () => {
        const report = await checkBank(setupWith(), BERLIN_GROUP_BANK);
        assert.equal(report.failed, true);
        assert.match(lineOf(report, 'identity')?.reason ?? '', /identity\.qwac\.certFile .*missing\.pem does not exist/);
      });
    });

    it("registers and checks a UK bank with its own transport certificate and signing key, not the process's", async () => {
      await store.remove(UK_BANK);
      // The process's signing key is not the one the software statement publishes; the bank entry names the right one.
      const other = world.ca.qsealc('process-ob-key');
      const setup = setupWith({ OB_SIGNING_KEY_FILE: other.keyFile });
      const own = {
        transport: { certFile: world.transport.certFile, keyFile: world.transport.keyFile },
        signingKey: { keyFile: world.obSeal.keyFile, keyId: SIGNING_KID },
      };
      await withOwnIdentity(UK_BANK, own, async () => {
        await runRegistration(setup, UK_BANK, 'register', store);
        const report = await checkBank(setup, UK_BANK, store);
        assert.equal(report.failed, false, failures(report));
        assert.equal(lineOf(report, 'token')?.outcome, 'pass');
        await runRegistration(setup, UK_BANK, 'delete', store);
      });
    });

    it('fails a UK signing key that is not the one the software statement publishes', async () => {
      await runRegistration(setupWith(), UK_BANK, 'register', store);
      const other = world.ca.qsealc('not-the-ssa-key');
      const report = await checkBank(setupWith({ OB_SIGNING_KEY_FILE: other.keyFile }), UK_BANK, store);
      assert.equal(report.failed, true);
      assert.match(lineOf(report, 'token')?.reason ?? '', /invalid_client.*does not verify/s);
    });
  });
});
