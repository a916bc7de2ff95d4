/**
 * Migration 0019: the payer's account and name, as the bank told them (docs/api-decisions.md, "The payer's account").
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // JSON (`PayerDetails`), null until the bank tells it. A column rather than a table of its own: a payment has one
  // payer, written once with the commit of the bank's answer that told it, and read with every read of the payment
  // (the resource, the list, the console), so a join or a second read would only cost. Payments made before this
  // migration keep null: the bank was never asked.
  await db.schema.alterTable('payments').addColumn('payer', 'text').execute();
}
