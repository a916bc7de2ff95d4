/**
 * Migration 0012: PostgreSQL numbers feed events inside COMMIT (a deferred trigger).
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL numbers a client's feed events at commit time. The events are written without a position, and a
  // deferred trigger, which runs inside COMMIT, takes each one's position from the client's counter. The
  // counter row is then locked only from there until the commit ends, with no round trip to the application in
  // between. Before this, it stayed locked from the statement that took the position until the application
  // sent COMMIT, and a busy worker process made one client's status changes wait on each other
  // (docs/scaling.md). The feed's order is still commit order: the next transaction of the client takes the
  // counter only once this one has committed. SQLite has one writer at a time and keeps numbering in the
  // status writer (src/flow/status-writer.ts).
  if (!(await isPostgres(db))) return;
  await sql`ALTER TABLE events ALTER COLUMN position DROP NOT NULL`.execute(db);
  await sql`
        CREATE FUNCTION events_take_position() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE taken integer;
        BEGIN
          UPDATE clients SET event_position = event_position + 1 WHERE id = NEW.client_id RETURNING event_position INTO taken;
          IF taken IS NULL THEN RAISE EXCEPTION 'event % names no client', NEW.id; END IF;
          UPDATE events SET position = taken WHERE id = NEW.id;
          RETURN NULL;
        END $$`.execute(db);
  // Row triggers fire in the order the rows were inserted, so a transaction's events keep their order and
  // take consecutive positions. Only events written without a position are numbered.
  await sql`
        CREATE CONSTRAINT TRIGGER events_take_position AFTER INSERT ON events
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.position IS NULL) EXECUTE FUNCTION events_take_position()`.execute(db);
}
