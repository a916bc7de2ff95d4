/**
 * Fault injection (slow, 5xx, never answering; programmatic, over HTTP and by test payer) and the verifier of the
 * standard's request signature, over real HTTP.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, createSign, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildSandboxBankApp, verifyRequestSignature } from '@openpis/sandbox-bank';
import { DEFAULT_AUTHENTICATION_ATTEMPTS } from '../../../src/providers/catalogue.js';
import { catalogueWith, defaultCatalogue, OPERATOR_TOKEN, SEPA_PAYMENT, startHarness, xs2aHeaders, type Harness } from '../harness.js';

describe('fault injection', () => {
  let bank: Harness;
  before(async () => {
    bank = await startHarness();
  });
  after(async () => {
    await bank.close();
  });

  const initiate = (headers: Record<string, string> = {}) =>
    bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'PSU-ID': 'alice', ...headers }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });

  /** A raw call, for answers that never come. */
  const rawInitiate = (signal?: AbortSignal) =>
    fetch(`${bank.address}/hansa/v1/payments/sepa-credit-transfers`, {
      method: 'POST',
      headers: { ...xs2aHeaders({ 'PSU-ID': 'alice' }), 'Content-Type': 'application/json' },
      body: JSON.stringify(SEPA_PAYMENT),
      ...(signal === undefined ? {} : { signal }),
    });

  it('5xx for the next N calls of one operation, then normal again', async () => {
    bank.faults.inject({ bank: 'hansa', operations: ['initiatePayment'], fault: { kind: 'error', status: 503 }, times: 2 });
    assert.equal((await initiate()).status, 503);
    const second = await initiate();
    assert.equal(second.status, 503);
    assert.equal(second.text, '');
    assert.equal((await initiate()).status, 201);
  });

  it('500 on one operation of one bank, always, until removed', async () => {
    const id = bank.faults.inject({ bank: 'hansa', operations: ['getPaymentStatus'], fault: { kind: 'error', status: 500 } });
    const created = await initiate();
    assert.equal(created.status, 201);
    for (let call = 0; call < 2; call += 1) {
      const status = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
      assert.equal(status.status, 500);
    }
    const other = await bank.call('initiatePayment', 'POST', '/italia/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });
    assert.equal(other.status, 201);
    assert.ok(bank.faults.remove(id));
    const again = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(again.status, 200);
  });

  it('after acting: the bank does the work, then the fault takes the answer (5xx, no answer, or late)', async () => {
    const statusOf = async (href: string): Promise<string> =>
      ((await bank.call('getPaymentInitiationStatus', 'GET', href, { headers: xs2aHeaders() })).body as { transactionStatus: string })
        .transactionStatus;
    // Before acting (the default): a 5xx and nothing done.
    const untouched = await initiate();
    bank.faults.inject({ bank: 'hansa', operations: ['cancelPayment'], fault: { kind: 'error', status: 503 }, times: 1 });
    assert.equal((await bank.call('cancelPayment', 'DELETE', untouched.body._links.self.href, { headers: xs2aHeaders() })).status, 503);
    assert.equal(await statusOf(untouched.body._links.status.href), 'RCVD');
    // After acting: the same 5xx, bodiless, but the payment is cancelled.
    const cancelled = await initiate();
    bank.faults.inject({
      bank: 'hansa',
      operations: ['cancelPayment'],
      fault: { kind: 'error', status: 503, afterActing: true },
      times: 1,
    });
    const answer = await bank.call('cancelPayment', 'DELETE', cancelled.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(answer.status, 503);
    assert.equal(answer.text, '');
    assert.equal(await statusOf(cancelled.body._links.status.href), 'CANC');
    // No answer after acting: the registration happens, the answer never comes.
    bank.faults.inject({
      bank: 'hansa',
      operations: ['initiatePayment'],
      fault: { kind: 'timeout', holdMs: 300, afterActing: true },
      times: 1,
    });
    const before = bank.faults.list('hansa').length;
    await assert.rejects(rawInitiate());
    assert.equal(bank.faults.list('hansa').length, before - 1, 'the rule was used');
    // A late answer after acting: the payment is registered, its answer comes after the delay.
    bank.faults.inject({
      bank: 'hansa',
      operations: ['initiatePayment'],
      fault: { kind: 'delay', delayMs: 300, afterActing: true },
      times: 1,
    });
    const late = await initiate();
    assert.equal(late.status, 201);
    assert.equal(await statusOf(late.body._links.status.href), 'RCVD');
  });

  it('slow answers', async () => {
    bank.faults.inject({ operations: ['initiatePayment'], fault: { kind: 'delay', delayMs: 300 }, times: 1 });
    const started = Date.now();
    assert.equal((await initiate()).status, 201);
    assert.ok(Date.now() - started >= 290);
  });

  it('a timeout never answers: the connection drops at the bound', async () => {
    bank.faults.inject({ operations: ['initiatePayment'], fault: { kind: 'timeout', holdMs: 300 }, times: 1 });
    const started = Date.now();
    await assert.rejects(rawInitiate());
    assert.ok(Date.now() - started >= 290);
    assert.equal((await initiate()).status, 201);
  });

  it('a timeout holds until the client gives up', async () => {
    bank.faults.inject({ operations: ['initiatePayment'], fault: { kind: 'timeout' }, times: 1 });
    await assert.rejects(rawInitiate(AbortSignal.timeout(200)), { name: 'TimeoutError' });
  });

  it('HTTP control for the operator: add, list, clear with the operator token', async () => {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const add = await fetch(`${bank.address}/hansa/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...operator },
      body: JSON.stringify({ operations: ['initiatePayment'], fault: { kind: 'error', status: 503 } }),
    });
    assert.equal(add.status, 201);
    const rule = (await add.json()) as { id: string; bank: string };
    assert.equal(rule.bank, 'hansa');
    assert.equal((await initiate()).status, 503);
    const list = (await (await fetch(`${bank.address}/hansa/sandbox/faults`, { headers: operator })).json()) as { faults: unknown[] };
    assert.equal(list.faults.length, 1);
    const bad = await fetch(`${bank.address}/hansa/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...operator },
      body: JSON.stringify({ fault: { kind: 'error', status: 502 } }),
    });
    assert.equal(bad.status, 400);
    assert.equal((await fetch(`${bank.address}/hansa/sandbox/faults`, { method: 'DELETE', headers: operator })).status, 204);
    assert.equal((await initiate()).status, 201);
  });

  it('fault control refuses anyone without the operator token: 401 with the error body, and no rule set', async () => {
    const attempts: Array<{ method: string; path: string; headers: Record<string, string> }> = [];
    const credentials: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-the-operator-token' },
      { authorization: `Basic ${Buffer.from(`x:${OPERATOR_TOKEN}`).toString('base64')}` },
    ];
    for (const headers of credentials) {
      attempts.push(
        { method: 'POST', path: '/hansa/sandbox/faults', headers },
        { method: 'GET', path: '/hansa/sandbox/faults', headers },
        { method: 'DELETE', path: '/hansa/sandbox/faults', headers },
        { method: 'DELETE', path: '/hansa/sandbox/faults/some-id', headers },
      );
    }
    for (const attempt of attempts) {
      const response = await fetch(`${bank.address}${attempt.path}`, {
        method: attempt.method,
        headers: { 'Content-Type': 'application/json', ...attempt.headers },
        ...(attempt.method === 'POST' ? { body: JSON.stringify({ fault: { kind: 'error', status: 503 } }) } : {}),
      });
      assert.equal(response.status, 401, `${attempt.method} ${attempt.path}`);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
      const body = (await response.json()) as { tppMessages: Array<{ category: string; code: string; text: string }> };
      assert.equal(body.tppMessages[0]?.code, 'TOKEN_INVALID');
      assert.match(body.tppMessages[0]?.text ?? '', /SANDBOX_OPERATOR_TOKEN/);
    }
    assert.deepEqual(bank.faults.list(), []);
    assert.equal((await initiate()).status, 201);
  });

  it('with no operator token configured, fault control over HTTP is closed to everyone', async () => {
    const closed = buildSandboxBankApp({
      catalogue: defaultCatalogue(),
      publicUrl: 'http://127.0.0.1:1',
      authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
    });
    try {
      const response = await closed.inject({
        method: 'POST',
        url: '/hansa/sandbox/faults',
        headers: { authorization: 'Bearer anything-at-all-1234567', 'content-type': 'application/json' },
        payload: { fault: { kind: 'error', status: 503 } },
      });
      assert.equal(response.statusCode, 401);
      assert.match(
        response.json<{ tppMessages: Array<{ text: string }> }>().tppMessages[0]?.text ?? '',
        /has not set SANDBOX_OPERATOR_TOKEN/,
      );
    } finally {
      await closed.close();
    }
  });

  it('per test payer: programmatic rule by PSU, and the fixture payer whose status calls answer 503', async () => {
    bank.faults.inject({ psuId: 'carla', fault: { kind: 'error', status: 500 }, times: 1 });
    assert.equal((await initiate({ 'PSU-ID': 'carla' })).status, 500);
    assert.equal((await initiate({ 'PSU-ID': 'carla' })).status, 201);

    const created = await initiate({ 'PSU-ID': 'julia' });
    assert.equal(created.status, 201);
    const start = await bank.call('startPaymentAuthorisation', 'POST', created.body._links.startAuthorisationWithPsuAuthentication.href, {
      headers: xs2aHeaders({ 'PSU-ID': 'julia' }),
      body: { psuData: { password: 'sandbox' } },
    });
    await bank.call('updatePaymentPsuData', 'PUT', start.body._links.authoriseTransaction.href, {
      headers: xs2aHeaders(),
      body: { scaAuthenticationData: '123456' },
    });
    const status = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, { headers: xs2aHeaders() });
    assert.equal(status.status, 503);
    const info = await bank.call('getPaymentInformation', 'GET', created.body._links.self.href, { headers: xs2aHeaders() });
    assert.equal(info.body.transactionStatus, 'ACSC');
  });
});

describe('request signature', () => {
  let directory: string;
  let key: string;
  let certificate: X509Certificate;
  let bank: Harness;
  const hasOpenssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  before(async () => {
    if (!hasOpenssl) return;
    directory = mkdtempSync(path.join(tmpdir(), 'openpis-sign-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(directory, 'key.pem'),
        '-out',
        path.join(directory, 'cert.pem'),
        '-days',
        '3',
        '-subj',
        '/CN=Test TPP/O=openpis tests/C=DE',
      ],
      { stdio: 'ignore' },
    );
    key = readFileSync(path.join(directory, 'key.pem'), 'utf8');
    certificate = new X509Certificate(readFileSync(path.join(directory, 'cert.pem')));
    bank = await startHarness({
      catalogue: catalogueWith((entry) => {
        if (String(entry['connector']?.['baseUrl']).endsWith('/hansa')) entry['connector']['signRequests'] = true;
      }),
      clockStart: new Date(),
    });
  });
  after(async () => {
    if (!hasOpenssl) return;
    await bank.close();
    rmSync(directory, { recursive: true, force: true });
  });

  function signedHeaders(
    body: string,
    headers: Record<string, string>,
    options: { signingKey?: string; serial?: string } = {},
  ): Record<string, string> {
    const all: Record<string, string> = {
      ...headers,
      Digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
      Date: new Date().toUTCString(),
    };
    const names = ['digest', 'x-request-id', 'psu-id', 'tpp-redirect-uri', 'date'].filter((name) =>
      Object.keys(all).some((header) => header.toLowerCase() === name),
    );
    const value = (name: string) => Object.entries(all).find(([header]) => header.toLowerCase() === name)?.[1] ?? '';
    const signingString = names.map((name) => `${name}: ${value(name)}`).join('\n');
    const signature = createSign('sha256')
      .update(signingString)
      .sign(options.signingKey ?? key, 'base64');
    return {
      ...all,
      Signature: `keyId="SN=${options.serial ?? certificate.serialNumber},CA=CN=Test TPP,O=openpis tests,C=DE",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`,
      'TPP-Signature-Certificate': certificate.raw.toString('base64'),
    };
  }

  const post = (rawBody: string, headers: Record<string, string>) =>
    bank.call('initiatePayment', 'POST', '/hansa/v1/payments/sepa-credit-transfers', { headers, rawBody, debtorAccountOptional: true });

  it('accepts a correctly signed request and signed follow-up GETs', { skip: !hasOpenssl && 'openssl is not installed' }, async () => {
    const body = JSON.stringify(SEPA_PAYMENT);
    const created = await post(body, signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' })));
    assert.equal(created.status, 201);
    const status = await bank.call('getPaymentInitiationStatus', 'GET', created.body._links.status.href, {
      headers: signedHeaders('', { 'X-Request-ID': randomUUID() }),
    });
    assert.equal(status.status, 200);
    // The exported verifier agrees.
    const headers = signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' }));
    assert.equal(verifyRequestSignature({ headers, body }).ok, true);
  });

  it(
    'rejects a tampered body, a wrong key, a wrong serial, a missing or broken certificate',
    { skip: !hasOpenssl && 'openssl is not installed' },
    async () => {
      const body = JSON.stringify(SEPA_PAYMENT);
      const tampered = await post(body.replace('123.45', '923.45'), signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' })));
      assert.equal(tampered.status, 401);
      assert.equal(tampered.body.tppMessages[0].code, 'SIGNATURE_INVALID');

      execFileSync('openssl', ['genrsa', '-out', path.join(directory, 'other.pem'), '2048'], { stdio: 'ignore' });
      const otherKey = readFileSync(path.join(directory, 'other.pem'), 'utf8');
      const wrongKey = await post(body, signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' }), { signingKey: otherKey }));
      assert.equal(wrongKey.status, 401);
      assert.equal(wrongKey.body.tppMessages[0].code, 'SIGNATURE_INVALID');

      const wrongSerial = await post(body, signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' }), { serial: '01' }));
      assert.equal(wrongSerial.body.tppMessages[0].code, 'SIGNATURE_INVALID');

      const { 'TPP-Signature-Certificate': _dropped, ...withoutCertificate } = signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' }));
      const missing = await post(body, withoutCertificate);
      assert.equal(missing.status, 401);
      assert.equal(missing.body.tppMessages[0].code, 'CERTIFICATE_MISSING');

      const broken = await post(body, {
        ...signedHeaders(body, xs2aHeaders({ 'PSU-ID': 'alice' })),
        'TPP-Signature-Certificate': 'bm90IGEgY2VydGlmaWNhdGU=',
      });
      assert.equal(broken.body.tppMessages[0].code, 'CERTIFICATE_INVALID');

      const unsigned = await post(body, xs2aHeaders({ 'PSU-ID': 'alice' }));
      assert.equal(unsigned.status, 401);

      // PSU-ID is present, so the signature must cover it.
      const headers = signedHeaders(body, xs2aHeaders());
      const notCovered = verifyRequestSignature({ headers: { ...headers, 'PSU-ID': 'alice' }, body });
      assert.equal(notCovered.ok, false);
    },
  );

  it('banks without signRequests ignore signatures', { skip: !hasOpenssl && 'openssl is not installed' }, async () => {
    const result = await bank.call('initiatePayment', 'POST', '/italia/v1/payments/sepa-credit-transfers', {
      headers: xs2aHeaders({ 'PSU-ID': 'alice' }),
      body: SEPA_PAYMENT,
      debtorAccountOptional: true,
    });
    assert.equal(result.status, 201);
  });
});
