/**
 * What a migration needs to know of the database it runs on, for the few steps that differ (triggers, functions).
 * Shipped migrations call it, so what it answers for a database never changes.
 */
import { sql, type Kysely } from 'kysely';

/** True on PostgreSQL, false on SQLite (which has no version() function, so the query fails there). */
export async function isPostgres(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ version: string }>`SELECT version() AS version`
    .execute(db)
    .catch(() => ({ rows: [] as { version: string }[] }));
  return rows[0]?.version.startsWith('PostgreSQL') === true;
}
