/**
 * The SDK's token handling, retries and safe payment creation against a stand-in server on loopback whose every
 * answer the test scripts. Waits between attempts are recorded, not spent (the `sleep` option), so the test sees
 * the backoff and `Retry-After` without taking the time.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  OpenpisAuthenticationError,
  OpenpisClient,
  OpenpisConflictError,
  OpenpisNetworkError,
  OpenpisRateLimitError,
  OpenpisTimeoutError,
  type OpenpisClientOptions,
  type PaymentCreationRequest,
} from '../../packages/sdk/src/index.js';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Handler = (request: Seen, response: ServerResponse) => void;

/** A loopback server answering each request with the next scripted handler for its route. */
class StandIn {
  readonly seen: Seen[] = [];
  private readonly scripts = new Map<string, Handler[]>();
  private server: Server | undefined;
  url = '';
  tokensIssued = 0;
  tokenLifetimeSeconds = 1800;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://stand-in');
        const seen: Seen = {
          method: request.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        };
        this.seen.push(seen);
        const key = `${seen.method} ${seen.path}`;
        const next = this.scripts.get(key)?.shift();
        if (next !== undefined) return next(seen, response);
        if (key === 'POST /api/v1/auth/token') return this.issueToken(response);
        json(response, 500, { title: 'Internal Server Error', statusCode: 500, message: `unscripted ${key}` });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.seen.length = 0;
    this.scripts.clear();
    this.tokensIssued = 0;
    this.tokenLifetimeSeconds = 1800;
  }

  /** Queues answers for a route (`GET /path`), used in order, one per request. */
  script(route: string, ...handlers: Handler[]): void {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...handlers]);
  }

  issueToken(response: ServerResponse): void {
    this.tokensIssued++;
    json(response, 200, { access_token: `token-${this.tokensIssued}`, token_type: 'Bearer', expires_in: this.tokenLifetimeSeconds });
  }

  requestsTo(route: string): Seen[] {
    return this.seen.filter((seen) => `${seen.method} ${seen.path}` === route);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-from-server', ...headers });
  response.end(JSON.stringify(body));
}

const ok =
  (body: unknown): Handler =>
  (_request, response) =>
    json(response, 200, body);
const error =
  (status: number, title: string, message: string, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    json(response, status, { title, statusCode: status, message }, headers);
/** The connection is dropped without an answer: the client cannot know whether the request was processed. */
const dropConnection: Handler = (_request, response) => response.socket?.destroy();

const PAYMENT_ID = '0b0f3a6e-1d7c-4a52-9d43-7d4f1c1a2b3c';
function paymentResource(status = 'PENDING', detailedStatus = 'PAYMENT_CONSENT_REDIRECT_PENDING'): Record<string, unknown> {
  return {
    paymentId: PAYMENT_ID,
    redirectUrl: 'http://localhost/pay/abc',
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
    status,
    detailedStatus,
    failureReasons: null,
    endToEndId: 'order-1',
    amount: 10.5,
    currency: 'EUR',
  };
}

const CREATION: PaymentCreationRequest = {
  paymentScheme: { name: 'SEPA' },
  recipient: {
    account: { number: { type: 'IBAN', value: 'DE89370400440532013000' } },
    name: 'Acme GmbH',
    address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
  },
  amount: 10.5,
  currency: 'EUR',
  remittanceInformation: { type: 'UNSTRUCTURED', value: 'Order 1' },
  metadata: { redirectUri: 'http://localhost:3000/return', psuIpAddress: '203.0.113.7', psuUserAgent: 'test', endToEndId: 'order-1' },
};

const CREATED = {
  paymentId: PAYMENT_ID,
  redirectUrl: 'http://localhost/pay/abc',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  status: 'PENDING',
};

describe('SDK client against a stand-in server', () => {
  const server = new StandIn();
  let waits: number[] = [];
  let clock = 0;
  const client = (options: Partial<OpenpisClientOptions> = {}): OpenpisClient =>
    new OpenpisClient({
      baseUrl: server.url,
      clientId: 'client-id',
      clientSecret: 'client-secret',
      retry: { baseDelayMs: 100, maxDelayMs: 1000 },
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...options,
    });

  before(() => server.start());
  after(() => server.stop());
  beforeEach(() => {
    server.reset();
    waits = [];
    clock = Date.parse('2026-11-24T10:00:00Z');
  });

  it('gets a token with HTTP Basic once and reuses it; concurrent calls share one token request', async () => {
    server.script('GET /api/v1/ob/payments/' + PAYMENT_ID, ok(paymentResource()), ok(paymentResource()), ok(paymentResource()));
    const openpis = client();
    await Promise.all([openpis.getPayment(PAYMENT_ID), openpis.getPayment(PAYMENT_ID)]);
    await openpis.getPayment(PAYMENT_ID);
    assert.equal(server.tokensIssued, 1);
    const tokenRequest = server.requestsTo('POST /api/v1/auth/token')[0];
    assert.equal(tokenRequest?.headers.authorization, `Basic ${Buffer.from('client-id:client-secret').toString('base64')}`);
    assert.equal(new URLSearchParams(tokenRequest?.body).get('grant_type'), 'client_credentials');
    assert.deepEqual(
      server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).map((seen) => seen.headers.authorization),
      Array(3).fill('Bearer token-1'),
    );
  });

  it('renews the token before it expires, without waiting for a 401', async () => {
    server.tokenLifetimeSeconds = 600;
    server.script(`GET /api/v1/ob/payments/${PAYMENT_ID}`, ok(paymentResource()), ok(paymentResource()), ok(paymentResource()));
    const openpis = client({ tokenRefreshMarginSeconds: 60 });
    await openpis.getPayment(PAYMENT_ID);
    clock += 539_000; // 61 s before expiry: still good
    await openpis.getPayment(PAYMENT_ID);
    clock += 2_000; // 59 s before expiry: inside the margin
    await openpis.getPayment(PAYMENT_ID);
    assert.deepEqual(
      server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).map((seen) => seen.headers.authorization),
      ['Bearer token-1', 'Bearer token-1', 'Bearer token-2'],
    );
    assert.equal(server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).length, 3, 'no request was refused on the way');
  });

  it('a 401 gets one new token and one more attempt; a second 401 is a typed error with the request id', async () => {
    server.script(`GET /api/v1/ob/payments/${PAYMENT_ID}`, error(401, 'Unauthorized', 'Unauthorized'), ok(paymentResource()));
    const payment = await client().getPayment(PAYMENT_ID);
    assert.equal(payment.paymentId, PAYMENT_ID);
    assert.equal(server.tokensIssued, 2);

    server.reset();
    server.script(
      `GET /api/v1/ob/payments/${PAYMENT_ID}`,
      error(401, 'Unauthorized', 'Unauthorized'),
      error(401, 'Unauthorized', 'Unauthorized'),
    );
    await assert.rejects(client().getPayment(PAYMENT_ID), (thrown: unknown) => {
      assert.ok(thrown instanceof OpenpisAuthenticationError);
      assert.equal(thrown.statusCode, 401);
      assert.equal(thrown.title, 'Unauthorized');
      assert.equal(thrown.message, 'Unauthorized');
      assert.equal(thrown.requestId, 'req-from-server');
      return true;
    });
    assert.equal(server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).length, 2, 'only one retry after a 401');
  });

  it('refused client credentials are an authentication error carrying the OAuth error code', async () => {
    server.script('POST /api/v1/auth/token', (_request, response) =>
      json(response, 401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed',
        title: 'Unauthorized',
        statusCode: 401,
        message: 'Client authentication failed',
      }),
    );
    await assert.rejects(client().getPayment(PAYMENT_ID), (thrown: unknown) => {
      assert.ok(thrown instanceof OpenpisAuthenticationError);
      assert.equal(thrown.oauthError, 'invalid_client');
      assert.match(thrown.message, /Client authentication failed/);
      return true;
    });
    assert.equal(server.requestsTo('POST /api/v1/auth/token').length, 1, 'a refusal is not retried');
  });

  it('retries 429 and 503 no earlier than Retry-After, and backs off with jitter below a doubling ceiling otherwise', async () => {
    server.script(
      `GET /api/v1/ob/payments/${PAYMENT_ID}`,
      error(429, 'Too Many Requests', 'Rate limit exceeded', { 'retry-after': '2' }),
      error(503, 'Service Unavailable', 'Try again'),
      error(503, 'Service Unavailable', 'Try again'),
      ok(paymentResource()),
    );
    const payment = await client().getPayment(PAYMENT_ID);
    assert.equal(payment.status, 'PENDING');
    assert.equal(waits.length, 3);
    const [afterRateLimit = 0, first = 0, second = 0] = waits;
    assert.ok(afterRateLimit >= 2000 && afterRateLimit <= 3000, `Retry-After 2 s honoured (waited ${afterRateLimit} ms)`);
    assert.ok(first >= 0 && first < 200, `second backoff below 200 ms (${first})`);
    assert.ok(second >= 0 && second < 400, `third backoff below 400 ms (${second})`);
    const ids = new Set(server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).map((seen) => seen.headers['x-request-id']));
    assert.equal(ids.size, 1, 'every attempt of one call carries the same X-Request-ID');
  });

  it('a Retry-After beyond maxRetryAfterMs is not waited for; the rate-limit error says when to return', async () => {
    server.script(
      `GET /api/v1/ob/payments/${PAYMENT_ID}`,
      error(429, 'Too Many Requests', 'Rate limit exceeded', { 'retry-after': '120' }),
    );
    await assert.rejects(client({ retry: { maxRetryAfterMs: 60_000 } }).getPayment(PAYMENT_ID), (thrown: unknown) => {
      assert.ok(thrown instanceof OpenpisRateLimitError);
      assert.equal(thrown.retryAfterSeconds, 120);
      return true;
    });
    assert.deepEqual(waits, []);
  });

  it('network errors are retried; when every attempt fails, a network error names the request id sent', async () => {
    server.script(`GET /api/v1/ob/payments/${PAYMENT_ID}`, dropConnection, ok(paymentResource()));
    assert.equal((await client().getPayment(PAYMENT_ID)).paymentId, PAYMENT_ID);

    server.reset();
    server.script(`GET /api/v1/ob/payments/${PAYMENT_ID}`, dropConnection, dropConnection, dropConnection);
    await assert.rejects(client({ retry: { maxAttempts: 3, baseDelayMs: 10 } }).getPayment(PAYMENT_ID), (thrown: unknown) => {
      assert.ok(thrown instanceof OpenpisNetworkError);
      assert.equal(thrown.requestId, server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`)[0]?.headers['x-request-id']);
      return true;
    });
    assert.equal(server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).length, 3);
  });

  it('createPayment: a 409 after our own lost attempt resolves to that payment through the list filtered by endToEndId', async () => {
    server.script('POST /api/v1/ob/payments', dropConnection, error(409, 'Conflict', 'A payment with endToEndId order-1 already exists'));
    server.script('GET /api/v1/ob/payments', ok({ items: [paymentResource()], nextCursor: null }));
    const created = await client().createPayment(CREATION);
    assert.equal(created.paymentId, PAYMENT_ID);
    assert.equal(created.redirectUrl, 'http://localhost/pay/abc');
    const lookup = server.requestsTo('GET /api/v1/ob/payments')[0];
    assert.equal(lookup?.query.get('endToEndId'), 'order-1');
    const posts = server.requestsTo('POST /api/v1/ob/payments');
    assert.equal(posts.length, 2);
    assert.deepEqual(JSON.parse(posts[1]?.body ?? ''), CREATION, 'the retry sends the same body');
  });

  it('createPayment: a 409 on the first attempt is the caller’s duplicate, a typed conflict error; nothing is looked up', async () => {
    server.script('POST /api/v1/ob/payments', error(409, 'Conflict', 'A payment with endToEndId order-1 already exists'));
    await assert.rejects(client().createPayment(CREATION), (thrown: unknown) => {
      assert.ok(thrown instanceof OpenpisConflictError);
      assert.equal(thrown.statusCode, 409);
      assert.equal(thrown.title, 'Conflict');
      assert.equal(thrown.requestId, 'req-from-server');
      return true;
    });
    assert.equal(server.requestsTo('GET /api/v1/ob/payments').length, 0);
  });

  it('createPayment: a 409 after a 429 (answered before the request was looked at) is still the caller’s duplicate', async () => {
    server.script(
      'POST /api/v1/ob/payments',
      error(429, 'Too Many Requests', 'slow down', { 'retry-after': '1' }),
      error(409, 'Conflict', 'exists'),
    );
    await assert.rejects(client().createPayment(CREATION), OpenpisConflictError);
    assert.equal(server.requestsTo('GET /api/v1/ob/payments').length, 0);
  });

  it('createPayment: a 409 after a lost attempt whose payment differs (another amount) is a conflict, not adopted', async () => {
    server.script('POST /api/v1/ob/payments', dropConnection, error(409, 'Conflict', 'exists'));
    server.script('GET /api/v1/ob/payments', ok({ items: [{ ...paymentResource(), amount: 99 }], nextCursor: null }));
    await assert.rejects(client().createPayment(CREATION), OpenpisConflictError);
  });

  it('createPayment: the first 201 is returned as it came', async () => {
    server.script('POST /api/v1/ob/payments', (_request, response) => json(response, 201, CREATED));
    assert.deepEqual(await client().createPayment(CREATION, { acceptLanguage: 'de' }), CREATED);
    assert.equal(server.requestsTo('POST /api/v1/ob/payments')[0]?.headers['accept-language'], 'de');
  });

  it('waitForFinalStatus polls until COMPLETED or FAILED; an unknown status is not final; a deadline gives a timeout error', async () => {
    server.script(
      `GET /api/v1/ob/payments/${PAYMENT_ID}`,
      ok(paymentResource()),
      ok(paymentResource('SOMETHING_NEW', 'A_FUTURE_DETAILED_STATUS')),
      ok(paymentResource('COMPLETED', 'PAYMENT_EXECUTION_COMPLETED')),
    );
    const final = await client().waitForFinalStatus(PAYMENT_ID, { pollIntervalMs: 1 });
    assert.equal(final.status, 'COMPLETED');
    assert.equal(server.requestsTo(`GET /api/v1/ob/payments/${PAYMENT_ID}`).length, 3);

    server.reset();
    server.script(`GET /api/v1/ob/payments/${PAYMENT_ID}`, ...Array.from({ length: 50 }, () => ok(paymentResource())));
    await assert.rejects(client().waitForFinalStatus(PAYMENT_ID, { pollIntervalMs: 5, timeoutMs: 30 }), (thrown: unknown) => {
      assert.ok(thrown instanceof OpenpisTimeoutError);
      assert.equal((thrown.lastSeen as { status?: string } | undefined)?.status, 'PENDING');
      return true;
    });
  });

  it('waitForFinalStatus stops when its signal is aborted', async () => {
    server.script(`GET /api/v1/ob/payments/${PAYMENT_ID}`, ...Array.from({ length: 50 }, () => ok(paymentResource())));
    const controller = new AbortController();
    const waiting = client().waitForFinalStatus(PAYMENT_ID, { pollIntervalMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shop closing')), 50);
    await assert.rejects(waiting, /shop closing/);
  });

  it('payments() walks every page with the cursor; events() reads the feed until caught up', async () => {
    server.script(
      'GET /api/v1/ob/payments',
      ok({ items: [paymentResource(), paymentResource()], nextCursor: 'page-2' }),
      ok({ items: [paymentResource()], nextCursor: null }),
    );
    const seen = [];
    for await (const payment of client().payments({ status: ['PENDING', 'FAILED'], limit: 2 })) seen.push(payment);
    assert.equal(seen.length, 3);
    const [first, second] = server.requestsTo('GET /api/v1/ob/payments');
    assert.equal(first?.query.get('status'), 'PENDING,FAILED');
    assert.equal(first?.query.get('cursor'), null);
    assert.equal(second?.query.get('cursor'), 'page-2');

    const event = (id: string) => ({ id, type: 'payment.status.updated', createdAt: '2026-11-24T10:00:00.000Z', data: {} });
    server.script(
      'GET /api/v1/events',
      ok({ items: [event('e1'), event('e2')], nextCursor: 'c2' }),
      ok({ items: [event('e3')], nextCursor: 'c3' }),
      ok({ items: [], nextCursor: 'c3' }),
    );
    const ids = [];
    for await (const one of client().events({ after: 'c0' })) ids.push(one.id);
    assert.deepEqual(ids, ['e1', 'e2', 'e3']);
    assert.deepEqual(
      server.requestsTo('GET /api/v1/events').map((seen) => seen.query.get('after')),
      ['c0', 'c2', 'c3'],
    );
  });
});
