/**
 * Builds the service as a Fastify app: every route, hook and plugin, wired to the given database and
 * catalogue. `server.ts` only opens the database, listens and shuts down; tests build this same app.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Authenticator } from './auth/authenticate.js';
import { registerTokenRoute } from './auth/token-route.js';
import { TokenService } from './auth/tokens.js';
import { VerifiedTokenCache } from './auth/token-cache.js';
import type { Config } from './config/config.js';
import { addOpenpisFormats, AJV_OPTIONS } from './http/ajv.js';
import { limitedMessagesFor } from './http/ajv-messages.js';
import { answerClientError, requireHostHeader, sendError, sendRouteNotFound, ValidationError } from './http/errors.js';
import type { App } from './http/fastify-types.js';
import { parseJsonBody } from './http/json-body.js';
import { createRateLimiter } from './http/rate-limit.js';
import { openApiDocumentation } from './http/openapi.js';
import { PaymentRepository } from './payments/payment-repository.js';
import { GroupCommitter } from './storage/group-commit.js';
import { PaymentService } from './payments/payment-service.js';
import { registerPaymentRoutes } from './payments/routes.js';
import { registerEventFeedRoutes } from './payments/event-feed-routes.js';
import { CursorCodec } from './http/cursor.js';
import { EventFeed } from './webhooks/event-feed.js';
import type { ProviderCatalogue } from './providers/catalogue.js';
import { registerProviderRoutes } from './providers/routes.js';
import type { JobKind } from './jobs/job-kinds.js';
import { JobQueue } from './jobs/job-queue.js';
import type { JobHandler } from './jobs/worker.js';
import { WorkSignal } from './jobs/work-signal.js';
import { Metrics } from './observability/metrics.js';
import { meterConnectors } from './observability/metered-connector.js';
import { BankCallRecorder } from './observability/bank-call-records.js';
import { registerObservabilityRoutes } from './observability/routes.js';
import type { DatabaseHandle } from './storage/database.js';
import { WebhookOutbox } from './webhooks/outbox.js';
import { SecretBox } from './crypto/secret-box.js';
import { createConnectors, type Connectors } from './connectors/index.js';
import { BankPendingReport } from './flow/bank-pending.js';
import { FlowEngine } from './flow/engine.js';
import { PaymentStateStore } from './flow/payment-state-store.js';
import { registerHostedRoutes } from './hosted/routes.js';
import { registerConsoleRoutes } from './console/routes.js';
import { ClientBrandingStore } from './branding/client-branding.js';
import { sandboxBankPlugin, type SandboxFixtures } from './sandbox-bank/index.js';
import { SANDBOX_BANK_MOUNT_PATH } from './config/config.js';
import { openBankingSigningKeys, registerWithExternalSandbox, ukSandboxClients } from './open-banking-keys.js';

export interface AppDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly catalogue: ProviderCatalogue;
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

/** Metrics whose queue and pending-at-the-bank gauges read this database. */
export function createMetrics(
  database: DatabaseHandle,
  config: Pick<Config, 'bankPendingAlertSeconds' | 'secretKeys'>,
  now: () => Date = () => new Date(),
): Metrics {
  const jobs = new JobQueue(database.db, database.kind, now);
  const outbox = new WebhookOutbox(database.db, database.kind, new SecretBox(config.secretKeys), now);
  const bankPending = new BankPendingReport(database.db, config.bankPendingAlertSeconds, now);
  return new Metrics({ jobs: () => jobs.depth(), webhooks: () => outbox.depth() }, bankPending);
}

/** One year, the usual HSTS lifetime; subdomains are the operator's business, so not included. */
const HSTS = 'max-age=31536000';

/** A client's X-Request-ID is echoed when it is a sane token; anything else gets a fresh UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request URL as logged: the secrets that some paths carry (the payer's flow link, our bank callback, the
 * sandbox bank's page tokens) are replaced, so a log reader cannot walk into a payer's flow.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/^\/pay\/return\/([^/?#]+)\/[^/?#]+/, '/pay/return/$1/[secret]')
    .replace(/^\/pay\/(?!return\/)[^/?#]+/, '/pay/[token]')
    .replace(/\/(sca|decoupled)\/[^/?#]+/, '/$1/[token]')
    .replace(/\/uk\/([a-z0-9-]+)\/(pay|app)\/[^/?#]+/, '/uk/$1/$2/[token]');
}

/** Paths whose values must never reach logs, whatever object they appear in. */
export const LOG_REDACTIONS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.access_token',
  '*.webhookSecret',
  '*.credentials',
];

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

  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: LOG_REDACTIONS, censor: '[redacted]' },
      serializers: {
        req: (request: { method: string; url: string; ip?: string }) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }),
      },
      ...(dependencies.logDestination === undefined ? {} : { stream: dependencies.logDestination }),
    },
    // 1 MiB is far above any valid payment request; larger bodies get 413 (decisions §6).
    bodyLimit: 1024 * 1024,
    // Start-up waits for every plugin however busy the machine is: no timer (Fastify's default fails a plugin that
    // takes 10 s, which a loaded machine once made happen). A plugin that truly hangs is the orchestrator's to see.
    pluginTimeout: 0,
    requestIdHeader: false,
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    ajv: { customOptions: AJV_OPTIONS, plugins: [addOpenpisFormats] },
    schemaErrorFormatter: (errors) => {
      const { messages, unlisted } = limitedMessagesFor(errors);
      return new ValidationError(messages, unlisted);
    },
    return503OnClosing: true,
    // Behind a proxy, request.protocol (hence HSTS) follows X-Forwarded-Proto only when the operator says so.
    trustProxy: typeof config.trustProxy === 'boolean' ? config.trustProxy : [...config.trustProxy],
    serverFactory: (fastifyHandler) => {
      // Node's Host check answers without the error body; ours answers with it (src/http/errors.ts).
      const handler = requireHostHeader(fastifyHandler);
      if (config.tls === undefined) return createHttpServer({ requireHostHeader: false }, handler);
      const tls = { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) };
      // An https.Server serves requests like the http.Server Fastify's types expect (request.protocol reads the
      // socket's `encrypted`); Fastify's own `https` option would change the app's type for every caller.
      return createHttpsServer({ ...tls, requireHostHeader: false }, handler) as unknown as HttpServer;
    },
    // Errors raised before any route or hook runs get the same error body as everything else (src/http/errors.ts).
    frameworkErrors: sendError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('client', null);
  app.decorateRequest('rateLimitHeaders', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.rateLimitHeaders !== null) reply.headers(request.rateLimitHeaders);
    // Once a browser has reached us over HTTPS it never again tries plain HTTP (payer credentials, decisions).
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  app.setErrorHandler(sendError);
  app.setNotFoundHandler(sendRouteNotFound);

  // Bodies are JSON, or a form at the token endpoint; plain text is never a valid request (415).
  app.removeContentTypeParser('text/plain');
  // Every JSON body is judged on its text: no repeated keys, no number a double would change (src/http/json-body.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  await app.register(formbody);
  await app.register(swagger, openApiDocumentation());
  // Swagger UI from our own assets: the page needs no network beyond the service (no outside fonts, scripts or
  // validator badge), and the package installs on Node 20.
  // The page opens with the project's name (the document's title); Swagger UI's top bar, with the framework's logo
  // and an "Explore" box for loading other documents, is left out (BaseLayout; the logo only ever replaced the bar's).
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json', validatorUrl: null, deepLinking: true, tryItOutEnabled: false, layout: 'BaseLayout' },
    theme: { title: 'openpis API' },
    staticCSP: true,
    logLevel: 'warn',
  });

  const metrics = dependencies.metrics ?? createMetrics(database, config, now);
  // Opens and seals secrets at rest (webhook secrets, flow tokens) with the operator key ring.
  const secrets = new SecretBox(config.secretKeys);
  // Page cursors of the lists are signed with a key derived from the same ring (src/http/cursor.ts).
  const cursors = new CursorCodec(config.secretKeys.map((key) => key.key));
  // Verified tokens are cached; a revocation in any process reaches this one at once (src/auth/token-cache.ts).
  // A worker-only process checks no tokens, so it does not listen for revocations either. Until the process
  // listens (PostgreSQL) every token is checked in the database; start-up waits a little for it.
  const revocations = config.processRole === 'worker' ? undefined : database.clientRevocations();
  if (revocations !== undefined) app.addHook('onReady', async () => revocations.ready(5000));
  const tokens = new TokenService(database.db, now, revocations === undefined ? undefined : new VerifiedTokenCache(revocations));
  const auth = new Authenticator(tokens, createRateLimiter(config.rateLimit));
  // Every commit that leaves work for the background (a webhook delivery, a job) wakes this process's workers by
  // the time it falls due (src/jobs/work-signal.ts).
  const workSignal = new WorkSignal();
  app.decorate('workSignal', workSignal);
  // On SQLite concurrent creations and status changes share a commit (one fsync for many, src/storage/group-commit.ts).
  const groupCommit = database.kind === 'sqlite' ? new GroupCommitter(database.db) : undefined;
  const paymentService = new PaymentService(new PaymentRepository(database.db, secrets, (work) => workSignal.notify(work), groupCommit), {
    baseUrl: config.baseUrl,
    flowDeadlineSeconds: config.flowDeadlineSeconds,
    now,
  });

  // The payer's journey: the flow engine drives the banks through their connectors (src/flow/, src/hosted/).
  // Our UK Open Banking identity: the operator's signing key, or one made now that only the sandbox banks are told.
  const openBankingKeys = await openBankingSigningKeys(config);
  const sandboxClients = await ukSandboxClients(openBankingKeys, catalogue, config);
  // Every bank call is recorded for the console (bank health, a payment's bank calls), batched off the payer's path.
  const bankCallRecorder = new BankCallRecorder(database.db, {
    onDropped: (count, reason) => {
      metrics.bankCallRecordsDropped.inc(count);
      app.log.warn({ count, reason }, 'records of bank calls dropped');
    },
    onWriteFailed: (error) => app.log.warn({ err: error }, 'records of bank calls not written yet; retrying'),
  });
  app.decorate('bankCallRecorder', bankCallRecorder);
  // A bank that does not know a payment it gave us is an operator's alarm (log error and metric), never a failure.
  const metered = meterConnectors(createConnectors({ logger: app.log, now, openBankingKeys }), catalogue, metrics, bankCallRecorder, {
    error: (details, message) => app.log.error(details, message),
  });
  const connectors = dependencies.wrapConnectors === undefined ? metered : dependencies.wrapConnectors(metered);
  app.addHook('onClose', async () => {
    await connectors.close();
    await bankCallRecorder.close();
  });
  const flow = new FlowEngine({
    store: new PaymentStateStore(database.db, secrets, now, (records, work) => {
      for (const record of records) metrics.transitions.inc({ detailed_status: record.detailedStatus });
      workSignal.notify(work);
    }, groupCommit),
    secretBox: secrets,
    catalogue,
    connectors,
    baseUrl: config.baseUrl,
    logger: app.log,
    now,
    pollBaseMs: config.bankStatusPolling.baseMs,
    pollMaxMs: config.bankStatusPolling.maxMs,
    pollBudgetPerSecond: config.bankStatusPolling.budgetPerSecond,
    bankPendingAlertSeconds: config.bankPendingAlertSeconds,
  });

  // Handlers of the background jobs, run by the workers of this or another process (src/background-workers.ts, src/jobs/).
  const jobHandlers: Partial<Record<JobKind, JobHandler>> = { ...flow.jobHandlers() };
  app.decorate('jobHandlers', jobHandlers);
  app.decorate('flowSweep', () => flow.sweepPaymentsWithoutFuture());

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
        operatorToken: config.sandboxOperatorToken,
        ukClients: sandboxClients,
        ...(dependencies.sandboxFixtures === undefined ? {} : { fixtures: dependencies.sandboxFixtures }),
      });
    });
  } else if (sandboxClients.length > 0) {
    app.addHook('onReady', async () => registerWithExternalSandbox(sandboxClients, catalogue, config.sandboxBank.url, app.log));
  }

  // A worker-only process serves health and metrics, not the API (PROCESS_ROLE=worker).
  if (config.processRole !== 'worker') {
    registerTokenRoute(app, tokens);
    registerProviderRoutes(app, { auth, catalogue, baseUrl: config.baseUrl });
    registerPaymentRoutes(app, {
      auth,
      payments: paymentService,
      catalogue,
      baseUrl: config.baseUrl,
      metrics,
      flow,
      allowPrivateWebhookTargets: config.webhooks.allowPrivateTargets,
      cursors,
    });
    registerEventFeedRoutes(app, { auth, events: new EventFeed(database.db), cursors });
    registerHostedRoutes(app, {
      engine: flow,
      baseUrl: config.baseUrl,
      branding: new ClientBrandingStore(database.db, now),
      operator: config.operator,
      sandboxBankUrl: `${config.sandboxBank.url}/`,
    });
    registerConsoleRoutes(app, { db: database.db, databaseKind: database.kind, config, secrets, catalogue, now });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }
  registerObservabilityRoutes(app, { database, metrics });

  return app;
}
