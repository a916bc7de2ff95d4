/**
 * Migration 0015: a payment retried with another bank (docs/api-decisions.md, "Paying with another bank").
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The failed payment a retry was made from. Unique: a failed payment has at most one retry, so two clicks of
  // "pay with another bank" at once insert one payment and the other finds it (NULLs are distinct in both databases).
  await db.schema
    .alterTable('payments')
    .addColumn('retry_of', 'text', (col) => col.references('payments.id'))
    .execute();
  // Whether the payer's outcome page may offer a retry: resolved at creation from the client's option (1 or 0).
  // Payments created before this migration keep what they were created with: no offer.
  await db.schema
    .alterTable('payments')
    .addColumn('retry_allowed', 'integer', (col) => col.notNull().defaultTo(sql.lit(0)))
    .execute();
  await db.schema.createIndex('payments_retry_of').on('payments').column('retry_of').unique().execute();
}
