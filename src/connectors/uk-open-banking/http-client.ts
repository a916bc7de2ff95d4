/**
 * The UK connector's HTTP client: one call to the bank (resource API, token or backchannel endpoint, discovery),
 * bounded in time and size, logged as method, path, status and duration only — never bodies, queries or tokens
 * (bodies hold creditor names and the payer's account; forms hold assertions and codes).
 *
 * It only throws for "no usable answer" (network, timeout, too large); the callers classify statuses, because
 * the resource API (OBErrorResponse1) and the OAuth endpoints (`{ error }`) say no differently.
 */
import { request, type Dispatcher } from 'undici';
import { BankProtocolError, BankUnavailableError } from '../errors.js';

/** Structured logger (pino's `Logger` fits); the same shape as the Berlin Group connector's. */
export interface ConnectorLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Bank answers are small JSON documents; anything bigger is refused rather than buffered. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface UkHttpRequest {
  /** Connector operation, for errors and logs. */
  readonly operation: string;
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** Exact body bytes (the signature, when any, is over these). */
  readonly body?: string;
}

export interface UkHttpResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body as received (signatures are checked over these exact characters). */
  readonly text: string;
}

export class UkHttpClient {
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly timeoutMs: number,
    private readonly logger: ConnectorLogger | undefined,
  ) {}

  async send(call: UkHttpRequest): Promise<UkHttpResponse> {
    const started = performance.now();
    const logFields = { operation: call.operation, method: call.method, path: call.url.pathname };
    let response: Dispatcher.ResponseData;
    let raw: Buffer;
    try {
      response = await request(call.url, {
        method: call.method,
        headers: call.headers,
        body: call.body,
        dispatcher: this.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        // The overall bound: headers and body timeouts are per phase, this covers connect + both.
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      raw = await readBounded(response.body, MAX_RESPONSE_BYTES);
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (error instanceof ResponseTooLargeError) {
        this.logger?.warn({ ...logFields, durationMs }, 'bank answer too large');
        throw new BankProtocolError(call.operation, `the answer exceeds ${MAX_RESPONSE_BYTES} bytes`);
      }
      const reason = isTimeout(error) ? 'timeout' : 'connection';
      this.logger?.warn({ ...logFields, durationMs, reason, error: errorName(error) }, 'bank unreachable');
      throw new BankUnavailableError(call.operation, reason, { cause: sanitisedCause(error) });
    }
    const durationMs = Math.round(performance.now() - started);
    const status = response.statusCode;
    this.logger?.[status >= 400 ? 'warn' : 'debug']({ ...logFields, status, durationMs }, 'bank call');
    return { status, headers: flattenHeaders(response.headers), text: raw.toString('utf8') };
  }
}

/** Throws {@link BankUnavailableError} for the statuses that mean "no usable answer" (5xx, 408, 429). */
export function throwIfUnavailable(operation: string, response: UkHttpResponse): void {
  const { status } = response;
  if (status < 500 && status !== 408 && status !== 429) return;
  const retryAfter = parseRetryAfter(response.headers['retry-after']);
  throw new BankUnavailableError(operation, status === 429 ? 'rate-limited' : status === 408 ? 'timeout' : 'server-error', {
    httpStatus: status,
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  });
}

/** The body as JSON; `undefined` for an empty body. A body that is not JSON is a protocol error. */
export function parseJsonBody(operation: string, response: UkHttpResponse): unknown {
  if (response.text === '') return undefined;
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    throw new BankProtocolError(operation, 'the answer is not JSON', response.status);
  }
}

export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number.parseInt(value.trim(), 10);
}

class ResponseTooLargeError extends Error {}

async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > limit) {
      body.destroy();
      throw new ResponseTooLargeError();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'TimeoutError' ||
    error.name.includes('Timeout') ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ETIMEDOUT'
  );
}

function errorName(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : error.name;
}

/** The network error reduced to name/code/message: undici's errors can reference the request (and its headers). */
function sanitisedCause(error: unknown): Error {
  const cause = new Error(error instanceof Error ? error.message : String(error));
  cause.name = error instanceof Error ? error.name : 'Error';
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string') Object.assign(cause, { code });
  return cause;
}
