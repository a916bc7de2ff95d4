/**
 * Migration 0022: refunds approved together (docs/api-decisions.md, "Many refunds, one approval"). `bulk_leader_id`
 * names the refund whose flow carries the bulk payment at the bank (the leader names itself); the other refunds of
 * the bulk follow its statuses. Null on every payment outside a bulk. And the console's Refunds list gets its
 * indexes. Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('bulk_leader_id', 'text', (col) => col.references('payments.id'))
    .execute();
  // Led by the client as every read is (migration 0011): the leader's followers, read by each of its status changes.
  await db.schema.createIndex('payments_client_bulk_leader').on('payments').columns(['client_id', 'bulk_leader_id']).execute();
  // The console's Refunds list, newest first by (created_at, id): an operator's over every client, a member's over one.
  // Partial, on refunds only: without them the list reads the whole payments table to find the few refunds.
  await db.schema
    .createIndex('payments_refunds_newest')
    .on('payments')
    .columns(['created_at', 'id'])
    .where(sql.ref('refund_of'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('payments_client_refunds_newest')
    .on('payments')
    .columns(['client_id', 'created_at', 'id'])
    .where(sql.ref('refund_of'), 'is not', null)
    .execute();
}
