/**
 * One API call, made as often as it takes: a token fetched and refreshed on its own (before expiry, and once more
 * on a 401), and retries with exponential backoff and full jitter on 429, 503 and network errors, never earlier
 * than the service's `Retry-After`. Every attempt of one call carries the same `X-Request-ID`.
 */
import { apiErrorFor, OpenpisError, OpenpisNetworkError, type OpenpisApiError } from './errors.js';

export interface RetryOptions {
  /** Attempts per call, the first included (default 4). 1 turns retries off. */
  readonly maxAttempts?: number;
  /** First backoff ceiling in ms (default 500); doubles per attempt. The wait is random below it (full jitter). */
  readonly baseDelayMs?: number;
  /** Largest backoff ceiling in ms (default 8000). */
  readonly maxDelayMs?: number;
  /** A `Retry-After` longer than this (ms, default 60000) is not waited for: the error is thrown at once. */
  readonly maxRetryAfterMs?: number;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Scopes to ask for (space-separated); default: every scope the client holds. */
  readonly scope?: string;
  readonly retry?: RetryOptions;
  /** Time limit of one attempt in ms (default 30000). */
  readonly timeoutMs?: number;
  /** A token is renewed this many seconds before it expires (default 60; at most half its lifetime). */
  readonly tokenRefreshMarginSeconds?: number;
  /** Replaces the global `fetch` (a proxy agent, instrumentation). */
  readonly fetch?: typeof fetch;
  /** The clock, in ms since the epoch (for tests). */
  readonly now?: () => number;
  /** How the SDK waits between attempts (for tests, to see the waits without spending them). */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

export interface ApiRequest {
  readonly method: 'GET' | 'POST';
  /** Path under the base URL, starting with `/`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Sent as JSON. */
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

/** What a call ended with: a 2xx, or an error answer the caller decides about (it is returned, not thrown). */
export interface ApiExchange {
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
  /** The answer's `Retry-After`, in seconds from when it arrived. */
  readonly retryAfterSeconds: number | undefined;
  /**
   * Whether an earlier attempt of this call may have been processed by the service: it ended in a network error,
   * a timeout or a 503. (A 401 or 429 is answered before the request is looked at.)
   */
  readonly earlierAttemptMayHaveBeenProcessed: boolean;
}

const RETRIED_STATUSES = new Set([429, 503]);

interface CachedToken {
  readonly value: string;
  /** When to stop using it (ms since the epoch): its expiry less the refresh margin. */
  readonly renewAt: number;
}

export class Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly timeoutMs: number;
  private token: CachedToken | undefined;
  /** One token request at a time: concurrent calls share it. */
  private tokenInFlight: Promise<CachedToken> | undefined;

  constructor(private readonly options: TransportOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new OpenpisError('baseUrl must be an absolute http(s) URL');
    if (options.clientId === '' || options.clientSecret === '') throw new OpenpisError('clientId and clientSecret are required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleep;
    this.maxAttempts = Math.max(1, Math.floor(options.retry?.maxAttempts ?? 4));
    this.baseDelayMs = options.retry?.baseDelayMs ?? 500;
    this.maxDelayMs = options.retry?.maxDelayMs ?? 8000;
    this.maxRetryAfterMs = options.retry?.maxRetryAfterMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Makes an authenticated call; a 2xx or an error answer is returned, a network failure after all attempts thrown. */
  async call(request: ApiRequest): Promise<ApiExchange> {
    let refreshedAfter401 = false;
    return this.withRetries(
      request,
      async (headers) => {
        const token = await this.currentToken();
        headers.set('authorization', `Bearer ${token.value}`);
        return token;
      },
      (status, token) => {
        // A token that stopped working (expired early, revoked, the clock is off): forget it and try once more.
        if (status !== 401 || refreshedAfter401) return false;
        refreshedAfter401 = true;
        if (this.token === token) this.token = undefined;
        return true;
      },
    );
  }

  /** Like {@link call}, but throws the typed error for any answer other than 2xx. */
  async callOk(request: ApiRequest): Promise<ApiExchange> {
    const exchange = await this.call(request);
    if (exchange.status >= 200 && exchange.status < 300) return exchange;
    throw errorOf(exchange, undefined);
  }

  private async currentToken(): Promise<CachedToken> {
    const cached = this.token;
    if (cached !== undefined && this.now() < cached.renewAt) return cached;
    // Shared by every call waiting for it, so no one caller's abort may cancel it (it has its own time limit).
    this.tokenInFlight ??= this.fetchToken().finally(() => {
      this.tokenInFlight = undefined;
    });
    this.token = await this.tokenInFlight;
    return this.token;
  }

  private async fetchToken(): Promise<CachedToken> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (this.options.scope !== undefined) form.set('scope', this.options.scope);
    const basic = base64(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`);
    const exchange = await this.withRetries(
      { method: 'POST', path: '/api/v1/auth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      (headers) => {
        headers.set('authorization', `Basic ${basic}`);
        return undefined;
      },
      () => false,
      form.toString(),
    );
    if (exchange.status !== 200) throw errorOf(exchange, 'The token request was refused');
    const body = exchange.body as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number' || body.expires_in <= 0) {
      throw new OpenpisError('The token endpoint answered without access_token and expires_in');
    }
    const lifetimeMs = body.expires_in * 1000;
    const marginMs = Math.min((this.options.tokenRefreshMarginSeconds ?? 60) * 1000, lifetimeMs / 2);
    return { value: body.access_token, renewAt: this.now() + lifetimeMs - marginMs };
  }

  /**
   * The retry loop. `authorise` sets credentials on each attempt; `retryOnceMore` may ask for one more attempt
   * outside the retry budget (the 401 refresh).
   */
  private async withRetries<Credential>(
    request: ApiRequest,
    authorise: (headers: Headers) => Promise<Credential> | Credential,
    retryOnceMore: (status: number, credential: Credential) => boolean,
    rawBody?: string,
  ): Promise<ApiExchange> {
    const requestId = randomId();
    const url = this.urlOf(request);
    let mayHaveBeenProcessed = false;
    let lastNetworkError: unknown;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const headers = new Headers({ accept: 'application/json', 'x-request-id': requestId, ...request.headers });
      const credential = await authorise(headers);
      let body = rawBody;
      if (request.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(request.json);
      }
      const attemptSignal =
        request.signal === undefined
          ? AbortSignal.timeout(this.timeoutMs)
          : AbortSignal.any([request.signal, AbortSignal.timeout(this.timeoutMs)]);
      let response: Response;
      let parsed: unknown;
      try {
        response = await this.fetchImpl(url, {
          method: request.method,
          headers,
          signal: attemptSignal,
          ...(body === undefined ? {} : { body }),
        });
        parsed = await readJson(response);
      } catch (error) {
        // The caller's own abort ends the call; anything else (refused connection, reset, timeout) is retried.
        request.signal?.throwIfAborted();
        lastNetworkError = error;
        mayHaveBeenProcessed = true;
        if (attempt < this.maxAttempts) await this.sleep(this.backoffMs(attempt), request.signal);
        continue;
      }
      const retryAfterMs = retryAfterMsOf(response.headers.get('retry-after'), this.now());
      const exchange: ApiExchange = {
        status: response.status,
        body: parsed,
        requestId: response.headers.get('x-request-id') ?? requestId,
        retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
        earlierAttemptMayHaveBeenProcessed: mayHaveBeenProcessed,
      };
      if (retryOnceMore(response.status, credential)) {
        attempt--;
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt === this.maxAttempts) return exchange;
      if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs) return exchange;
      if (response.status === 503) mayHaveBeenProcessed = true;
      const backoff = this.backoffMs(attempt);
      // Never earlier than the service asked; a little jitter on top so that clients told the same do not return together.
      await this.sleep(retryAfterMs === undefined ? backoff : retryAfterMs + Math.random() * Math.min(backoff, 1000), request.signal);
    }
    throw new OpenpisNetworkError(
      `${request.method} ${request.path} failed after ${this.maxAttempts} attempt(s): ${describe(lastNetworkError)}`,
      requestId,
      lastNetworkError,
    );
  }

  /** Full jitter: a random wait below an exponentially growing ceiling. */
  private backoffMs(attempt: number): number {
    return Math.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
  }

  private urlOf(request: ApiRequest): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      for (const one of typeof value === 'string' ? [value] : value) search.append(name, one);
    }
    const query = search.toString();
    return `${this.baseUrl}${request.path}${query === '' ? '' : `?${query}`}`;
  }
}

/** The typed error of an error answer. */
export function errorOf(exchange: ApiExchange, context: string | undefined): OpenpisApiError {
  const body = (typeof exchange.body === 'object' && exchange.body !== null ? exchange.body : {}) as Record<string, unknown>;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const message = text(body.message) ?? text(body.error_description) ?? `HTTP ${exchange.status}`;
  return apiErrorFor({
    statusCode: exchange.status,
    title: text(body.title) ?? `HTTP ${exchange.status}`,
    message: context === undefined ? message : `${context}: ${message}`,
    requestId: exchange.requestId,
    oauthError: text(body.error),
    retryAfterSeconds: exchange.retryAfterSeconds,
    body: exchange.body,
  });
}

/** `Retry-After` (seconds, or an HTTP date) as milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMsOf(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Waits `ms`, or rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with the signal's reason as it is, as fetch and node:timers/promises do
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function randomId(): string {
  return globalThis.crypto.randomUUID();
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'no answer';
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
