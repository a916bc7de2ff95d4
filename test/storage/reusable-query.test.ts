/**
 * A query compiled once (src/storage/reusable-query.ts) runs with each call's own values, bound by name whatever
 * order the compiled SQL takes them in, and keeps the values written into it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { ReusableQuery } from '../../src/storage/reusable-query.js';
import type { Database } from '../../src/storage/schema.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';

for (const kind of await testDatabaseKinds()) {
  describe(`ReusableQuery [${kind.name}]`, () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let db: Kysely<Database>;

    before(async () => {
      database = await kind.create();
      handle = openDatabase(database.config);
      db = handle.db;
      await migrateToLatest(db as unknown as Kysely<unknown>);
      const at = '2026-01-01T00:00:00.000Z';
      const client = (id: string, name: string, environment: 'sandbox' | 'production') => ({
        id,
        name,
        environment,
        scopes: '',
        secret_hash: '',
        webhook_secret: '',
        created_at: at,
        updated_at: at,
        disabled_at: null,
      });
      await db
        .insertInto('clients')
        .values([
          client('c1', 'Acme', 'sandbox'),
          client('c2', 'Acme', 'production'),
          client('c3', 'Globex', 'sandbox'),
          client('c4', 'Globex', 'sandbox'),
        ])
        .execute();
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    // The name comes after the environment in the SQL, before it in the values; the limit is written in.
    const byNameAndEnvironment = () =>
      new ReusableQuery((value: (name: 'name' | 'environment') => string) =>
        db
          .selectFrom('clients')
          .select('id')
          .where('environment', '=', value('environment') as 'sandbox')
          .where('name', '=', value('name'))
          .orderBy('id')
          .limit(1),
      );

    it('binds each call its own values by name and keeps the values written into the query', async () => {
      const query = byNameAndEnvironment();
      assert.deepEqual(await query.execute(db, { name: 'Acme', environment: 'production' }), [{ id: 'c2' }]);
      assert.deepEqual(await query.execute(db, { name: 'Acme', environment: 'sandbox' }), [{ id: 'c1' }]);
      // Two Globex sandbox clients; the limit of 1 still holds.
      assert.deepEqual(await query.execute(db, { environment: 'sandbox', name: 'Globex' }), [{ id: 'c3' }]);
      assert.deepEqual(await query.execute(db, { name: 'Initech', environment: 'sandbox' }), []);
    });
  });
}
