/**
 * Group commit (src/storage/group-commit.ts): concurrent writes share transactions, yet each caller learns its own
 * outcome, only after its write is committed (another connection already sees it), and a failing write takes
 * nothing else down with it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { GroupCommitter } from '../../src/storage/group-commit.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';

const sqlite = (await testDatabaseKinds()).find((kind) => kind.name === 'sqlite');

describe('group commit on SQLite', () => {
  let database: TestDatabase;
  let writer: DatabaseHandle;
  let reader: DatabaseHandle;

  before(async () => {
    assert.ok(sqlite);
    database = await sqlite.create();
    writer = openDatabase(database.config);
    await migrateToLatest(writer.db as unknown as Kysely<unknown>);
    reader = openDatabase(database.config);
  });
  after(async () => {
    await writer?.close();
    await reader?.close();
    await database?.drop();
  });

  const client = (id: string) => {
    const at = new Date().toISOString();
    return {
      id,
      name: id,
      environment: 'sandbox' as const,
      scopes: '',
      secret_hash: '',
      webhook_secret: '',
      created_at: at,
      updated_at: at,
      disabled_at: null,
    };
  };

  it('commits concurrent writes, each settling only once another connection sees it', async () => {
    const committer = new GroupCommitter(writer.db);
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const seenWhenSettled = await Promise.all(
      ids.map(async (id) => {
        await committer.run((trx) => trx.insertInto('clients').values(client(id)).execute());
        return (await reader.db.selectFrom('clients').select('id').where('id', '=', id).executeTakeFirst())?.id;
      }),
    );
    assert.deepEqual(seenWhenSettled, ids);
  });

  it('puts the writes made in one turn of the event loop into one transaction, the first one too', async () => {
    const committer = new GroupCommitter(writer.db);
    const transactions = new Set<unknown>();
    await Promise.all(
      Array.from({ length: 10 }, () =>
        committer.run(async (trx) => {
          transactions.add(trx);
          await trx.insertInto('clients').values(client(randomUUID())).execute();
        }),
      ),
    );
    assert.equal(transactions.size, 1);
  });

  it('rolls back a failing write alone: its own rows go, the others of its group stay', async () => {
    const committer = new GroupCommitter(writer.db);
    const taken = randomUUID();
    await committer.run((trx) => trx.insertInto('clients').values(client(taken)).execute());
    const before = Array.from({ length: 10 }, () => randomUUID());
    const afterwards = Array.from({ length: 10 }, () => randomUUID());
    const failingFirst = randomUUID();
    const outcomes = await Promise.allSettled([
      ...before.map((id) => committer.run((trx) => trx.insertInto('clients').values(client(id)).execute())),
      // Writes one row, then fails on a duplicate key: the first row must not survive.
      committer.run(async (trx) => {
        await trx.insertInto('clients').values(client(failingFirst)).execute();
        await trx.insertInto('clients').values(client(taken)).execute();
      }),
      ...afterwards.map((id) => committer.run((trx) => trx.insertInto('clients').values(client(id)).execute())),
    ]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      [...before.map(() => 'fulfilled'), 'rejected', ...afterwards.map(() => 'fulfilled')],
    );
    const stored = new Set((await reader.db.selectFrom('clients').select('id').execute()).map((row) => row.id));
    for (const id of [...before, ...afterwards]) assert.ok(stored.has(id), id);
    assert.equal(stored.has(failingFirst), false);
  });
});
