/**
 * Migration 0011: the client leads every hot key (ready to distribute by client), the revocation version.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every hot table carries the client and every hot key starts with it, so distributing the tables by client
  // (Citus: `create_distributed_table(..., 'client_id')`) is a migration, not a rewrite (docs/scaling.md).
  // Status records and jobs learn their payment's client; existing rows take it from their payment.
  await db.schema
    .alterTable('payment_status_history')
    .addColumn('client_id', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE payment_status_history SET client_id = (SELECT client_id FROM payments WHERE payments.id = payment_status_history.payment_id)`.execute(
    db,
  );
  await db.schema
    .alterTable('jobs')
    .addColumn('client_id', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE jobs SET client_id = (SELECT client_id FROM payments WHERE payments.id = jobs.payment_id)`.execute(db);
  await db.schema.createIndex('payments_client_id').on('payments').columns(['client_id', 'id']).unique().execute();
  await db.schema
    .createIndex('payment_status_history_client_order')
    .on('payment_status_history')
    .columns(['client_id', 'payment_id', 'sequence'])
    .unique()
    .execute();
  await db.schema.createIndex('jobs_client_kind_payment').on('jobs').columns(['client_id', 'kind', 'payment_id']).unique().execute();
  await db.schema
    .createIndex('webhook_events_client_payment')
    .on('webhook_events')
    .columns(['client_id', 'payment_id', 'sequence'])
    .execute();
  await db.schema.createIndex('events_client_payment').on('events').columns(['client_id', 'payment_id']).execute();
  // A client's tokens stop at once in every process when this moves (disable, secret rotation): processes that
  // cache verified tokens compare it (src/auth/token-cache.ts).
  await db.schema
    .alterTable('clients')
    .addColumn('revocation_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
