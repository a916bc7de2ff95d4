/**
 * Migration 0005: how a client's payers see it on the hosted pages (name, colour, support link, logo).
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // How a client's payers see it on the hosted pages (src/branding/): all optional, set by the operator.
  // The logo is the PNG we re-encoded (never the upload), as base64 text so both databases store it alike,
  // found by its SHA-256, which names it in its URL.
  await db.schema.alterTable('clients').addColumn('display_name', 'text').execute();
  await db.schema.alterTable('clients').addColumn('brand_colour', 'text').execute();
  await db.schema.alterTable('clients').addColumn('support_url', 'text').execute();
  await db.schema.alterTable('clients').addColumn('logo_sha256', 'text').execute();
  await db.schema.alterTable('clients').addColumn('logo_png', 'text').execute();
  await db.schema.alterTable('clients').addColumn('logo_width', 'integer').execute();
  await db.schema.alterTable('clients').addColumn('logo_height', 'integer').execute();
  await db.schema.createIndex('clients_logo_sha256').on('clients').column('logo_sha256').execute();
}
