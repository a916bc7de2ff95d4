import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

describe('HTTP conventions', () => {
  let t: TestApp;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite, { env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' } });
  });
  after(() => t.close());

  it('echoes a well-formed X-Request-ID and makes one up otherwise', async () => {
    const echoed = await t.request('/healthz', { headers: { 'x-request-id': 'client-req-42' } });
    assert.equal(echoed.headers.get('x-request-id'), 'client-req-42');
    const replaced = await t.request('/healthz', { headers: { 'x-request-id': 'bad value with spaces' } });
    assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const errorResponse = await t.request('/api/v1/ob/payments/abc');
    assert.ok(errorResponse.headers.get('x-request-id'));
  });

  it('answers unknown routes with the error body', async () => {
    const response = await t.request('/api/v1/nothing');
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { title: 'Not Found', statusCode: 404, message: 'Route not found' });
  });

  it('limits each client: 429 with Retry-After and RateLimit headers once the burst is spent, others unaffected', async () => {
    const busy = await (await t.createClient()).token();
    const calm = await (await t.createClient()).token();
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 6; i += 1) {
      const response = await t.request('/api/v1/capabilities/providers', { token: busy });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else assert.match(response.headers.get('ratelimit') ?? '', /^"per-client";r=\d+;t=\d+$/);
    }
    assert.deepEqual(statuses.slice(0, 3), [200, 200, 200]);
    assert.ok(limited, `statuses ${statuses.join(',')}`);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(limited.headers.get('ratelimit-policy') ?? '', /^"per-client";q=3;w=\d+$/);
    const body = (await limited.json()) as { title: string; statusCode: number };
    assert.equal(body.title, 'Too Many Requests');
    assert.equal(body.statusCode, 429);
    assert.equal((await t.request('/api/v1/capabilities/providers', { token: calm })).status, 200);
  });

  it('serves the OpenAPI document and the API reference page', async () => {
    const document = (await (await t.request('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(document.openapi, '3.1.0');
    for (const path of [
      '/api/v1/auth/token',
      '/api/v1/ob/payments',
      '/api/v1/ob/payments/{paymentId}',
      '/api/v1/capabilities/providers',
      '/api/v1/archive/payment-statuses',
      '/api/v1/archive/payment-statuses/latest',
    ]) {
      assert.ok(path in document.paths, path);
    }
    const page = await t.request('/docs');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
  });
});

describe('logs', () => {
  let t: TestApp;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite, { env: { LOG_LEVEL: 'trace' } });
  });
  after(() => t.close());

  it('are structured JSON with the request id, and never carry secrets, tokens or payer passwords', async () => {
    const client = await t.createClient();
    const token = await client.token();
    const bank = t.catalogue
      .banks('sandbox')
      .find((candidate) => candidate.requiredPaymentFields.includes('SENDER_PROVIDER_CREDENTIALS_PASSWORD'));
    assert.ok(bank);
    const { paymentRequest } = await import('../helpers/payment-requests.js');
    const response = await t.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      headers: { 'x-request-id': 'log-check-1' },
      json: paymentRequest({ provider: { id: bank.id }, sender: { credentials: { id: 'alice', password: 'Pa55-word-for-logs' } } }),
    });
    assert.ok(response.status < 500);
    await t.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      json: { sender: { credentials: { password: 'Pa55-word-for-logs' } } },
    });
    const lines = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(lines.length > 0);
    assert.ok(lines.some((line) => line.reqId === 'log-check-1'));
    const everything = t.logs.join('\n');
    for (const secret of [client.clientSecret, token, client.webhookSecret, 'Pa55-word-for-logs']) {
      assert.ok(!everything.includes(secret), `a log line carries ${secret.slice(0, 6)}…`);
    }
  });
});

describe('redactUrl', () => {
  it('hides the secrets payer and callback URLs carry', async () => {
    const { redactUrl } = await import('../../src/app.js');
    assert.equal(redactUrl('/pay/AbC_123-xyz'), '/pay/[token]');
    assert.equal(redactUrl('/pay/AbC_123-xyz/continue?lang=de'), '/pay/[token]/continue?lang=de');
    assert.equal(redactUrl('/pay/return/5f0c/abcdef'), '/pay/return/5f0c/[secret]');
    assert.equal(redactUrl('/pay/handover/AbC_123-xyz'), '/pay/handover/[secret]');
    assert.equal(redactUrl('/notifications/berlin-group/5f0c.AbC_123-xyz'), '/notifications/berlin-group/[token]');
    assert.equal(redactUrl('/sandbox-bank/rheinland/sca/tok123/login'), '/sandbox-bank/rheinland/sca/[token]/login');
    assert.equal(redactUrl('/api/v1/ob/payments'), '/api/v1/ob/payments');
  });
});
