/**
 * Migration 0018: events, webhook deliveries and jobs name a subject (a type and an id) instead of a payment, so a
 * resource other than a payment (a payment link) has events, deliveries and jobs of its own
 * (docs/adr/0012-events-and-jobs-by-subject.md). In each of `events`, `webhook_events` and `jobs`:
 * `payment_id` becomes `subject_id`, without its foreign key to `payments` (a subject may be in another table), and
 * `subject_type` is added, `payment` for every row written before. Ids, bodies and positions are unchanged, so every
 * event keeps its id and bytes. The indexes keep their columns and order under names that say subject.
 *
 * PostgreSQL renames in place. SQLite cannot drop a foreign key: it builds each table anew, copies the rows and swaps
 * the tables in one transaction, with foreign keys off meanwhile (as SQLite's documentation prescribes for changing a
 * table's definition) and checked before the commit. Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-dialect.js';

const TABLES = ['events', 'webhook_events', 'jobs'] as const;

/** Indexes naming the payment, by table: old name, new name. Their columns stay, `payment_id` read as `subject_id`. */
const RENAMED_INDEXES: readonly (readonly [string, string])[] = [
  ['events_payment', 'events_subject'],
  ['events_client_payment', 'events_client_subject'],
  ['webhook_events_payment', 'webhook_events_subject'],
  ['webhook_events_client_payment', 'webhook_events_client_subject'],
  ['jobs_client_payment_kind', 'jobs_client_subject_kind'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (await isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    // The foreign key's name is PostgreSQL's choice (`<table>_payment_id_fkey` by default): found, not assumed.
    const { rows } = await sql<{ name: string }>`
      SELECT c.conname AS name
        FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
       WHERE c.conrelid = ${table}::regclass AND c.contype = 'f' AND a.attname = 'payment_id'`.execute(db);
    for (const row of rows) await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(row.name)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} RENAME COLUMN payment_id TO subject_id`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN subject_type text NOT NULL DEFAULT 'payment'`.execute(db);
  }
  for (const [from, to] of RENAMED_INDEXES) await sql`ALTER INDEX IF EXISTS ${sql.id(from)} RENAME TO ${sql.id(to)}`.execute(db);
}

/**
 * The three tables as 0017 left them on SQLite, rebuilt with `subject_type` and `subject_id`. `webhook_attempts`
 * refers to `webhook_events` by name; the new table takes that name, so its references hold again before the commit.
 */
async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`
        CREATE TABLE "events_new" (
          "id" text primary key,
          "client_id" text not null references "clients" ("id"),
          "position" integer not null,
          "type" text not null,
          "subject_type" text not null default 'payment',
          "subject_id" text not null,
          "body" text not null,
          "created_at" text not null,
          constraint "events_client_position" unique ("client_id", "position"))`.execute(trx);
      await sql`
        INSERT INTO "events_new" (id, client_id, position, type, subject_type, subject_id, body, created_at)
        SELECT id, client_id, position, type, 'payment', payment_id, body, created_at FROM "events"`.execute(trx);

      await sql`
        CREATE TABLE "webhook_events_new" (
          "id" text primary key,
          "subject_type" text not null default 'payment',
          "subject_id" text not null,
          "client_id" text not null references "clients" ("id"),
          "status_record_id" text not null unique,
          "sequence" integer not null,
          "url" text not null,
          "body" text not null,
          "state" text not null,
          "attempts" integer not null,
          "next_attempt_at" text not null,
          "locked_by" text,
          "locked_until" text,
          "created_at" text not null,
          "updated_at" text not null,
          "delivered_at" text)`.execute(trx);
      await sql`
        INSERT INTO "webhook_events_new" (id, subject_type, subject_id, client_id, status_record_id, sequence, url, body, state,
                                          attempts, next_attempt_at, locked_by, locked_until, created_at, updated_at, delivered_at)
        SELECT id, 'payment', payment_id, client_id, status_record_id, sequence, url, body, state,
               attempts, next_attempt_at, locked_by, locked_until, created_at, updated_at, delivered_at
          FROM "webhook_events"`.execute(trx);

      await sql`
        CREATE TABLE "jobs_new" (
          "id" text primary key,
          "kind" text not null,
          "subject_type" text not null default 'payment',
          "subject_id" text not null,
          "run_at" text not null,
          "attempts" integer not null,
          "locked_by" text,
          "locked_until" text,
          "last_error" text,
          "created_at" text not null,
          "updated_at" text not null,
          "client_id" text default '' not null)`.execute(trx);
      await sql`
        INSERT INTO "jobs_new" (id, kind, subject_type, subject_id, run_at, attempts, locked_by, locked_until, last_error, created_at, updated_at, client_id)
        SELECT id, kind, 'payment', payment_id, run_at, attempts, locked_by, locked_until, last_error, created_at, updated_at, client_id
          FROM "jobs"`.execute(trx);

      for (const table of TABLES) {
        await sql`DROP TABLE ${sql.table(table)}`.execute(trx);
        await sql`ALTER TABLE ${sql.table(`${table}_new`)} RENAME TO ${sql.table(table)}`.execute(trx);
      }

      await sql`CREATE INDEX "events_subject" ON "events" ("subject_id")`.execute(trx);
      await sql`CREATE INDEX "events_client_subject" ON "events" ("client_id", "subject_id")`.execute(trx);
      await sql`CREATE INDEX "webhook_events_due" ON "webhook_events" ("state", "next_attempt_at")`.execute(trx);
      await sql`CREATE INDEX "webhook_events_subject" ON "webhook_events" ("subject_id", "sequence")`.execute(trx);
      await sql`CREATE INDEX "webhook_events_client_subject" ON "webhook_events" ("client_id", "subject_id", "sequence")`.execute(trx);
      await sql`CREATE INDEX "jobs_due" ON "jobs" ("run_at")`.execute(trx);
      await sql`CREATE UNIQUE INDEX "jobs_client_subject_kind" ON "jobs" ("client_id", "subject_id", "kind")`.execute(trx);

      const { rows } = await sql<Record<string, unknown>>`PRAGMA foreign_key_check`.execute(trx);
      if (rows.length > 0) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(rows.slice(0, 3))}`);
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
