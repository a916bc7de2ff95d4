/**
 * Revocation of a client's access tokens (disable, secret rotation), as every process sees it. The revoking
 * transaction raises the client's `revocation_version` (and deletes its tokens); a process that caches verified
 * tokens (src/auth/token-cache.ts) uses a cached verification only while the client's version is the one it was
 * taken under. How a process learns the current version is what differs between the databases:
 *
 * - SQLite: it reads it, synchronously, from the one-row-per-client table with a prepared statement on every use.
 *   No round trip exists (the database is in the process) and the read sees every commit, of this process or any
 *   other (the CLI), at once.
 * - PostgreSQL: the revoking transaction sends `NOTIFY openpis_client_revocations` with the new version, delivered
 *   to every listening process after it commits. Delivery takes a moment, so "at once" is made exact with a lease:
 *   each process sends a sync notification of its own on the same channel every SYNC_INTERVAL_MS, and PostgreSQL
 *   delivers a channel's notifications in commit order, so when its own sync sent at time s comes back the
 *   process has heard every revocation committed before s. It uses its cache only while it has heard back a sync
 *   sent within the last PROPAGATION_BOUND_MS, and a revocation returns to its caller only PROPAGATION_BOUND_MS
 *   after it committed (`awaitRevocationPropagation`). So once `disable` or `rotateSecret` has returned, no
 *   process serves the client's old tokens from its cache. Only durations are compared, so clocks need not agree
 *   between hosts. While a process's listening connection is down, or its syncs come back late (a stalled
 *   database), it vouches for no version and checks every token in the database; when the connection comes back
 *   everything it knew is forgotten.
 */
import type SQLite from 'better-sqlite3';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

const CHANNEL = 'openpis_client_revocations';
/** How long a lost listening connection waits before it connects again (ms); the cache is bypassed meanwhile. */
const RECONNECT_DELAY_MS = 1000;
/** How often a listening process sends itself a sync notification (ms). */
const SYNC_INTERVAL_MS = 100;
/** How old the newest sync a process heard back may be for its cache to be used, and how long revokers wait (ms). */
export const PROPAGATION_BOUND_MS = 500;

export interface ClientRevocationWatch {
  /**
   * The client's current revocation version, or undefined when this process cannot vouch for it (unknown client,
   * PostgreSQL listener not connected, version not yet seen): the caller then asks the database.
   */
  versionOf(clientId: string): number | undefined;
  /**
   * Which stretch of listening this is: taken before a database read and handed to `observed` with its result, so
   * a read that began before the listener (re)connected, and may predate a revocation nobody heard, is not kept.
   */
  epoch(): number | undefined;
  /** A version read from the database (in `epoch`) with a token; kept unless a newer one is already known. */
  observed(clientId: string, version: number, epoch: number | undefined): void;
  /** Settles once this process can vouch for versions (PostgreSQL: listening), or after `timeoutMs` regardless. */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Inside the revoking transaction: raises the client's revocation version and, on PostgreSQL, tells every
 * listening process when the transaction commits. Returns false when there is no such client.
 */
export async function announceClientRevocation(trx: Transaction<Database>, clientId: string, at: string): Promise<boolean> {
  const row = await trx
    .updateTable('clients')
    .set((eb) => ({ revocation_version: eb('revocation_version', '+', 1), updated_at: at }))
    .where('id', '=', clientId)
    .returning('revocation_version')
    .executeTakeFirst();
  if (row === undefined) return false;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`SELECT pg_notify(${CHANNEL}, ${`revoked ${clientId} ${Number(row.revocation_version)}`})`.execute(trx);
  }
  return true;
}

/**
 * After the revoking transaction committed: returns once no process can still serve the client's old tokens from
 * its cache (at once on SQLite; after PROPAGATION_BOUND_MS on PostgreSQL, see above).
 */
export async function awaitRevocationPropagation(db: Kysely<Database>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await new Promise((resolve) => setTimeout(resolve, PROPAGATION_BOUND_MS));
}

export function sqliteRevocationWatch(connection: SQLite.Database): ClientRevocationWatch {
  // Prepared on first use: the column exists only once the migrations have run.
  let statement: SQLite.Statement<[string], { revocation_version: number }> | undefined;
  return {
    versionOf(clientId) {
      statement ??= connection.prepare<[string], { revocation_version: number }>('SELECT revocation_version FROM clients WHERE id = ?');
      return statement.get(clientId)?.revocation_version;
    },
    epoch: () => 0,
    observed: () => undefined,
    ready: async () => undefined,
    close: async () => undefined,
  };
}

export function postgresRevocationWatch(connectionString: string): ClientRevocationWatch {
  const versions = new Map<string, number>();
  /** Names this process's sync notifications apart from other processes'. */
  const processId = randomUUID();
  let listening = false;
  /** How many times a connection started listening: the epoch of what `versions` holds. */
  let connections = 0;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let syncTimer: NodeJS.Timeout | undefined;
  /** Sync notifications sent and not yet heard back: sequence number to when it was sent (performance.now()). */
  const syncsInFlight = new Map<number, number>();
  let syncSequence = 0;
  /** When the newest sync heard back was sent (performance.now()); every revocation committed before is known. */
  let heardThrough = Number.NEGATIVE_INFINITY;
  const waiting = new Set<() => void>();

  const vouching = (): boolean => listening && performance.now() - heardThrough <= PROPAGATION_BOUND_MS;

  const lost = (client: pg.Client): void => {
    if (listener !== client) return;
    listening = false;
    listener = undefined;
    versions.clear();
    syncsInFlight.clear();
    heardThrough = Number.NEGATIVE_INFINITY;
    clearInterval(syncTimer);
    client.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RECONNECT_DELAY_MS);
  };

  function sendSync(client: pg.Client): void {
    // One at a time: a sync that is slow to come back says the database is slow, and more would not help.
    if (syncsInFlight.size > 0) return;
    syncSequence += 1;
    syncsInFlight.set(syncSequence, performance.now());
    client.query('SELECT pg_notify($1, $2)', [CHANNEL, `sync ${processId} ${syncSequence}`]).catch(() => lost(client));
  }

  function onNotification(payload: string): void {
    const [kind, id, number] = payload.split(' ');
    if (kind === 'revoked' && id !== undefined && number !== undefined) raise(id, Number(number));
    else if (kind === 'sync' && id === processId) {
      const sentAt = syncsInFlight.get(Number(number));
      syncsInFlight.delete(Number(number));
      if (sentAt !== undefined && sentAt > heardThrough) {
        heardThrough = sentAt;
        if (vouching()) {
          for (const resolve of waiting) resolve();
          waiting.clear();
        }
      }
    }
  }

  function connect(): void {
    const client = new pg.Client({ connectionString });
    listener = client;
    client.on('notification', (message) => {
      if (listener === client) onNotification(message.payload ?? '');
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => {
        if (listener !== client || closed) return;
        // Whatever was known before this connection may have been revoked while nobody listened.
        versions.clear();
        connections += 1;
        listening = true;
        sendSync(client);
        syncTimer = setInterval(() => sendSync(client), SYNC_INTERVAL_MS);
        syncTimer.unref();
      })
      .catch(() => lost(client));
  }

  function raise(clientId: string, version: number): void {
    if (!Number.isInteger(version)) return;
    const known = versions.get(clientId);
    if (known === undefined || version > known) versions.set(clientId, version);
  }

  connect();
  return {
    versionOf: (clientId) => (vouching() ? versions.get(clientId) : undefined),
    epoch: () => (listening ? connections : undefined),
    observed(clientId, version, epoch) {
      if (listening && epoch === connections) raise(clientId, version);
    },
    ready(timeoutMs) {
      if (vouching()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiting.add(done);
      });
    },
    async close() {
      closed = true;
      listening = false;
      for (const resolve of waiting) resolve();
      waiting.clear();
      clearTimeout(retry);
      clearInterval(syncTimer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
