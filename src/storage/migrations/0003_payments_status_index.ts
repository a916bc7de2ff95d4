/**
 * Migration 0003: open payments by status, for the payments-pending-at-the-bank gauge.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Open payments by status, for the payments-pending-at-the-bank gauge read on every scrape: final payments,
  // the bulk of the table, are never read by it (src/flow/bank-pending.ts).
  await db.schema.createIndex('payments_status_created').on('payments').columns(['detailed_status', 'created_at']).execute();
}
