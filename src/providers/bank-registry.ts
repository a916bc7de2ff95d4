/**
 * The banks as this process sees them: an in-memory snapshot (a {@link ProviderCatalogue}) of the `banks` table,
 * replaced whenever the table changes, so that a bank added, changed, replaced or disabled from the CLI or the
 * console reaches every process without a restart (docs/adr/0011-banks-in-the-database.md). Readers never wait
 * for the database: they read the snapshot of the moment.
 *
 * How a process learns of a change:
 * - PostgreSQL: every change sends `NOTIFY openpis_banks` on commit (bank-store.ts); each process listens on a
 *   connection of its own and reloads when told. A lost connection is opened again, and the process reloads then
 *   (it may have missed a notification meanwhile).
 * - Both databases: a cheap check of the catalogue's revision (one row) every `pollMs`, the fallback when a
 *   notification is lost and the only way on SQLite, where the CLI writes from another process.
 * - The process that made the change reloads at once (its store tells it).
 *
 * Connectors are made per use from the snapshot's settings (src/connectors/index.ts `Connectors.for`), so a
 * changed bank's next call uses its new settings; nothing built from the old ones is kept.
 */
import pg from 'pg';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../storage/schema.js';
import { registeredSettingsOf, withRegistration } from './bank-registrations.js';
import { BANKS_CHANNEL, BankStore, lifecycleOf, openSecrets, type BankSecrets, type StoredBank } from './bank-store.js';
import {
  CatalogueError,
  ProviderCatalogue,
  type Bank,
  type BankLifecycle,
  type CatalogueEntry,
  type CatalogueView,
  type ConnectorSettings,
  type Environment,
  type ProviderEntry,
  type ProviderLookup,
} from './catalogue.js';

/** How long a lost listening connection waits before it connects again (ms). */
const RECONNECT_DELAY_MS = 1000;

export interface BankRegistryLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface BankRegistryOptions {
  readonly db: Kysely<Database>;
  readonly box: SecretBox;
  readonly sandboxBankUrl: string;
  /** PostgreSQL's connection string: the registry listens for changes on a connection of its own. */
  readonly listenUrl?: string | undefined;
  /** How often the revision is checked (ms); 0: never (a one-shot command). */
  readonly pollMs: number;
  readonly logger?: BankRegistryLogger | undefined;
  readonly now?: () => Date;
}

export class BankRegistry implements CatalogueView {
  /** Writes the banks; this registry reloads after each of its changes. */
  readonly store: BankStore;
  private snapshot: ProviderCatalogue;
  private loadedRevision: number;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private closed = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: BankRegistryOptions,
    first: { snapshot: ProviderCatalogue; revision: number },
  ) {
    this.store = new BankStore(options.db, options.box, options.now, () => this.refreshSoon());
    this.snapshot = first.snapshot;
    this.loadedRevision = first.revision;
  }

  /** Loads the banks and starts following their changes. */
  static async open(options: BankRegistryOptions): Promise<BankRegistry> {
    const first = await load(options);
    const registry = new BankRegistry(options, first);
    if (options.pollMs > 0) {
      registry.pollTimer = setInterval(() => registry.refreshSoon(), options.pollMs);
      registry.pollTimer.unref();
    }
    if (options.listenUrl !== undefined) registry.listen(options.listenUrl);
    return registry;
  }

  /** The snapshot of the moment. */
  get current(): ProviderCatalogue {
    return this.snapshot;
  }

  /** The catalogue revision the snapshot was loaded at. */
  get revision(): number {
    return this.loadedRevision;
  }

  get version(): string {
    return this.snapshot.version;
  }

  get usesSandboxBank(): boolean {
    return this.snapshot.usesSandboxBank;
  }

  find(id: string, environment: Environment): ProviderLookup {
    return this.snapshot.find(id, environment);
  }

  findForNewPayment(id: string, environment: Environment): ProviderLookup {
    return this.snapshot.findForNewPayment(id, environment);
  }

  findInAnyEnvironment(id: string): ProviderLookup {
    return this.snapshot.findInAnyEnvironment(id);
  }

  list(environment: Environment): readonly CatalogueEntry[] {
    return this.snapshot.list(environment);
  }

  banks(environment: Environment): readonly Bank[] {
    return this.snapshot.banks(environment);
  }

  bankOfSettings(settings: ConnectorSettings): Bank | undefined {
    return this.snapshot.bankOfSettings(settings);
  }

  /** Stores our secrets at a bank, sealed (dynamic client registration stores the client id it got here). */
  async setSecrets(bankId: string, secrets: BankSecrets | undefined): Promise<StoredBank> {
    return this.store.setSecrets(bankId, secrets);
  }

  /** Reloads if the revision moved; resolves once this process's snapshot is at least as new as the database's. */
  async refresh(): Promise<void> {
    if (this.refreshing !== undefined) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.refreshAgain = false;
          const revision = await this.store.revision();
          if (revision !== this.loadedRevision) {
            const next = await load(this.options);
            if (!this.closed) {
              this.snapshot = next.snapshot;
              this.loadedRevision = next.revision;
            }
          }
        } while (this.refreshAgain && !this.closed);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Reloads in the background (a notification, the periodic check, a change of this process). */
  refreshSoon(): void {
    if (this.closed) return;
    this.refresh().catch((error: unknown) => this.options.logger?.warn({ err: error }, 'banks not reloaded; the next check tries again'));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.reconnectTimer);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
    await this.refreshing?.catch(() => undefined);
  }

  private listen(connectionString: string): void {
    const client = new pg.Client({ connectionString });
    this.listener = client;
    const lost = (): void => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) {
        this.reconnectTimer = setTimeout(() => this.listen(connectionString), RECONNECT_DELAY_MS);
        this.reconnectTimer.unref();
      }
    };
    client.on('notification', () => {
      if (this.listener === client) this.refreshSoon();
    });
    client.on('error', lost);
    client.on('end', lost);
    client
      .connect()
      .then(() => client.query(`LISTEN ${BANKS_CHANNEL}`))
      // A change may have come while nobody listened.
      .then(() => this.refreshSoon())
      .catch(lost);
  }
}

/** The banks of the database as a snapshot; a row the others make unusable is left out (and logged), never all. */
async function load(options: BankRegistryOptions): Promise<{ snapshot: ProviderCatalogue; revision: number }> {
  // The revision is read first: a change committed during the read is loaded again at the next check.
  const revision = await options.db.selectFrom('bank_catalogue_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  const rows = await options.db.selectFrom('banks').selectAll().orderBy('created_at').orderBy('id').execute();
  const entries: ProviderEntry[] = [];
  const lifecycles = new Map<string, BankLifecycle>();
  for (const row of rows) {
    try {
      entries.push(withSecrets(JSON.parse(row.entry) as ProviderEntry, openSecrets(options.box, row)));
      lifecycles.set(row.id, lifecycleOf(row));
    } catch (error) {
      options.logger?.error({ err: error, bankId: row.id }, 'bank left out: its entry or secrets cannot be read');
    }
  }
  return { snapshot: buildSnapshot(entries, lifecycles, options), revision: Number(revision?.revision ?? 0) };
}

function buildSnapshot(
  entries: readonly ProviderEntry[],
  lifecycles: ReadonlyMap<string, BankLifecycle>,
  options: BankRegistryOptions,
): ProviderCatalogue {
  try {
    return new ProviderCatalogue({ providers: [...entries] }, options.sandboxBankUrl, lifecycles);
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
  }
  // Each entry was valid beside the others when it was written; two written at once may still clash (a monogram).
  // The ones that do are left out, the first written kept.
  const kept: ProviderEntry[] = [];
  for (const entry of entries) {
    try {
      new ProviderCatalogue({ providers: [...kept, entry] }, options.sandboxBankUrl, lifecycles);
      kept.push(entry);
    } catch (error) {
      options.logger?.error(
        { bankId: entry.id, problems: error instanceof CatalogueError ? error.problems : String(error) },
        'bank left out',
      );
    }
  }
  return new ProviderCatalogue({ providers: kept }, options.sandboxBankUrl, lifecycles);
}

/** The registration stored for the bank (or a client id stored by hand) takes the place of the entry's settings. */
function withSecrets(entry: ProviderEntry, secrets: BankSecrets | undefined): ProviderEntry {
  const registered = registeredSettingsOf(secrets);
  if (registered === undefined) return entry;
  const apply = <T extends { connector?: ConnectorSettings }>(holder: T): T =>
    holder.connector?.standard === 'uk-open-banking' ? { ...holder, connector: withRegistration(holder.connector, registered) } : holder;
  return { ...apply(entry), ...(entry.subsidiaries === undefined ? {} : { subsidiaries: entry.subsidiaries.map(apply) }) };
}
