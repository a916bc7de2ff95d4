/**
 * Entry point of the connectors: the contract, the errors, the factory that picks a connector by the bank's
 * `connector.standard`, and each bank's profile. The flow engine creates one {@link Connectors} at start (with the
 * operator's TLS and signing keys) and asks it for the connector of each bank: `connectors.for(bank.connector)`.
 * Where no connector is at hand (the providers list), {@link bankProfile} and {@link offersAccountInformation} say
 * what a bank asks of the payer, from the same per-standard code the connector uses.
 */
import { Agent, getGlobalDispatcher, type Dispatcher } from 'undici';
import type { ConnectorSettings } from './settings.js';
import type { BankConnector, BankProfile } from './contract.js';
import { BerlinGroupConnector } from './berlin-group/berlin-group-connector.js';
import { berlinGroupProfile } from './berlin-group/profile.js';
import { BerlinGroupHttpClient, MAX_RESPONSE_BYTES, type ConnectorLogger } from './berlin-group/http-client.js';
import { RequestSigner, type SigningKeys } from './berlin-group/signing.js';

export * from './contract.js';
export * from './errors.js';
// The errors' message (with the field it is about) is the fuller one; the contract's is its subset.
export type { BankMessage } from './errors.js';
export type { ConnectorLogger } from './berlin-group/http-client.js';
export type { SigningKeys } from './berlin-group/signing.js';

/** Mutual TLS towards the banks (PEM strings): our client certificate (a QWAC in production) and trusted CAs. */
export interface TlsOptions {
  readonly cert?: string;
  readonly key?: string;
  /** CAs to trust instead of Node's defaults (a sandbox bank's self-signed CA, for example). */
  readonly ca?: string | readonly string[];
}

export interface ConnectorOptions {
  /** Keys for the standard's request signature; needed when any bank has `signRequests: true`. */
  readonly signing?: SigningKeys;
  /** Client certificate and CAs for mutual TLS. */
  readonly tls?: TlsOptions;
  /** Where connectors log each bank call (method, path, status, duration; never bodies). */
  readonly logger?: ConnectorLogger;
  /** The clock (for the signature's `Date` and consent validity); tests pass a fixed one. */
  readonly now?: () => Date;
  /** An undici dispatcher to use instead of the connectors' own (tests, proxies). Not closed by `close()`. */
  readonly dispatcher?: Dispatcher;
}

/** The connectors of one process: one connection pool and one signer shared by every bank. */
export interface Connectors {
  /** The connector for a bank's settings. Cheap: call it per use rather than keeping connectors around. */
  for(settings: ConnectorSettings): BankConnector;
  /** Closes the connection pool created for mutual TLS (if any). */
  close(): Promise<void>;
}

type ConnectorBuilder = (settings: ConnectorSettings, shared: SharedDependencies) => BankConnector;

interface SharedDependencies {
  readonly dispatcher: Dispatcher;
  readonly signer: RequestSigner | undefined;
  readonly logger: ConnectorLogger | undefined;
  readonly now: () => Date;
}

/** One builder per banking standard; a new standard adds its entry here (docs/adding-a-connector.md). */
const BUILDERS: Readonly<Record<ConnectorSettings['standard'], ConnectorBuilder>> = {
  'berlin-group': (settings, shared) =>
    new BerlinGroupConnector(
      settings,
      new BerlinGroupHttpClient(settings, {
        dispatcher: shared.dispatcher,
        signer: shared.signer,
        logger: shared.logger,
        now: shared.now,
      }),
      shared.now,
    ),
};

/** What a standard says of a bank without calling it, from the bank's settings alone. */
interface StandardDescription {
  readonly profile: (settings: ConnectorSettings) => BankProfile;
  /** Whether the bank's connector has the account information capability. */
  readonly offersAccountInformation: (settings: ConnectorSettings) => boolean;
}

/** One description per banking standard, beside its builder (docs/adding-a-connector.md). */
const DESCRIPTIONS: Readonly<Record<ConnectorSettings['standard'], StandardDescription>> = {
  'berlin-group': {
    profile: (settings) => berlinGroupProfile(settings),
    offersAccountInformation: (settings) => settings.accountInformation,
  },
};

/** What a bank asks of the payer and the flow: the profile its connector would have, without creating one. */
export function bankProfile(settings: ConnectorSettings): BankProfile {
  return DESCRIPTIONS[settings.standard].profile(settings);
}

/** Whether the bank's connector offers account information (so the payer may choose the sender account from a list). */
export function offersAccountInformation(settings: ConnectorSettings): boolean {
  return DESCRIPTIONS[settings.standard].offersAccountInformation(settings);
}

export function createConnectors(options: ConnectorOptions = {}): Connectors {
  const ownAgent =
    options.dispatcher === undefined && options.tls !== undefined
      ? new Agent({
          connect: {
            ...(options.tls.cert === undefined ? {} : { cert: options.tls.cert }),
            ...(options.tls.key === undefined ? {} : { key: options.tls.key }),
            ...(options.tls.ca === undefined ? {} : { ca: typeof options.tls.ca === 'string' ? options.tls.ca : [...options.tls.ca] }),
          },
          maxResponseSize: MAX_RESPONSE_BYTES,
        })
      : undefined;
  const shared: SharedDependencies = {
    dispatcher: options.dispatcher ?? ownAgent ?? getGlobalDispatcher(),
    signer: options.signing === undefined ? undefined : new RequestSigner(options.signing),
    logger: options.logger,
    now: options.now ?? (() => new Date()),
  };
  return {
    for(settings) {
      if (settings.signRequests === true && shared.signer === undefined) {
        throw new Error(`The bank at ${settings.baseUrl} requires signed requests, but no signing keys are configured`);
      }
      return BUILDERS[settings.standard](settings, shared);
    },
    async close() {
      await ownAgent?.close();
    },
  };
}

/** A connector for one bank with its own dependencies (scripts and tests; the service uses `createConnectors`). */
export function createConnector(settings: ConnectorSettings, options: ConnectorOptions = {}): BankConnector {
  return createConnectors(options).for(settings);
}
