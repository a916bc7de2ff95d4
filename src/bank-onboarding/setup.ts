/**
 * What the go-live tools (`openpis banks register`, `openpis banks check`) work from: the service's configuration,
 * the banks of the database (as `openpis banks add` left them, with their stored registrations), and our identity
 * towards the banks, read from the same files the service reads at start — so a bank that registers and checks
 * here is reached by the service the same way.
 */
import type { Dispatcher } from 'undici';
import type { Config } from '../config/config.js';
import type { ConnectorSettings } from '../connectors/settings.js';
import type { UkOpenBankingSettings } from '../connectors/uk-open-banking/settings.js';
import { mutualTlsAgent, type TlsOptions } from '../connectors/transport.js';
import { loadSigningKeys } from '../connectors/uk-open-banking/keys.js';
import type { SigningKeys } from '../connectors/uk-open-banking/jose.js';
import { loadBankIdentity, type BankIdentity } from '../identity/identity.js';
import type { Bank, CatalogueView } from '../providers/catalogue.js';

export interface OnboardingSetup {
  readonly config: Config;
  readonly identity: BankIdentity;
  /** Every bank of the database by provider id (sandbox and production). */
  readonly bank: (bankId: string) => Bank;
  readonly now: () => Date;
}

/** A bank the operator named that the database does not have, or has under another standard: the message says which. */
export class OnboardingError extends Error {
  override readonly name = 'OnboardingError';
}

export function onboardingSetup(
  config: Config,
  banks: Pick<CatalogueView, 'findInAnyEnvironment'>,
  now: () => Date = () => new Date(),
): OnboardingSetup {
  const identity = loadBankIdentity(config.bankIdentity);
  return {
    config,
    identity,
    now,
    bank: (bankId) => {
      const found = banks.findInAnyEnvironment(bankId);
      if (found.kind !== 'bank') throw new OnboardingError(`No bank ${bankId} in the bank list (openpis banks list shows them)`);
      return found.bank;
    },
  };
}

/** The bank's UK settings, or an error saying it is of another standard. */
export function ukSettingsOf(bank: Bank): UkOpenBankingSettings {
  const settings: ConnectorSettings = bank.connector;
  if (settings.standard !== 'uk-open-banking')
    throw new OnboardingError(`${bank.id} is a ${settings.standard} bank: dynamic client registration is UK Open Banking's`);
  return settings;
}

/** Our TLS towards a bank of this standard: its client certificate (QWAC, or the UK transport certificate) and BANK_CA_FILE. */
export function tlsFor(identity: BankIdentity, standard: ConnectorSettings['standard']): TlsOptions {
  const pair = standard === 'uk-open-banking' ? identity.openBankingTransport : identity.qwac;
  return {
    ...(pair === undefined ? {} : { cert: pair.certificatePem, key: pair.privateKeyPem }),
    ...(identity.bankCas === undefined ? {} : { ca: identity.bankCas }),
  };
}

/** A connection pool presenting our certificate for this standard (closed by the caller). */
export function dispatcherFor(identity: BankIdentity, standard: ConnectorSettings['standard']): Dispatcher {
  return mutualTlsAgent(tlsFor(identity, standard));
}

/** The operator's UK signing key (OB_SIGNING_KEY_FILE, OB_SIGNING_KEY_ID): a live bank knows no other. */
export async function operatorSigningKeys(config: Config): Promise<SigningKeys> {
  if (config.openBankingSigningKey === undefined)
    throw new OnboardingError('Set OB_SIGNING_KEY_FILE and OB_SIGNING_KEY_ID: the key your software statement publishes');
  return loadSigningKeys(config.openBankingSigningKey);
}
