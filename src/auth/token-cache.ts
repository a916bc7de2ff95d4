/**
 * Verified access tokens kept in memory, so an authenticated request needs no token query. A cached verification
 * is used only while its client's revocation version is the one it was taken under (src/storage/
 * client-revocations.ts): disabling a client or rotating its secret raises the version, and every process stops
 * using the client's cached tokens at once. The cache holds SHA-256 hashes of tokens, never tokens; it is bounded,
 * and an entry ends with its token's expiry.
 */
import type { ClientRevocationWatch } from '../storage/client-revocations.js';
import type { AuthenticatedClient } from './authenticated-client.js';

interface CachedVerification {
  readonly client: AuthenticatedClient;
  readonly expiresAtMs: number;
  readonly revocationVersion: number;
}

/** Far above the tokens a deployment has live at once (a client holds a few, each lasts 30 minutes). */
const DEFAULT_MAX_ENTRIES = 10_000;

export class VerifiedTokenCache {
  private readonly entries = new Map<string, CachedVerification>();

  constructor(
    private readonly revocations: ClientRevocationWatch,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  /** The cached client of a token hash, when the verification still holds at `nowMs`. */
  get(tokenHash: string, nowMs: number): AuthenticatedClient | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= nowMs || this.revocations.versionOf(entry.client.clientId) !== entry.revocationVersion) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.client;
  }

  /** Which listening epoch a database read starts in (hand it to `put` with the read's result). */
  epoch(): number | undefined {
    return this.revocations.epoch();
  }

  /** Keeps a verification read from the database in `epoch`, under the revocation version read with it. */
  put(tokenHash: string, client: AuthenticatedClient, expiresAtMs: number, revocationVersion: number, epoch: number | undefined): void {
    this.revocations.observed(client.clientId, revocationVersion, epoch);
    if (this.entries.size >= this.maxEntries) {
      // The oldest entry goes (a Map iterates in insertion order).
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { client, expiresAtMs, revocationVersion });
  }
}
