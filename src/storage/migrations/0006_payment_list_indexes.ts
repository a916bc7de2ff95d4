/**
 * Migration 0006: the indexes of one client's payment list (GET /api/v1/ob/payments).
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // GET /api/v1/ob/payments: one client's payments, newest first (created_at desc, id desc), optionally by
  // status. The client leads every key, so a page reads only the caller's rows, in order, from the index.
  await db.schema.createIndex('payments_client_created').on('payments').columns(['client_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('payments_client_status_created')
    .on('payments')
    .columns(['client_id', 'detailed_status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payments_client_provider_created')
    .on('payments')
    .columns(['client_id', 'provider_id', 'created_at', 'id'])
    .execute();
}
