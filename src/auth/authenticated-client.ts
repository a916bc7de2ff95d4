/**
 * Who a verified access token speaks for. A file of its own because both the token service (tokens.ts) and the
 * cache of verified tokens it uses (token-cache.ts) name it, and neither may import the other round a loop.
 */
import type { Environment } from '../domain/reference-data.js';
import type { Scope } from './scopes.js';

/** The authenticated caller of a resource endpoint. */
export interface AuthenticatedClient {
  readonly clientId: string;
  readonly environment: Environment;
  readonly scopes: readonly Scope[];
}
