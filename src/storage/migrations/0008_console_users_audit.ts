/**
 * Migration 0008: the console's users and sessions, the append-only audit log, payments' scaled amounts.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../migration-dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The console's people (docs/console.md): operators (every client) and members (one client). Passwords are
  // argon2id hashes; an operator's TOTP secret is sealed with the operator key ring (we must read it back).
  await db.schema
    .createTable('console_users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.references('clients.id'))
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('totp_confirmed_at', 'text')
    .addColumn('totp_last_step', 'integer')
    .addColumn('failed_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('last_sign_in_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // Sessions are found by the SHA-256 of the cookie's value; the value itself is only in the browser.
  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('console_users.id'))
    .addColumn('stage', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('ip', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
  // The audit log: appended to, never changed (no code updates or deletes it; PostgreSQL refuses it too).
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('actor_role', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_client_at').on('audit_log').columns(['client_id', 'at', 'id']).execute();
  if (await isPostgres(db)) {
    await sql`
          CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(db);
    await sql`
          CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
          FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
  } else {
    await sql`
          CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
          BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
    await sql`
          CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
          BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db);
  }

  // The console's payment list: the amount as a whole number of ten-thousandths of the currency unit, so an
  // amount range is an indexable integer comparison (amounts are decimal strings; ISO 4217 currencies have at
  // most 4 minor digits, so the value is exact). Filled here for existing payments, then at creation.
  await db.schema.alterTable('payments').addColumn('amount_scaled', 'bigint').execute();
  await fillScaledAmounts(db);
  // Operators list every client's payments newest first; members and the API one client's (0006).
  await db.schema.createIndex('payments_created').on('payments').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('payments_client_amount').on('payments').columns(['client_id', 'amount_scaled']).execute();
  await db.schema.createIndex('payments_amount').on('payments').column('amount_scaled').execute();
  await db.schema.createIndex('payments_end_to_end_id').on('payments').column('end_to_end_id').execute();
  // Support finds a payment by the bank's id for it too.
  await db.schema.createIndex('payments_provider_payment_id').on('payments').column('provider_payment_id').execute();
}

/**
 * Sets `amount_scaled` of every payment from its decimal `amount` in one statement. Exact on both databases:
 * PostgreSQL's NUMERIC is decimal; SQLite reads the text as a double, and every amount we accept (at most
 * 999999999.99, at most 4 decimals, so at most 13 significant digits once scaled) is a double whose product
 * with 10000 rounds to the exact integer.
 */
async function fillScaledAmounts(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE payments SET amount_scaled = CAST(ROUND(CAST(amount AS NUMERIC) * 10000) AS BIGINT)`.execute(db);
}
