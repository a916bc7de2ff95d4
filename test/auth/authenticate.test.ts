/**
 * Bearer authentication of the resource endpoints (issue 8, item 4): authentication comes before anything else is
 * looked at (path, query, content type, body), the scheme name is case-insensitive (RFC 9110 §11.1), and the
 * `WWW-Authenticate` challenge follows RFC 6750 §3.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

const UNAUTHORIZED = { title: 'Unauthorized', statusCode: 401, message: 'Unauthorized' };
const NO_CREDENTIALS_CHALLENGE = 'Bearer realm="openpis"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="openpis", error="invalid_token"';

/** Requests that are wrong in some other way too: authentication must be decided first. */
const BROKEN_REQUESTS: { name: string; path: string; init?: RequestInit }[] = [
  { name: 'a payment id that is not a UUID', path: '/api/v1/ob/payments/123' },
  { name: 'an unknown query parameter', path: '/api/v1/capabilities/providers?zzz=1' },
  { name: 'an invalid filter', path: '/api/v1/capabilities/providers?countryCode=XX' },
  { name: 'a missing paymentId', path: '/api/v1/archive/payment-statuses' },
  { name: 'a paymentId that is not a UUID', path: '/api/v1/archive/payment-statuses/latest?paymentId=1' },
  {
    name: 'a text/plain body',
    path: '/api/v1/ob/payments',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' },
  },
  {
    name: 'invalid JSON',
    path: '/api/v1/ob/payments',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":' },
  },
  {
    name: 'an invalid payment',
    path: '/api/v1/ob/payments',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":0}' },
  },
  {
    name: 'a body over 1 MiB',
    path: '/api/v1/ob/payments',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(1024 * 1024 + 10) },
  },
];

describe('bearer authentication of resource endpoints', () => {
  let t: TestApp;
  let token: string;
  let providersOnly: string;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
    const client = await t.createClient();
    token = await client.token();
    providersOnly = await client.token('providers:read');
  });
  after(() => t.close());

  const call = (path: string, init: RequestInit = {}, authorization?: string) =>
    t.request(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), ...(authorization === undefined ? {} : { authorization }) },
    });

  it('answers 401 without a token before it validates path, query, content type or body', async () => {
    for (const { name, path, init } of BROKEN_REQUESTS) {
      const response = await call(path, init);
      assert.equal(response.status, 401, name);
      assert.equal(response.headers.get('www-authenticate'), NO_CREDENTIALS_CHALLENGE, name);
      assert.deepEqual(await response.json(), UNAUTHORIZED, name);
    }
  });

  it('answers 401 invalid_token for a bad token before any validation', async () => {
    for (const { name, path, init } of BROKEN_REQUESTS) {
      const response = await call(path, init, 'Bearer opt_not-a-real-token');
      assert.equal(response.status, 401, name);
      assert.equal(response.headers.get('www-authenticate'), INVALID_TOKEN_CHALLENGE, name);
      assert.deepEqual(await response.json(), UNAUTHORIZED, name);
    }
  });

  it('answers 403 for a missing scope before any validation', async () => {
    for (const { name, path, init } of BROKEN_REQUESTS.filter((request) => !request.path.startsWith('/api/v1/capabilities'))) {
      const response = await call(path, init, `Bearer ${providersOnly}`);
      assert.equal(response.status, 403, name);
      assert.deepEqual(await response.json(), { title: 'Forbidden', statusCode: 403, message: 'Access denied' }, name);
    }
  });

  it('validates once the caller is authenticated', async () => {
    assert.equal((await call('/api/v1/ob/payments/123', {}, `Bearer ${token}`)).status, 400);
    assert.equal(
      (await call('/api/v1/ob/payments', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }, `Bearer ${token}`))
        .status,
      415,
    );
  });

  it('takes the scheme name in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const response = await call('/api/v1/capabilities/providers', {}, `${scheme} ${token}`);
      assert.equal(response.status, 200, scheme);
    }
    const created = await t.request('/api/v1/ob/payments', {
      method: 'POST',
      json: paymentRequest(),
      headers: { authorization: `bearer ${token}` },
    });
    assert.equal(created.status, 201);
  });

  it('challenges without an error code when no bearer credentials came, with invalid_token otherwise (RFC 6750 §3.1)', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, NO_CREDENTIALS_CHALLENGE],
      ['Basic dXNlcjpwYXNz', NO_CREDENTIALS_CHALLENGE],
      ['Bearer', INVALID_TOKEN_CHALLENGE],
      ['Bearer two tokens', INVALID_TOKEN_CHALLENGE],
      ['Bearer opt_unknown', INVALID_TOKEN_CHALLENGE],
    ];
    for (const [authorization, challenge] of cases) {
      const response = await call('/api/v1/capabilities/providers', {}, authorization);
      assert.equal(response.status, 401, String(authorization));
      assert.equal(response.headers.get('www-authenticate'), challenge, String(authorization));
      assert.deepEqual(await response.json(), UNAUTHORIZED);
    }
  });
});
