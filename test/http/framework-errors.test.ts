/**
 * Every error the framework (Fastify, Node's HTTP parser) can raise, sent to every registered route: the answer is
 * never a 500, always the error body `{ title, statusCode, message }` (plus the RFC 6749 fields at the token
 * endpoint), and never echoes the raw input (issue 8, items 1 and 5).
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SANDBOX_BANK_MOUNT_PATH } from '../../src/config/config.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request through node:http, so that method, path and body are sent exactly as given. */
function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    // A connection of its own per request: the server closes connections after some errors.
    const outgoing = httpRequest({ hostname, port, method, path, headers, agent: false }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    outgoing.setTimeout(5000, () => outgoing.destroy(new Error(`no answer to ${method} ${path} within 5 s`)));
    // The server may answer (413, 401) and close before it has read the whole body: wait for that answer.
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    outgoing.on('close', () => (answered ? undefined : reject(new Error(`${method} ${path}: connection closed without an answer`))));
    if (body !== undefined) outgoing.end(body);
    else outgoing.end();
  });
}

/** Raw bytes on a socket; resolves with everything the server wrote before it closed the connection. */
function sendRaw(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseRawResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  assert.ok(split > 0, `not an HTTP response: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(split + 4) };
}

interface RegisteredRoute {
  readonly path: string;
  readonly methods: readonly string[];
}

/** Every route of the app, read from Fastify's own route tree (`printRoutes`), so a route added later is covered too. */
function registeredRoutes(t: TestApp): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const prefixes: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (prefixes[depth - 1] ?? '') + (match[2] ?? '');
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (match[3] !== undefined) routes.push({ path, methods: match[3].split(', ') });
  }
  return routes;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LONG_PARAM = 'a'.repeat(150);

/** The framework errors a request can provoke, as variations of one route and method. */
function errorCases(
  route: RegisteredRoute,
  method: string,
): { name: string; path: string; headers?: Record<string, string>; body?: string | Buffer }[] {
  const params = route.path.match(/:[A-Za-z]+/g) ?? [];
  const filled = route.path.replace(/:[A-Za-z]+/g, 'x');
  const cases: { name: string; path: string; headers?: Record<string, string>; body?: string | Buffer }[] = [
    { name: 'unknown query parameter', path: `${filled}?zzz=1` },
    { name: 'bad percent-encoding in the query', path: `${filled}?zzz=%zz` },
    { name: 'bad percent-encoding in the path', path: `${filled}/%zz` },
  ];
  for (const param of params) {
    cases.push({
      name: `bad percent-encoding in ${param}`,
      path: route.path.replace(/:[A-Za-z]+/g, (name) => (name === param ? '%zz' : 'x')),
    });
    cases.push({ name: `over-long ${param}`, path: route.path.replace(/:[A-Za-z]+/g, (name) => (name === param ? LONG_PARAM : 'x')) });
  }
  if (BODY_METHODS.has(method)) {
    cases.push(
      { name: 'invalid JSON', path: filled, headers: { 'content-type': 'application/json' }, body: '{"a":' },
      {
        name: 'a form body sent as JSON',
        path: filled,
        headers: { 'content-type': 'application/json' },
        body: 'grant_type=client_credentials',
      },
      { name: 'empty JSON body', path: filled, headers: { 'content-type': 'application/json' }, body: '' },
      { name: 'JSON with __proto__', path: filled, headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"x":1}}' },
      {
        name: 'JSON with constructor.prototype',
        path: filled,
        headers: { 'content-type': 'application/json' },
        body: '{"constructor":{"prototype":{"x":1}}}',
      },
      { name: 'text/plain body', path: filled, headers: { 'content-type': 'text/plain' }, body: 'hello' },
      { name: 'unknown content type', path: filled, headers: { 'content-type': 'application/xml' }, body: '<x/>' },
      { name: 'malformed content type', path: filled, headers: { 'content-type': '(/)' }, body: '{}' },
      { name: 'body without content type', path: filled, body: '{}' },
      {
        name: 'body over 1 MiB',
        path: filled,
        headers: { 'content-type': 'application/json' },
        body: Buffer.alloc(1024 * 1024 + 10, 0x20),
      },
    );
  }
  return cases;
}

const ERROR_BODY_KEYS = ['message', 'statusCode', 'title'];
const OAUTH_BODY_KEYS = ['error', 'error_description', 'message', 'statusCode', 'title'];

/**
 * A well-formed error answer: no 500, JSON error body that names its status and echoes no raw input. The embedded
 * sandbox bank imitates a bank's XS2A interface, whose errors have the Berlin Group shape: there only the status
 * is checked.
 */
function assertErrorAnswer(response: RawResponse, what: string, options: { oauth: boolean; xs2a: boolean; head: boolean }): void {
  assert.ok(response.status < 500, `${what}: ${response.status} ${response.body}`);
  if (response.status < 400 || options.xs2a || options.head) return;
  const contentType = String(response.headers['content-type'] ?? '');
  // The payer's pages answer a browser with an HTML page; everything else with the error body.
  if (contentType.startsWith('text/html')) return;
  assert.match(contentType, /^application\/json/, `${what}: content type ${contentType}`);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    assert.fail(`${what}: ${response.status} with a body that is not JSON: ${JSON.stringify(response.body)}`);
  }
  assert.deepEqual(Object.keys(body).sort(), options.oauth ? OAUTH_BODY_KEYS : ERROR_BODY_KEYS, `${what}: ${response.body}`);
  assert.equal(body.statusCode, response.status, `${what}: ${response.body}`);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.message, 'string');
  assert.ok(
    !String(body.message).includes('%zz') && !String(body.message).includes(LONG_PARAM),
    `${what} echoes raw input: ${response.body}`,
  );
  assert.ok(!String(body.message).includes('FST_'), `${what} leaks framework internals: ${response.body}`);
}

describe('framework errors on every route', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    assert.ok(sqlite);
    t = await startTestApp(sqlite);
    token = await (await t.createClient()).token();
  });
  after(() => t.close());

  it('finds the routes to test', () => {
    const paths = registeredRoutes(t).map((route) => route.path);
    for (const path of [
      '/api/v1/auth/token',
      '/api/v1/ob/payments',
      '/api/v1/ob/payments/:paymentId',
      '/api/v1/capabilities/providers',
      '/pay/:flowToken/:action',
    ]) {
      assert.ok(paths.includes(path), `${path} not in ${paths.join(' ')}`);
    }
  });

  it('answers every framework error on every route with a well-formed error body, never a 500', async () => {
    const problems: string[] = [];
    for (const route of registeredRoutes(t)) {
      for (const method of route.methods) {
        for (const errorCase of errorCases(route, method)) {
          for (const authorization of [`Bearer ${token}`, undefined]) {
            const headers = { ...errorCase.headers, ...(authorization === undefined ? {} : { authorization }) };
            if (process.env.DEBUG_FE) console.error(method, errorCase.path.slice(0, 80), errorCase.name);
            const response = await send(t.baseUrl, method, errorCase.path, headers, errorCase.body);
            const what = `${method} ${route.path} with ${errorCase.name}${authorization === undefined ? ' (no token)' : ''}`;
            try {
              assertErrorAnswer(response, what, {
                head: method === 'HEAD',
                // A longer path is another resource, not the token endpoint.
                oauth: route.path === '/api/v1/auth/token' && errorCase.path.split('?')[0] === route.path,
                // Errors of the URL itself are raised before any route (and its scope) is chosen.
                xs2a:
                  route.path.startsWith(`${SANDBOX_BANK_MOUNT_PATH}/`) &&
                  !/^(bad percent-encoding in (the path|:)|over-long)/.test(errorCase.name),
              });
            } catch (error) {
              problems.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
            }
          }
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('answers a bad percent-encoding with 400 and a path parameter over 100 characters with 414, echoing neither', async () => {
    const badUrl = await send(t.baseUrl, 'GET', '/api/v1/ob/payments/%zz', { authorization: `Bearer ${token}` });
    assert.equal(badUrl.status, 400);
    assert.deepEqual(JSON.parse(badUrl.body), {
      title: 'Bad Request',
      statusCode: 400,
      message: 'The URL is not correctly percent-encoded',
    });
    assert.ok(badUrl.headers['x-request-id']);
    const longParam = await send(t.baseUrl, 'GET', `/api/v1/ob/payments/${LONG_PARAM}`, { authorization: `Bearer ${token}` });
    assert.equal(longParam.status, 414);
    assert.deepEqual(JSON.parse(longParam.body), {
      title: 'URI Too Long',
      statusCode: 414,
      message: 'A path segment is longer than 100 characters',
    });
  });

  it('answers unknown routes without echoing the path', async () => {
    const response = await send(t.baseUrl, 'GET', '/api/v1/<script>alert(1)</script>');
    assert.equal(response.status, 404);
    assert.deepEqual(JSON.parse(response.body), { title: 'Not Found', statusCode: 404, message: 'Route not found' });
  });

  it('answers malformed HTTP with the error body', async () => {
    const response = parseRawResponse(await sendRaw(t.baseUrl, 'THIS IS NOT HTTP\r\n\r\n'));
    assert.equal(response.status, 400);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(response.body), { title: 'Bad Request', statusCode: 400, message: 'Malformed HTTP request' });
    assert.equal(Number(response.headers['content-length']), Buffer.byteLength(response.body));
    assert.ok(response.headers['x-request-id']);
  });

  it('answers an HTTP/1.1 request without Host with 400 and the error body (issue 23 item 17)', async () => {
    const raw = await sendRaw(t.baseUrl, 'GET /api/v1/capabilities/providers HTTP/1.1\r\nConnection: close\r\n\r\n');
    const response = parseRawResponse(raw);
    assert.equal(response.status, 400);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(response.body), { title: 'Bad Request', statusCode: 400, message: 'The request must have a Host header' });
    assert.ok(response.headers['x-request-id']);
    const twoHosts = parseRawResponse(
      await sendRaw(t.baseUrl, 'GET /api/v1/capabilities/providers HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'),
    );
    assert.equal(twoHosts.status, 400);
    assert.deepEqual(JSON.parse(twoHosts.body), {
      title: 'Bad Request',
      statusCode: 400,
      message: 'The request must have only one Host header',
    });
    // HTTP/1.0 has no Host requirement: the request reaches the route (401 without a token).
    const http10 = parseRawResponse(await sendRaw(t.baseUrl, 'GET /api/v1/capabilities/providers HTTP/1.0\r\n\r\n'));
    assert.equal(http10.status, 401);
  });

  it('answers an oversized header with 431 and the error body', async () => {
    const raw = await sendRaw(
      t.baseUrl,
      `GET /api/v1/capabilities/providers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    const response = parseRawResponse(raw);
    assert.equal(response.status, 431);
    assert.deepEqual(JSON.parse(response.body), {
      title: 'Request Header Fields Too Large',
      statusCode: 431,
      message: 'The request headers are too large',
    });
  });
});
