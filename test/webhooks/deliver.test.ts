import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServerResponse } from 'node:http';
import tls from 'node:tls';
import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { deliverWebhook, WEBHOOK_USER_AGENT } from '../../src/webhooks/deliver.js';
import { paymentStatusWebhookBody } from '../../src/webhooks/payload.js';
import { generateWebhookSecret } from '../../src/webhooks/signature.js';
import { createWebhookDispatcher } from '../../src/webhooks/ssrf-guard.js';
import {
  createTestPki,
  startReceiver,
  unusedLoopbackPort,
  type ReceivedRequest,
  type TestPki,
  type TestReceiver,
} from './https-receiver.js';

const body = paymentStatusWebhookBody({
  paymentId: '5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11',
  endToEndId: 'order-4711',
  statusId: '0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22',
  detailedStatus: 'PAYMENT_EXECUTION_FAILED',
  failureReasons: [{ code: 'INSUFFICIENT_FUNDS', message: 'The account does not cover the amount.' }],
  createdAt: '2025-03-01T10:15:30.123Z',
});

const oldSecret = generateWebhookSecret();
const newSecret = generateWebhookSecret();

/** Verifies with the off-the-shelf library, as a client would; returns the parsed body or throws. */
function verifyAs(secret: string, request: ReceivedRequest): unknown {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
  return new Webhook(secret).verify(request.body, headers);
}

describe('deliverWebhook against a local HTTPS receiver', () => {
  let pki: TestPki;
  let receiver: TestReceiver;
  let dispatcher: Agent;
  const verified: { ok: boolean; path: string }[] = [];

  before(async () => {
    pki = createTestPki();
    receiver = await startReceiver(pki);
    dispatcher = createWebhookDispatcher({ allowPrivateTargets: true, caCertificates: pki.caCertificate });
    const verifying = (status: number) => (request: ReceivedRequest, response: ServerResponse) => {
      try {
        verifyAs(newSecret, request);
        verified.push({ ok: true, path: request.path });
      } catch {
        verified.push({ ok: false, path: request.path });
      }
      response.statusCode = status;
      response.end('x'.repeat(100_000));
    };
    receiver.routes.set('/ok', verifying(204));
    receiver.routes.set('/accepted', verifying(202));
    receiver.routes.set('/fail', (_request, response) => {
      response.statusCode = 500;
      response.setHeader('retry-after', '120');
      response.end('boom');
    });
    receiver.routes.set('/gone', (_request, response) => {
      response.statusCode = 410;
      response.end();
    });
    receiver.routes.set('/redirect', (_request, response) => {
      response.statusCode = 302;
      response.setHeader('location', '/redirect-target');
      response.end();
    });
    receiver.routes.set('/redirect-target', verifying(200));
    // Never answers: only the sender's timeout ends the attempt (its connection then closes), however slow the machine.
    receiver.routes.set('/slow', () => undefined);
  });

  after(async () => {
    await dispatcher.close();
    await receiver.close();
  });

  const send = (path: string, overrides: Partial<Parameters<typeof deliverWebhook>[0]> = {}) =>
    deliverWebhook({
      url: `${receiver.origin}${path}`,
      eventId: 'evt_3a1f0c9e-2b7d-4c55-9e61-7d8f0a1b2c3d',
      body,
      secrets: [newSecret],
      now: new Date(),
      dispatcher,
      ...overrides,
    });

  it('builds the trust store of a configured CA once, not again for every new connection', async () => {
    // Building a TLS context from Node's ~140 root certificates and the CA takes milliseconds of the event loop;
    // done for each new connection it stalled every delivery in a burst (docs/performance.md, webhooks).
    const withCa = createWebhookDispatcher({ allowPrivateTargets: true, caCertificates: pki.caCertificate });
    receiver.routes.set('/held', (_request, response) => {
      setTimeout(() => response.writeHead(204).end(), 50);
    });
    const original = tls.createSecureContext;
    let built = 0;
    tls.createSecureContext = (...args: Parameters<typeof original>) => {
      built += 1;
      return original(...args);
    };
    try {
      // Six at once: each needs a connection of its own.
      const results = await Promise.all(Array.from({ length: 6 }, () => send('/held', { dispatcher: withCa })));
      assert.deepEqual(
        results.map((result) => result.outcome),
        Array.from({ length: 6 }, () => 'delivered'),
      );
    } finally {
      tls.createSecureContext = original;
      await withCa.close();
    }
    assert.equal(built, 0);
  });

  it('delivers a signed POST that the standardwebhooks library verifies', async () => {
    const before = receiver.requests.length;
    const now = new Date();
    const result = await send('/ok', { now });
    assert.equal(result.outcome, 'delivered');
    assert.equal(result.statusCode, 204);
    assert.equal(result.error, undefined);
    assert.ok(result.latencyMs >= 0);

    const request = receiver.requests[before];
    assert.ok(request !== undefined);
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['user-agent'], WEBHOOK_USER_AGENT);
    assert.equal(request.headers['webhook-id'], 'evt_3a1f0c9e-2b7d-4c55-9e61-7d8f0a1b2c3d');
    assert.equal(request.headers['webhook-timestamp'], String(Math.floor(now.getTime() / 1000)));
    assert.match(String(request.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.equal(request.body, body, 'the body bytes are sent unchanged');
    assert.deepEqual(verifyAs(newSecret, request), JSON.parse(body));
    assert.deepEqual(verified.at(-1), { ok: true, path: '/ok' });
    assert.throws(() => verifyAs(generateWebhookSecret(), request), /No matching signature/);
  });

  it('sends the same body and id on a retry, with a fresh timestamp and signature', async () => {
    const before = receiver.requests.length;
    await send('/accepted', { now: new Date(Date.now() - 60_000) });
    await send('/accepted');
    const [first, second] = receiver.requests.slice(before);
    assert.ok(first !== undefined && second !== undefined);
    assert.equal(first.body, second.body);
    assert.equal(first.headers['webhook-id'], second.headers['webhook-id']);
    assert.notEqual(first.headers['webhook-timestamp'], second.headers['webhook-timestamp']);
    assert.notEqual(first.headers['webhook-signature'], second.headers['webhook-signature']);
    verifyAs(newSecret, first);
    verifyAs(newSecret, second);
  });

  it('signs with both secrets during a rotation, so a receiver with either one verifies', async () => {
    const before = receiver.requests.length;
    const result = await send('/ok', { secrets: [newSecret, oldSecret] });
    assert.equal(result.outcome, 'delivered');
    const request = receiver.requests[before];
    assert.ok(request !== undefined);
    const signatures = String(request.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2);
    assert.ok(signatures.every((signature) => signature.startsWith('v1,')));
    assert.deepEqual(verifyAs(oldSecret, request), JSON.parse(body), 'a receiver still on the old secret');
    assert.deepEqual(verifyAs(newSecret, request), JSON.parse(body), 'a receiver already on the new secret');
  });

  it('treats a 500 as retry and passes Retry-After on', async () => {
    const result = await send('/fail');
    assert.deepEqual(
      { ...result, latencyMs: 0 },
      {
        outcome: 'retry',
        statusCode: 500,
        latencyMs: 0,
        error: 'HTTP 500',
        retryAfterSeconds: 120,
      },
    );
  });

  it('treats a response slower than the timeout as retry', async () => {
    // The receiver never answers, so an outcome at all shows the attempt gave up at the timeout.
    const result = await send('/slow', { timeoutMs: 300 });
    assert.equal(result.outcome, 'retry');
    assert.equal(result.statusCode, undefined);
    assert.equal(result.error, 'no response within 300 ms');
  });

  it('treats 410 as gone', async () => {
    const result = await send('/gone');
    assert.equal(result.outcome, 'gone');
    assert.equal(result.statusCode, 410);
  });

  it('does not follow a redirect: 302 is a retry and the target is never called', async () => {
    const result = await send('/redirect');
    assert.equal(result.outcome, 'retry');
    assert.equal(result.statusCode, 302);
    assert.equal(result.error, 'redirect (HTTP 302) not followed');
    assert.equal(receiver.requests.filter((request) => request.path === '/redirect-target').length, 0);
  });

  it('treats a refused connection as retry', async () => {
    const port = await unusedLoopbackPort();
    const result = await send('/ok', { url: `https://127.0.0.1:${port}/ok` });
    assert.equal(result.outcome, 'retry');
    assert.match(result.error ?? '', /ECONNREFUSED/);
  });

  it('treats a certificate from an unknown CA as retry', async () => {
    const untrusting = createWebhookDispatcher({ allowPrivateTargets: true });
    try {
      const result = await send('/ok', { dispatcher: untrusting });
      assert.equal(result.outcome, 'retry');
      assert.match(result.error ?? '', /certificate/i);
    } finally {
      await untrusting.close();
    }
  });

  it('refuses the same receiver when private targets are not allowed, without connecting', async () => {
    const strict = createWebhookDispatcher({ caCertificates: pki.caCertificate });
    const connectionsBefore = receiver.connections;
    const requestsBefore = receiver.requests.length;
    try {
      const result = await send('/ok', { dispatcher: strict });
      assert.equal(result.outcome, 'refused');
      assert.equal(result.statusCode, undefined);
      assert.match(result.error ?? '', /^target address 127\.0\.0\.1 is not allowed/);
      const viaLocalhost = await send('/ok', { dispatcher: strict, url: `https://localhost:${receiver.port}/ok` });
      assert.equal(viaLocalhost.outcome, 'refused');
      assert.match(viaLocalhost.error ?? '', /^target address (127\.0\.0\.1|::1) is not allowed \(loopback\)/);
      assert.equal(receiver.connections, connectionsBefore);
      assert.equal(receiver.requests.length, requestsBefore);
    } finally {
      await strict.close();
    }
  });

  it('reaches localhost by name when private targets are allowed (TLS checks the name)', async () => {
    const result = await send('/ok', { url: `https://localhost:${receiver.port}/ok` });
    assert.equal(result.outcome, 'delivered');
  });

  it('keeps secrets and the body out of error messages', async () => {
    const results = [await send('/fail'), await send('/slow', { timeoutMs: 100 })];
    for (const result of results) {
      const text = JSON.stringify(result);
      assert.ok(!text.includes(newSecret.slice(6)));
      assert.ok(!text.includes('order-4711'));
    }
  });

  it('refuses URLs that are not http(s) or carry credentials', async () => {
    assert.equal((await send('/', { url: 'ftp://127.0.0.1/x' })).outcome, 'refused');
    assert.equal((await send('/', { url: 'not a url' })).outcome, 'refused');
    assert.equal((await send('/', { url: `https://user:pw@127.0.0.1:${receiver.port}/ok` })).outcome, 'refused');
  });
});

describe('deliverWebhook over plain http', () => {
  let receiver: TestReceiver;
  before(async () => {
    receiver = await startReceiver();
    receiver.routes.set('/ok', (_request, response) => {
      response.statusCode = 200;
      response.end();
    });
  });
  after(() => receiver.close());

  const send = (dispatcher: Agent) =>
    deliverWebhook({
      url: `${receiver.origin}/ok`,
      eventId: 'evt_1',
      body,
      secrets: [newSecret],
      now: new Date(),
      dispatcher,
    });

  it('is allowed to loopback only when private targets are allowed (local development)', async () => {
    const development = createWebhookDispatcher({ allowPrivateTargets: true });
    const production = createWebhookDispatcher();
    try {
      assert.equal((await send(development)).outcome, 'delivered');
      const connections = receiver.connections;
      const refused = await send(production);
      assert.equal(refused.outcome, 'refused');
      assert.equal(receiver.connections, connections);
    } finally {
      await development.close();
      await production.close();
    }
  });
});
