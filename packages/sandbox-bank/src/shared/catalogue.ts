/**
 * The banks of the service's provider catalogue as the sandbox banks read them: only what they need to serve a bank
 * (its name, colours, currencies, and the Berlin Group connector settings that say where and how). The service's
 * own catalogue (the service's src/providers/catalogue.ts) fits this shape; the sandbox banks name it here rather than import it,
 * so the package depends on nothing of the service: the service's values they need (the connectors' default attempt
 * limit) come in as options (berlin-group/plugin.ts).
 */
/** How a bank authenticates the payer (the service's reference data has the same three). */
export type ScaApproach = 'REDIRECT' | 'EMBEDDED' | 'DECOUPLED';

/** The Berlin Group connector settings the sandbox reads (the service's src/connectors/berlin-group/settings.ts has them all). */
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
  /** The bank sends the standard's status notifications to a `TPP-Notification-URI` (berlin-group/notifier.ts). */
  readonly statusNotifications?: boolean | undefined;
  /** The bank serves the standard's bulk payments (`/v1/bulk-payments/…`); without it they answer SERVICE_INVALID. */
  readonly bulkPayments?: boolean | undefined;
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
