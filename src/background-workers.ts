/**
 * The background work of one process: the job worker (bank status reconciliation, flow expiry), the webhook
 * delivery worker, and the hourly pruning of old records of bank calls. `npm start` runs them beside the API
 * unless PROCESS_ROLE says otherwise.
 *
 * Background work is one concept with one folder, src/jobs/ (the queue, the job kinds, the work signal, the job worker
 * and the claim loop every worker shares). This file only puts a process's workers together, so it sits with the
 * other composition-root files (app.ts, server.ts, runtime.ts) at the top of src/: it wires the job worker with the
 * webhook delivery worker (src/webhooks/) and the pruning of bank-call records (src/observability/), folders that
 * themselves import src/jobs/, so inside src/jobs/ it would close a loop between folders.
 */
import { SecretBox } from './crypto/secret-box.js';
import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config.js';
import type { JobKind } from './jobs/job-kinds.js';
import { JobQueue } from './jobs/job-queue.js';
import { JobWorker, type JobHandler } from './jobs/worker.js';
import { pruneBankCalls } from './observability/bank-call-records.js';
import type { WorkSignal } from './jobs/work-signal.js';
import type { Metrics } from './observability/metrics.js';
import type { DatabaseHandle } from './storage/database.js';
import { createWebhookDeliveryWorker } from './webhooks/delivery-worker.js';
import { WebhookOutbox } from './webhooks/outbox.js';
import { createRetrySchedule } from './webhooks/retry-schedule.js';
import { createWebhookDispatcher } from './webhooks/ssrf-guard.js';

export interface BackgroundWorkers {
  start(): void;
  /** Look for due work now (after a step scheduled a job or wrote a status). */
  poke(): void;
  /** Stop claiming and let the work in flight finish. */
  stop(): Promise<void>;
}

export interface BackgroundDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly logger: FastifyBaseLogger;
  readonly jobHandlers: Partial<Record<JobKind, JobHandler>>;
  readonly metrics?: Metrics;
  readonly now?: () => Date;
  /** This process's API tells it what each commit left (jobs and when due, webhook deliveries); the workers look by then. */
  readonly workSignal?: WorkSignal;
  /** Finds open payments without a future and schedules them (the flow engine's sweep): at start, then every 5 minutes. */
  readonly sweep?: () => Promise<number>;
}

/** How often the sweep for payments without a future runs (and once at start). */
export const SWEEP_INTERVAL_MS = 5 * 60 * 1000;

export function createBackgroundWorkers(dependencies: BackgroundDependencies): BackgroundWorkers {
  const { config, database, logger, metrics } = dependencies;
  const now = dependencies.now ?? (() => new Date());
  const jobs = new JobWorker({
    queue: new JobQueue(database.db, database.kind, now),
    handlers: dependencies.jobHandlers,
    logger,
    pollIntervalMs: config.workers.pollIntervalMs,
    concurrency: config.workers.concurrency,
    leaseMs: config.workers.leaseMs,
    now,
    ...(metrics === undefined ? {} : { onJobFinished: (kind: JobKind, result: string) => metrics.jobsFinished.inc({ kind, result }) }),
  });
  const dispatcher = createWebhookDispatcher({
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    ...(config.webhooks.caFile === undefined ? {} : { caCertificates: readFileSync(config.webhooks.caFile, 'utf8') }),
  });
  const webhooks = createWebhookDeliveryWorker({
    outbox: new WebhookOutbox(database.db, database.kind, new SecretBox(config.secretKeys), now),
    dispatcher,
    schedule: createRetrySchedule({ delaysMs: config.webhooks.retryDelaysMs, scale: config.webhooks.retryScale }),
    timeoutMs: config.webhooks.timeoutMs,
    leaseMs: config.workers.leaseMs,
    logger,
    pollIntervalMs: config.workers.pollIntervalMs,
    concurrency: config.workers.concurrency,
    now,
    ...(metrics === undefined ? {} : { onAttempt: (result) => metrics.recordWebhookAttempt(result) }),
  });
  if (config.webhooks.allowPrivateTargets) {
    logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may be sent to private and loopback addresses (local development only)');
  }
  // Records of bank calls older than BANK_CALL_RETENTION_DAYS: deleted at start and every hour after. Several
  // worker processes may prune at once; deleting what another already deleted is harmless.
  let pruning: NodeJS.Timeout | undefined;
  let pruned: Promise<void> = Promise.resolve();
  const prune = (): void => {
    pruned = pruneBankCalls(database.db, config.bankCallRetentionDays, now())
      .then((count) => {
        if (count > 0) logger.info({ count, retentionDays: config.bankCallRetentionDays }, 'old records of bank calls pruned');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'pruning the records of bank calls failed; tried again in an hour'));
  };
  // Payments without a future (from an older version, or a bug): found and scheduled at start and every few minutes.
  let sweeping: NodeJS.Timeout | undefined;
  let swept: Promise<void> = Promise.resolve();
  const sweep = (): void => {
    const run = dependencies.sweep;
    if (run === undefined) return;
    swept = run()
      .then((count) => {
        if (count > 0) jobs.poke();
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'the sweep for payments without a future failed; tried again later'));
  };
  let unsubscribe: (() => void) | undefined;
  return {
    start() {
      jobs.start();
      webhooks.start();
      prune();
      pruning = setInterval(prune, 60 * 60 * 1000);
      pruning.unref();
      sweep();
      sweeping = setInterval(sweep, SWEEP_INTERVAL_MS);
      sweeping.unref();
      unsubscribe = dependencies.workSignal?.subscribe((work) => {
        if (work.jobsDueAt !== undefined) jobs.wakeBy(work.jobsDueAt);
        if (work.webhooks) webhooks.poke();
      });
    },
    poke() {
      jobs.poke();
      webhooks.poke();
    },
    async stop() {
      clearInterval(pruning);
      clearInterval(sweeping);
      unsubscribe?.();
      await Promise.all([jobs.stop(), webhooks.stop(), pruned, swept]);
      await dispatcher.close();
    },
  };
}
