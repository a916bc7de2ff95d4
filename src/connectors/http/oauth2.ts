/**
 * OAuth 2.0 for connectors: a form POST to a token endpoint on the HTTP core (with the standard's client
 * authentication plugged in), and the client-credentials token cache every connector of the process shares.
 *
 * The cache keeps a token until shortly before its `expires_in` runs out, per bank, scope and client identity (our
 * client id and the key or certificate that authenticates it, so a changed identity never reuses another's token).
 * Concurrent callers share one token request (single flight), a failed request is not cached, and a call refused
 * with 401 drops the token it used and is made once more with a fresh one ({@link TokenCache.withToken}).
 *
 * Why not a library: the OAuth clients on npm (openid-client, oauth4webapi) bring their own `fetch`, so the mutual
 * TLS pool, the time and size bounds and the "no answer" classification of the core would have to be rebuilt around
 * them; the grant itself is one form POST. Every signature (client assertions) stays with `jose`.
 */
import { BankProtocolError, BankRejectedError } from '../errors.js';
import { isJsonObject, parseJsonBody, type HttpCore } from './core.js';

export type JsonObject = Record<string, unknown>;

export interface OAuthFormPost {
  readonly operation: string;
  readonly endpoint: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** Adds our client authentication to the form (`client_assertion`, or `client_id` for `tls_client_auth`). */
  readonly authenticate: (form: URLSearchParams, endpoint: string) => Promise<void>;
  /** Error statuses that are an expected answer (a CIBA poll's 400 `authorization_pending`). */
  readonly expectedStatuses?: readonly number[];
}

/**
 * A form POST to an OAuth endpoint. "No answer" is thrown by the core; every other answer comes back as status and
 * JSON object (OAuth errors are `{ error }` objects the caller reads); a body that is not a JSON object is a
 * protocol error.
 */
export async function oauthFormPost(http: HttpCore, post: OAuthFormPost): Promise<{ status: number; body: JsonObject }> {
  const form = new URLSearchParams(post.parameters);
  await post.authenticate(form, post.endpoint);
  const response = await http.send({
    operation: post.operation,
    method: 'POST',
    url: new URL(post.endpoint),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: form.toString(),
    ...(post.expectedStatuses === undefined ? {} : { expectedStatuses: post.expectedStatuses }),
  });
  const json = parseJsonBody(post.operation, response);
  if (!isJsonObject(json)) throw new BankProtocolError(post.operation, 'the OAuth answer is not a JSON object', response.status);
  return { status: response.status, body: json };
}

/** An access token as the token endpoint gave it. */
export interface IssuedToken {
  readonly accessToken: string;
  /** `expires_in`; undefined when the bank sent none (the token is then used for the calls waiting on it only). */
  readonly expiresInSeconds: number | undefined;
}

/** `access_token` and `expires_in` of a successful token answer; a missing token is a protocol error. */
export function issuedToken(operation: string, body: JsonObject): IssuedToken {
  const accessToken = body['access_token'];
  if (typeof accessToken !== 'string' || accessToken === '') throw new BankProtocolError(operation, 'the answer has no access_token');
  const expiresIn = body['expires_in'];
  const seconds = typeof expiresIn === 'number' ? expiresIn : typeof expiresIn === 'string' ? Number(expiresIn) : Number.NaN;
  return { accessToken, expiresInSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : undefined };
}

/** Whose token it is: the bank, the scope, and our identity towards the bank. */
export interface TokenKey {
  /** The bank (its issuer or token endpoint). */
  readonly bank: string;
  readonly scope: string;
  /** Our client id at the bank. */
  readonly clientId: string;
  /** What authenticates us (a key id, a certificate's fingerprint, the authentication method). */
  readonly identity: string;
}

export interface TokenCacheOptions {
  /** The clock the lifetimes are measured with. */
  readonly now?: () => Date;
  /** How long before the end of its lifetime a token is no longer handed out. Default: a tenth of it, at most 60 s. */
  readonly refreshBeforeMs?: (lifetimeMs: number) => number;
}

interface Entry {
  /** The request in flight, shared by every caller that arrives meanwhile. */
  pending?: Promise<string>;
  token?: { readonly value: string; readonly usableUntil: number };
}

const defaultRefreshBefore = (lifetimeMs: number): number => Math.min(60_000, lifetimeMs / 10);

/** Client-credentials tokens of one process, shared by every connector built for it. Never persisted. */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => Date;
  private readonly refreshBefore: (lifetimeMs: number) => number;

  constructor(options: TokenCacheOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.refreshBefore = options.refreshBeforeMs ?? defaultRefreshBefore;
  }

  /** A usable token for `key`: the cached one, the one being fetched, or a fresh one from `fetch`. */
  token(key: TokenKey, fetch: () => Promise<IssuedToken>): Promise<string> {
    const id = keyOf(key);
    const entry = this.entries.get(id) ?? {};
    this.entries.set(id, entry);
    if (entry.token !== undefined && entry.token.usableUntil > this.now().getTime()) return Promise.resolve(entry.token.value);
    if (entry.pending !== undefined) return entry.pending;
    // Measured from before the request: the bank's clock started no earlier.
    const requestedAt = this.now().getTime();
    const pending = fetch().then(
      (issued) => {
        delete entry.pending;
        const lifetimeMs = (issued.expiresInSeconds ?? 0) * 1000;
        if (lifetimeMs > 0)
          entry.token = { value: issued.accessToken, usableUntil: requestedAt + lifetimeMs - this.refreshBefore(lifetimeMs) };
        else delete entry.token;
        return issued.accessToken;
      },
      (error: unknown) => {
        delete entry.pending;
        throw error;
      },
    );
    entry.pending = pending;
    delete entry.token;
    return pending;
  }

  /** Drops `token` for `key` if it is still the cached one (a newer token fetched meanwhile is kept). */
  forget(key: TokenKey, token: string): void {
    const entry = this.entries.get(keyOf(key));
    if (entry?.token?.value === token) delete entry.token;
  }

  /**
   * Runs `call` with a token; when the bank refuses the call with 401 (the token expired early or was revoked), drops
   * that token and runs `call` once more with a fresh one. A second 401 is the bank's answer and is thrown. A 401
   * means the bank did not take the request, so making it again is safe.
   */
  async withToken<T>(key: TokenKey, fetch: () => Promise<IssuedToken>, call: (token: string) => Promise<T>): Promise<T> {
    const token = await this.token(key, fetch);
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof BankRejectedError) || error.httpStatus !== 401) throw error;
      this.forget(key, token);
      return call(await this.token(key, fetch));
    }
  }
}

function keyOf(key: TokenKey): string {
  return JSON.stringify([key.bank, key.scope, key.clientId, key.identity]);
}
