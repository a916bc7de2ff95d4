/**
 * The provider (bank) catalogue: banks as data. It is loaded once at start, validated against the schema
 * below, and held in memory; every process of a deployment loads the same file, so no cache can go stale.
 * The built-in catalogue (`sandbox-catalogue.json`) lists the sandbox banks; an operator points
 * `PROVIDER_CATALOGUE_FILE` at their own. See docs/adr/0003-provider-catalogue.md.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../http/ajv.js';
import { messagesFor } from '../http/ajv-messages.js';

export const REQUIRED_PAYMENT_FIELDS = [
  'SENDER_ACCOUNT',
  'SENDER_PROVIDER_CREDENTIALS_ID',
  'SENDER_PROVIDER_CREDENTIALS_PASSWORD',
] as const;
export type RequiredPaymentField = (typeof REQUIRED_PAYMENT_FIELDS)[number];

import type { Environment, PaymentSchemeName } from '../domain/reference-data.js';
import { ConnectorSettingsSchema, type ConnectorSettings } from '../connectors/settings.js';
import { bankAddressProblems, bankProfile, offersAccountInformation, withSandboxBankUrl } from '../connectors/index.js';
import { assignMonograms } from './monograms.js';

export type { ConnectorSettings } from '../connectors/settings.js';

export type { Environment, PaymentSchemeName, ScaApproach } from '../domain/reference-data.js';

const ProviderFields = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String({ minLength: 1 }),
  countryCode: Type.String({ pattern: '^[A-Z]{2}$' }),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  /** Colour of the logo drawn by the service (`#rrggbb`). */
  brandColor: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }),
  /**
   * The letters of the logo drawn by the service; optional: by default they come from the name, made unique within
   * the catalogue ({@link assignMonograms}). Given ones must be unique too.
   */
  monogram: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{1,3}$' })),
  /**
   * A bank payers often choose: on the payer's bank list, banks with a rank come first in their country, lowest rank
   * first; the others follow by name.
   */
  popularRank: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  paymentSchemes: Type.Array(Type.Union([Type.Literal('SEPA'), Type.Literal('DOMESTIC')]), { minItems: 1 }),
  /** Currencies the bank sends payments in. */
  currencies: Type.Array(Type.String({ pattern: '^[A-Z]{3}$' }), { minItems: 1 }),
  /** Whether the bank offers instant payments (so an INSTANT preference can be honoured). */
  instantPayments: Type.Boolean(),
  /**
   * Optional, and only a check: what a bank requires follows from its connector settings
   * ({@link requiredPaymentFieldsOf}), the same place the flow reads. When given, it must say the same.
   */
  requiredPaymentFields: Type.Optional(Type.Array(Type.Union(REQUIRED_PAYMENT_FIELDS.map((field) => Type.Literal(field))))),
  /** The bank's own limit for the unstructured remittance (at most 140). */
  remittanceMaxLength: Type.Integer({ minimum: 1, maximum: 140 }),
};

const SubsidiarySchema = Type.Object({ ...ProviderFields, connector: ConnectorSettingsSchema }, { additionalProperties: false });

/** One catalogue entry, whole (its type; entries are checked by {@link entryShapeProblems}, which names each mistake). */
export const ProviderEntrySchema = Type.Object(
  {
    ...ProviderFields,
    /** Parent of a bank group: payments go to one of its subsidiaries, never to the parent itself. */
    subsidiaries: Type.Optional(Type.Array(SubsidiarySchema, { minItems: 1 })),
    /** Required unless the entry is a bank-group parent. */
    connector: Type.Optional(ConnectorSettingsSchema),
  },
  { additionalProperties: false },
);

/*
 * The same entry with its connector settings left open: the settings are checked against their own standard's schema
 * (below), so a mistake in them is named by its path instead of "matches no member of the union".
 */
const OpenConnector = Type.Optional(Type.Unknown());
const ajv = createAjv();
const checkEntryShape = ajv.compile(
  Type.Object(
    {
      ...ProviderFields,
      subsidiaries: Type.Optional(
        Type.Array(Type.Object({ ...ProviderFields, connector: Type.Unknown() }, { additionalProperties: false }), { minItems: 1 }),
      ),
      connector: OpenConnector,
    },
    { additionalProperties: false },
  ),
);
const checkSettingsOf = new Map(
  ConnectorSettingsSchema.anyOf.map((schema) => [schema.properties.standard.const as string, ajv.compile(schema)] as const),
);

/** ajv's errors of a check as messages (`connector.timeoutMs must not be less than 100`), under `path`. */
function problemsOf(check: ValidateFunction, value: unknown, path: string): string[] {
  if (check(value)) return [];
  const prefixed = (check.errors ?? []).map((error) => ({ ...error, instancePath: `${path}${error.instancePath}` }));
  return mergedAlternatives(messagesFor(prefixed).map((message) => (message.startsWith('body ') ? `entry ${message.slice(5)}` : message)));
}

const ALTERNATIVE = /^(\S+) must be one of the following values: (.*)$/;

/** A union of literals fails once per member: `environment must be one of …: sandbox` and `…: production` become one. */
function mergedAlternatives(messages: readonly string[]): string[] {
  const merged: string[] = [];
  const alternatives = new Map<string, number>();
  for (const message of messages) {
    const match = ALTERNATIVE.exec(message);
    const at = match === null ? undefined : alternatives.get(match[1] ?? '');
    if (match !== null && at !== undefined) merged[at] = `${merged[at] ?? ''}, ${match[2] ?? ''}`;
    else {
      if (match !== null) alternatives.set(match[1] ?? '', merged.length);
      merged.push(message);
    }
  }
  return merged;
}

/** `/subsidiaries/0/connector` → `subsidiaries.0.connector` (the messages' field paths). */
function fieldPath(pointer: string): string {
  return (
    pointer
      .split('/')
      .filter((part) => part !== '')
      .join('.') || 'entry'
  );
}

/**
 * Every problem of one catalogue entry's shape, each naming its field path (`connector.baseUrl must be a string`),
 * under `path` (a JSON pointer such as `/providers/2`); empty when it has none.
 */
export function entryShapeProblems(entry: unknown, path = ''): string[] {
  const problems = problemsOf(checkEntryShape, entry, path);
  const describe = (at: string, message: string): string => `${fieldPath(`${path}${at}`)} ${message}`;
  if (typeof entry !== 'object' || entry === null) return problems;
  const record = entry as { connector?: unknown; subsidiaries?: unknown };
  const connectors: Array<[string, unknown]> = [];
  if (Array.isArray(record.subsidiaries)) {
    record.subsidiaries.forEach((sub: unknown, index) => {
      if (typeof sub === 'object' && sub !== null && 'connector' in sub)
        connectors.push([`/subsidiaries/${index}/connector`, sub.connector]);
    });
    if (record.connector !== undefined)
      problems.push(describe('/connector', 'must not be given on a bank group (its subsidiaries have theirs)'));
  } else if (record.connector === undefined) {
    problems.push(describe('/connector', 'is required (unless the entry is a bank group with subsidiaries)'));
  } else {
    connectors.push(['/connector', record.connector]);
  }
  for (const [at, settings] of connectors) {
    const standard = typeof settings === 'object' && settings !== null && 'standard' in settings ? settings.standard : undefined;
    const check = typeof standard === 'string' ? checkSettingsOf.get(standard) : undefined;
    if (check === undefined) {
      problems.push(describe(`${at}/standard`, `must be one of ${[...checkSettingsOf.keys()].join(', ')}`));
      continue;
    }
    problems.push(...problemsOf(check, settings, `${path}${at}`));
  }
  return problems;
}

/** A catalogue document: its top-level entries. */
interface CatalogueFile {
  readonly providers: readonly Static<typeof ProviderEntrySchema>[];
}
/** One top-level entry of the catalogue (a stand-alone bank or a bank group's parent with its subsidiaries). */
export type ProviderEntry = Static<typeof ProviderEntrySchema>;

/** The sandbox banks' limit, and the usual one, for refused logins and wrong one-time codes. */
export { DEFAULT_AUTHENTICATION_ATTEMPTS } from '../connectors/index.js';

/**
 * What the payer must give for a payment at a bank with these settings: the one source of both the providers
 * list's `requiredPaymentFields` and the flow's follow-up form (phase 2), so the two cannot drift apart. It reads the
 * bank's profile (what its connector says the bank asks of the payer): the login id and the password where the
 * payer authenticates through the API or the bank finds the payer's app by the login id, nothing where the payer
 * logs in on the bank's pages. The sender IBAN is needed when the bank wants the sender account in the payment, does
 * not let the payer choose it on its pages, and offers no account list to choose it from.
 */
export function requiredPaymentFieldsOf(connector: ConnectorSettings): RequiredPaymentField[] {
  const profile = bankProfile(connector);
  const fields: RequiredPaymentField[] = [];
  if (profile.needsSenderAccount && !profile.senderAccountChosenAtBank && !offersAccountInformation(connector))
    fields.push('SENDER_ACCOUNT');
  if (profile.needsLoginId) fields.push('SENDER_PROVIDER_CREDENTIALS_ID');
  if (profile.needsPassword) fields.push('SENDER_PROVIDER_CREDENTIALS_PASSWORD');
  return fields;
}

/** What the catalogue says of every provider, bank or bank-group parent. */
interface ProviderFacts {
  readonly id: string;
  readonly name: string;
  readonly countryCode: string;
  readonly environment: Environment;
  readonly brandColor: string;
  /** The logo's letters: unique within the catalogue. */
  readonly monogram: string;
  readonly popularRank: number | undefined;
  readonly paymentSchemes: readonly PaymentSchemeName[];
  readonly currencies: readonly string[];
  readonly instantPayments: boolean;
  readonly requiredPaymentFields: readonly RequiredPaymentField[];
  readonly remittanceMaxLength: number;
}

/** One bank that payments can be sent to (a stand-alone bank or a group's subsidiary). */
export interface Bank extends ProviderFacts {
  readonly connector: ConnectorSettings;
  /** Set on a subsidiary: its group's parent entry. */
  readonly parentId: string | undefined;
  /** Set on a subsidiary: its group's name (a payer searching for the group finds its banks). */
  readonly groupName: string | undefined;
}

/** A parent of a bank group: listed, but never a payment's provider. */
export interface BankGroup extends ProviderFacts {
  readonly subsidiaries: readonly Bank[];
}

export type CatalogueEntry = (Bank & { readonly kind: 'bank' }) | (BankGroup & { readonly kind: 'group' });

export type ProviderLookup =
  { readonly kind: 'bank'; readonly bank: Bank } | { readonly kind: 'group'; readonly group: BankGroup } | { readonly kind: 'none' };

/** Where a bank is in its life (docs/adr/0011-banks-in-the-database.md). */
export type BankLifecycle =
  { readonly status: 'active' } | { readonly status: 'deprecated'; readonly replacedBy: string } | { readonly status: 'disabled' };

const ACTIVE: BankLifecycle = { status: 'active' };

/**
 * What the service reads of the banks: a {@link ProviderCatalogue} (one fixed snapshot) or the bank registry, whose
 * snapshot follows the database (src/providers/bank-registry.ts). Payers and merchants see the active banks only;
 * a payment already at a bank that was since disabled or replaced still finds it ({@link find}).
 */
export interface CatalogueView {
  /** Finds a bank or a bank group by id, in the given environment only, whatever its lifecycle (payments in flight). */
  find(id: string, environment: Environment): ProviderLookup;
  /**
   * The bank a new payment asking for this id goes to: an active one; a replaced (deprecated) id leads to its
   * replacement while that is active; a disabled id to none (docs/api-decisions.md, "Retired provider ids").
   */
  findForNewPayment(id: string, environment: Environment): ProviderLookup;
  /** Finds a bank or group whatever its environment and lifecycle (for public assets such as logos). */
  findInAnyEnvironment(id: string): ProviderLookup;
  /** Active top-level entries (stand-alone banks and group parents) of one environment, in catalogue order. */
  list(environment: Environment): readonly CatalogueEntry[];
  /** Every active bank a payment can go to (stand-alone banks and subsidiaries) of one environment. */
  banks(environment: Environment): readonly Bank[];
  /** The bank whose (resolved) connector settings these are, of this snapshot (metering names calls by bank). */
  bankOfSettings(settings: ConnectorSettings): Bank | undefined;
  /** A fingerprint of the active catalogue, used for ETags. */
  readonly version: string;
  /** Whether any bank is reached at the sandbox bank (its settings name `{SANDBOX_BANK_URL}`). */
  readonly usesSandboxBank: boolean;
}

/** A catalogue that cannot be used, with every problem found (each naming the provider it concerns). */
export class CatalogueError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid provider catalogue:\n  ${problems.join('\n  ')}`);
    this.name = 'CatalogueError';
  }
}

export class ProviderCatalogue implements CatalogueView {
  private readonly entries: readonly CatalogueEntry[];
  private readonly byId = new Map<string, ProviderLookup>();
  /** The lifecycle of every top-level entry and subsidiary (a subsidiary shares its group's). */
  private readonly lifecycles = new Map<string, BankLifecycle>();
  private readonly bySettings = new Map<ConnectorSettings, Bank>();
  readonly version: string;
  readonly usesSandboxBank: boolean;

  /**
   * @param lifecycles the lifecycle of each top-level entry by id; an entry not in it is active.
   * @throws CatalogueError listing every problem found.
   */
  constructor(file: CatalogueFile, sandboxBankUrl: string, lifecycles: ReadonlyMap<string, BankLifecycle> = new Map()) {
    const entries: CatalogueEntry[] = [];
    const problems: string[] = [];
    let usesSandboxBank = false;
    const resolveConnector = (settings: ConnectorSettings, bankName: string): ConnectorSettings => {
      const addressProblems = bankAddressProblems(settings);
      if (addressProblems.length > 0) problems.push(`Provider ${bankName}: its address cannot be used: ${addressProblems.join('; ')}`);
      const resolved = withSandboxBankUrl(settings, sandboxBankUrl);
      if (JSON.stringify(resolved) !== JSON.stringify(settings)) usesSandboxBank = true;
      return resolved;
    };
    let monograms = new Map<string, string>();
    try {
      monograms = assignMonograms(file.providers.flatMap((entry) => [entry, ...(entry.subsidiaries ?? [])]));
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
    const monogramOf = (id: string): string => monograms.get(id) ?? '';
    const checked = (check: () => RequiredPaymentField[]): RequiredPaymentField[] => {
      try {
        return check();
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
        return [];
      }
    };
    for (const entry of file.providers) {
      const { subsidiaries, connector, requiredPaymentFields: _listed, monogram: _monogram, popularRank, ...fields } = entry;
      const lifecycle = lifecycles.get(entry.id.toLowerCase()) ?? ACTIVE;
      if (subsidiaries !== undefined) {
        const banks = subsidiaries.map(
          ({ connector: subConnector, requiredPaymentFields: listed, monogram: _subMonogram, popularRank: subRank, ...sub }): Bank => ({
            ...sub,
            monogram: monogramOf(sub.id),
            popularRank: subRank,
            requiredPaymentFields: checked(() => checkedRequiredFields(sub, subConnector, listed)),
            connector: resolveConnector(subConnector, sub.name),
            parentId: entry.id,
            groupName: entry.name,
          }),
        );
        // A group asks for what any of its banks may ask for (payments go to one of them).
        const union = REQUIRED_PAYMENT_FIELDS.filter((field) => banks.some((bank) => bank.requiredPaymentFields.includes(field)));
        checked(() => {
          checkListed(entry, entry.requiredPaymentFields, union);
          return union;
        });
        const group: BankGroup = {
          ...fields,
          monogram: monogramOf(entry.id),
          popularRank,
          requiredPaymentFields: union,
          subsidiaries: banks,
        };
        entries.push({ kind: 'group', ...group });
        this.add(entry.id, { kind: 'group', group }, lifecycle, problems);
        for (const bank of group.subsidiaries) this.add(bank.id, { kind: 'bank', bank }, lifecycle, problems);
      } else {
        if (connector === undefined) {
          problems.push(`Provider ${entry.id} (${entry.name}) has no connector settings`);
          continue;
        }
        const bank: Bank = {
          ...fields,
          monogram: monogramOf(entry.id),
          popularRank,
          requiredPaymentFields: checked(() => checkedRequiredFields(entry, connector, entry.requiredPaymentFields)),
          connector: resolveConnector(connector, entry.name),
          parentId: undefined,
          groupName: undefined,
        };
        entries.push({ kind: 'bank', ...bank });
        this.add(bank.id, { kind: 'bank', bank }, lifecycle, problems);
      }
    }
    if (problems.length > 0) throw new CatalogueError(problems);
    this.entries = entries;
    this.usesSandboxBank = usesSandboxBank;
    const activeIds = entries.filter((entry) => this.isActive(entry.id)).map((entry) => entry.id);
    this.version = createHash('sha256').update(JSON.stringify({ file, activeIds })).digest('base64url').slice(0, 22);
  }

  private add(id: string, lookup: ProviderLookup, lifecycle: BankLifecycle, problems: string[]): void {
    const key = id.toLowerCase();
    if (this.byId.has(key)) {
      problems.push(`Provider id ${id} appears twice in the catalogue`);
      return;
    }
    this.byId.set(key, lookup);
    this.lifecycles.set(key, lifecycle);
    if (lookup.kind === 'bank') this.bySettings.set(lookup.bank.connector, lookup.bank);
  }

  private isActive(id: string): boolean {
    return (this.lifecycles.get(id.toLowerCase()) ?? ACTIVE).status === 'active';
  }

  /** The lifecycle of a top-level entry or subsidiary, undefined for an unknown id. */
  lifecycleOf(id: string): BankLifecycle | undefined {
    return this.lifecycles.get(id.toLowerCase());
  }

  find(id: string, environment: Environment): ProviderLookup {
    const found = this.byId.get(id.toLowerCase());
    if (found === undefined || found.kind === 'none') return { kind: 'none' };
    const foundEnvironment = found.kind === 'bank' ? found.bank.environment : found.group.environment;
    return foundEnvironment === environment ? found : { kind: 'none' };
  }

  findForNewPayment(id: string, environment: Environment): ProviderLookup {
    // A replacement may itself be replaced: followed a few steps, never round a loop.
    let current = id.toLowerCase();
    for (let step = 0; step < 8; step += 1) {
      const lifecycle = this.lifecycles.get(current);
      if (lifecycle === undefined || lifecycle.status === 'disabled') return { kind: 'none' };
      if (lifecycle.status === 'active') return this.find(current, environment);
      current = lifecycle.replacedBy.toLowerCase();
    }
    return { kind: 'none' };
  }

  findInAnyEnvironment(id: string): ProviderLookup {
    return this.byId.get(id.toLowerCase()) ?? { kind: 'none' };
  }

  list(environment: Environment): readonly CatalogueEntry[] {
    return this.entries.filter((entry) => entry.environment === environment && this.isActive(entry.id));
  }

  banks(environment: Environment): readonly Bank[] {
    return this.list(environment).flatMap((entry) => (entry.kind === 'group' ? entry.subsidiaries : [entry]));
  }

  /** Every top-level entry whatever its lifecycle or environment (the operator's views). */
  allEntries(): readonly CatalogueEntry[] {
    return this.entries;
  }

  bankOfSettings(settings: ConnectorSettings): Bank | undefined {
    return this.bySettings.get(settings);
  }
}

function checkedRequiredFields(
  provider: { readonly id: string; readonly name: string },
  connector: ConnectorSettings,
  listed: readonly RequiredPaymentField[] | undefined,
): RequiredPaymentField[] {
  const derived = requiredPaymentFieldsOf(connector);
  checkListed(provider, listed, derived);
  return derived;
}

/** An operator's catalogue may still list the fields; a list that disagrees with the settings is a mistake. */
function checkListed(
  provider: { readonly id: string; readonly name: string },
  listed: readonly RequiredPaymentField[] | undefined,
  derived: readonly RequiredPaymentField[],
): void {
  if (listed === undefined) return;
  const same = listed.length === derived.length && derived.every((field) => listed.includes(field));
  if (!same) {
    throw new Error(
      `Provider ${provider.id} (${provider.name}): requiredPaymentFields [${listed.join(', ')}] does not match its connector settings, ` +
        `which require [${derived.join(', ')}]; remove the list or correct it`,
    );
  }
}

/** Parses and validates a catalogue document; throws a CatalogueError with every problem found. */
export function parseCatalogue(document: unknown, sandboxBankUrl: string): ProviderCatalogue {
  return new ProviderCatalogue(checkedCatalogueDocument(document), sandboxBankUrl);
}

/** The document as a catalogue file, once its shape is right; throws a CatalogueError with every problem found. */
export function checkedCatalogueDocument(document: unknown): CatalogueFile {
  if (typeof document !== 'object' || document === null || !('providers' in document) || !Array.isArray(document.providers)) {
    throw new CatalogueError(['/providers must be an array of provider entries']);
  }
  const extra = Object.keys(document).filter((key) => key !== 'providers');
  const problems = [
    ...extra.map((key) => `/${key} is not a catalogue field`),
    ...(document.providers as unknown[]).flatMap((entry, index) => entryShapeProblems(entry, `/providers/${index}`)),
  ];
  if (problems.length > 0) throw new CatalogueError(problems);
  return document as CatalogueFile;
}

const BUILT_IN_CATALOGUE = new URL('./sandbox-catalogue.json', import.meta.url);

/** The catalogue document of the operator's file, or the built-in sandbox catalogue when none is given. */
export function readCatalogueDocument(file: string | undefined): unknown {
  return JSON.parse(readFileSync(file ?? BUILT_IN_CATALOGUE, 'utf8'));
}

/** The catalogue of a file (or the built-in one), as one fixed snapshot (tests, the stand-alone sandbox bank). */
export function loadCatalogue(file: string | undefined, sandboxBankUrl: string): ProviderCatalogue {
  return parseCatalogue(readCatalogueDocument(file), sandboxBankUrl);
}
