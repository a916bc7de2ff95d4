/** `openpis migrate`: the database schema brought up to date without starting the service. */
import type { Command } from 'commander';
import type { Kysely } from 'kysely';
import { loadConfig } from '../../config/config.js';

export function migrateCommand(program: Command): Command {
  return program
    .command('migrate')
    .description('apply pending database migrations (the service also applies them at start)')
    .action(migrate);
}

/** Applies the pending migrations and says which (or that there were none). */
export async function migrate(): Promise<void> {
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([
    import('../../storage/database.js'),
    import('../../storage/migrator.js'),
  ]);
  const database = openDatabase(loadConfig().database);
  try {
    const applied = await migrateToLatest(database.db as unknown as Kysely<unknown>);
    process.stdout.write(applied.length === 0 ? 'Database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
  } finally {
    await database.close();
  }
}
