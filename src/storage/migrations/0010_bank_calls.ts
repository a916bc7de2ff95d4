/**
 * Migration 0010: one row per call to a bank, for the console's bank health and insight.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per call to a bank (docs/console.md, "Bank calls"): who it was for, which operation, how it ended
  // and how long it took. Never a credential, token, body or URL. Written in batches by the metered connector
  // (src/observability/bank-call-records.ts); kept for BANK_CALL_RETENTION_DAYS, then pruned. The health of a
  // bank (Banks page) reads by bank and time, a member's by client, bank and time; a payment's page by payment.
  await db.schema
    .createTable('bank_calls')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('bank_id', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('operation', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('bank_calls_bank_at').on('bank_calls').columns(['bank_id', 'at']).execute();
  await db.schema.createIndex('bank_calls_client_bank_at').on('bank_calls').columns(['client_id', 'bank_id', 'at']).execute();
  await db.schema.createIndex('bank_calls_payment').on('bank_calls').columns(['payment_id', 'at']).execute();
  // Pruning deletes by age.
  await db.schema.createIndex('bank_calls_at').on('bank_calls').column('at').execute();
}
