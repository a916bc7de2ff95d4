/**
 * The banks of the service's provider catalogue as the sandbox banks read them: only what they need to serve a bank
 * (its name, colours, currencies, and the Berlin Group connector settings that say where and how). The service's
 * own catalogue (src/providers/catalogue.ts) fits this shape; the sandbox banks name it here rather than import it,
 * so they depend on no part of the service above the shared domain and connector defaults.
 */
import type { ScaApproach } from '../../domain/reference-data.js';

/** The Berlin Group connector settings the sandbox reads (src/connectors/berlin-group/settings.ts has them all). */
export interface CatalogueBerlinGroupConnector {
  readonly standard: 'berlin-group';
  readonly baseUrl: string;
  readonly scaApproaches: readonly ScaApproach[];
  readonly products: Readonly<Record<string, string | undefined>>;
  readonly requiresDebtorAccount: boolean;
  readonly accountInformation: boolean;
  readonly signRequests?: boolean | undefined;
  readonly loginAttempts?: number | undefined;
  readonly oneTimeCodeAttempts?: number | undefined;
}

export interface CatalogueBank {
  readonly name: string;
  readonly countryCode: string;
  readonly brandColor: string;
  readonly currencies: readonly string[];
  readonly remittanceMaxLength: number;
  /** Banks of other standards are served by their own sandbox (uk-open-banking/ for UK Open Banking). */
  readonly connector: CatalogueBerlinGroupConnector | { readonly standard: 'uk-open-banking' };
}

/** The catalogue's banks of each environment. */
export interface SandboxCatalogue {
  banks(environment: 'sandbox' | 'production'): readonly CatalogueBank[];
}
