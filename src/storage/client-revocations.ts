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
 *   to every listening process when it commits. While a process's listening connection is down it vouches for no
 *   version, so its cache is bypassed, and when the connection comes back everything it knew is forgotten.
 */
import type SQLite from 'better-sqlite3';
import pg from 'pg';
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';

const CHANNEL = 'openpis_client_revocations';
/** How long a lost listening connection waits before it connects again (ms); the cache is bypassed meanwhile. */
const RECONNECT_DELAY_MS = 1000;

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
    await sql`SELECT pg_notify(${CHANNEL}, ${`${clientId} ${Number(row.revocation_version)}`})`.execute(trx);
  }
  return true;
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
    close: async () => undefined,
  };
}

export function postgresRevocationWatch(connectionString: string): ClientRevocationWatch {
  const versions = new Map<string, number>();
  let listening = false;
  /** How many times a connection started listening: the epoch of what `versions` holds. */
  let connections = 0;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client): void => {
    if (listener !== client) return;
    listening = false;
    listener = undefined;
    versions.clear();
    client.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RECONNECT_DELAY_MS);
  };
  function connect(): void {
    const client = new pg.Client({ connectionString });
    listener = client;
    client.on('notification', (message) => {
      const [clientId, version] = (message.payload ?? '').split(' ');
      if (clientId === undefined || clientId === '' || version === undefined) return;
      raise(clientId, Number(version));
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => {
        if (listener !== client) return;
        // Whatever was known before this connection may have been revoked while nobody listened.
        versions.clear();
        connections += 1;
        listening = !closed;
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
    versionOf: (clientId) => (listening ? versions.get(clientId) : undefined),
    epoch: () => (listening ? connections : undefined),
    observed(clientId, version, epoch) {
      if (listening && epoch === connections) raise(clientId, version);
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
