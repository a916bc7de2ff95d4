/**
 * The HTTP core every connector sends its bank calls through: the address check (https, or plain http to a sandbox
 * bank on this machine), one bound on the whole call, a bounded read of the answer, logging of method, path, status
 * and duration only, and the classification of "no usable answer" into {@link BankUnavailableError}:
 *
 * - a timeout, a refused or reset connection: `BankUnavailableError` (`timeout` / `connection`). Indeterminate: the
 *   bank may have acted; a timeout is never a definite failure.
 * - a 5xx, 408 or 429: `BankUnavailableError` (`server-error` / `timeout` / `rate-limited`, with `Retry-After`).
 * - an answer over {@link MAX_RESPONSE_BYTES}: `BankProtocolError`, never read whole into memory.
 *
 * Every other status comes back to the connector, which knows how its standard says no (Berlin Group
 * `tppMessages`, UK `OBErrorResponse1`, OAuth `{ error }`) and turns refusals into `BankRejectedError`. The core
 * never logs bodies, queries or headers: they may hold the payer's data, tokens or assertions.
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

/** Structured logger (pino's `Logger` fits). */
export interface ConnectorLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpCall {
  /** Connector operation, for errors and logs. */
  readonly operation: string;
  readonly method: HttpMethod;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** Exact body bytes (a digest or signature, when any, is over these). */
  readonly body?: string;
  /**
   * Error statuses that are an expected answer of this call, logged like a success (a CIBA grant still pending is a
   * 400 `authorization_pending` at every poll until the payer decides): not a warning an operator should read.
   */
  readonly expectedStatuses?: readonly number[];
}

export interface HttpAnswer {
  /** A status below 500 other than 408 and 429 (those are thrown as {@link BankUnavailableError}). */
  readonly status: number;
  /** Lower-case header names, repeated headers joined. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body as received (signatures are checked over these exact characters); '' when there is none. */
  readonly text: string;
}

export interface HttpCoreOptions {
  /** Carries the connection pool and, for mutual TLS, our client certificate ({@link mutualTlsAgent}). */
  readonly dispatcher: Dispatcher;
  /** The bound on one call: connect, headers and body together. */
  readonly timeoutMs: number;
  readonly logger?: ConnectorLogger | undefined;
  /**
   * The bank's configured address: whether plain http may be used at all follows from it (see
   * {@link bankLinkProblem}).
   */
  readonly bank: URL;
  /** The largest answer read; larger is a protocol error. Default {@link MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number;
  /**
   * The path as logged. Default: the URL's path (never its query). A standard whose paths carry something that
   * must not reach logs masks it here.
   */
  readonly logPath?: (url: URL) => string;
}

export class HttpCore {
  private readonly maxResponseBytes: number;

  constructor(private readonly options: HttpCoreOptions) {
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  /** The bank's configured address (links are resolved and checked against it). */
  get bank(): URL {
    return this.options.bank;
  }

  /**
   * One call. Throws {@link BankUnavailableError} for no usable answer (network, timeout, 5xx, 408, 429) and
   * {@link BankProtocolError} for a refused address or an answer too large; returns every other answer.
   */
  async send(call: HttpCall): Promise<HttpAnswer> {
    // Every call, whatever built its URL (settings, links, discovery): nothing we send a bank — the payer's data,
    // signatures, tokens — travels over plain http to the network.
    const problem = bankLinkProblem(call.url, this.options.bank);
    if (problem !== undefined) throw new BankProtocolError(call.operation, `refusing to call ${problem}`);
    const { timeoutMs, logger } = this.options;
    const started = performance.now();
    const logFields = { operation: call.operation, method: call.method, path: this.options.logPath?.(call.url) ?? call.url.pathname };
    let response: Dispatcher.ResponseData;
    let raw: Buffer;
    try {
      response = await request(call.url, {
        method: call.method,
        headers: call.headers,
        body: call.body,
        dispatcher: this.options.dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // The overall bound: headers and body timeouts are per phase, this covers connect + both.
        signal: AbortSignal.timeout(timeoutMs),
      });
      raw = await readBounded(response.body, this.maxResponseBytes);
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (error instanceof ResponseTooLargeError) {
        logger?.warn({ ...logFields, durationMs }, 'bank answer too large');
        throw new BankProtocolError(call.operation, `the answer exceeds ${this.maxResponseBytes} bytes`);
      }
      const reason = isTimeout(error) ? 'timeout' : 'connection';
      logger?.warn({ ...logFields, durationMs, reason, error: errorName(error) }, 'bank unreachable');
      throw new BankUnavailableError(call.operation, reason, { cause: sanitisedCause(error) });
    }
    const durationMs = Math.round(performance.now() - started);
    const status = response.statusCode;
    const unexpected = status >= 400 && call.expectedStatuses?.includes(status) !== true;
    logger?.[unexpected ? 'warn' : 'debug']({ ...logFields, status, durationMs }, 'bank call');
    const answer: HttpAnswer = { status, headers: flattenHeaders(response.headers), text: raw.toString('utf8') };
    throwIfUnavailable(call.operation, answer);
    return answer;
  }
}

/** Throws {@link BankUnavailableError} for the statuses that mean "no usable answer" (5xx, 408, 429). */
export function throwIfUnavailable(operation: string, answer: Pick<HttpAnswer, 'status' | 'headers'>): void {
  const { status } = answer;
  if (status < 500 && status !== 408 && status !== 429) return;
  const retryAfter = parseRetryAfter(answer.headers['retry-after']);
  throw new BankUnavailableError(operation, status === 429 ? 'rate-limited' : status === 408 ? 'timeout' : 'server-error', {
    httpStatus: status,
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  });
}

/** The body as JSON; `undefined` for an empty body. A body that is not JSON is a protocol error. */
export function parseJsonBody(operation: string, answer: Pick<HttpAnswer, 'status' | 'text'>): unknown {
  if (answer.text === '') return undefined;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new BankProtocolError(operation, 'the answer is not JSON', answer.status);
  }
}

/**
 * The body of a refusal as JSON, or `undefined` when it is empty or not JSON: a 4xx with an HTML body is still a
 * refusal (the status says so), just one without the bank's message codes.
 */
export function parseErrorBody(answer: Pick<HttpAnswer, 'text'>): unknown {
  if (answer.text === '') return undefined;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
