/**
 * OAuth 2.0 client credentials: issuing and checking access tokens. Tokens are opaque random strings; only
 * their SHA-256 is stored, with the client, scopes and expiry, so a database leak yields no usable token.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { formatScopes, parseScopes, type Scope } from './scopes.js';
import { generateAccessToken } from '../crypto/random-secrets.js';
import { secretMatches, sha256Hex } from '../crypto/hashes.js';
import type { VerifiedTokenCache } from './token-cache.js';
import type { AuthenticatedClient } from './authenticated-client.js';

/** Access token lifetime fixed by the spec. */
export const TOKEN_LIFETIME_SECONDS = 1800;

export type TokenIssueResult =
  | { readonly kind: 'issued'; readonly accessToken: string; readonly expiresIn: number; readonly scope: string }
  | { readonly kind: 'invalid_scope'; readonly description: string };

/** A client whose credentials were just checked at the token endpoint. */
export interface ClientCredentialsOwner {
  readonly clientId: string;
  readonly scopes: readonly Scope[];
}

export class TokenService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
    /** Verified tokens kept in memory (revoked at once in every process); without it every check reads the database. */
    private readonly cache?: VerifiedTokenCache,
  ) {}

  /** Checks a client's id and secret; undefined when unknown, wrong or disabled. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<ClientCredentialsOwner | undefined> {
    const client = await this.db
      .selectFrom('clients')
      .select(['id', 'secret_hash', 'scopes', 'disabled_at'])
      .where('id', '=', clientId)
      .executeTakeFirst();
    // Hash the presented secret even for an unknown client, so the answer takes the same time either way.
    const matches = secretMatches(clientSecret, client?.secret_hash ?? sha256Hex('no such client'));
    if (client === undefined || !matches || client.disabled_at !== null) return undefined;
    return { clientId: client.id, scopes: parseScopes(client.scopes).scopes };
  }

  /**
   * Issues a token for the requested scopes; all the client holds when none are requested (decisions §5).
   */
  async issue(client: ClientCredentialsOwner, requestedScope: string | undefined): Promise<TokenIssueResult> {
    const clientId = client.clientId;
    const held = client.scopes;
    let granted: readonly Scope[] = held;
    if (requestedScope !== undefined) {
      const { scopes, unknown } = parseScopes(requestedScope);
      const notHeld = scopes.filter((scope) => !held.includes(scope));
      if (unknown.length > 0 || notHeld.length > 0) {
        return { kind: 'invalid_scope', description: `Scope not permitted: ${[...unknown, ...notHeld].join(' ')}` };
      }
      if (scopes.length === 0) return { kind: 'invalid_scope', description: 'No scope requested' };
      granted = scopes;
    }

    const accessToken = generateAccessToken();
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      // Expired tokens of this client are useless: drop them as new ones are issued, keeping the table small.
      await trx.deleteFrom('access_tokens').where('client_id', '=', clientId).where('expires_at', '<', now.toISOString()).execute();
      await trx
        .insertInto('access_tokens')
        .values({
          token_hash: sha256Hex(accessToken),
          client_id: clientId,
          scopes: formatScopes(granted),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000).toISOString(),
        })
        .execute();
    });
    return { kind: 'issued', accessToken, expiresIn: TOKEN_LIFETIME_SECONDS, scope: formatScopes(granted) };
  }

  /** The client behind a bearer token, or undefined when the token is unknown, expired or its client disabled. */
  async verify(accessToken: string): Promise<AuthenticatedClient | undefined> {
    const tokenHash = sha256Hex(accessToken);
    const nowMs = this.now().getTime();
    const cached = this.cache?.get(tokenHash, nowMs);
    if (cached !== undefined) return cached;
    const epoch = this.cache?.epoch();
    const row = await this.db
      .selectFrom('access_tokens')
      .innerJoin('clients', 'clients.id', 'access_tokens.client_id')
      .select([
        'clients.id as clientId',
        'clients.environment',
        'clients.disabled_at',
        'clients.revocation_version',
        'access_tokens.scopes',
        'access_tokens.expires_at',
      ])
      .where('access_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined || row.disabled_at !== null) return undefined;
    const expiresAtMs = Date.parse(row.expires_at);
    if (expiresAtMs <= nowMs) return undefined;
    const client: AuthenticatedClient = { clientId: row.clientId, environment: row.environment, scopes: parseScopes(row.scopes).scopes };
    this.cache?.put(tokenHash, client, expiresAtMs, Number(row.revocation_version), epoch);
    return client;
  }
}
