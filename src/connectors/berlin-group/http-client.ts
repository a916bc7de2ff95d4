/**
 * The connector's HTTP client: one bank call with the standard's common headers, optional request signing,
 * bounded time and size, and the classification of every outcome into a JSON answer or one of the connector
 * errors. It logs method, path, status and duration only: never bodies (they may hold `psuData`), never queries.
 */
import { randomUUID } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import type { BerlinGroupSettings } from './settings.js';
import type { CallContext } from '../contract.js';
import { BankProtocolError, BankRejectedError, BankUnavailableError, type BankMessage } from '../errors.js';
import { failureCodeOfMessages } from './status-maps.js';
import type { RequestSigner } from './signing.js';
import { check } from './wire-types.js';
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

/** Bank answers are small JSON documents; anything bigger is refused rather than buffered. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BankRequest {
  /** Connector operation, for errors and logs. */
  readonly operation: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: URL;
  readonly context: CallContext;
  /** Operation-specific headers (PSU-ID, TPP-Redirect-URI, Consent-ID, ...). Undefined values are left out. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** JSON body; serialised once, and the same bytes are digested, signed and sent. */
  readonly body?: unknown;
}

export interface BankResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON body, `undefined` when the bank sent none. */
  readonly json: unknown;
}

export interface HttpClientOptions {
  readonly dispatcher: Dispatcher;
  readonly signer: RequestSigner | undefined;
  readonly logger: ConnectorLogger | undefined;
  readonly now: () => Date;
}

export class BerlinGroupHttpClient {
  private readonly base: URL;

  constructor(
    private readonly settings: BerlinGroupSettings,
    private readonly options: HttpClientOptions,
  ) {
    // A trailing slash makes relative links and the standard's paths resolve below the base path.
    this.base = new URL(settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`);
  }

  /** A standard path below the bank's base URL, for example `v1/payments/sepa-credit-transfers`. */
  standardUrl(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.base);
  }

  /**
   * Resolves a link the bank sent. Links may be absolute or relative to the bank's host (`/v1/...`, or a path
   * relative to the base URL). API links must stay on the bank's origin: we send our signature, the PSU's data
   * and passwords to them, so a link to another host is a protocol error rather than a request to that host.
   */
  resolveApiLink(operation: string, href: string): URL {
    let url: URL;
    try {
      url = new URL(href, this.base);
    } catch {
      throw new BankProtocolError(operation, 'the bank sent a link that is not a URL');
    }
    if (url.origin !== this.base.origin) {
      throw new BankProtocolError(operation, `the bank sent an API link to another origin (${url.origin})`);
    }
    return url;
  }

  /**
   * Resolves a link meant for the PSU's browser (scaRedirect): any host (banks send the payer to their identity
   * provider), relative ones against the bank, but https — plain http only from a bank itself on plain http (a
   * sandbox bank), see {@link bankLinkProblem}. The payer types their bank password on that page.
   */
  resolveBrowserLink(operation: string, href: string): string {
    let url: URL;
    try {
      url = new URL(href, this.base);
    } catch {
      throw new BankProtocolError(operation, 'the bank sent a redirect link that is not a URL');
    }
    const problem = bankLinkProblem(url, this.base);
    if (problem !== undefined) throw new BankProtocolError(operation, `the bank sent a redirect link to ${problem}`);
    return url.href;
  }

  async send(call: BankRequest): Promise<BankResponse> {
    // Every call, whatever built its URL: nothing the bank is sent may travel over plain http to the network.
    const problem = bankLinkProblem(call.url, this.base);
    if (problem !== undefined) throw new BankProtocolError(call.operation, `refusing to call ${problem}`);
    const bodyText = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers = this.headersFor(call, bodyText);
    const timeoutMs = this.settings.timeoutMs;
    const started = performance.now();
    const logFields = { operation: call.operation, method: call.method, path: call.url.pathname };

    let response: Dispatcher.ResponseData;
    let raw: Buffer;
    try {
      response = await request(call.url, {
        method: call.method,
        headers,
        body: bodyText,
        dispatcher: this.options.dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // The overall bound: headers and body timeouts are per phase, this covers connect + both.
        signal: AbortSignal.timeout(timeoutMs),
      });
      raw = await readBounded(response.body, MAX_RESPONSE_BYTES);
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (error instanceof ResponseTooLargeError) {
        this.options.logger?.warn({ ...logFields, durationMs }, 'bank answer too large');
        throw new BankProtocolError(call.operation, `the answer exceeds ${MAX_RESPONSE_BYTES} bytes`);
      }
      const reason = isTimeout(error) ? 'timeout' : 'connection';
      this.options.logger?.warn({ ...logFields, durationMs, reason, error: errorName(error) }, 'bank unreachable');
      throw new BankUnavailableError(call.operation, reason, { cause: sanitisedCause(error) });
    }

    const durationMs = Math.round(performance.now() - started);
    const status = response.statusCode;
    const responseHeaders = flattenHeaders(response.headers);
    this.options.logger?.[status >= 400 ? 'warn' : 'debug']({ ...logFields, status, durationMs }, 'bank call');

    if (status >= 500 || status === 408 || status === 429) {
      const retryAfter = parseRetryAfter(responseHeaders['retry-after']);
      throw new BankUnavailableError(call.operation, status === 429 ? 'rate-limited' : status === 408 ? 'timeout' : 'server-error', {
        httpStatus: status,
        ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
      });
    }
    const json = parseJson(call.operation, raw, status);
    if (status >= 400) {
      const messages = messagesOfErrorBody(json);
      throw new BankRejectedError(call.operation, status, failureCodeOfMessages(messages, call.operation), messages);
    }
    if (status < 200 || status >= 300) {
      throw new BankProtocolError(call.operation, 'unexpected HTTP status', status);
    }
    return { status, headers: responseHeaders, json };
  }

  private headersFor(call: BankRequest, bodyText: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      // The standard requires a UUID; an id of another shape (from a client) is replaced, never forwarded.
      'X-Request-ID': UUID.test(call.context.requestId) ? call.context.requestId : randomUUID(),
    };
    if (call.context.psuIpAddress !== undefined) headers['PSU-IP-Address'] = call.context.psuIpAddress;
    if (call.context.psuUserAgent !== undefined) headers['PSU-User-Agent'] = call.context.psuUserAgent;
    for (const [name, value] of Object.entries(call.headers ?? {})) {
      if (value !== undefined) headers[name] = value;
    }
    if (bodyText !== undefined) headers['Content-Type'] = 'application/json';
    if (this.options.signer !== undefined && this.settings.signRequests === true) {
      headers['Date'] = this.options.now().toUTCString();
      Object.assign(headers, this.options.signer.sign(headers, bodyText ?? ''));
    }
    return headers;
  }
}

function parseJson(operation: string, raw: Buffer, status: number): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    // A 4xx with an HTML body is still a refusal; a 2xx that is not JSON is a protocol error (decided by callers
    // that need a body, so that 204-like answers with stray bytes do not fail).
    if (status >= 400) return undefined;
    throw new BankProtocolError(operation, 'the answer is not JSON', status);
  }
}

/** `tppMessages` of a NextGenPSD2 error body, or the codes of an RFC 7807 one; [] for anything else. */
export function messagesOfErrorBody(json: unknown): BankMessage[] {
  if (check.errorBodyNG.Check(json) && json.tppMessages !== undefined) {
    return json.tppMessages.map((message) => ({
      category: message.category,
      code: message.code,
      ...(message.path === undefined ? {} : { path: message.path }),
      ...(message.text === undefined ? {} : { text: message.text }),
    }));
  }
  if (check.errorBodyProblem.Check(json)) {
    const first: BankMessage = {
      category: 'ERROR',
      code: json.code,
      ...(json.detail === undefined ? {} : { text: json.detail }),
    };
    const more = (json.additionalErrors ?? []).map((error): BankMessage => ({
      category: 'ERROR',
      code: error.code,
      ...(error.detail === undefined ? {} : { text: error.detail }),
    }));
    return [first, ...more];
  }
  return [];
}
