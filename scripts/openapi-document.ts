/**
 * Generates the OpenAPI document from the route schemas, with the default configuration, so that the
 * committed `openapi.json` is the same on every machine.
 */
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { loadCatalogue } from '../src/providers/catalogue.js';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import { generateSecretKeysSetting } from '../src/crypto/secret-box.js';

export async function generateOpenApiDocument(): Promise<string> {
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', SECRET_KEYS: generateSecretKeysSetting('openapi') }),
    database: { kind: 'sqlite' as const, path: ':memory:' },
  };
  const database = openDatabase(config.database);
  await migrateToLatest(database.db as unknown as Kysely<unknown>);
  const app = await buildApp({ config, database, catalogue: loadCatalogue(undefined, config.sandboxBank.url) });
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await database.close();
  return document;
}
