/**
 * The connectors' HTTP core: how each way a bank call can go wrong is classified. "No answer" (a timeout, a reset,
 * a 5xx, 408, 429) is BankUnavailableError, indeterminate: the bank may have acted, so a payment is never failed on
 * it. A refusal (4xx) comes back to the standard's client, which makes it a definite BankRejectedError; an answer
 * that is not what the standard says (not JSON, too large) is BankProtocolError, indeterminate too.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { BerlinGroupHttpClient } from '../../../src/connectors/berlin-group/http-client.js';
import { BankProtocolError, BankRejectedError, BankUnavailableError } from '../../../src/connectors/errors.js';
import { HttpCore, parseErrorBody, parseJsonBody } from '../../../src/connectors/http/core.js';
import { settings } from '../helpers/fake-bank.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let origin: string;
let handler: Handler = (_request, response) => response.end();
/** Requests the server holds without answering (released at the end so the server can close). */
const held: ServerResponse[] = [];
const dispatcher = new Agent();

before(async () => {
  server = createHttpServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  for (const response of held) response.destroy();
  await dispatcher.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function core(options: { timeoutMs?: number; maxResponseBytes?: number; bank?: string; lines?: string[] } = {}): HttpCore {
  const lines = options.lines;
  const logger =
    lines === undefined
      ? undefined
      : {
          debug: (fields: Record<string, unknown>, message: string) => lines.push(JSON.stringify({ level: 'debug', ...fields, message })),
          warn: (fields: Record<string, unknown>, message: string) => lines.push(JSON.stringify({ level: 'warn', ...fields, message })),
        };
  return new HttpCore({
    dispatcher,
    timeoutMs: options.timeoutMs ?? 5_000,
    logger,
    bank: new URL(options.bank ?? origin),
    ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
  });
}

const get = (path = '/v1/x') => ({ operation: 'getPaymentStatus', method: 'GET' as const, url: new URL(path, origin), headers: {} });

function answer(status: number, body: string, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

describe('HTTP core: no answer is indeterminate', () => {
  it('a bank that never answers: BankUnavailableError(timeout), indeterminate, no HTTP status', async () => {
    handler = (_request, response) => held.push(response);
    const error = await core({ timeoutMs: 200 })
      .send(get())
      .then(
        () => assert.fail('no answer must not resolve'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof BankUnavailableError, String(error));
    assert.equal(error.reason, 'timeout');
    assert.equal(error.indeterminate, true);
    assert.equal(error.kind, 'unavailable');
    assert.equal(error.httpStatus, undefined);
    assert.equal(error.failureCode, 'BANK_UNAVAILABLE');
  });

  it('a connection reset before any answer: BankUnavailableError(connection), its cause reduced to name, code and message', async () => {
    const resetting: TcpServer = createTcpServer((socket: Socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`;
    try {
      const error = await core({ bank: url })
        .send({ ...get(), url: new URL('/v1/x', url), headers: { 'PSU-ID': 'alice' } })
        .then(
          () => assert.fail('a reset must not resolve'),
          (caught: unknown) => caught,
        );
      assert.ok(error instanceof BankUnavailableError, String(error));
      assert.equal(error.reason, 'connection');
      assert.equal(error.indeterminate, true);
      assert.ok(error.cause instanceof Error);
      assert.doesNotMatch(JSON.stringify(error.cause, Object.getOwnPropertyNames(error.cause)), /alice/);
    } finally {
      await new Promise<void>((resolve) => resetting.close(() => resolve()));
    }
  });

  it('nobody listening: BankUnavailableError(connection)', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(
      core({ bank: url }).send({ ...get(), url: new URL('/v1/x', url) }),
      (error: unknown) => error instanceof BankUnavailableError && error.reason === 'connection',
    );
  });

  for (const [status, reason] of [
    [500, 'server-error'],
    [502, 'server-error'],
    [503, 'server-error'],
    [504, 'server-error'],
    [408, 'timeout'],
    [429, 'rate-limited'],
  ] as const) {
    it(`HTTP ${status}: BankUnavailableError(${reason}) with the status and Retry-After`, async () => {
      handler = answer(status, '{"tppMessages":[{"category":"ERROR","code":"INTERNAL_SERVER_ERROR"}]}', { 'Retry-After': '7' });
      const error = await core()
        .send(get())
        .then(
          () => assert.fail(`HTTP ${status} must not resolve`),
          (caught: unknown) => caught,
        );
      assert.ok(error instanceof BankUnavailableError, String(error));
      assert.equal(error.reason, reason);
      assert.equal(error.httpStatus, status);
      assert.equal(error.retryAfterSeconds, 7);
      assert.equal(error.indeterminate, true);
    });
  }
});

describe('HTTP core: answers', () => {
  it('a 4xx comes back to the caller (the standard says how a bank says no); a 2xx with its body as sent', async () => {
    handler = answer(400, '{"error":"invalid_request"}');
    const refused = await core().send(get());
    assert.equal(refused.status, 400);
    assert.deepEqual(parseJsonBody('op', refused), { error: 'invalid_request' });
    handler = answer(200, '{"amount":"0.10"}', { 'X-Thing': 'a' });
    const ok = await core().send(get());
    assert.equal(ok.text, '{"amount":"0.10"}');
    assert.equal(ok.headers['x-thing'], 'a');
  });

  it('malformed JSON: a protocol error for a body we need, no body for a refusal', async () => {
    handler = answer(200, '{"transactionStatus": ');
    const answered = await core().send(get());
    assert.throws(
      () => parseJsonBody('getPaymentStatus', answered),
      (error: unknown) => error instanceof BankProtocolError && error.indeterminate && error.httpStatus === 200,
    );
    assert.equal(parseErrorBody({ text: '<html>Bad request</html>' }), undefined);
    assert.equal(parseJsonBody('op', { status: 204, text: '' }), undefined);
  });

  it('an answer over the size limit is a protocol error, not read whole', async () => {
    handler = answer(200, JSON.stringify({ padding: 'x'.repeat(4096) }));
    await assert.rejects(
      core({ maxResponseBytes: 1024 }).send(get()),
      (error: unknown) => error instanceof BankProtocolError && /exceeds 1024 bytes/.test(error.message),
    );
  });

  it('never calls plain http for a bank on https', async () => {
    await assert.rejects(
      core({ bank: 'https://bank.example' }).send({ ...get(), url: new URL('http://bank.example/v1/x') }),
      (error: unknown) => error instanceof BankProtocolError && /https is required/.test(error.message),
    );
  });

  it('logs operation, method, path, status and duration: never the query, headers or body; refusals as warnings unless expected', async () => {
    handler = answer(400, '{"error":"authorization_pending"}');
    const lines: string[] = [];
    await core({ lines }).send({ ...get('/token?secret=s3cr3t'), headers: { Authorization: 'Bearer t0ken' }, expectedStatuses: [400] });
    await core({ lines }).send({ ...get('/v1/x?psu=alice'), method: 'POST', body: '{"psuData":{"password":"pw"}}', headers: {} });
    assert.equal(lines.length, 2);
    const [expected, refused] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(expected?.['level'], 'debug');
    assert.equal(expected?.['path'], '/token');
    assert.equal(refused?.['level'], 'warn');
    assert.equal(refused?.['status'], 400);
    for (const line of lines) assert.doesNotMatch(line, /s3cr3t|t0ken|alice|password|pw/);
  });
});

describe('Berlin Group client on the core', () => {
  const client = (): BerlinGroupHttpClient =>
    new BerlinGroupHttpClient(settings(`${origin}/xs2a`), { dispatcher, signer: undefined, logger: undefined, now: () => new Date() });
  const call = () => ({
    operation: 'getPaymentStatus',
    method: 'GET' as const,
    url: new URL('/xs2a/v1/x', origin),
    context: { requestId: 'not-a-uuid' },
  });

  it('a 4xx is a definite refusal with the bank messages; an HTML 4xx one without', async () => {
    handler = answer(400, JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', path: 'creditorAccount.iban' }] }));
    const error = await client()
      .send(call())
      .then(
        () => assert.fail('a 400 must not resolve'),
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof BankRejectedError);
    assert.equal(error.indeterminate, false);
    assert.deepEqual(error.messages, [{ category: 'ERROR', code: 'FORMAT_ERROR', path: 'creditorAccount.iban' }]);
    handler = answer(403, '<html>Forbidden</html>');
    await assert.rejects(client().send(call()), (caught: unknown) => caught instanceof BankRejectedError && caught.messages.length === 0);
  });

  it('a 2xx that is not JSON is a protocol error; a 503 is unavailable; the request id is replaced by a UUID', async () => {
    let requestId: string | undefined;
    handler = (request, response) => {
      requestId = String(request.headers['x-request-id']);
      response.writeHead(200);
      response.end('not json');
    };
    await assert.rejects(client().send(call()), BankProtocolError);
    assert.match(requestId ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-/);
    handler = answer(503, '');
    await assert.rejects(
      client().send(call()),
      (caught: unknown) => caught instanceof BankUnavailableError && caught.reason === 'server-error',
    );
  });
});
