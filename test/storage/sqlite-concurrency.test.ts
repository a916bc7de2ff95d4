/**
 * Two processes on one SQLite file (the service and the CLI) must not fail each other with "database is locked".
 * A busy timeout makes a writer wait for another's commit, but SQLite cannot wait on behalf of a transaction that
 * began by reading (BEGIN DEFERRED): once another connection has written since, its first write fails at once
 * with SQLITE_BUSY, whatever the timeout. So every transaction of ours takes the write lock when it begins.
 *
 * The other process is played by a second connection with no busy timeout, so nothing here waits on a clock:
 * where it would have to wait, it is refused at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';

describe('SQLite shared by several processes', () => {
  let dir: string;
  let path: string;
  let handle: DatabaseHandle;
  let other: SQLite.Database;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openpis-sqlite-locks-'));
    path = join(dir, 'shared.sqlite');
    handle = openDatabase({ kind: 'sqlite', path });
    await sql`create table notes (id integer primary key, text text not null)`.execute(handle.db);
    other = new SQLite(path, { timeout: 0 });
  });
  after(async () => {
    other?.close();
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads before it writes commits although another process wrote in between', async () => {
    let otherWrite: unknown;
    await handle.db.transaction().execute(async (trx) => {
      await sql`select count(*) as count from notes`.execute(trx);
      // The other process writes now. It must wait for this transaction (here: be refused at once, having no
      // timeout), never slip in between this transaction's read and its write.
      try {
        other.prepare('insert into notes (text) values (?)').run('from the other process');
      } catch (error) {
        otherWrite = error;
      }
      await sql`insert into notes (text) values (${'from this process'})`.execute(trx);
    });
    assert.equal((otherWrite as { code?: string } | undefined)?.code, 'SQLITE_BUSY', 'the other writer had to wait for the transaction');
    // Once the transaction is over, the other process writes.
    other.prepare('insert into notes (text) values (?)').run('from the other process');
    assert.deepEqual(other.prepare('select text from notes order by id').pluck().all(), ['from this process', 'from the other process']);
  });

  it('every connection waits for a busy database rather than failing at once', async () => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(handle.db);
    assert.ok((rows[0]?.timeout ?? 0) >= 5000, `busy_timeout ${rows[0]?.timeout}`);
  });
});
