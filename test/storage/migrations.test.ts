/**
 * The migrations, one file each in src/storage/migrations/ (docs/adr/0002-storage.md, "Migrations"): the folder holds
 * migrations only, Kysely's provider finds exactly the names the start-up check reads from the file names, the names
 * already shipped are exactly those databases in the field recorded (so a database the single migrations file left
 * is accepted), new ones are numbered without gaps, and SQLite and PostgreSQL both migrate up from empty.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import {
  MIGRATION_FOLDER,
  hasPendingMigrations,
  migrateIfPending,
  migrateTo,
  migrateToLatest,
  migrationNames,
  migrationProvider,
} from '../../src/storage/migrator.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';

/**
 * The names recorded in `kysely_migration` by every release before the migrations were split into files, in order.
 * Never change this list: a database that recorded a name the build lacks is refused by Kysely. 0009 was never
 * shipped (docs/adr/0002-storage.md).
 */
const SHIPPED = [
  '0001_clients_tokens_payments',
  '0002_flow_state_webhook_events_jobs',
  '0003_payments_status_index',
  '0004_secrets_at_rest',
  '0005_client_branding',
  '0006_payment_list_indexes',
  '0007_event_feed',
  '0008_console_users_audit',
  '0010_bank_calls',
  '0011_client_leading_keys',
  '0012_feed_numbered_at_commit',
  '0013_jobs_client_payment_key',
  '0014_client_event_counters',
] as const;

const LAST_SHIPPED = SHIPPED[SHIPPED.length - 1]!;

const recordedNames = async (db: Kysely<unknown>): Promise<string[]> =>
  (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map((row) => row.name);

describe('the migrations folder', () => {
  it('holds migrations only, each named NNNN_lower_snake_case', () => {
    const strays = readdirSync(MIGRATION_FOLDER).filter((file) => !/^\d{4}_[a-z0-9_]+\.ts$/.test(file));
    assert.deepEqual(strays, []);
  });

  it("gives Kysely's provider the names the start-up check reads from the files, each with an up()", async () => {
    const provided = await migrationProvider().getMigrations();
    assert.deepEqual(Object.keys(provided).sort(), await migrationNames());
    for (const [name, migration] of Object.entries(provided)) assert.equal(typeof migration.up, 'function', name);
  });

  it('keeps every shipped name, in order, and numbers the later ones from 0015 without gaps', async () => {
    const names = await migrationNames();
    assert.deepEqual(names.slice(0, SHIPPED.length), [...SHIPPED]);
    const laterNumbers = names.slice(SHIPPED.length).map((name) => Number(name.slice(0, 4)));
    assert.deepEqual(
      laterNumbers,
      laterNumbers.map((_, index) => 15 + index),
    );
  });
});

for (const kind of await testDatabaseKinds()) {
  describe(`migrating [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let db: Kysely<unknown>;
    before(async () => {
      testDatabase = await kind.create();
      handle = openDatabase(testDatabase.config);
      db = handle.db as unknown as Kysely<unknown>;
    });
    after(async () => {
      await handle?.close();
      await testDatabase?.drop();
    });

    it('a database the single migrations file left (the shipped names recorded) is accepted and brought up to date', async () => {
      await migrateTo(db, LAST_SHIPPED);
      assert.deepEqual(await recordedNames(db), [...SHIPPED]);
      const names = await migrationNames();
      assert.deepEqual(await migrateIfPending(db), names.slice(SHIPPED.length));
      assert.deepEqual(await recordedNames(db), names);
      assert.equal(await hasPendingMigrations(db), false);
      assert.deepEqual(await migrateIfPending(db), []);
    });

    it('a database that recorded a migration this build does not know is refused, which is why shipped names never change', async () => {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('0009_client_leading_keys', ${new Date().toISOString()})`.execute(
        db,
      );
      try {
        await assert.rejects(migrateToLatest(db), /0009_client_leading_keys/);
      } finally {
        await sql`DELETE FROM kysely_migration WHERE name = '0009_client_leading_keys'`.execute(db);
      }
    });
  });

  describe(`migrating up from empty [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    before(async () => {
      testDatabase = await kind.create();
      handle = openDatabase(testDatabase.config);
    });
    after(async () => {
      await handle?.close();
      await testDatabase?.drop();
    });

    it('applies every migration in order, then finds none pending', async () => {
      const db = handle.db as unknown as Kysely<unknown>;
      const names = await migrationNames();
      assert.deepEqual(await migrateIfPending(db), names);
      assert.deepEqual(await recordedNames(db), names);
      assert.equal(await hasPendingMigrations(db), false);
      assert.deepEqual(await migrateToLatest(db), []);
      // The last migration's table is there.
      await sql`SELECT client_id, last_position FROM client_event_counters`.execute(db);
    });
  });
}
