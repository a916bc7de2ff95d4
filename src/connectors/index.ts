/**
 * Entry point of the connectors: the contract, the errors, the factory that picks a connector by the bank's
 * `connector.standard`, and each bank's profile. The flow engine creates one {@link Connectors} at start (with the
 * operator's TLS and signing keys) and asks it for the connector of each bank: `connectors.for(bank.connector)`.
 * Where no connector is at hand (the providers list), {@link bankProfile} and {@link offersAccountInformation} say
 * what a bank asks of the payer, from the same per-standard code the connector uses.
 */
import { Agent, getGlobalDispatcher, type Dispatcher } from 'undici';
import type { ConnectorSettings, Standard } from './settings.js';
import type { BankConnector, BankProfile, SettingsOf } from './contract.js';
import { BerlinGroupConnector } from './berlin-group/berlin-group-connector.js';
import { berlinGroupProfile } from './berlin-group/profile.js';
import { BerlinGroupHttpClient, type ConnectorLogger } from './berlin-group/http-client.js';
import { bankAddressProblem, MAX_RESPONSE_BYTES } from './transport.js';
import { RequestSigner, type SigningKeys } from './berlin-group/signing.js';
import { createUkOpenBankingConnector, ukOpenBankingProfile, withSandboxBankUrl as withUkSandboxBankUrl } from './uk-open-banking/index.js';
import type { SigningKeys as UkSigningKeys } from './uk-open-banking/jose.js';

export * from './contract.js';
export * from './errors.js';
// The errors' message (with the field it is about) is the fuller one; the contract's is its subset.
export type { BankMessage } from './errors.js';
export type { ConnectorLogger } from './berlin-group/http-client.js';
export type { SigningKeys } from './berlin-group/signing.js';
export type { SigningKeys as OpenBankingSigningKeys } from './uk-open-banking/jose.js';

/** Mutual TLS towards the banks (PEM strings): our client certificate (a QWAC in production) and trusted CAs. */
export interface TlsOptions {
  readonly cert?: string;
  readonly key?: string;
  /** CAs to trust instead of Node's defaults (a sandbox bank's self-signed CA, for example). */
  readonly ca?: string | readonly string[];
}

export interface ConnectorOptions {
  /** Keys for the Berlin Group request signature; needed when any bank has `signRequests: true`. */
  readonly signing?: SigningKeys;
  /** Our UK Open Banking signing key (PS256) and its `kid`: client assertions, request objects, message signatures. */
  readonly openBankingKeys?: UkSigningKeys;
  /** Client certificate and CAs for mutual TLS, for every standard without its own in `tlsByStandard`. */
  readonly tls?: TlsOptions;
  /** A standard's own client certificate and CAs (a Berlin Group QWAC, a UK transport certificate). */
  readonly tlsByStandard?: { readonly [S in Standard]?: TlsOptions };
  /** Where connectors log each bank call (method, path, status, duration; never bodies). */
  readonly logger?: ConnectorLogger;
  /** The clock (for the signature's `Date` and consent validity); tests pass a fixed one. */
  readonly now?: () => Date;
  /** An undici dispatcher to use instead of the connectors' own (tests, proxies). Not closed by `close()`. */
  readonly dispatcher?: Dispatcher;
}

/**
 * Whom a connector's calls serve: kept with the records of bank calls (src/observability/bank-call-records.ts),
 * never sent to the bank.
 */
export interface BankCallCaller {
  /** The catalogue's bank id. */
  readonly bankId: string;
  readonly clientId: string;
  readonly paymentId: string;
}

/** The connectors of one process: one connection pool and one signer shared by every bank. */
export interface Connectors {
  /**
   * The connector for a bank's settings. Cheap: call it per use rather than keeping connectors around. `caller`
   * says whom its calls serve (for the records of bank calls; the connectors themselves ignore it).
   */
  for(settings: ConnectorSettings, caller?: BankCallCaller): BankConnector;
  /** Closes the connection pool created for mutual TLS (if any). */
  close(): Promise<void>;
}

interface SharedDependencies {
  readonly dispatcher: Dispatcher;
  readonly signer: RequestSigner | undefined;
  readonly openBankingKeys: UkSigningKeys | undefined;
  readonly logger: ConnectorLogger | undefined;
  readonly now: () => Date;
}

/** What a standard provides: its connector, and what it says of a bank from the settings alone. */
interface StandardEntry<S extends Standard> {
  readonly build: (settings: SettingsOf<S>, shared: SharedDependencies) => BankConnector;
  /** The profile the bank's connector would have, without creating one (the providers list, pages). */
  readonly profile: (settings: SettingsOf<S>) => BankProfile;
  /** Whether the bank's connector has the account information capability. */
  readonly offersAccountInformation: (settings: SettingsOf<S>) => boolean;
  /** The settings with `{SANDBOX_BANK_URL}` replaced in every address. */
  readonly withSandboxBankUrl: (settings: SettingsOf<S>, sandboxBankUrl: string) => SettingsOf<S>;
  /** Every address of the bank in the settings (checked by {@link bankAddressProblems}). */
  readonly addresses: (settings: SettingsOf<S>) => readonly string[];
}

/** One entry per banking standard; a new standard adds its entry here (docs/adding-a-connector.md). */
const STANDARDS: { readonly [S in Standard]: StandardEntry<S> } = {
  'berlin-group': {
    build: (settings, shared) => {
      if (settings.signRequests === true && shared.signer === undefined) {
        throw new Error(`The bank at ${settings.baseUrl} requires signed requests, but no signing keys are configured`);
      }
      return new BerlinGroupConnector(
        settings,
        new BerlinGroupHttpClient(settings, {
          dispatcher: shared.dispatcher,
          signer: shared.signer,
          logger: shared.logger,
          now: shared.now,
        }),
        shared.now,
      );
    },
    profile: (settings) => berlinGroupProfile(settings),
    offersAccountInformation: (settings) => settings.accountInformation,
    withSandboxBankUrl: (settings, sandboxBankUrl) => ({
      ...settings,
      baseUrl: settings.baseUrl.replace('{SANDBOX_BANK_URL}', sandboxBankUrl),
    }),
    addresses: (settings) => [settings.baseUrl],
  },
  'uk-open-banking': {
    build: (settings, shared) => {
      if (shared.openBankingKeys === undefined) {
        throw new Error(
          `The UK Open Banking bank at ${settings.issuer} needs our signing key, but none is configured (OB_SIGNING_KEY_FILE)`,
        );
      }
      return createUkOpenBankingConnector(settings, {
        dispatcher: shared.dispatcher,
        ...(shared.logger === undefined ? {} : { logger: shared.logger }),
        now: shared.now,
        keys: shared.openBankingKeys,
      });
    },
    profile: (settings) => ukOpenBankingProfile(settings),
    offersAccountInformation: () => false,
    withSandboxBankUrl: (settings, sandboxBankUrl) => withUkSandboxBankUrl(settings, sandboxBankUrl),
    addresses: (settings) => [settings.issuer, settings.resourceBaseUrl],
  },
};

/** The entry of the settings' standard. Each entry takes exactly its own standard's settings, so the cast is safe. */
function entryFor(settings: ConnectorSettings): StandardEntry<Standard> {
  return STANDARDS[settings.standard] as unknown as StandardEntry<Standard>;
}

/** What a bank asks of the payer and the flow: the profile its connector would have, without creating one. */
export function bankProfile(settings: ConnectorSettings): BankProfile {
  return entryFor(settings).profile(settings);
}

/** Whether the bank's connector offers account information (so the payer may choose the sender account from a list). */
export function offersAccountInformation(settings: ConnectorSettings): boolean {
  return entryFor(settings).offersAccountInformation(settings);
}

/**
 * Why the bank's configured addresses cannot be used (empty when they can): each must be https, or plain http to
 * this machine. Addresses written with `{SANDBOX_BANK_URL}` are the operator's own sandbox bank and follow
 * SANDBOX_BANK_URL (plain http there is a local or sandbox-only trial, which BASE_URL's own check governs). The
 * catalogue asks this as it loads, so a production bank on plain http stops the start, not a payment.
 */
export function bankAddressProblems(settings: ConnectorSettings): string[] {
  return entryFor(settings)
    .addresses(settings)
    .filter((address) => !address.startsWith('{SANDBOX_BANK_URL}'))
    .flatMap((address) => {
      const problem = bankAddressProblem(address);
      return problem === undefined ? [] : [problem];
    });
}

/** The settings with the sandbox bank's address put in for `{SANDBOX_BANK_URL}` (the catalogue does it at load). */
export function withSandboxBankUrl(settings: ConnectorSettings, sandboxBankUrl: string): ConnectorSettings {
  return entryFor(settings).withSandboxBankUrl(settings, sandboxBankUrl);
}

export function createConnectors(options: ConnectorOptions = {}): Connectors {
  // One connection pool per distinct TLS identity (a standard's own, else the shared one); none without mutual TLS.
  const ownAgents: Agent[] = [];
  const agentFor = (tls: TlsOptions | undefined): Dispatcher | undefined => {
    if (options.dispatcher !== undefined || tls === undefined) return undefined;
    const agent = new Agent({
      connect: {
        ...(tls.cert === undefined ? {} : { cert: tls.cert }),
        ...(tls.key === undefined ? {} : { key: tls.key }),
        ...(tls.ca === undefined ? {} : { ca: typeof tls.ca === 'string' ? tls.ca : [...tls.ca] }),
      },
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
    ownAgents.push(agent);
    return agent;
  };
  const sharedDispatcher = options.dispatcher ?? agentFor(options.tls) ?? getGlobalDispatcher();
  const dispatchers = new Map<Standard, Dispatcher>();
  for (const standard of Object.keys(STANDARDS) as Standard[]) {
    dispatchers.set(standard, agentFor(options.tlsByStandard?.[standard]) ?? sharedDispatcher);
  }
  const shared: SharedDependencies = {
    dispatcher: sharedDispatcher,
    signer: options.signing === undefined ? undefined : new RequestSigner(options.signing),
    openBankingKeys: options.openBankingKeys,
    logger: options.logger,
    now: options.now ?? (() => new Date()),
  };
  return {
    for(settings) {
      return entryFor(settings).build(settings, { ...shared, dispatcher: dispatchers.get(settings.standard) ?? sharedDispatcher });
    },
    async close() {
      await Promise.all(ownAgents.map((agent) => agent.close()));
    },
  };
}

/** A connector for one bank with its own dependencies (scripts and tests; the service uses `createConnectors`). */
export function createConnector(settings: ConnectorSettings, options: ConnectorOptions = {}): BankConnector {
  return createConnectors(options).for(settings);
}
