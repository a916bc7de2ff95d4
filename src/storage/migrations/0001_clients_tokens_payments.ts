/**
 * Migration 0001: API clients, their access tokens, payments and each payment's status history.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('webhook_secret', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('disabled_at', 'text')
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_client').on('access_tokens').column('client_id').execute();
  await db.schema.createIndex('access_tokens_expiry').on('access_tokens').column('expires_at').execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('end_to_end_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('provider_id', 'text')
    .addColumn('provider_preferences', 'text')
    .addColumn('payment_scheme', 'text', (col) => col.notNull())
    .addColumn('scheme_mode', 'text')
    .addColumn('fee_paid_by', 'text')
    .addColumn('amount', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('sender', 'text')
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('remittance', 'text', (col) => col.notNull())
    .addColumn('redirect_uri', 'text', (col) => col.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('psu_ip_address', 'text', (col) => col.notNull())
    .addColumn('psu_user_agent', 'text', (col) => col.notNull())
    .addColumn('locale', 'text')
    .addColumn('flow_token', 'text', (col) => col.notNull().unique())
    .addColumn('provider_payment_id', 'text')
    .addColumn('detailed_status', 'text', (col) => col.notNull())
    .addColumn('failure_reasons', 'text')
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('flow_expires_at', 'text', (col) => col.notNull())
    // endToEndId is unique per client (decisions §1); the index also makes the 409 race-free.
    .addUniqueConstraint('payments_client_end_to_end_id', ['client_id', 'end_to_end_id'])
    .execute();

  await db.schema
    .createTable('payment_status_history')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
    .addColumn('sequence', 'integer', (col) => col.notNull())
    .addColumn('detailed_status', 'text', (col) => col.notNull())
    .addColumn('failure_reasons', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('payment_status_history_order', ['payment_id', 'sequence'])
    .execute();
}
