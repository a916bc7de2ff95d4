/**
 * What every entry point (server, CLI) needs before it can work: configuration, the migrated database with
 * every stored secret sealed, the key ring that opens them, and the provider catalogue.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import type { CatalogueView } from './providers/catalogue.js';
import type { BankRegistry } from './providers/bank-registry.js';
import type { ImportReport } from './providers/bank-store.js';
import { openDatabase, type DatabaseHandle } from './storage/database.js';
import { migrateIfPending } from './storage/migrator.js';
import { generateSecretKeysSetting, parseSecretKeys, SecretBox, SecretBoxError } from './crypto/secret-box.js';
import { resealStoredSecrets } from './storage/reseal-secrets.js';
import type { Kysely } from 'kysely';

/** What a command that only works on the database needs (most CLI commands). */
export interface Store {
  /** With `secretKeys` always set (from SECRET_KEYS, or the development key file). */
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly secrets: SecretBox;
  /** Set when the key ring came from the development key file: the service logs it as a warning. */
  readonly secretKeysWarning: string | undefined;
}

export interface Runtime extends Store {
  /** The banks, from the database (closed with the database). */
  readonly catalogue: BankRegistry;
  /** What the start-up import of the built-in catalogue or PROVIDER_CATALOGUE_FILE did. */
  readonly catalogueImport: ImportReport;
}

/** How often a serving process checks the banks' revision (ms): the fallback of PostgreSQL's notifications, SQLite's way. */
export const BANK_REVISION_CHECK_MS = { sqlite: 1000, postgres: 5000 } as const;

/**
 * The store and the banks: the built-in sandbox catalogue (PROVIDER_CATALOGUE_FILE unset) or the operator's file
 * is imported into the `banks` table (by id, an operator's changes kept: docs/adr/0011-banks-in-the-database.md),
 * then read from there. `followChanges`: the process keeps its banks current (a serving process); a one-shot
 * command reads them once.
 */
export async function openRuntime(loaded: Config = loadConfig(), options: { readonly followChanges?: boolean } = {}): Promise<Runtime> {
  // Imported here, not at the top: the catalogue's schema validation and the connectors are most of a CLI command's
  // start-up, and only the commands that reach banks need them (openStore).
  const { BankRegistry } = await import('./providers/bank-registry.js');
  const store = await openStore(loaded);
  try {
    const { config, database } = store;
    const catalogueImport = await importConfiguredCatalogue(store);
    const follow = options.followChanges === true;
    const catalogue = await BankRegistry.open({
      db: database.db,
      box: store.secrets,
      sandboxBankUrl: config.sandboxBank.url,
      listenUrl: follow && config.database.kind === 'postgres' ? config.database.url : undefined,
      pollMs: follow ? BANK_REVISION_CHECK_MS[config.database.kind] : 0,
    });
    const closeDatabase = database.close;
    const withRegistry: DatabaseHandle = {
      ...database,
      close: async () => {
        await catalogue.close();
        await closeDatabase();
      },
    };
    return { ...store, database: withRegistry, catalogue, catalogueImport };
  } catch (error) {
    await store.database.close();
    throw error;
  }
}

/**
 * Imports the built-in sandbox catalogue (PROVIDER_CATALOGUE_FILE unset) or the operator's file into the `banks`
 * table: by id, idempotent, an operator's changes kept (src/providers/bank-store.ts `importCatalogue`).
 */
export async function importConfiguredCatalogue(store: Pick<Store, 'config' | 'database' | 'secrets'>): Promise<ImportReport> {
  const [{ readCatalogueDocument }, { BankStore }] = await Promise.all([
    import('./providers/catalogue.js'),
    import('./providers/bank-store.js'),
  ]);
  const document = readCatalogueDocument(store.config.providerCatalogueFile);
  return new BankStore(store.database.db, store.secrets).importCatalogue(document);
}

/** The configuration, the key ring and the migrated database with every stored secret sealed; no catalogue. */
export async function openStore(loaded: Config = loadConfig()): Promise<Store> {
  const { config, warning } = withSecretKeys(loaded);
  const secrets = new SecretBox(config.secretKeys);
  const database = openDatabase(config.database);
  try {
    await migrateIfPending(database.db as unknown as Kysely<unknown>);
    // Values a migration left plain (secrets stored before sealing existed) are sealed before anything reads them.
    await resealPlainSecrets(database, secrets);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database, secrets, secretKeysWarning: warning };
}

async function resealPlainSecrets(database: DatabaseHandle, secrets: SecretBox): Promise<void> {
  // Only plain values: values sealed under an older key are re-sealed by `openpis secrets reencrypt`.
  await resealStoredSecrets(database.db, secrets, { onlyPlain: true });
}

/**
 * Why this process must not start with an embedded sandbox bank, if it must not: the sandbox bank keeps its payments
 * in the memory of the process that serves it, so an API process and a worker process would each have a bank of
 * their own, and the worker's would never know the API's payments (they would stay pending for ever). Split roles
 * share one stand-alone sandbox bank instead. Only when the catalogue reaches banks at the sandbox bank at all.
 */
export function embeddedSandboxProblem(
  config: Pick<Config, 'processRole' | 'sandboxBank'>,
  catalogue: Pick<CatalogueView, 'usesSandboxBank'>,
): string | undefined {
  if (config.processRole === 'all' || config.sandboxBank.mode !== 'embedded' || !catalogue.usesSandboxBank) return undefined;
  return (
    `PROCESS_ROLE=${config.processRole} needs a sandbox bank that every process shares: run \`openpis sandbox-bank\` ` +
    'and set SANDBOX_BANK_URL to its address in every process (docs/operations.md#processes)'
  );
}

/**
 * The key ring: SECRET_KEYS when set. Otherwise, on SQLite only, a key kept in `secret-keys` beside the
 * database file (created on first start, mode 0600) so that `npm start` needs no set-up; a copy of the
 * database directory then holds the key too, which is why production must set SECRET_KEYS. PostgreSQL without
 * SECRET_KEYS refuses to start: several processes must share one ring, and no file is shared between them.
 */
export function withSecretKeys(config: Config): { config: Config; warning: string | undefined } {
  if (config.secretKeys.length > 0) return { config, warning: undefined };
  if (config.database.kind === 'postgres') {
    throw new ConfigError([
      'SECRET_KEYS must be set with PostgreSQL (e.g. SECRET_KEYS=k1:$(openssl rand -base64 32)); see docs/operations.md',
    ]);
  }
  if (config.database.path === ':memory:') {
    return { config: { ...config, secretKeys: parseSecretKeys(generateSecretKeysSetting('memory')) }, warning: undefined };
  }
  const file = join(dirname(config.database.path), 'secret-keys');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${generateSecretKeysSetting('dev')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  let secretKeys;
  try {
    secretKeys = parseSecretKeys(readFileSync(file, 'utf8').trim());
  } catch (error) {
    throw new ConfigError([`${file}: ${error instanceof SecretBoxError ? error.message : 'unreadable'}`]);
  }
  return {
    config: { ...config, secretKeys },
    warning: `SECRET_KEYS is not set: secrets at rest are sealed with the development key in ${file}. Production must set SECRET_KEYS (docs/operations.md).`,
  };
}
