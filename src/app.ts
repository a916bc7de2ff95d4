/**
 * Builds the service as a Fastify app: the composition root. It builds the object graph (src/composition.ts) and
 * registers the plugins that serve it: the HTTP plumbing (src/http/), the API, the payer's pages, the console and the
 * embedded sandbox bank. `server.ts` only opens the database, listens and shuts down; tests build this same app.
 */
import { apiPlugin } from './api/plugin.js';
import type { Config } from './config/config.js';
import { SANDBOX_BANK_MOUNT_PATH } from './config/config.js';
import { DEFAULT_AUTHENTICATION_ATTEMPTS, type Connectors } from './connectors/index.js';
import { failingBankIds } from './console/banks/queries.js';
import { consolePlugin } from './console/plugin.js';
import { buildServiceGraph } from './composition.js';
import { HandoverStore } from './flow/handovers.js';
import { certificateWarnings } from './identity/identity.js';
import { hostedPagesPlugin } from './hosted/plugin.js';
import { PaymentLinkService } from './payment-links/payment-link-service.js';
import { linkPayerRoutes } from './payment-links/payer-routes.js';
import { apiDocumentation } from './http/api-documentation.js';
import { createFastifyApp } from './http/fastify-instance.js';
import type { App } from './http/fastify-types.js';
import { errorAnswers, requestBodies, responseHeaders } from './http/plumbing.js';
import { createRateLimiter, rateLimitHeaders } from './http/rate-limit.js';
import type { JobKind } from './jobs/job-kinds.js';
import type { WorkSignal } from './jobs/work-signal.js';
import type { JobHandler } from './jobs/worker.js';
import type { BankCallRecorder } from './observability/bank-call-records.js';
import type { Metrics } from './observability/metrics.js';
import { registerWithExternalSandbox } from './connectors/uk-open-banking/index.js';
import type { CatalogueView } from './providers/catalogue.js';
import {
  OPERATIONS as BERLIN_GROUP_SANDBOX_OPERATIONS,
  sandboxBankPlugin,
  UK_OPERATIONS as UK_SANDBOX_OPERATIONS,
  type SandboxFixtures,
} from '@openpis/sandbox-bank';
import type { DatabaseHandle } from './storage/database.js';

export { createMetrics } from './composition.js';
export { LOG_REDACTIONS, redactUrl } from './http/fastify-instance.js';

export interface AppDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly catalogue: CatalogueView;
  /** Clock for everything time-dependent (tokens, deadlines); tests may pin it. */
  readonly now?: () => Date;
  /**
   * Where log lines go (default: stdout). Tests pass a collector to check what is logged; the level and the
   * redaction of secrets are the same either way.
   */
  readonly logDestination?: { write(line: string): void };
  /** Prometheus metrics; a fresh registry (reading queue depths from the database) when not given. */
  readonly metrics?: Metrics;
  /** Test payers of the embedded sandbox bank; default: the built-in ones (docs/sandbox-bank.md). */
  readonly sandboxFixtures?: SandboxFixtures;
  /** Wraps the bank connectors the engine uses (tests record what the engine hands them); default: none. */
  readonly wrapConnectors?: (connectors: Connectors) => Connectors;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The job handlers of this app's flow engine, for `createBackgroundWorkers`. */
    jobHandlers: Partial<Record<JobKind, JobHandler>>;
    /** Finds open payments without a future and schedules them (the workers run it at start and periodically). */
    flowSweep: () => Promise<number>;
    /** The records of bank calls; closed (written out) after the workers stop, before the database closes. */
    bankCallRecorder: BankCallRecorder;
    /** Told after every commit what it left for this process's workers (jobs and when due, webhook deliveries). */
    workSignal: WorkSignal;
  }
}

export async function buildApp(dependencies: AppDependencies): Promise<App> {
  const { config, database, catalogue } = dependencies;
  const now = dependencies.now ?? (() => new Date());

  const app = createFastifyApp({
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    tls: config.tls,
    logDestination: dependencies.logDestination,
  });
  // The plumbing first: what it sets on the root reaches every plugin registered after it.
  await app.register(rateLimitHeaders);
  await app.register(responseHeaders);
  await app.register(errorAnswers);
  await app.register(requestBodies);
  await app.register(apiDocumentation);

  const services = await buildServiceGraph({
    config,
    database,
    catalogue,
    now,
    logger: app.log,
    metrics: dependencies.metrics,
    wrapConnectors: dependencies.wrapConnectors,
  });
  const { metrics, flow } = services;
  app.decorate('workSignal', services.workSignal);
  app.decorate('bankCallRecorder', services.bankCallRecorder);
  app.decorate('jobHandlers', services.jobHandlers);
  app.decorate('flowSweep', () => flow.sweepPaymentsWithoutFuture());
  app.addHook('onReady', services.ready);
  app.addHook('onClose', services.close);

  if (config.sandboxBank.mode === 'embedded') {
    // The sandbox bank in this process, reached by the connectors over real HTTP; not part of our API document.
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });
      // The plugin brings its own form parser (with its own size limit); this scope only.
      scope.removeContentTypeParser('application/x-www-form-urlencoded');
      // Both standards' banks: Berlin Group at the mount path, UK Open Banking under `/uk` (docs/sandbox-bank*.md).
      await scope.register(sandboxBankPlugin, {
        prefix: SANDBOX_BANK_MOUNT_PATH,
        catalogue,
        publicUrl: config.sandboxBank.url,
        // A bank without its own attempt limits counts as the connectors do.
        authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
        operatorToken: config.sandboxOperatorToken,
        ukClients: services.sandboxClients,
        ...(dependencies.sandboxFixtures === undefined ? {} : { fixtures: dependencies.sandboxFixtures }),
      });
    });
  } else if (services.sandboxClients.length > 0) {
    app.addHook('onReady', async () => registerWithExternalSandbox(services.sandboxClients, services.ukSandboxBanks, app.log));
  }

  // The API; a worker-only process serves health and readiness only (PROCESS_ROLE=worker).
  await app.register(apiPlugin, {
    servesClients: config.processRole !== 'worker',
    baseUrl: config.baseUrl,
    catalogue,
    auth: services.auth,
    tokens: services.tokens,
    payments: services.payments,
    paymentLinks: new PaymentLinkService(services.paymentLinks, now),
    now,
    events: services.events,
    flow,
    cursors: services.cursors,
    metrics,
    allowPrivateWebhookTargets: config.webhooks.allowPrivateTargets,
    database,
    bankNotificationLimiter: createRateLimiter(config.rateLimit),
  });
  if (config.processRole !== 'worker') {
    // The payer's pages, a plugin with its own error handler: a payer sees our pages, never a JSON error body.
    await app.register(hostedPagesPlugin, {
      engine: flow,
      baseUrl: config.baseUrl,
      branding: services.branding,
      operator: config.operator,
      sandboxBankUrl: `${config.sandboxBank.url}/`,
      retries: services.payments,
      handovers: new HandoverStore(database.db, now),
      failingBanks: () => failingBankIds(database.db, now()),
    });
    // The payer's page of a payment link: it starts a payment of the link, then hands over to the pages above.
    await app.register(linkPayerRoutes, {
      links: services.paymentLinks,
      engine: flow,
      branding: services.branding,
      operator: config.operator,
      baseUrl: config.baseUrl,
      flowDeadlineSeconds: config.flowDeadlineSeconds,
      now,
    });
    await app.register(consolePlugin, {
      prefix: '/console',
      db: database.db,
      databaseKind: database.kind,
      config,
      secrets: services.secrets,
      catalogue,
      now,
      sandboxFaultOperations: { 'berlin-group': BERLIN_GROUP_SANDBOX_OPERATIONS, 'uk-open-banking': UK_SANDBOX_OPERATIONS },
      bankCertificateWarnings: () => certificateWarnings(services.bankIdentities.reports(now())),
      paymentLinks: services.paymentLinks,
      bulkPaymentBanks: (environment, currency) => flow.bulkPaymentBanks(environment, currency).map((bank) => bank.name),
    });
  }

  return app;
}
