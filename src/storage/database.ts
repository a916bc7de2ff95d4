/**
 * Opens the configured database behind one Kysely instance. SQLite (better-sqlite3) is the embedded default;
 * PostgreSQL (pg) is for production and for several processes sharing one database. Everything above this
 * file is written once for both; what differs between them is kept here.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import type { DatabaseConfig } from '../config/config.js';
import type { Database } from './schema.js';
import { postgresRevocationWatch, sqliteRevocationWatch, type ClientRevocationWatch } from './client-revocations.js';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseConfig['kind'];
  /** How this process hears of revoked client tokens (one watch per handle, opened on first use). */
  clientRevocations(): ClientRevocationWatch;
  close(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    // The CLI and the service may share the file: a connection waits up to this long for another's write to
    // commit instead of failing with "database is locked". Set when the connection opens, before any pragma reads.
    const sqlite = new SQLite(config.path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable on power loss,
    // which a payments ledger needs more than the last bit of write throughput.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    // Read the database through memory mapping and keep more of it cached: with a million payments the indexes no
    // longer fit SQLite's default 2 MB cache, and each read otherwise copies pages in with a system call
    // (docs/performance.md, change 12). Reads only: writes and their fsync are unchanged.
    sqlite.pragma('mmap_size = 268435456');
    sqlite.pragma('cache_size = -65536');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new WriteLockingSqliteDialect({ database: withStatementCache(sqlite) }) });
    const revocations = sqliteRevocationWatch(sqlite);
    return { db, kind: 'sqlite', clientRevocations: () => revocations, close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 20 });
  // An idle client can lose its connection (database restart); without a listener that error would crash us.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // The listening connection is opened only by a process that caches tokens (the API), not by the CLI or tests.
  let revocations: ClientRevocationWatch | undefined;
  return {
    db,
    kind: 'postgres',
    clientRevocations: () => (revocations ??= postgresRevocationWatch(config.url)),
    close: async () => {
      await revocations?.close();
      await db.destroy();
    },
  };
}

/** How long a SQLite connection waits for another connection's write lock (the CLI beside the service). */
export const SQLITE_BUSY_TIMEOUT_MS = 15_000;

/**
 * Transactions begin with the write lock (BEGIN IMMEDIATE). A transaction begun by a read (Kysely's plain BEGIN)
 * that later writes cannot be made to wait: if another process wrote in between, SQLite refuses the write at once
 * with SQLITE_BUSY ("database is locked"), whatever the busy timeout. Taking the lock first makes the busy timeout
 * apply to every transaction. SQLite has one writer at a time anyway, and our transactions are there to write.
 */
class WriteLockingSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new WriteLockingSqliteDriver(this.settings);
  }
}

class WriteLockingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Statements kept prepared (distinct SQL texts); the service's queries are far fewer, so the bound is a safety net. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query's SQL afresh on SQLite; this keeps prepared statements by SQL text and reuses them
 * (about 5 % of the service's CPU under creation load went to preparing, docs/performance.md). Kysely runs one query at a
 * time on the connection, so a statement is never in use twice at once.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string): SqliteStatement {
      const cached = statements.get(text);
      if (cached !== undefined) return cached;
      const statement = sqlite.prepare(text);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      statements.set(text, statement);
      return statement;
    },
  };
}

/** Did this error come from a unique constraint (SQLite or PostgreSQL)? */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = error.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
