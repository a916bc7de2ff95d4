/**
 * Migration 0021: refunds (docs/api-decisions.md, "Refunds"). A refund is a payment; `refund_of` names the completed
 * payment it pays back. Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Not unique: a payment may be refunded in several parts. Null on every payment that is not a refund.
  await db.schema
    .alterTable('payments')
    .addColumn('refund_of', 'text', (col) => col.references('payments.id'))
    .execute();
  // Led by the client, as every read of the API is (migration 0011): the original's refunds (its resource's `refunds`,
  // and the sum of refunds not failed that a new refund's insert checks while it holds the original's row).
  await db.schema.createIndex('payments_client_refund_of').on('payments').columns(['client_id', 'refund_of']).execute();
}
