/**
 * What every entry point (server, CLI) needs before it can work: configuration, the migrated database and
 * the provider catalogue.
 */
import { loadConfig, type Config } from './config/config.js';
import { loadCatalogue, type ProviderCatalogue } from './providers/catalogue.js';
import { openDatabase, type DatabaseHandle } from './storage/database.js';
import { migrateToLatest } from './storage/migrations.js';
import type { Kysely } from 'kysely';

export interface Runtime {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly catalogue: ProviderCatalogue;
}

export async function openRuntime(config: Config = loadConfig()): Promise<Runtime> {
  const catalogue = loadCatalogue(config.providerCatalogueFile, config.sandboxBank.url);
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db as unknown as Kysely<unknown>);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database, catalogue };
}
