/**
 * The console at /console (docs/console.md) as one encapsulated Fastify plugin, registered by src/app.ts with the
 * prefix `/console`. Its scope has its own hooks (the security headers on every answer, the wait for unfinished
 * work at shutdown) and its own error handler (src/console/replies.ts). Inside it:
 * - the public part: the stylesheet and the sign-in steps;
 * - the signed-in pages: every section's routes, each section in a scope of its own, behind the access hooks
 *   (src/console/access.ts), and the start page and not-found page;
 * - the uploads: the one scope that reads multipart bodies (src/console/uploads.ts).
 */
import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { ClientService } from '../auth/clients.js';
import { ClientBrandingStore } from '../branding/client-branding.js';
import type { Config, DatabaseConfig } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { App } from '../http/fastify-types.js';
import { ConsoleUsers } from '../people/accounts.js';
import { AuditLog } from '../people/audit-log.js';
import { ConsoleSessions } from '../people/sessions.js';
import type { CatalogueView } from '../providers/catalogue.js';
import type { Database } from '../storage/schema.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { admitSignedIn, viewerOf } from './access.js';
import { accountSection } from './account/routes.js';
import { auditSection } from './audit/routes.js';
import { banksSection } from './banks/routes.js';
import { clientsSection } from './clients/routes.js';
import { insightSection } from './insight/routes.js';
import { ConsoleNavigation } from './navigation.js';
import { paymentsSection } from './payments/routes.js';
import { refundsSection } from './refunds/routes.js';
import { paymentLinksSection } from './payment-links/routes.js';
import type { PaymentLinkStore } from '../flow/payment-link-store.js';
import { PaymentLinkService } from '../payment-links/payment-link-service.js';
import { peopleSection } from './people/routes.js';
import { consoleErrorHandler, sendNotFound, seeOther } from './replies.js';
import { sandboxSection } from './sandbox/routes.js';
import { NoQuery } from './schemas.js';
import type { ConsoleSectionRoutes } from './section.js';
import { consoleHeaders } from './security.js';
import { BankRegistry } from '../providers/bank-registry.js';
import { BankStore } from '../providers/bank-store.js';
import type { ConsoleServices, SandboxFaultOperations } from './services.js';
import { registerSignInRoutes, signOutSection } from './sign-in/routes.js';
import { CONSOLE_CSS, CONSOLE_CSS_PATH } from './styles.js';
import { UnfinishedWork } from './unfinished-work.js';
import { registerUploads } from './uploads.js';

export interface ConsoleOptions {
  readonly db: Kysely<Database>;
  readonly databaseKind: DatabaseConfig['kind'];
  readonly config: Config;
  readonly secrets: SecretBox;
  readonly catalogue: CatalogueView;
  readonly now: () => Date;
  /** The operations each standard's sandbox banks let a fault rule name (the Sandbox page). */
  readonly sandboxFaultOperations: SandboxFaultOperations;
  /** Warnings of our certificates towards the banks (src/identity/), shown to operators above every page. */
  readonly bankCertificateWarnings?: () => readonly string[];
  /** Payment links (the app's store: its commits wake this process's workers). */
  readonly paymentLinks: PaymentLinkStore;
  /** The banks that make bulk payments (the flow engine's connectors know), for refunds approved together. */
  readonly bulkPaymentBanks?: ConsoleServices['bulkPaymentBanks'];
}

/** The console's sections; a new section is added here (docs/console.md, "Adding a page"). */
export const CONSOLE_SECTIONS: readonly ConsoleSectionRoutes[] = [
  paymentsSection,
  paymentLinksSection,
  refundsSection,
  banksSection,
  insightSection,
  sandboxSection,
  clientsSection,
  peopleSection,
  auditSection,
  accountSection,
  signOutSection,
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
    // The registry's own store, so this process reloads at once after a change; a fixed catalogue has none.
    bankStore: options.catalogue instanceof BankRegistry ? options.catalogue.store : new BankStore(db, secrets, now),
    users,
    sessions: new ConsoleSessions(db, users, config.console.session, now),
    audit: new AuditLog(db, now),
    navigation: new ConsoleNavigation(options.bankCertificateWarnings),
    clients: new ClientService(db, secrets, now),
    branding: new ClientBrandingStore(db, now),
    outbox: new WebhookOutbox(db, options.databaseKind, secrets, now),
    paymentLinkStore: options.paymentLinks,
    paymentLinkService: new PaymentLinkService(options.paymentLinks, now),
    sandboxFaultOperations: options.sandboxFaultOperations,
    cookies: { secure: new URL(config.baseUrl).protocol === 'https:' },
    unfinishedWork: new UnfinishedWork(),
    bulkPaymentBanks: options.bulkPaymentBanks ?? (() => []),
  };
}

const STYLESHEET_PATH = CONSOLE_CSS_PATH.slice('/console'.length);

async function registerPublicPart(scope: App, services: ConsoleServices): Promise<void> {
  scope.get(STYLESHEET_PATH, { schema: { querystring: NoQuery } }, async function sendStylesheet(_request, reply) {
    return reply.header('Cache-Control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8').send(CONSOLE_CSS);
  });
  await registerSignInRoutes(scope, services);
}

/** `/console`: the first section the viewer may open; any other address: the not-found page. */
function registerStartAndNotFound(pages: App, services: ConsoleServices): void {
  pages.get('/', { schema: { querystring: NoQuery } }, async function sendToStartPage(request, reply) {
    return seeOther(reply, services.navigation.homeOf(viewerOf(request).user));
  });
  pages.get('/*', { schema: { querystring: NoQuery } }, async function sendNothingHere(request, reply) {
    return sendNotFound(services, request, reply);
  });
}

async function registerSignedInPart(pages: App, services: ConsoleServices): Promise<void> {
  admitSignedIn(pages, services);
  for (const section of CONSOLE_SECTIONS) {
    const id = section.navigation?.id;
    await pages.register(async (scope) => {
      if (id !== undefined) {
        scope.addHook('onRoute', (route) => {
          route.config = { ...route.config, consoleSection: id };
        });
      }
      await section.routes(scope, services);
    });
  }
  registerStartAndNotFound(pages, services);
}

export const consolePlugin: FastifyPluginAsync<ConsoleOptions, RawServerDefault, TypeBoxTypeProvider> = async function consolePlugin(
  app,
  options,
) {
  const services = consoleServices(options);
  for (const section of CONSOLE_SECTIONS) if (section.navigation !== undefined) services.navigation.register(section.navigation);

  app.decorateRequest('consoleViewer', null);
  app.setErrorHandler(consoleErrorHandler);
  // Not part of the API document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  app.addHook('onRequest', async (_request, reply) => {
    consoleHeaders(reply);
  });
  // Before the server stops listening, since such work may call it (a scenario plays the payer on our pages).
  app.addHook('preClose', async () => services.unfinishedWork.settle());

  await app.register(async (scope) => registerPublicPart(scope, services));
  await app.register(async (scope) => registerSignedInPart(scope, services));
  await app.register(async (scope) =>
    registerUploads(
      scope,
      services,
      CONSOLE_SECTIONS.flatMap((section) => (section.uploads === undefined ? [] : [section.uploads])),
    ),
  );
};
