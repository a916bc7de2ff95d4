/**
 * The banks as the operator manages them, in the database (docs/adr/0011-banks-in-the-database.md): one row per
 * top-level catalogue entry, validated before it is written, with its lifecycle (active, deprecated and replaced,
 * disabled) and its secrets sealed under SECRET_KEYS. Every change raises the catalogue's revision in the same
 * transaction and, on PostgreSQL, tells every listening process (`NOTIFY openpis_banks`) once it commits; the bank
 * registry (bank-registry.ts) of each process reloads on either. The CLI (`openpis banks`) and the console's Banks
 * page write through this store only.
 */
import { createHash } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import { bankSecretsContext } from '../crypto/sealing-contexts.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { BankStatus, BanksTable, Database } from '../storage/schema.js';
import {
  CatalogueError,
  checkedCatalogueDocument,
  entryShapeProblems,
  ProviderCatalogue,
  type BankLifecycle,
  type ProviderEntry,
} from './catalogue.js';

/** The channel every change of the banks is announced on (PostgreSQL). */
export const BANKS_CHANNEL = 'openpis_banks';

/** Our secrets at one bank: the client id and secret it gave us, its registration access token (DCR) … */
export type BankSecrets = Readonly<Record<string, string>>;

/** The names the secrets of a bank may have (for the JSON document an operator hands in). */
const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export interface StoredBank {
  readonly id: string;
  readonly entry: ProviderEntry;
  readonly status: BankStatus;
  readonly replacedBy: string | null;
  readonly source: BanksTable['source'];
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The names of the secrets stored for the bank (never their values). */
  readonly secretNames: readonly string[];
}

/** An entry that cannot be written: every problem, each naming its field path. */
export class BankValidationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The bank entry is not valid:\n  ${problems.join('\n  ')}`);
    this.name = 'BankValidationError';
  }
}

/** A change the banks' lifecycle does not allow (unknown bank, replacing a bank by itself …). */
export class BankChangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BankChangeError';
  }
}

/** What an import did, by provider id. */
export interface ImportReport {
  readonly added: readonly string[];
  readonly updated: readonly string[];
  /** Entries an operator changed since they were imported: the database's entry is kept (the file's differs). */
  readonly keptOperatorChanges: readonly string[];
}

/** Sandbox addresses are only resolved, never called, while validating: any well-formed address will do. */
const VALIDATION_SANDBOX_URL = 'http://localhost';

/** The lifecycle of a row as the catalogue reads it. */
export function lifecycleOf(row: Pick<BanksTable, 'status' | 'replaced_by'>): BankLifecycle {
  if (row.status === 'deprecated' && row.replaced_by !== null) return { status: 'deprecated', replacedBy: row.replaced_by };
  if (row.status === 'active') return { status: 'active' };
  return { status: 'disabled' };
}

/** The SHA-256 of an entry as written (an import compares it to tell its own entries from an operator's). */
function entryHash(entry: unknown): string {
  return createHash('sha256').update(JSON.stringify(entry)).digest('base64url');
}

export class BankStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly now: () => Date = () => new Date(),
    /** Told after each committed change (this process's registry reloads at once instead of on its next check). */
    private readonly changed: () => void = () => undefined,
  ) {}

  async list(): Promise<StoredBank[]> {
    const rows = await this.db.selectFrom('banks').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => this.stored(row));
  }

  async get(id: string): Promise<StoredBank | undefined> {
    const row = await this.db.selectFrom('banks').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row === undefined ? undefined : this.stored(row);
  }

  /** The catalogue's revision: raised by every change. */
  async revision(): Promise<number> {
    const row = await this.db.selectFrom('bank_catalogue_revision').select('revision').where('id', '=', 1).executeTakeFirst();
    return Number(row?.revision ?? 0);
  }

  /** Adds a bank (active); its id must be new. Throws BankValidationError listing every problem. */
  async add(document: unknown): Promise<StoredBank> {
    const entry = validEntryShape(document);
    return this.change(async (trx, at, revision) => {
      const id = entry.id.toLowerCase();
      if (await this.rowOf(trx, id)) throw new BankValidationError([`id ${id} is taken: change that bank with \`update\``]);
      await checkInCatalogue(trx, entry, id);
      await trx
        .insertInto('banks')
        .values({
          id,
          entry: JSON.stringify(entry),
          status: 'active',
          replaced_by: null,
          secrets_sealed: null,
          source: 'operator',
          imported_hash: null,
          revision,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return id;
    });
  }

  /** Replaces a bank's entry (its lifecycle is kept); the entry's id must be the bank's. */
  async update(id: string, document: unknown): Promise<StoredBank> {
    const entry = validEntryShape(document);
    const key = id.toLowerCase();
    if (entry.id.toLowerCase() !== key)
      throw new BankValidationError([`id must be ${key}, the bank being updated (an id never changes: use \`replace\`)`]);
    return this.change(async (trx, at, revision) => {
      await this.existing(trx, key);
      await checkInCatalogue(trx, entry, key);
      await trx
        .updateTable('banks')
        .set({ entry: JSON.stringify(entry), source: 'operator', revision, updated_at: at })
        .where('id', '=', key)
        .execute();
      return key;
    });
  }

  /** Takes a bank off the lists; payments already at it finish. */
  async disable(id: string): Promise<StoredBank> {
    return this.setLifecycle(id, 'disabled', null);
  }

  /** Puts a disabled or replaced bank back on the lists. */
  async enable(id: string): Promise<StoredBank> {
    return this.setLifecycle(id, 'active', null);
  }

  /**
   * Retires `oldId` in favour of `newId` (an active bank of the same environment and kind): the old id leaves the
   * lists, payments already at it finish, and a new payment asking for it goes to the new one (docs/api-decisions.md).
   */
  async replace(oldId: string, newId: string): Promise<StoredBank> {
    const [from, to] = [oldId.toLowerCase(), newId.toLowerCase()];
    if (from === to) throw new BankChangeError('A bank cannot replace itself');
    return this.change(async (trx, at, revision) => {
      const old = await this.existing(trx, from);
      const replacement = await this.existing(trx, to);
      if (replacement.status !== 'active')
        throw new BankChangeError(`Bank ${to} is ${replacement.status}: only an active bank can replace another`);
      const [oldEntry, newEntry] = [JSON.parse(old.entry) as ProviderEntry, JSON.parse(replacement.entry) as ProviderEntry];
      if (oldEntry.environment !== newEntry.environment) {
        throw new BankChangeError(`Bank ${to} is a ${newEntry.environment} bank, ${from} a ${oldEntry.environment} one`);
      }
      if ((oldEntry.subsidiaries === undefined) !== (newEntry.subsidiaries === undefined)) {
        throw new BankChangeError('A bank is replaced by a bank, a bank group by a bank group');
      }
      await trx
        .updateTable('banks')
        .set({ status: 'deprecated', replaced_by: to, revision, updated_at: at })
        .where('id', '=', from)
        .execute();
      return from;
    });
  }

  /**
   * Stores our secrets at a bank (sealed; `undefined` removes them). The hook for dynamic client registration
   * (`openpis banks register`): the client id the bank returns is stored here, and the registry puts it into the
   * bank's connector settings.
   */
  async setSecrets(id: string, secrets: BankSecrets | undefined): Promise<StoredBank> {
    const key = id.toLowerCase();
    if (secrets !== undefined) checkedSecrets(secrets);
    return this.change(async (trx, at, revision) => {
      await this.existing(trx, key);
      const sealed = secrets === undefined ? null : this.box.seal(JSON.stringify(secrets), bankSecretsContext(key));
      await trx.updateTable('banks').set({ secrets_sealed: sealed, revision, updated_at: at }).where('id', '=', key).execute();
      return key;
    });
  }

  /** Our secrets at a bank, opened (for the connectors and the registration; never shown). */
  async secretsOf(id: string): Promise<BankSecrets | undefined> {
    const row = await this.db.selectFrom('banks').select(['id', 'secrets_sealed']).where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row === undefined ? undefined : openSecrets(this.box, row);
  }

  /**
   * Imports a catalogue document (the built-in sandbox catalogue, PROVIDER_CATALOGUE_FILE), by id: a new entry is
   * added; an entry imported before and not changed since is brought up to date; an entry an operator changed
   * since (`update` from the CLI or the console) is kept as the operator left it and reported. Lifecycles are never
   * touched: a bank the operator disabled stays disabled. Throws a CatalogueError when the document is not valid.
   */
  async importCatalogue(document: unknown): Promise<ImportReport> {
    const file = checkedCatalogueDocument(document);
    // The document on its own must be a valid catalogue (as when it was read at start).
    new ProviderCatalogue(file, VALIDATION_SANDBOX_URL);
    const report = { added: [] as string[], updated: [] as string[], keptOperatorChanges: [] as string[] };
    const current = new Map(
      (await this.db.selectFrom('banks').select(['id', 'source', 'imported_hash']).execute()).map((row) => [row.id, row]),
    );
    const pending = file.providers.filter((entry) => {
      const row = current.get(entry.id.toLowerCase());
      if (row === undefined) return true;
      if (row.imported_hash === entryHash(entry)) return false;
      if (row.source === 'operator') {
        report.keptOperatorChanges.push(row.id);
        return false;
      }
      return true;
    });
    if (pending.length === 0) return report;
    await this.change(async (trx, at, revision) => {
      for (const entry of pending) {
        const id = entry.id.toLowerCase();
        const row = await this.rowOf(trx, id);
        const values = { entry: JSON.stringify(entry), imported_hash: entryHash(entry), revision, updated_at: at };
        if (row === undefined) {
          await trx
            .insertInto('banks')
            .values({ id, ...values, status: 'active', replaced_by: null, secrets_sealed: null, source: 'import', created_at: at })
            // Another process importing the same file at the same moment: its row is the same one.
            .onConflict((conflict) => conflict.column('id').doNothing())
            .execute();
          report.added.push(id);
        } else if (row.source === 'import') {
          await trx.updateTable('banks').set(values).where('id', '=', id).execute();
          report.updated.push(id);
        }
      }
      return pending[0]?.id.toLowerCase();
    });
    return report;
  }

  private async setLifecycle(id: string, status: BankStatus, replacedBy: string | null): Promise<StoredBank> {
    const key = id.toLowerCase();
    return this.change(async (trx, at, revision) => {
      await this.existing(trx, key);
      await trx.updateTable('banks').set({ status, replaced_by: replacedBy, revision, updated_at: at }).where('id', '=', key).execute();
      return key;
    });
  }

  /**
   * One change: in a transaction that first raises the catalogue's revision (which also makes concurrent changes
   * wait for each other: the revision's row stays locked until commit), announced to every process on commit.
   */
  private async change(
    work: (trx: Transaction<Database>, at: string, revision: number) => Promise<string | undefined>,
  ): Promise<StoredBank> {
    const at = this.now().toISOString();
    const id = await this.db.transaction().execute(async (trx) => {
      const raised = await trx
        .updateTable('bank_catalogue_revision')
        .set((eb) => ({ revision: eb('revision', '+', 1) }))
        .where('id', '=', 1)
        .returning('revision')
        .executeTakeFirstOrThrow();
      const result = await work(trx, at, Number(raised.revision));
      if (trx.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`SELECT pg_notify(${BANKS_CHANNEL}, ${String(raised.revision)})`.execute(trx);
      }
      return result;
    });
    this.changed();
    const stored = id === undefined ? undefined : await this.get(id);
    if (stored === undefined) throw new BankChangeError(`Bank ${id ?? ''} vanished while it was changed`);
    return stored;
  }

  private async rowOf(trx: Transaction<Database>, id: string): Promise<BanksTable | undefined> {
    return trx.selectFrom('banks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private async existing(trx: Transaction<Database>, id: string): Promise<BanksTable> {
    const row = await this.rowOf(trx, id);
    if (row === undefined) throw new BankChangeError(`No bank has the id ${id} (\`openpis banks list\` lists them)`);
    return row;
  }

  private stored(row: BanksTable): StoredBank {
    return {
      id: row.id,
      entry: JSON.parse(row.entry) as ProviderEntry,
      status: row.status,
      replacedBy: row.replaced_by,
      source: row.source,
      revision: Number(row.revision),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      secretNames: Object.keys(openSecrets(this.box, row) ?? {}).sort(),
    };
  }
}

/** A row's secrets, opened. */
export function openSecrets(box: SecretBox, row: Pick<BanksTable, 'id' | 'secrets_sealed'>): BankSecrets | undefined {
  if (row.secrets_sealed === null) return undefined;
  return JSON.parse(box.open(row.secrets_sealed, bankSecretsContext(row.id))) as BankSecrets;
}

/** A document of secrets (names and string values), checked; throws BankValidationError listing every problem. */
export function checkedSecrets(document: unknown): BankSecrets {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new BankValidationError(['secrets must be a JSON object of names and strings, e.g. {"clientId": "…"}']);
  }
  const problems = Object.entries(document).flatMap(([name, value]) => [
    ...(SECRET_NAME.test(name) ? [] : [`secrets: ${JSON.stringify(name.slice(0, 64))} is not a valid name (letters, digits, _)`]),
    ...(typeof value === 'string' && value.length > 0 ? [] : [`secrets.${name} must be a non-empty string`]),
  ]);
  if (problems.length > 0) throw new BankValidationError(problems);
  return document as BankSecrets;
}

function validEntryShape(document: unknown): ProviderEntry {
  const problems = entryShapeProblems(document);
  if (problems.length > 0) throw new BankValidationError(problems);
  return document as ProviderEntry;
}

/** The entry beside every other bank (unique ids and monograms, usable addresses, required fields); throws with all. */
async function checkInCatalogue(trx: Transaction<Database>, entry: ProviderEntry, id: string): Promise<void> {
  const others = await trx.selectFrom('banks').select('entry').where('id', '<>', id).orderBy('created_at').execute();
  try {
    new ProviderCatalogue({ providers: [...others.map((row) => JSON.parse(row.entry) as ProviderEntry), entry] }, VALIDATION_SANDBOX_URL);
  } catch (error) {
    if (error instanceof CatalogueError) throw new BankValidationError(error.problems);
    throw error;
  }
}
