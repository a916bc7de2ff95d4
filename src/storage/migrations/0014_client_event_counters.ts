/**
 * Migration 0014: each client's feed counter in a table of its own.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each client's feed counter moves out of `clients` into a table of its own. Every insert naming a client
  // (payments, status records, events, jobs) locks the client's row FOR KEY SHARE for its foreign-key check,
  // and the counter rewrote that same row at every commit. In PostgreSQL a row that concurrent transactions
  // both lock that way and update gets a new lock group (MultiXact) and a new version at every commit, and
  // the versions outlive pruning while the lockers run: one client's creations slowed from 687 to 254 per
  // second over five 10-second runs on an empty database (docs/performance.md, change 14). Nothing references
  // the counter's row, so its updates take only its own lock: the order of the feed is kept exactly as before.
  await db.schema
    .createTable('client_event_counters')
    .addColumn('client_id', 'text', (col) => col.primaryKey().references('clients.id'))
    .addColumn('last_position', 'integer', (col) => col.notNull())
    .execute();
  await sql`INSERT INTO client_event_counters (client_id, last_position) SELECT id, event_position FROM clients WHERE event_position > 0`.execute(
    db,
  );
  if (await isPostgres(db)) {
    // The counter row of a client with no event yet is made by its first event; ON CONFLICT makes the second
    // of two such first events wait for the first to commit, then count on from it.
    await sql`
          CREATE OR REPLACE FUNCTION events_take_position() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE taken integer;
          BEGIN
            UPDATE client_event_counters SET last_position = last_position + 1 WHERE client_id = NEW.client_id RETURNING last_position INTO taken;
            IF taken IS NULL THEN
              INSERT INTO client_event_counters (client_id, last_position) VALUES (NEW.client_id, 1)
                ON CONFLICT (client_id) DO UPDATE SET last_position = client_event_counters.last_position + 1
                RETURNING last_position INTO taken;
            END IF;
            UPDATE events SET position = taken WHERE id = NEW.id;
            RETURN NULL;
          END $$`.execute(db);
  }
  await db.schema.alterTable('clients').dropColumn('event_position').execute();
}
