/**
 * The service's object graph: repositories, services, caches, queues and the bank connectors, built once from the
 * configuration, the database and the catalogue. `src/app.ts` hands the parts to the plugins that serve them; the
 * graph itself knows nothing of HTTP routes.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Authenticator } from './auth/authenticate.js';
import { TokenService } from './auth/tokens.js';
import { VerifiedTokenCache } from './auth/token-cache.js';
import { ClientBrandingStore } from './branding/client-branding.js';
import type { Config } from './config/config.js';
import { createConnectors, type Connectors } from './connectors/index.js';
import {
  loadSigningKeys,
  ukSandboxBankSettings,
  ukSandboxClients,
  type UkClientRegistration,
  type UkOpenBankingSettings,
} from './connectors/uk-open-banking/index.js';
import { SecretBox } from './crypto/secret-box.js';
import { certificateWarnings, loadBankIdentity, type BankIdentity, type CertificateReport } from './identity/identity.js';
import { BankIdentities } from './identity/bank-identities.js';
import { BankPendingReport } from './flow/bank-pending.js';
import { FlowEngine } from './flow/engine.js';
import { PaymentRepository } from './payments/payment-repository.js';
import { PaymentStateStore } from './flow/payment-state-store.js';
import { PaymentLinkStore } from './flow/payment-link-store.js';
import { CursorCodec } from './http/cursor.js';
import { createRateLimiter } from './http/rate-limit.js';
import type { JobKind } from './jobs/job-kinds.js';
import { JobQueue } from './jobs/job-queue.js';
import { WorkSignal } from './jobs/work-signal.js';
import type { JobHandler } from './jobs/worker.js';
import { BankCallRecorder } from './observability/bank-call-records.js';
import { meterConnectors } from './observability/metered-connector.js';
import { Metrics } from './observability/metrics.js';
import { PaymentService } from './payments/payment-service.js';
import type { CatalogueView } from './providers/catalogue.js';
import type { DatabaseHandle } from './storage/database.js';
import { GroupCommitter } from './storage/group-commit.js';
import { EventFeed } from './webhooks/event-feed.js';
import { WebhookOutbox } from './webhooks/outbox.js';

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

export interface ServiceGraphInputs {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly catalogue: CatalogueView;
  readonly now: () => Date;
  /** Where the parts log (the app's logger). */
  readonly logger: FastifyBaseLogger;
  /** Prometheus metrics; a fresh registry (reading queue depths from the database) when not given. */
  readonly metrics?: Metrics | undefined;
  /** Wraps the bank connectors the engine uses (tests record what the engine hands them). */
  readonly wrapConnectors?: ((connectors: Connectors) => Connectors) | undefined;
}

export interface ServiceGraph {
  readonly metrics: Metrics;
  /** Opens and seals secrets at rest with the operator key ring. */
  readonly secrets: SecretBox;
  /** Verifies access tokens and rate-limits their clients. */
  readonly auth: Authenticator;
  readonly tokens: TokenService;
  /** Signs the page cursors of the lists. */
  readonly cursors: CursorCodec;
  readonly payments: PaymentService;
  /** Payment links: their storage, the one writer of their status, their expiry job. */
  readonly paymentLinks: PaymentLinkStore;
  readonly events: EventFeed;
  readonly flow: FlowEngine;
  readonly branding: ClientBrandingStore;
  /** Our certificates and keys towards the banks (src/identity/), as loaded at start. */
  readonly bankIdentity: BankIdentity;
  /** Our identity towards each bank (the process's, or a bank entry's own files), with the certificates' reports. */
  readonly bankIdentities: BankIdentities;
  /** The UK sandbox banks' registrations of this service (empty when no UK sandbox bank is in the catalogue). */
  readonly sandboxClients: readonly UkClientRegistration[];
  /** The catalogue's UK banks that the sandbox bank serves (told our registrations when it runs on its own). */
  readonly ukSandboxBanks: readonly UkOpenBankingSettings[];
  /** Handlers of the background jobs, run by the workers of this or another process (src/background-workers.ts, src/jobs/). */
  readonly jobHandlers: Partial<Record<JobKind, JobHandler>>;
  /** Told after every commit what it left for this process's workers (jobs and when due, webhook deliveries). */
  readonly workSignal: WorkSignal;
  /** The records of bank calls; closed (written out) after the workers stop, before the database closes. */
  readonly bankCallRecorder: BankCallRecorder;
  /** Waits (a little) until revocations of tokens reach this process; start-up calls it before serving. */
  ready(): Promise<void>;
  /** Closes the connectors and writes out the records of bank calls. */
  close(): Promise<void>;
}

export async function buildServiceGraph(inputs: ServiceGraphInputs): Promise<ServiceGraph> {
  const { config, database, catalogue, now, logger } = inputs;
  const metrics = inputs.metrics ?? createMetrics(database, config, now);
  // Opens and seals secrets at rest (webhook secrets, flow tokens) with the operator key ring.
  const secrets = new SecretBox(config.secretKeys);
  // Page cursors of the lists are signed with a key derived from the same ring (src/http/cursor.ts).
  const cursors = new CursorCodec(config.secretKeys.map((key) => key.key));
  // Verified tokens are cached; a revocation in any process reaches this one at once (src/auth/token-cache.ts).
  // A worker-only process checks no tokens, so it does not listen for revocations either. Until the process
  // listens (PostgreSQL) every token is checked in the database; start-up waits a little for it.
  const revocations = config.processRole === 'worker' ? undefined : database.clientRevocations();
  const tokens = new TokenService(database.db, now, revocations === undefined ? undefined : new VerifiedTokenCache(revocations));
  const auth = new Authenticator(tokens, createRateLimiter(config.rateLimit));
  // Every commit that leaves work for the background (a webhook delivery, a job) wakes this process's workers by
  // the time it falls due (src/jobs/work-signal.ts).
  const workSignal = new WorkSignal();
  // On SQLite concurrent creations and status changes share a commit (one fsync for many, src/storage/group-commit.ts).
  const groupCommit = database.kind === 'sqlite' ? new GroupCommitter(database.db) : undefined;
  const payments = new PaymentService(new PaymentRepository(database.db, secrets, (work) => workSignal.notify(work), groupCommit), {
    baseUrl: config.baseUrl,
    flowDeadlineSeconds: config.flowDeadlineSeconds,
    now,
  });

  const paymentLinks = new PaymentLinkStore(database.db, secrets, now, (work) => workSignal.notify(work));

  // The payer's journey: the flow engine drives the banks through their connectors (src/flow/, src/hosted/).
  // Our UK Open Banking identity: the operator's signing key, or one made now that only the sandbox banks are told.
  const openBankingKeys = await loadSigningKeys(config.openBankingSigningKey);
  // Our certificates towards the banks (docs/going-live.md): mutual TLS per standard, the Berlin Group signature.
  const bankIdentity = loadBankIdentity(config.bankIdentity);
  const everyBankEntry = (['sandbox', 'production'] as const).flatMap((environment) => catalogue.banks(environment));
  // A bank entry may name its own certificate files; they are read now, so a wrong one stops the start.
  const bankIdentities = new BankIdentities(bankIdentity, openBankingKeys);
  bankIdentities.load(everyBankEntry);
  logBankIdentity(bankIdentities.reports(now()), logger);
  metrics.watchBankCertificates(() => bankIdentities.reports(now()));
  const everyBank = everyBankEntry.map((bank) => bank.connector);
  const ukSandboxBanks = ukSandboxBankSettings(everyBank, config.sandboxBank.url);
  const sandboxClients = await ukSandboxClients(openBankingKeys, ukSandboxBanks, `${config.baseUrl}/pay/return`);
  // Every bank call is recorded for the console (bank health, a payment's bank calls), batched off the payer's path.
  const bankCallRecorder = new BankCallRecorder(database.db, {
    onDropped: (count, reason) => {
      metrics.bankCallRecordsDropped.inc(count);
      logger.warn({ count, reason }, 'records of bank calls dropped');
    },
    onWriteFailed: (error) => logger.warn({ err: error }, 'records of bank calls not written yet; retrying'),
  });
  // A bank that does not know a payment it gave us is an operator's alarm (log error and metric), never a failure.
  const metered = meterConnectors(
    createConnectors({ logger, now, openBankingKeys, identity: bankIdentities.resolve }),
    catalogue,
    metrics,
    bankCallRecorder,
    {
      error: (details, message) => logger.error(details, message),
    },
  );
  const connectors = inputs.wrapConnectors === undefined ? metered : inputs.wrapConnectors(metered);
  const flow = new FlowEngine({
    store: new PaymentStateStore(
      database.db,
      secrets,
      now,
      (records, work) => {
        for (const record of records) metrics.transitions.inc({ detailed_status: record.detailedStatus });
        workSignal.notify(work);
      },
      groupCommit,
    ),
    secretBox: secrets,
    catalogue,
    connectors,
    baseUrl: config.baseUrl,
    logger,
    now,
    pollBaseMs: config.bankStatusPolling.baseMs,
    pollMaxMs: config.bankStatusPolling.maxMs,
    pollBudgetPerSecond: config.bankStatusPolling.budgetPerSecond,
    bankPendingAlertSeconds: config.bankPendingAlertSeconds,
    leaseMs: config.flowLeaseMs,
  });

  return {
    metrics,
    secrets,
    auth,
    tokens,
    cursors,
    payments,
    paymentLinks,
    events: new EventFeed(database.db),
    flow,
    branding: new ClientBrandingStore(database.db, now),
    bankIdentity,
    bankIdentities,
    sandboxClients,
    ukSandboxBanks,
    jobHandlers: { ...flow.jobHandlers(), 'payment-link-expiry': (job) => paymentLinks.expiryJob(job) },
    workSignal,
    bankCallRecorder,
    ready: async () => revocations?.ready(5000),
    close: async () => {
      await connectors.close();
      await bankCallRecorder.close();
    },
  };
}

/** Says at start which certificates the banks will see, and warns of any near or past its expiry. */
function logBankIdentity(reports: readonly CertificateReport[], logger: FastifyBaseLogger): void {
  for (const report of reports) {
    const { subject, organisationIdentifier, psd2, notAfter } = report.certificate;
    logger.info(
      { use: report.use, bank: report.bank, subject, organisationIdentifier, psd2Roles: psd2?.roles, notAfter },
      `bank certificate: ${report.purpose}`,
    );
  }
  for (const warning of certificateWarnings(reports)) logger.warn(warning);
}
