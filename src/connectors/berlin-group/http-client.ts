/**
 * The Berlin Group part of a bank call: the standard's common headers (`X-Request-ID`, `PSU-IP-Address`, ...), the
 * request signature when the bank asks for it, the bank's links, and NextGenPSD2 error bodies. Sending, time and size
 * limits, logging and "no answer" are the shared HTTP core's (../http/core.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { BerlinGroupSettings } from './settings.js';
import type { CallContext } from '../contract.js';
import { BankProtocolError, BankRejectedError, type BankMessage } from '../errors.js';
import { failureCodeOfMessages } from './status-maps.js';
import type { RequestSigner } from './signing.js';
import { check } from './wire-types.js';
import { bankLinkProblem } from '../transport.js';
import { HttpCore, parseErrorBody, parseJsonBody, type ConnectorLogger, type HttpMethod } from '../http/core.js';

export type { ConnectorLogger } from '../http/core.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BankRequest {
  /** Connector operation, for errors and logs. */
  readonly operation: string;
  readonly method: HttpMethod;
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
  private readonly core: HttpCore;

  constructor(
    private readonly settings: BerlinGroupSettings,
    private readonly options: HttpClientOptions,
  ) {
    // A trailing slash makes relative links and the standard's paths resolve below the base path.
    this.base = new URL(settings.baseUrl.endsWith('/') ? settings.baseUrl : `${settings.baseUrl}/`);
    this.core = new HttpCore({ dispatcher: options.dispatcher, timeoutMs: settings.timeoutMs, logger: options.logger, bank: this.base });
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

  /**
   * One call: a JSON answer (2xx), or `BankRejectedError` with the bank's messages (4xx), or the core's
   * `BankUnavailableError` / `BankProtocolError`.
   */
  async send(call: BankRequest): Promise<BankResponse> {
    const bodyText = call.body === undefined ? undefined : JSON.stringify(call.body);
    const answer = await this.core.send({
      operation: call.operation,
      method: call.method,
      url: call.url,
      headers: this.headersFor(call, bodyText),
      ...(bodyText === undefined ? {} : { body: bodyText }),
    });
    const { status } = answer;
    if (status >= 400) {
      const messages = messagesOfErrorBody(parseErrorBody(answer));
      throw new BankRejectedError(call.operation, status, failureCodeOfMessages(messages, call.operation), messages);
    }
    // A 2xx that is not JSON is a protocol error (callers that need a body decide on an empty one, so that
    // 204-like answers do not fail).
    const json = parseJsonBody(call.operation, answer);
    if (status < 200 || status >= 300) {
      throw new BankProtocolError(call.operation, 'unexpected HTTP status', status);
    }
    return { status, headers: answer.headers, json };
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
