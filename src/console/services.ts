/** What the console's pages work with: one object built in src/console/plugin.ts and handed to every section. */
import type { Kysely } from 'kysely';
import type { ClientService } from '../auth/clients.js';
import type { ClientBrandingStore } from '../branding/client-branding.js';
import type { Config } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { ConsoleUsers } from '../people/accounts.js';
import type { AuditLog } from '../people/audit-log.js';
import type { ConsoleSessions } from '../people/sessions.js';
import type { BankStore } from '../providers/bank-store.js';
import type { CatalogueView } from '../providers/catalogue.js';
import type { Database } from '../storage/schema.js';
import type { DatabaseConfig } from '../config/config.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { PaymentLinkStore } from '../flow/payment-link-store.js';
import type { PaymentLinkService } from '../payment-links/payment-link-service.js';
import type { ConsoleNavigation } from './navigation.js';
import type { CookieSettings } from './security.js';
import type { UnfinishedWork } from './unfinished-work.js';

/** The operations each standard's sandbox banks let a fault rule name (the sandbox bank package's own lists). */
export interface SandboxFaultOperations {
  readonly 'berlin-group': readonly string[];
  readonly 'uk-open-banking': readonly string[];
}

export interface ConsoleServices {
  readonly db: Kysely<Database>;
  readonly databaseKind: DatabaseConfig['kind'];
  readonly config: Config;
  readonly now: () => Date;
  readonly secrets: SecretBox;
  readonly catalogue: CatalogueView;
  /** The banks as stored: the Banks page's changes go through it, as the CLI's do (every process hears of them). */
  readonly bankStore: BankStore;
  readonly users: ConsoleUsers;
  readonly sessions: ConsoleSessions;
  readonly audit: AuditLog;
  readonly navigation: ConsoleNavigation;
  readonly clients: ClientService;
  readonly branding: ClientBrandingStore;
  readonly outbox: WebhookOutbox;
  /** Payment links as stored (their pages read them, deactivation goes through their status writer). */
  readonly paymentLinkStore: PaymentLinkStore;
  /** Creates payment links as the API does. */
  readonly paymentLinkService: PaymentLinkService;
  /** How the console's cookies are set (Secure whenever BASE_URL is https). */
  readonly cookies: CookieSettings;
  /** What the Sandbox page offers to make fail. */
  readonly sandboxFaultOperations: SandboxFaultOperations;
  /** Work a page answered before it was done, which a shutdown waits for. */
  readonly unfinishedWork: UnfinishedWork;
  /** The names of the banks of an environment that make bulk payments in a currency (refunds approved together). */
  readonly bulkPaymentBanks: (environment: 'sandbox' | 'production', currency: string) => readonly string[];
}
