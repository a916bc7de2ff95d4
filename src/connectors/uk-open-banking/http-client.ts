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
import {
  bankLinkProblem,
  errorName,
  flattenHeaders,
  isTimeout,
  MAX_RESPONSE_BYTES,
  parseRetryAfter,
  readBounded,
  ResponseTooLargeError,
  sanitisedCause,
} from '../transport.js';

export { parseRetryAfter } from '../transport.js';

/** Structured logger (pino's `Logger` fits); the same shape as the Berlin Group connector's. */
export interface ConnectorLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Bank answers are small JSON documents; anything bigger is refused rather than buffered. */

export interface UkHttpRequest {
  /** Connector operation, for errors and logs. */
  readonly operation: string;
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** Exact body bytes (the signature, when any, is over these). */
  readonly body?: string;
  /**
   * Error statuses that are an expected answer of this call, logged like a success (a CIBA grant still pending is a
   * 400 `authorization_pending` at every poll until the payer decides): not a warning an operator should read.
   */
  readonly expectedStatuses?: readonly number[];
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
    /** The bank's issuer: whether plain http may be used at all follows from it (see {@link bankLinkProblem}). */
    private readonly bank: URL,
  ) {}

  async send(call: UkHttpRequest): Promise<UkHttpResponse> {
    // Every call, whatever built its URL (settings, discovery): tokens, assertions and the payer's consent never
    // travel over plain http to the network.
    const problem = bankLinkProblem(call.url, this.bank);
    if (problem !== undefined) throw new BankProtocolError(call.operation, `refusing to call ${problem}`);
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
    const unexpected = status >= 400 && call.expectedStatuses?.includes(status) !== true;
    this.logger?.[unexpected ? 'warn' : 'debug']({ ...logFields, status, durationMs }, 'bank call');
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
