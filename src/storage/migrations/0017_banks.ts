/**
 * Migration 0017: banks as data the operator manages (docs/adr/0011-banks-in-the-database.md). One row per top-level
 * catalogue entry (a stand-alone bank or a bank group's parent with its subsidiaries), its JSON entry validated by the
 * catalogue's schema before it is written, its lifecycle status, and its secrets sealed under SECRET_KEYS. The
 * one-row `bank_catalogue_revision` is raised by every change: processes compare it to know their copy is current.
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('banks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // The catalogue entry as JSON (the shape of one element of src/providers/sandbox-catalogue.json's `providers`).
    .addColumn('entry', 'text', (col) => col.notNull())
    // active | deprecated (replaced by `replaced_by`) | disabled.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('replaced_by', 'text')
    // Our client id, client secret, registration access token … at this bank: JSON, sealed (never plain).
    .addColumn('secrets_sealed', 'text')
    // Where the entry came from: `import` (the built-in catalogue or PROVIDER_CATALOGUE_FILE) or `operator`.
    .addColumn('source', 'text', (col) => col.notNull())
    // The SHA-256 of the entry last imported, so an import can tell an operator's edit from its own.
    .addColumn('imported_hash', 'text')
    .addColumn('revision', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('bank_catalogue_revision')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('revision', 'integer', (col) => col.notNull())
    .execute();
  await sql`INSERT INTO bank_catalogue_revision (id, revision) VALUES (1, 0)`.execute(db);
}
