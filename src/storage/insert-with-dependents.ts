/**
 * A row and the rows that depend on it, written by one PostgreSQL statement: the row is inserted unless it would
 * break the named unique key, and each dependent row (its own data-modifying CTE) is inserted only if the row was.
 * One statement is its own transaction, so this is one round trip where BEGIN, an insert a row and COMMIT were
 * several; on a small machine writing those to the database's socket was half of the API process's busy time
 * under creation load (docs/performance.md, change 16). Foreign keys are checked at the end of the statement and
 * deferred triggers run at its commit, as they would at COMMIT.
 *
 * PostgreSQL only (SQLite has no data-modifying CTEs, and there the group commit shares one transaction instead).
 * Each value is a parameter; PostgreSQL takes its type from the column it goes into.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.js';

export interface TableRow {
  readonly table: keyof Database;
  /** Column → value; every key is a column of the table (a property left out is left to its default). */
  readonly row: Readonly<Record<string, unknown>>;
}

/** True when the row was inserted (and its dependents with it); false when the unique key already had it. */
export async function insertWithDependents(
  db: Kysely<Database>,
  parent: TableRow & { readonly uniqueColumns: readonly string[] },
  dependents: readonly TableRow[],
): Promise<boolean> {
  const parentInsert = sql`INSERT INTO ${sql.table(parent.table)} (${columnList(parent.row)}) VALUES (${valueList(parent.row)})
    ON CONFLICT (${sql.join(parent.uniqueColumns.map((column) => sql.ref(column)))}) DO NOTHING RETURNING 1 AS inserted`;
  const dependentInserts = dependents.map(
    (dependent, index) =>
      sql`${sql.id(`dependent_${index}`)} AS (INSERT INTO ${sql.table(dependent.table)} (${columnList(dependent.row)}) SELECT ${valueList(dependent.row)} FROM parent)`,
  );
  const ctes = [sql`parent AS (${parentInsert})`, ...dependentInserts];
  const { rows } = await sql<{ inserted: number }>`WITH ${sql.join(ctes)} SELECT inserted FROM parent`.execute(db);
  return rows.length > 0;
}

function present(row: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(row).filter(([, value]) => value !== undefined);
}

function columnList(row: Readonly<Record<string, unknown>>): RawBuilder<unknown> {
  return sql.join(present(row).map(([column]) => sql.ref(column)));
}

function valueList(row: Readonly<Record<string, unknown>>): RawBuilder<unknown> {
  return sql.join(present(row).map(([, value]) => sql`${value}`));
}
