/**
 * The provider (bank) catalogue: banks as data. It is loaded once at start, validated against the schema
 * below, and held in memory; every process of a deployment loads the same file, so no cache can go stale.
 * The built-in catalogue (`sandbox-catalogue.json`) lists the sandbox banks; an operator points
 * `PROVIDER_CATALOGUE_FILE` at their own. See docs/adr/0003-provider-catalogue.md.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';

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

const ProviderEntrySchema = Type.Object(
  {
    ...ProviderFields,
    /** Parent of a bank group: payments go to one of its subsidiaries, never to the parent itself. */
    subsidiaries: Type.Optional(Type.Array(SubsidiarySchema, { minItems: 1 })),
    /** Required unless the entry is a bank-group parent. */
    connector: Type.Optional(ConnectorSettingsSchema),
  },
  { additionalProperties: false },
);

const CatalogueSchema = Type.Object({ providers: Type.Array(ProviderEntrySchema) }, { additionalProperties: false });

type CatalogueFile = Static<typeof CatalogueSchema>;

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

export class ProviderCatalogue {
  private readonly entries: readonly CatalogueEntry[];
  private readonly byId = new Map<string, ProviderLookup>();
  /** A fingerprint of the catalogue's content, used for ETags. */
  readonly version: string;
  /** Whether any bank is reached at the sandbox bank (its settings name `{SANDBOX_BANK_URL}`). */
  readonly usesSandboxBank: boolean;

  constructor(file: CatalogueFile, sandboxBankUrl: string) {
    const entries: CatalogueEntry[] = [];
    let usesSandboxBank = false;
    const resolveConnector = (settings: ConnectorSettings, bankName: string): ConnectorSettings => {
      const problems = bankAddressProblems(settings);
      if (problems.length > 0) throw new Error(`Provider ${bankName}: its address cannot be used: ${problems.join('; ')}`);
      const resolved = withSandboxBankUrl(settings, sandboxBankUrl);
      if (JSON.stringify(resolved) !== JSON.stringify(settings)) usesSandboxBank = true;
      return resolved;
    };
    const monograms = assignMonograms(file.providers.flatMap((entry) => [entry, ...(entry.subsidiaries ?? [])]));
    const monogramOf = (id: string): string => monograms.get(id) ?? '';
    for (const entry of file.providers) {
      const { subsidiaries, connector, requiredPaymentFields: _listed, monogram: _monogram, popularRank, ...fields } = entry;
      if (subsidiaries !== undefined) {
        const banks = subsidiaries.map(
          ({ connector: subConnector, requiredPaymentFields: listed, monogram: _subMonogram, popularRank: subRank, ...sub }): Bank => ({
            ...sub,
            monogram: monogramOf(sub.id),
            popularRank: subRank,
            requiredPaymentFields: checkedRequiredFields(sub, subConnector, listed),
            connector: resolveConnector(subConnector, sub.name),
            parentId: entry.id,
            groupName: entry.name,
          }),
        );
        // A group asks for what any of its banks may ask for (payments go to one of them).
        const union = REQUIRED_PAYMENT_FIELDS.filter((field) => banks.some((bank) => bank.requiredPaymentFields.includes(field)));
        checkListed(entry, entry.requiredPaymentFields, union);
        const group: BankGroup = {
          ...fields,
          monogram: monogramOf(entry.id),
          popularRank,
          requiredPaymentFields: union,
          subsidiaries: banks,
        };
        entries.push({ kind: 'group', ...group });
        this.add(entry.id, { kind: 'group', group });
        for (const bank of group.subsidiaries) this.add(bank.id, { kind: 'bank', bank });
      } else {
        if (connector === undefined) throw new Error(`Provider ${entry.id} (${entry.name}) has no connector settings`);
        const bank: Bank = {
          ...fields,
          monogram: monogramOf(entry.id),
          popularRank,
          requiredPaymentFields: checkedRequiredFields(entry, connector, entry.requiredPaymentFields),
          connector: resolveConnector(connector, entry.name),
          parentId: undefined,
          groupName: undefined,
        };
        entries.push({ kind: 'bank', ...bank });
        this.add(bank.id, { kind: 'bank', bank });
      }
    }
    this.entries = entries;
    this.usesSandboxBank = usesSandboxBank;
    this.version = createHash('sha256').update(JSON.stringify(file)).digest('base64url').slice(0, 22);
  }

  private add(id: string, lookup: ProviderLookup): void {
    if (this.byId.has(id)) throw new Error(`Provider id ${id} appears twice in the catalogue`);
    this.byId.set(id, lookup);
  }

  /** Finds a bank or a bank group by id, in the given environment only. */
  find(id: string, environment: Environment): ProviderLookup {
    const found = this.byId.get(id.toLowerCase());
    if (found === undefined || found.kind === 'none') return { kind: 'none' };
    const foundEnvironment = found.kind === 'bank' ? found.bank.environment : found.group.environment;
    return foundEnvironment === environment ? found : { kind: 'none' };
  }

  /** Finds a bank or group whatever its environment (for public assets such as logos). */
  findInAnyEnvironment(id: string): ProviderLookup {
    return this.byId.get(id.toLowerCase()) ?? { kind: 'none' };
  }

  /** Top-level entries (stand-alone banks and group parents) of one environment, in catalogue order. */
  list(environment: Environment): readonly CatalogueEntry[] {
    return this.entries.filter((entry) => entry.environment === environment);
  }

  /** Every bank a payment can go to (stand-alone banks and subsidiaries) of one environment. */
  banks(environment: Environment): readonly Bank[] {
    return this.list(environment).flatMap((entry) => (entry.kind === 'group' ? entry.subsidiaries : [entry]));
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

const checkCatalogue = Compile(CatalogueSchema);

/** Parses and validates a catalogue document; throws with every problem found. */
export function parseCatalogue(document: unknown, sandboxBankUrl: string): ProviderCatalogue {
  if (!checkCatalogue.Check(document)) {
    const problems = [...checkCatalogue.Errors(document)].slice(0, 20).map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new Error(`Invalid provider catalogue:\n  ${problems.join('\n  ')}`);
  }
  return new ProviderCatalogue(document, sandboxBankUrl);
}

const BUILT_IN_CATALOGUE = new URL('./sandbox-catalogue.json', import.meta.url);

export function loadCatalogue(file: string | undefined, sandboxBankUrl: string): ProviderCatalogue {
  const source = file ?? BUILT_IN_CATALOGUE;
  const document: unknown = JSON.parse(readFileSync(source, 'utf8'));
  return parseCatalogue(document, sandboxBankUrl);
}
