/**
 * What the go-live tools (`openpis banks register`, `openpis banks check`) work from: the service's configuration,
 * the banks of the database (as `openpis banks add` left them, with their stored registrations), and our identity
 * towards the banks, read from the same files the service reads at start — so a bank that registers and checks
 * here is reached by the service the same way.
 */
import type { Config } from '../config/config.js';
import type { ConnectorIdentity } from '../connectors/index.js';
import type { ConnectorSettings } from '../connectors/settings.js';
import type { UkOpenBankingSettings } from '../connectors/uk-open-banking/settings.js';
import { loadSigningKeys } from '../connectors/uk-open-banking/keys.js';
import { BankIdentities } from '../identity/bank-identities.js';
import { BankIdentityError, loadBankIdentity, type BankIdentity, type CertificateReport } from '../identity/identity.js';
import type { Bank, CatalogueView } from '../providers/catalogue.js';

export interface OnboardingSetup {
  readonly config: Config;
  /**
   * The process's identity (BANK_*, QWAC_*, QSEAL_*, OB_* settings): the SSA, and what a bank entry does not replace.
   * Reading it throws the BankIdentityError of files that cannot be used.
   */
  readonly identity: BankIdentity;
  /** Every bank of the database by provider id (sandbox and production). */
  readonly bank: (bankId: string) => Bank;
  /**
   * What reaches this bank, exactly as the service reaches it: the process's identity with the bank entry's own files
   * in place of what they replace (src/identity/bank-identities.ts), and the certificates it is made of.
   */
  readonly reach: (bank: Bank) => Promise<BankReach>;
  readonly now: () => Date;
}

export interface BankReach {
  readonly identity: ConnectorIdentity;
  /** The certificates towards this bank with their validity now, each naming the bank when its entry's own. */
  readonly certificates: readonly CertificateReport[];
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
  // Files that cannot be used are the answer to every question about them: `banks check` reports it as its identity
  // line (as for a bank entry's own files), `banks register` stops with it.
  let loaded: BankIdentity | BankIdentityError;
  try {
    loaded = loadBankIdentity(config.bankIdentity);
  } catch (error) {
    if (!(error instanceof BankIdentityError)) throw error;
    loaded = error;
  }
  const usable = (): BankIdentity => {
    if (loaded instanceof BankIdentityError) throw loaded;
    return loaded;
  };
  // Made as the service makes it at start (src/composition.ts), once, on first use: the UK signing key is read then.
  // Without OB_SIGNING_KEY_FILE the service signs with a key of its own making, which no live bank knows: here, none.
  let identities: Promise<BankIdentities> | undefined;
  const identitiesOnce = (): Promise<BankIdentities> =>
    (identities ??= (async () => {
      const keys = config.openBankingSigningKey === undefined ? undefined : await loadSigningKeys(config.openBankingSigningKey);
      return new BankIdentities(usable(), keys);
    })());
  return {
    config,
    get identity() {
      return usable();
    },
    now,
    bank: (bankId) => {
      const found = banks.findInAnyEnvironment(bankId);
      if (found.kind !== 'bank') throw new OnboardingError(`No bank ${bankId} in the bank list (openpis banks list shows them)`);
      return found.bank;
    },
    reach: async (bank) => {
      usable();
      return (await identitiesOnce()).forBank(bank, now());
    },
  };
}

/**
 * Where a bank sends the payer back to us: the one fixed return address of the service (`{BASE_URL}/pay/return`,
 * src/flow/steps/callback.ts), which a UK bank accepts only when it is among the client's registered redirect URIs.
 */
export function payerReturnAddress(config: Pick<Config, 'baseUrl'>): string {
  return `${config.baseUrl}/pay/return`;
}

/** The bank's UK settings, or an error saying it is of another standard. */
export function ukSettingsOf(bank: Bank): UkOpenBankingSettings {
  const settings: ConnectorSettings = bank.connector;
  if (settings.standard !== 'uk-open-banking')
    throw new OnboardingError(`${bank.id} is a ${settings.standard} bank: dynamic client registration is UK Open Banking's`);
  return settings;
}

/** The UK signing key towards this bank (the bank entry's `identity.signingKey`, else OB_SIGNING_KEY_FILE/_ID). */
export function ukSigningKeysOf(reach: BankReach): NonNullable<ConnectorIdentity['openBankingKeys']> {
  if (reach.identity.openBankingKeys === undefined)
    throw new OnboardingError(
      "Set OB_SIGNING_KEY_FILE and OB_SIGNING_KEY_ID (or the bank entry's identity.signingKey): the key your software statement publishes",
    );
  return reach.identity.openBankingKeys;
}
