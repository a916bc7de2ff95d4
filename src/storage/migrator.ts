/**
 * Schema migrations: one file each in src/storage/migrations/, written once with Kysely's schema builder so that
 * SQLite and PostgreSQL get the same tables. Applied automatically at start (`openpis migrate` applies them
 * explicitly).
 *
 * A migration is a file `NNNN_what_it_does.ts` exporting `up(db)`; its file name without the extension is its name,
 * which Kysely records in `kysely_migration` and applies in name order. Add a new one with the next number; never
 * edit, rename or remove one that has shipped: databases in the field have its name recorded, and Kysely refuses a
 * database whose recorded migrations this build does not know. Number 0009 was never shipped (the numbers go 0008,
 * 0010; docs/adr/0002-storage.md); new ones follow 0014 without gaps (test/storage/migrations.test.ts).
 *
 * The files are found by Kysely's FileMigrationProvider, which lists the folder beside this file and imports each
 * one: the `.ts` files under tsx, the `.js` files tsc writes to dist/storage/migrations/ in the compiled service
 * (scripts/build.mjs empties dist/ first, so no file of a removed migration stays behind).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';

/** The migrations' folder, beside this file in src/ as in dist/. */
export const MIGRATION_FOLDER = fileURLToPath(new URL('./migrations/', import.meta.url));

/** A migration's file: its name, then the extension of this build (.ts under tsx, .js compiled; not .js.map). */
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.(?:ts|js)$/;

/** Kysely's provider over the folder: it imports every migration file (only when the Migrator runs). */
export function migrationProvider(): MigrationProvider {
  return new FileMigrationProvider({ fs, path, migrationFolder: MIGRATION_FOLDER });
}

function migrator(db: Kysely<unknown>): Migrator {
  return new Migrator({ db, provider: migrationProvider() });
}

/**
 * The names of this build's migrations, in the order they apply, read from the folder's file names without loading
 * any migration (the cheap check of every start). They are the names the provider gives (a test keeps it so).
 */
export async function migrationNames(): Promise<string[]> {
  const files = await fs.readdir(MIGRATION_FOLDER);
  return files.flatMap((file) => MIGRATION_FILE.exec(file)?.[1] ?? []).sort();
}

/** Applies every pending migration; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Applies pending migrations, like migrateToLatest, but cheaply when there are none (every start and every CLI
 * command asks): one read of the applied names and one of the folder. Kysely's Migrator (its tables' checks, its
 * lock, on PostgreSQL a transaction and an advisory lock) and the migrations' modules load only when this build
 * knows a migration the database lacks, or the database has no migration table yet.
 */
export async function migrateIfPending(db: Kysely<unknown>): Promise<string[]> {
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
    applied = new Set(rows.map((row) => row.name));
  } catch {
    // No migration table yet (a new database): the Migrator creates it.
    return migrateToLatest(db);
  }
  return (await migrationNames()).every((name) => applied.has(name)) ? [] : migrateToLatest(db);
}

/** Applies the migrations up to and including `name` only: tests use it to build a database as an older version left it. */
export async function migrateTo(db: Kysely<unknown>, name: string): Promise<void> {
  const { error } = await migrator(db).migrateTo(name);
  if (error !== undefined)
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Kysely types the failure `unknown`: whatever was thrown, said as String says it
    throw new Error(`Migration to ${name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** True when every migration known to this build has been applied (used by readiness checks). */
export async function hasPendingMigrations(db: Kysely<unknown>): Promise<boolean> {
  const all = await migrator(db).getMigrations();
  return all.some((migration) => migration.executedAt === undefined);
}
