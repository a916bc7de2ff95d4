/**
 * Migration 0004: flow tokens looked up by their SHA-256, the token itself kept sealed
 * (docs/adr/0005-secrets-at-rest.md).
 * Shipped: never edit it (src/storage/migrator.ts).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The flow token is looked up by its SHA-256 only (as access tokens are): the column keeps its unique index
  // under a new name, and its values become hashes. The token itself moves to flow_token_sealed; the migration
  // has no key, so it copies it there as it is, and the start-up step that follows every migration seals it
  // (and every plain webhook secret) before the service serves anything (src/storage/reseal-secrets.ts).
  await db.schema.alterTable('payments').renameColumn('flow_token', 'flow_token_hash').execute();
  await db.schema.alterTable('payments').addColumn('flow_token_sealed', 'text').execute();
  const payments = db as unknown as Kysely<{ payments: { id: string; flow_token_hash: string; flow_token_sealed: string | null } }>;
  const rows = await payments.selectFrom('payments').select(['id', 'flow_token_hash']).execute();
  for (const row of rows) {
    await payments
      .updateTable('payments')
      .set({
        flow_token_hash: createHash('sha256').update(row.flow_token_hash, 'utf8').digest('hex'),
        flow_token_sealed: row.flow_token_hash,
      })
      .where('id', '=', row.id)
      .execute();
  }
}
