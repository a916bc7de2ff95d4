/**
 * Migration 0007: the event feed (GET /api/v1/events), numbered per client in commit order.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The event feed (GET /api/v1/events): one event per status record of every payment, webhook URL or not,
  // written in the status change's transaction. `position` counts each client's events 1, 2, 3 … in commit
  // order: it is taken from the client's counter row, whose lock the writing transaction holds until it
  // commits, so a reader that has seen position n has seen every position below it (docs/api-decisions.md).
  // Webhook deliveries (webhook_events) keep their rows; a delivery's id is its event's id.
  await db.schema
    .alterTable('clients')
    .addColumn('event_position', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('events_client_position', ['client_id', 'position'])
    .execute();
  await db.schema.createIndex('events_payment').on('events').column('payment_id').execute();
  // Events written before this migration exist only as webhook deliveries (payments that had a webhook URL):
  // they enter the feed with their ids and bodies, in the order they were written.
  await sql`
        INSERT INTO events (id, client_id, position, type, payment_id, body, created_at)
        SELECT id, client_id,
               ROW_NUMBER() OVER (PARTITION BY client_id ORDER BY created_at, payment_id, sequence),
               'payment.status.updated', payment_id, body, created_at
        FROM webhook_events`.execute(db);
  await sql`
        UPDATE clients SET event_position = (SELECT COUNT(*) FROM events WHERE events.client_id = clients.id)`.execute(db);
}
