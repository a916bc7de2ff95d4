/** Migration 0013: a payment's jobs keyed (client, payment, kind). Shipped: never edit it (src/storage/migrator.ts). */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A payment's jobs are found by client and payment (cancelled when it ends or moves on; at most one per kind).
  // 0011 keyed them (client_id, kind, payment_id): a lookup without the kind could use only the client part of
  // that key, so ending one payment of a client with 100,000 waiting jobs read every one of them
  // (docs/scaling.md). The payment before the kind serves both lookups, with the same uniqueness.
  await db.schema.createIndex('jobs_client_payment_kind').on('jobs').columns(['client_id', 'payment_id', 'kind']).unique().execute();
  await db.schema.dropIndex('jobs_client_kind_payment').execute();
}
