import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

for (const kind of await testDatabaseKinds()) {
  describe(`token endpoint [${kind.name}]`, () => {
    let t: TestApp;
    let client: TestClient;
    before(async () => {
      t = await startTestApp(kind);
      client = await t.createClient();
    });
    after(() => t.close());

    const tokenRequest = (headers: Record<string, string>, body: string) =>
      t.request('/api/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });

    it('issues a bearer token for 1800 s with every scope when none is asked for', async () => {
      const response = await tokenRequest({ authorization: basic(client.clientId, client.clientSecret) }, 'grant_type=client_credentials');
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 1800);
      assert.equal(body.scope, 'payments:read payments:write providers:read');
      assert.match(String(body.access_token), /^opt_[A-Za-z0-9_-]{43}$/);
      // Only a hash is stored.
      const stored = await t.database.db.selectFrom('access_tokens').select('token_hash').execute();
      assert.ok(stored.every((row) => row.token_hash !== body.access_token));
    });

    it('narrows the token to the requested scopes', async () => {
      const response = await tokenRequest(
        { authorization: basic(client.clientId, client.clientSecret) },
        'grant_type=client_credentials&scope=providers%3Aread',
      );
      const body = (await response.json()) as { access_token: string; scope: string };
      assert.equal(body.scope, 'providers:read');
      const payments = await t.request('/api/v1/archive/payment-statuses?paymentId=00000000-0000-4000-8000-000000000000', {
        token: body.access_token,
      });
      assert.equal(payments.status, 403);
      assert.deepEqual(await payments.json(), { title: 'Forbidden', statusCode: 403, message: 'Access denied' });
      const providers = await t.request('/api/v1/capabilities/providers', { token: body.access_token });
      assert.equal(providers.status, 200);
    });

    it('answers invalid_client (401, WWW-Authenticate Basic) for a wrong secret, unknown id or no credentials', async () => {
      for (const authorization of [
        basic(client.clientId, 'ops_wrong'),
        basic('00000000-0000-4000-8000-000000000000', client.clientSecret),
        undefined,
        'Bearer x',
      ]) {
        const response = await tokenRequest(authorization === undefined ? {} : { authorization }, 'grant_type=client_credentials');
        assert.equal(response.status, 401);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm=/);
        const body = (await response.json()) as Record<string, unknown>;
        assert.equal(body.error, 'invalid_client');
        assert.equal(body.title, 'Unauthorized');
        assert.equal(body.statusCode, 401);
        assert.equal(body.message, body.error_description);
      }
    });

    it('answers invalid_request, unsupported_grant_type and invalid_scope with 400', async () => {
      const auth = { authorization: basic(client.clientId, client.clientSecret) };
      const cases: [string, string][] = [
        ['', 'invalid_request'],
        ['grant_type=password', 'unsupported_grant_type'],
        ['grant_type=client_credentials&scope=payments%3Adelete', 'invalid_scope'],
        ['grant_type=client_credentials&grant_type=client_credentials', 'invalid_request'],
      ];
      for (const [body, error] of cases) {
        const response = await tokenRequest(auth, body);
        assert.equal(response.status, 400, body);
        const json = (await response.json()) as Record<string, unknown>;
        assert.equal(json.error, error, body);
        assert.equal(json.title, 'Bad Request');
      }
      const json = await t.request('/api/v1/auth/token', { method: 'POST', headers: auth, json: { grant_type: 'client_credentials' } });
      assert.equal(json.status, 400);
      assert.equal(((await json.json()) as Record<string, unknown>).error, 'invalid_request');
    });

    it('answers every body the framework cannot parse with an RFC 6749 error, never a 500', async () => {
      const auth = { authorization: basic(client.clientId, client.clientSecret) };
      const cases: { name: string; contentType: string; body: string; status: number }[] = [
        // openapi-fetch sends a form body with its default JSON content type.
        { name: 'form body labelled JSON', contentType: 'application/json', body: 'grant_type=client_credentials', status: 400 },
        { name: 'empty body labelled JSON', contentType: 'application/json', body: '', status: 400 },
        { name: 'text/plain', contentType: 'text/plain', body: 'grant_type=client_credentials', status: 400 },
        { name: 'unknown media type', contentType: 'application/xml', body: '<grant/>', status: 400 },
        {
          name: 'body over 1 MiB',
          contentType: 'application/x-www-form-urlencoded',
          body: `grant_type=${'x'.repeat(1024 * 1024)}`,
          status: 413,
        },
      ];
      for (const { name, contentType, body, status } of cases) {
        const response = await t.request('/api/v1/auth/token', { method: 'POST', headers: { ...auth, 'content-type': contentType }, body });
        assert.equal(response.status, status, name);
        assert.equal(response.headers.get('cache-control'), 'no-store', name);
        const json = (await response.json()) as Record<string, unknown>;
        assert.deepEqual(Object.keys(json).sort(), ['error', 'error_description', 'message', 'statusCode', 'title'], name);
        assert.equal(json.error, 'invalid_request', name);
        assert.equal(json.statusCode, status, name);
        assert.equal(json.message, json.error_description, name);
        if (status === 400) assert.equal(json.error_description, 'Content-Type must be application/x-www-form-urlencoded', name);
      }
    });

    it('authenticates the client before it reads the body: no credentials and a broken body is invalid_client', async () => {
      const response = await t.request('/api/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type":',
      });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm="openpis"$/);
      assert.equal(((await response.json()) as Record<string, unknown>).error, 'invalid_client');
    });

    it('accepts client credentials in the form body (client_secret_post, RFC 6749 §2.3.1), never together with Basic (issue 23 item 12)', async () => {
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      const posted = await tokenRequest(
        {},
        form({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'providers:read' }),
      );
      assert.equal(posted.status, 200, await posted.clone().text());
      assert.equal(posted.headers.get('cache-control'), 'no-store');
      const token = (await posted.json()) as { access_token: string; scope: string };
      assert.equal(token.scope, 'providers:read');
      assert.equal((await t.request('/api/v1/capabilities/providers', { token: token.access_token })).status, 200);

      // Wrong, missing or repeated body credentials are invalid_client, like wrong Basic ones.
      for (const body of [
        form({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: 'ops_wrong' }),
        form({ grant_type: 'client_credentials', client_id: client.clientId }),
        form({ grant_type: 'client_credentials', client_secret: client.clientSecret }),
        `${form({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret })}&client_secret=x`,
      ]) {
        const response = await tokenRequest({}, body);
        assert.equal(response.status, 401, body);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm="openpis"$/);
        assert.equal(((await response.json()) as Record<string, unknown>).error, 'invalid_client', body);
      }
      // An unauthenticated caller still learns nothing about the body: without credentials, any body is invalid_client.
      const oversized = await tokenRequest({}, `grant_type=${'x'.repeat(1024 * 1024)}`);
      assert.equal(oversized.status, 401);
      assert.equal(((await oversized.json()) as Record<string, unknown>).error, 'invalid_client');

      // Two methods in one request: refused, even when both are right (RFC 6749 §2.3).
      const both = await tokenRequest(
        { authorization: basic(client.clientId, client.clientSecret) },
        form({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret }),
      );
      assert.equal(both.status, 400);
      const bothBody = (await both.json()) as Record<string, unknown>;
      assert.equal(bothBody.error, 'invalid_request');
      assert.equal(
        bothBody.error_description,
        'Use one client authentication method: HTTP Basic or client_id and client_secret in the body, not both',
      );
      // A client_id beside Basic must name the same client.
      const otherId = await tokenRequest(
        { authorization: basic(client.clientId, client.clientSecret) },
        form({ grant_type: 'client_credentials', client_id: '00000000-0000-4000-8000-000000000000' }),
      );
      assert.equal(otherId.status, 400);
      assert.equal(((await otherId.json()) as Record<string, unknown>).error, 'invalid_request');
      const sameId = await tokenRequest(
        { authorization: basic(client.clientId, client.clientSecret) },
        form({ grant_type: 'client_credentials', client_id: client.clientId }),
      );
      assert.equal(sameId.status, 200);
    });

    it('refuses scopes the client does not hold', async () => {
      const reader = await t.createClient({ scopes: ['payments:read'] });
      const response = await tokenRequest(
        { authorization: basic(reader.clientId, reader.clientSecret) },
        'grant_type=client_credentials&scope=payments%3Awrite',
      );
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as Record<string, unknown>).error, 'invalid_scope');
    });

    it('stops every token of a client whose secret is rotated, and accepts the new secret', async () => {
      const other = await t.createClient();
      const token = await other.token();
      assert.equal((await t.request('/api/v1/capabilities/providers', { token })).status, 200);
      const { clientSecret } = await t.clients.rotateSecret(other.clientId);
      const afterRotation = await t.request('/api/v1/capabilities/providers', { token });
      assert.equal(afterRotation.status, 401);
      assert.equal(afterRotation.headers.get('www-authenticate'), 'Bearer realm="openpis", error="invalid_token"');
      assert.equal(
        (await tokenRequest({ authorization: basic(other.clientId, other.clientSecret) }, 'grant_type=client_credentials')).status,
        401,
      );
      assert.equal(
        (await tokenRequest({ authorization: basic(other.clientId, clientSecret) }, 'grant_type=client_credentials')).status,
        200,
      );
    });

    it('stops a disabled client and its tokens', async () => {
      const other = await t.createClient();
      const token = await other.token();
      await t.clients.disable(other.clientId);
      assert.equal((await t.request('/api/v1/capabilities/providers', { token })).status, 401);
      assert.equal(
        (await tokenRequest({ authorization: basic(other.clientId, other.clientSecret) }, 'grant_type=client_credentials')).status,
        401,
      );
    });
  });

  describe(`token expiry [${kind.name}]`, () => {
    let t: TestApp;
    let clock = new Date('2026-11-21T10:00:00.000Z');
    before(async () => {
      t = await startTestApp(kind, { now: () => clock });
    });
    after(() => t.close());

    it('a token works until 1800 s have passed, then answers 401', async () => {
      const client = await t.createClient();
      const token = await client.token();
      clock = new Date('2026-11-21T10:29:59.000Z');
      assert.equal((await t.request('/api/v1/capabilities/providers', { token })).status, 200);
      clock = new Date('2026-11-21T10:30:00.000Z');
      const expired = await t.request('/api/v1/capabilities/providers', { token });
      assert.equal(expired.status, 401);
      assert.deepEqual(await expired.json(), { title: 'Unauthorized', statusCode: 401, message: 'Unauthorized' });
    });
  });
}
