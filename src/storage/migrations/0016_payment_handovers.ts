/**
 * Migration 0016: hand-overs of a payer's flow from a desktop to a phone (the QR code of the payer's pages).
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per payment: the SHA-256 of the single-use link's secret (never the secret), when it was made and when it
  // stops working, and once a phone used it, when, with the SHA-256 of the cookie that marks that phone's browser.
  await db.schema
    .createTable('payment_handovers')
    .addColumn('payment_id', 'text', (col) => col.primaryKey().references('payments.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('issued_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('taken_at', 'text')
    .addColumn('device_hash', 'text')
    .execute();
  await db.schema.createIndex('payment_handovers_taken_at').on('payment_handovers').column('taken_at').execute();
}
