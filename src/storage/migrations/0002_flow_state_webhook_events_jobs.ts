/**
 * Migration 0002: the flow engine's state per payment, the webhook outbox and its attempts, the jobs table.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the flow engine keeps between the payer's steps: bank references, the SCA methods offered, the
  // account list. JSON; never credentials.
  await db.schema.alterTable('payments').addColumn('flow_state', 'text').execute();
  await db.schema.alterTable('clients').addColumn('previous_webhook_secret', 'text').execute();
  await db.schema.alterTable('clients').addColumn('previous_webhook_secret_expires_at', 'text').execute();

  // The outbox: one event per status record of a payment with a webhookUrl, written in the same
  // transaction as the record, then delivered (and retried) by the webhook worker.
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
    .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
    .addColumn('status_record_id', 'text', (col) => col.notNull().unique())
    .addColumn('sequence', 'integer', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_events_due').on('webhook_events').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_events_payment').on('webhook_events').columns(['payment_id', 'sequence']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('event_id', 'text', (col) => col.notNull().references('webhook_events.id'))
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('attempted_at', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (col) => col.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_event').on('webhook_attempts').column('event_id').execute();

  // Background work claimed from the database: at most one job of a kind per payment.
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
    .addColumn('run_at', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('jobs_kind_payment', ['kind', 'payment_id'])
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').column('run_at').execute();
}
