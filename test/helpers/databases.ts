/**
 * The databases integration tests run on. SQLite always; PostgreSQL when reachable at
 * OPENPIS_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test). With
 * OPENPIS_REQUIRE_POSTGRES=1 (set by .ci/run) an unreachable PostgreSQL fails the run instead of being skipped.
 * Every test app gets a database of its own: a temporary SQLite file, or a fresh PostgreSQL database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/config.js';

export interface TestDatabase {
  readonly config: DatabaseConfig;
  drop(): Promise<void>;
}

export interface TestDatabaseKind {
  readonly name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

const POSTGRES_URL = process.env.OPENPIS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The temporary folders of this test process's SQLite databases not dropped yet. Whatever a test leaves (a failed
 * `before`, a close that threw first) goes when the process exits: each test file runs in a process of its own.
 */
const undroppedFolders = new Set<string>();
process.once('exit', () => {
  for (const dir of undroppedFolders) rmSync(dir, { recursive: true, force: true });
});

const sqlite: TestDatabaseKind = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'openpis-test-'));
    undroppedFolders.add(dir);
    return {
      config: { kind: 'sqlite', path: join(dir, 'openpis.sqlite') },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
        undroppedFolders.delete(dir);
      },
    };
  },
};

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const postgres: TestDatabaseKind = {
  name: 'postgres',
  async create() {
    const name = `openpis_test_${randomBytes(6).toString('hex')}`;
    await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return {
      config: { kind: 'postgres', url: url.toString() },
      async drop() {
        await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  },
};

let postgresReachable: Promise<boolean> | undefined;

function checkPostgres(): Promise<boolean> {
  postgresReachable ??= withAdminClient(async (client) => {
    await client.query('SELECT 1');
    return true;
  }).catch(() => false);
  return postgresReachable;
}

/** SQLite, plus PostgreSQL when it is reachable (or required). */
export async function testDatabaseKinds(): Promise<TestDatabaseKind[]> {
  if (await checkPostgres()) return [sqlite, postgres];
  if (process.env.OPENPIS_REQUIRE_POSTGRES === '1') {
    throw new Error(`OPENPIS_REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${POSTGRES_URL}`);
  }
  return [sqlite];
}

/**
 * One database kind by name, as `testDatabaseKinds()` has it: SQLite always, PostgreSQL when reachable (undefined
 * when left out). For the test files that each run one part of a long suite on one database, so that the test runner
 * spreads the parts over its parallel files.
 */
export async function testDatabaseKind(name: TestDatabaseKind['name']): Promise<TestDatabaseKind | undefined> {
  return (await testDatabaseKinds()).find((kind) => kind.name === name);
}
