/**
 * Migration 0020: payment links (docs/api-decisions.md, "Payment links"). A link holds what a payment needs except
 * the payer; each payment a payer starts from it names it (`payments.payment_link_id`). Its events and expiry job
 * name it as a subject of type `payment_link` (migration 0018). Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
    .addColumn('environment', 'text', (col) => col.notNull())
    // The public part of the link's URL: 128 random bits. Stored as it is (not hashed): the API answers the URL again,
    // and the link is meant to be shown to anyone who should pay (docs/api-decisions.md).
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('reusable', 'integer', (col) => col.notNull())
    // ACTIVE | PAID | EXPIRED | DEACTIVATED (src/domain/payment-link.ts).
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('amount', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('payment_scheme', 'text', (col) => col.notNull())
    .addColumn('scheme_mode', 'text')
    .addColumn('fee_paid_by', 'text')
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('remittance', 'text', (col) => col.notNull())
    .addColumn('redirect_uri', 'text', (col) => col.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('provider_id', 'text')
    .addColumn('provider_preferences', 'text')
    // A single-use link's payment in progress: set by a compare-and-set when a payer continues (one at a time).
    .addColumn('open_payment_id', 'text')
    .addColumn('payment_count', 'integer', (col) => col.notNull().defaultTo(sql.lit(0)))
    .addColumn('paid_by_payment_id', 'text')
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .execute();
  // The client's reference is unique per client (a second link with it answers 409), and finds a link.
  await db.schema.createIndex('payment_links_client_reference').on('payment_links').columns(['client_id', 'reference']).unique().execute();
  // The client's list, newest first (as the payments list, migration 0006).
  await db.schema.createIndex('payment_links_client_created').on('payment_links').columns(['client_id', 'created_at', 'id']).execute();

  await db.schema
    .alterTable('payments')
    .addColumn('payment_link_id', 'text', (col) => col.references('payment_links.id'))
    .execute();
  await db.schema.createIndex('payments_payment_link').on('payments').column('payment_link_id').execute();
}
