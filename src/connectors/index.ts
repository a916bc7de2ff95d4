/**
 * Entry point of the connectors: the contract, the errors, the factory that picks a connector by the bank's
 * `connector.standard`, and each bank's profile. The flow engine creates one {@link Connectors} at start (with the
 * operator's TLS and signing keys) and asks it for the connector of each bank: `connectors.for(bank.connector)`.
 * Each standard's entry in the registry below says how it is built, which of our keys it uses (its `credentials`
 * hook), and what it says of a bank from the settings alone.
 * Where no connector is at hand (the providers list), {@link bankProfile} and {@link offersAccountInformation} say
 * what a bank asks of the payer, from the same per-standard code the connector uses.
 */
import { randomUUID, X509Certificate } from 'node:crypto';
import { getGlobalDispatcher, type Agent, type Dispatcher } from 'undici';
import type { ConnectorSettings, Standard } from './settings.js';
import { toBankReference, type BankConnector, type BankProfile, type BankReference, type SettingsOf } from './contract.js';
import { BerlinGroupConnector } from './berlin-group/berlin-group-connector.js';
import { berlinGroupProfile } from './berlin-group/profile.js';
import { paymentReference } from './berlin-group/references.js';
import { BerlinGroupHttpClient } from './berlin-group/http-client.js';
import type { ConnectorLogger } from './http/core.js';
import { TokenCache } from './http/oauth2.js';
import { bankAddressProblem, mutualTlsAgent, type TlsOptions } from './transport.js';
import { RequestSigner, type SigningKeys } from './berlin-group/signing.js';
import { createUkOpenBankingConnector, ukOpenBankingProfile, withSandboxBankUrl as withUkSandboxBankUrl } from './uk-open-banking/index.js';
import type { SigningKeys as UkSigningKeys } from './uk-open-banking/jose.js';

export * from './contract.js';
export * from './errors.js';
// The errors' message (with the field it is about) is the fuller one; the contract's is its subset.
export type { BankMessage } from './errors.js';
export type { ConnectorLogger } from './http/core.js';
export type { TlsOptions } from './transport.js';
export type { SigningKeys } from './berlin-group/signing.js';
export type { SigningKeys as OpenBankingSigningKeys } from './uk-open-banking/jose.js';

/**
 * Our identity towards a bank: every key and certificate a standard may need. Each standard's `credentials` hook
 * takes from it what that standard uses (and says what is missing).
 */
export interface ConnectorIdentity {
  /** Berlin Group request signing (a QSealC in production). */
  readonly signing?: SigningKeys;
  /** UK Open Banking: our PS256 signing key and its Directory `kid`. */
  readonly openBankingKeys?: UkSigningKeys;
  /** Mutual TLS (a QWAC or OBWAC in production). */
  readonly tls?: TlsOptions;
}

/**
 * Our identity towards one bank. The default is the process's (`signing`, `openBankingKeys`, `tls` of
 * {@link ConnectorOptions}) for every bank; a resolver may give a bank its own (identities from files, per-bank
 * overrides). Return the same objects for the same identity: signers, connection pools and tokens are kept per
 * identity object.
 */
export type IdentityResolver = (settings: ConnectorSettings, processIdentity: ConnectorIdentity) => ConnectorIdentity;

export interface ConnectorOptions {
  /** Keys for the Berlin Group request signature; needed when any bank has `signRequests: true`. */
  readonly signing?: SigningKeys;
  /** Our UK Open Banking signing key (PS256) and its `kid`: client assertions, request objects, message signatures. */
  readonly openBankingKeys?: UkSigningKeys;
  /** Client certificate and CAs for mutual TLS. */
  readonly tls?: TlsOptions;
  /** Where connectors log each bank call (method, path, status, duration; never bodies). */
  readonly logger?: ConnectorLogger;
  /** The clock (for the signature's `Date` and consent validity); tests pass a fixed one. */
  readonly now?: () => Date;
  /** An undici dispatcher to use instead of the connectors' own (tests, proxies). Not closed by `close()`. */
  readonly dispatcher?: Dispatcher;
  /** Our identity per bank; by default the process's for every bank. */
  readonly identity?: IdentityResolver;
  /** The client-credentials tokens; by default one cache for this `Connectors`. */
  readonly tokens?: TokenCache;
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
  /** The connection pool for an identity's TLS (the process's own, or one per identity with its own certificate). */
  readonly dispatcherFor: (tls: TlsOptions | undefined) => Dispatcher;
  /** The Berlin Group signer of a signing key pair (made once per key pair). */
  readonly signerFor: (keys: SigningKeys) => RequestSigner;
  readonly tokens: TokenCache;
  readonly logger: ConnectorLogger | undefined;
  readonly now: () => Date;
}

/** Each standard's credentials: what its connector needs of our identity. */
export interface CredentialsByStandard {
  readonly 'berlin-group': { readonly signing: SigningKeys | undefined; readonly tls: TlsOptions | undefined };
  readonly 'uk-open-banking': { readonly keys: UkSigningKeys; readonly tls: TlsOptions | undefined };
}

/** The credentials a standard's connector is built with. */
export type CredentialsOf<S extends Standard> = CredentialsByStandard[S];

/** What a standard provides: its connector, and what it says of a bank from the settings alone. */
interface StandardEntry<S extends Standard> {
  /**
   * The keys hook: our credentials towards this bank, from its settings and our identity. The one place a standard
   * picks its keys; throws when a key the bank needs is missing (naming the setting that provides it).
   */
  readonly credentials: (settings: SettingsOf<S>, identity: ConnectorIdentity) => CredentialsOf<S>;
  readonly build: (settings: SettingsOf<S>, credentials: CredentialsOf<S>, shared: SharedDependencies) => BankConnector;
  /** The profile the bank's connector would have, without creating one (the providers list, pages). */
  readonly profile: (settings: SettingsOf<S>) => BankProfile;
  /** Whether the bank's connector has the account information capability. */
  readonly offersAccountInformation: (settings: SettingsOf<S>) => boolean;
  /** The settings with `{SANDBOX_BANK_URL}` replaced in every address. */
  readonly withSandboxBankUrl: (settings: SettingsOf<S>, sandboxBankUrl: string) => SettingsOf<S>;
  /** Every address of the bank in the settings (checked by {@link bankAddressProblems}). */
  readonly addresses: (settings: SettingsOf<S>) => readonly string[];
  /** A reference to a payment the bank cannot hold (a fresh random id): see {@link absentPaymentReference}. */
  readonly absentPaymentReference: (settings: SettingsOf<S>) => BankReference;
}

/** One entry per banking standard; a new standard adds its entry here (docs/adding-a-connector.md). */
const STANDARDS: { readonly [S in Standard]: StandardEntry<S> } = {
  'berlin-group': {
    credentials: (settings, identity) => {
      if (settings.signRequests === true && identity.signing === undefined) {
        throw new Error(`The bank at ${settings.baseUrl} requires signed requests, but no signing keys are configured`);
      }
      return { signing: identity.signing, tls: identity.tls };
    },
    build: (settings, credentials, shared) =>
      new BerlinGroupConnector(
        settings,
        new BerlinGroupHttpClient(settings, {
          dispatcher: shared.dispatcherFor(credentials.tls),
          signer: credentials.signing === undefined ? undefined : shared.signerFor(credentials.signing),
          logger: shared.logger,
          now: shared.now,
        }),
        shared.now,
      ),
    profile: (settings) => berlinGroupProfile(settings),
    offersAccountInformation: (settings) => settings.accountInformation,
    withSandboxBankUrl: (settings, sandboxBankUrl) => ({
      ...settings,
      baseUrl: settings.baseUrl.replace('{SANDBOX_BANK_URL}', sandboxBankUrl),
    }),
    addresses: (settings) => [settings.baseUrl],
    absentPaymentReference: (settings) =>
      paymentReference({
        kind: 'payment',
        paymentId: randomUUID(),
        paymentService: 'payments',
        paymentProduct: Object.values(settings.products).find((product) => product !== undefined) ?? 'sepa-credit-transfers',
        links: {},
      }),
  },
  'uk-open-banking': {
    credentials: (settings, identity) => {
      if (identity.openBankingKeys === undefined) {
        throw new Error(
          `The UK Open Banking bank at ${settings.issuer} needs our signing key, but none is configured (OB_SIGNING_KEY_FILE)`,
        );
      }
      return { keys: identity.openBankingKeys, tls: identity.tls };
    },
    build: (settings, credentials, shared) =>
      createUkOpenBankingConnector(settings, {
        dispatcher: shared.dispatcherFor(credentials.tls),
        ...(shared.logger === undefined ? {} : { logger: shared.logger }),
        now: shared.now,
        keys: credentials.keys,
        tokens: shared.tokens,
        ...(credentials.tls === undefined ? {} : certificateFingerprint(credentials.tls)),
      }),
    profile: (settings) => ukOpenBankingProfile(settings),
    offersAccountInformation: () => false,
    withSandboxBankUrl: (settings, sandboxBankUrl) => withUkSandboxBankUrl(settings, sandboxBankUrl),
    addresses: (settings) => [settings.issuer, settings.resourceBaseUrl],
    // A consent that was never created: reading it asks for a client-credentials token first, as every call does.
    absentPaymentReference: () => toBankReference({ consentId: randomUUID(), initiation: {}, risk: {} }),
  },
};

const fingerprints = new WeakMap<TlsOptions, string>();

/** The SHA-256 fingerprint of the client certificate of `tls`, if any (read once per identity: connectors are built per run). */
function certificateFingerprint(tls: TlsOptions): { transportCertificateFingerprint?: string } {
  if (tls.cert === undefined) return {};
  let fingerprint = fingerprints.get(tls);
  if (fingerprint === undefined) {
    fingerprint = new X509Certificate(tls.cert).fingerprint256;
    fingerprints.set(tls, fingerprint);
  }
  return { transportCertificateFingerprint: fingerprint };
}

/** The entry of the settings' standard. Each entry takes exactly its own standard's settings, so the cast is safe. */
function entryFor(settings: ConnectorSettings): StandardEntry<Standard> {
  return STANDARDS[settings.standard] as unknown as StandardEntry<Standard>;
}

/** What a bank asks of the payer and the flow: the profile its connector would have, without creating one. */
export function bankProfile(settings: ConnectorSettings): BankProfile {
  return entryFor(settings).profile(settings);
}

/**
 * A reference to a payment the bank does not hold (a fresh random id), in the shape the bank's connector reads.
 * Reading it is the one request a check may send a live bank: the bank sees our certificate, signature or token and
 * can only answer that it knows no such payment, or refuse us; nothing is created.
 */
export function absentPaymentReference(settings: ConnectorSettings): BankReference {
  return entryFor(settings).absentPaymentReference(settings);
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

/** Our credentials towards a bank as its standard's keys hook chooses them (throws when a needed key is missing). */
export function connectorCredentials(settings: ConnectorSettings, identity: ConnectorIdentity): CredentialsOf<Standard> {
  return entryFor(settings).credentials(settings, identity);
}

export function createConnectors(options: ConnectorOptions = {}): Connectors {
  const processIdentity: ConnectorIdentity = {
    ...(options.signing === undefined ? {} : { signing: options.signing }),
    ...(options.openBankingKeys === undefined ? {} : { openBankingKeys: options.openBankingKeys }),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  };
  // Pools and signers per identity object: the process's identity makes one of each, however many banks use it.
  const agents = new Map<TlsOptions, Agent>();
  const signers = new WeakMap<SigningKeys, RequestSigner>();
  const shared: SharedDependencies = {
    dispatcherFor: (tls) => {
      if (options.dispatcher !== undefined) return options.dispatcher;
      if (tls === undefined) return getGlobalDispatcher();
      let agent = agents.get(tls);
      if (agent === undefined) {
        agent = mutualTlsAgent(tls);
        agents.set(tls, agent);
      }
      return agent;
    },
    signerFor: (keys) => {
      let signer = signers.get(keys);
      if (signer === undefined) {
        signer = new RequestSigner(keys);
        signers.set(keys, signer);
      }
      return signer;
    },
    tokens: options.tokens ?? new TokenCache(options.now === undefined ? {} : { now: options.now }),
    logger: options.logger,
    now: options.now ?? (() => new Date()),
  };
  // The process's keys are checked at start (a key not matching its certificate stops the start, not a payment).
  if (options.signing !== undefined) shared.signerFor(options.signing);
  if (options.dispatcher === undefined && options.tls !== undefined) shared.dispatcherFor(options.tls);
  const identityOf = (settings: ConnectorSettings): ConnectorIdentity => options.identity?.(settings, processIdentity) ?? processIdentity;
  return {
    for(settings) {
      const entry = entryFor(settings);
      return entry.build(settings, entry.credentials(settings, identityOf(settings)), shared);
    },
    async close() {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
      agents.clear();
    },
  };
}

/** A connector for one bank with its own dependencies (scripts and tests; the service uses `createConnectors`). */
export function createConnector(settings: ConnectorSettings, options: ConnectorOptions = {}): BankConnector {
  return createConnectors(options).for(settings);
}
