/**
 * The console at /console (docs/console.md): builds the services its pages share, serves its stylesheet, the
 * sign-in steps, and every page module in `CONSOLE_PAGES`. A page module is a function that registers its
 * section in the navigation and its routes through the router (src/console/router.ts).
 */
import type { Kysely } from 'kysely';
import { ClientService } from '../auth/clients.js';
import { ClientBrandingStore } from '../branding/client-branding.js';
import type { Config, DatabaseConfig } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { App } from '../http/fastify-types.js';
import { ConsoleUsers } from '../people/accounts.js';
import { AuditLog } from '../people/audit-log.js';
import { ConsoleSessions } from '../people/sessions.js';
import type { ProviderCatalogue } from '../providers/catalogue.js';
import type { Database } from '../storage/schema.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { registerAccountPages } from './account/pages.js';
import { registerAuditPages } from './audit/pages.js';
import { registerBankPages } from './banks/pages.js';
import { registerClientPages } from './clients/pages.js';
import { registerInsightPages } from './insight/pages.js';
import { ConsoleNavigation } from './navigation.js';
import { registerPaymentPages } from './payments/pages.js';
import { registerPeoplePages } from './people/pages.js';
import { registerSandboxPages } from './sandbox/pages.js';
import { ConsoleRouter, notFound } from './router.js';
import { consoleHeaders } from './security.js';
import type { ConsoleServices } from './services.js';
import { registerSignInRoutes } from './sign-in/routes.js';
import { CONSOLE_CSS, CONSOLE_CSS_PATH } from './styles.js';

export interface ConsoleOptions {
  readonly db: Kysely<Database>;
  readonly databaseKind: DatabaseConfig['kind'];
  readonly config: Config;
  readonly secrets: SecretBox;
  readonly catalogue: ProviderCatalogue;
  readonly now: () => Date;
}

/** A page module: registers its navigation entry and its routes. */
export type ConsolePageModule = (router: ConsoleRouter, services: ConsoleServices) => void;

/** The console's pages; a new page module is added here (docs/console.md, "Adding a page"). */
export const CONSOLE_PAGES: readonly ConsolePageModule[] = [
  registerPaymentPages,
  registerBankPages,
  registerInsightPages,
  registerSandboxPages,
  registerClientPages,
  registerPeoplePages,
  registerAuditPages,
  registerAccountPages,
];

export function consoleServices(options: ConsoleOptions): ConsoleServices {
  const { db, config, secrets, now } = options;
  const users = new ConsoleUsers(db, secrets, config.console.lockout, now);
  return {
    db,
    databaseKind: options.databaseKind,
    config,
    now,
    secrets,
    catalogue: options.catalogue,
    users,
    sessions: new ConsoleSessions(db, users, config.console.session, now),
    audit: new AuditLog(db, now),
    navigation: new ConsoleNavigation(),
    clients: new ClientService(db, secrets, now),
    branding: new ClientBrandingStore(db, now),
    outbox: new WebhookOutbox(db, options.databaseKind, secrets, now),
  };
}

export function registerConsoleRoutes(app: App, options: ConsoleOptions): void {
  const services = consoleServices(options);
  const cookies = { secure: new URL(options.config.baseUrl).protocol === 'https:' };
  const router = new ConsoleRouter(app, services, cookies);

  app.get(CONSOLE_CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    consoleHeaders(reply).header('Cache-Control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
  registerSignInRoutes(app, services, router, cookies);
  for (const register of CONSOLE_PAGES) register(router, services);
  router.get('', {}, async ({ viewer }) => ({ kind: 'redirect', location: services.navigation.homeOf(viewer.user) }));
  router.get('/', {}, async ({ viewer }) => ({ kind: 'redirect', location: services.navigation.homeOf(viewer.user) }));
  // Any other address under /console: the console's own not-found page (signed in) or the sign-in page.
  router.get('/*', {}, async () => notFound);
}
