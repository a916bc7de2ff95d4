/**
 * Which catalogue banks this sandbox serves: every bank whose connector base URL sits under the sandbox's public
 * URL; the rest of that URL is the bank's slug.
 */
import type { SandboxCatalogue, ScaApproach } from '../shared/catalogue.js';

export interface SandboxBankDefinition {
  readonly slug: string;
  readonly name: string;
  readonly countryCode: string;
  readonly brandColor: string;
  readonly currencies: readonly string[];
  /** SCA approaches offered, preferred first. */
  readonly approaches: readonly ScaApproach[];
  /** Payment products offered (path segment of `/v1/payments/{payment-product}`). */
  readonly products: ReadonlySet<string>;
  readonly requiresDebtorAccount: boolean;
  readonly accountInformation: boolean;
  readonly signRequests: boolean;
  readonly remittanceMaxLength: number;
  /** Wrong passwords a payment takes before the bank rejects it (the catalogue's `loginAttempts`). */
  readonly loginAttempts: number;
  /** Wrong one-time codes an authorisation takes before it fails (the catalogue's `oneTimeCodeAttempts`). */
  readonly oneTimeCodeAttempts: number;
  /** The bank sends status notifications to a `TPP-Notification-URI` (the catalogue's `statusNotifications`). */
  readonly statusNotifications: boolean;
  /** The bank serves bulk payments, `/v1/bulk-payments/…` (the catalogue's `bulkPayments`); others answer SERVICE_INVALID. */
  readonly bulkPayments: boolean;
}

/** Products whose currency is fixed by their name; the SEPA family is EUR. */
const PRODUCT_CURRENCY: ReadonlyArray<readonly [RegExp, string]> = [
  [/sepa|target-2/, 'EUR'],
  [/^pln-/, 'PLN'],
  [/^gbp-/, 'GBP'],
  [/^sek-/, 'SEK'],
  [/^czk-/, 'CZK'],
];

/** The currency a payment product moves, when its name says so. */
export function productCurrency(product: string): string | undefined {
  return PRODUCT_CURRENCY.find(([pattern]) => pattern.test(product))?.[1];
}

/**
 * The catalogue's Berlin Group banks under `publicUrl`, by slug. `authenticationAttempts` is the attempt limit of a bank
 * whose catalogue entry sets none (the service passes its connectors' default, so both count alike).
 */
export function sandboxBanks(
  catalogue: SandboxCatalogue,
  publicUrl: string,
  authenticationAttempts: number,
): Map<string, SandboxBankDefinition> {
  const base = `${publicUrl.replace(/\/+$/, '')}/`;
  const banks = new Map<string, SandboxBankDefinition>();
  for (const environment of ['sandbox', 'production'] as const) {
    for (const bank of catalogue.banks(environment)) {
      // The Berlin Group sandbox serves the catalogue's Berlin Group banks; the UK banks are their own (uk-open-banking/).
      const connector = bank.connector;
      if (connector.standard !== 'berlin-group') continue;
      const baseUrl = connector.baseUrl.replace(/\/+$/, '');
      if (!baseUrl.startsWith(base)) continue;
      const slug = baseUrl.slice(base.length);
      if (!/^[a-z0-9][a-z0-9-]*$/.test(slug))
        throw new Error(`Sandbox bank slug "${slug}" (${bank.name}) is not a single lower-case path segment`);
      if (banks.has(slug)) throw new Error(`Two catalogue banks share the sandbox slug "${slug}"`);
      const products = new Set(Object.values(connector.products).filter((product): product is string => product !== undefined));
      banks.set(slug, {
        slug,
        name: bank.name,
        countryCode: bank.countryCode,
        brandColor: bank.brandColor,
        currencies: bank.currencies,
        approaches: connector.scaApproaches,
        products,
        requiresDebtorAccount: connector.requiresDebtorAccount,
        accountInformation: connector.accountInformation,
        signRequests: connector.signRequests === true,
        remittanceMaxLength: bank.remittanceMaxLength,
        loginAttempts: connector.loginAttempts ?? authenticationAttempts,
        oneTimeCodeAttempts: connector.oneTimeCodeAttempts ?? authenticationAttempts,
        statusNotifications: connector.statusNotifications === true,
        bulkPayments: connector.bulkPayments === true,
      });
    }
  }
  return banks;
}
