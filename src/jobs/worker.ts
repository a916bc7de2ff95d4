/**
 * Runs background jobs in this process: claims due jobs from the database, runs the handler of their kind, and
 * completes or re-times them. Several processes may run workers against one PostgreSQL: claims are leases,
 * so every job runs once in the normal case and again only if its worker died holding it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PollingWorker } from './polling-worker.js';
import type { JobKind } from './job-kinds.js';
import type { Job, JobQueue } from './job-queue.js';

export type JobOutcome =
  /** Finished: the job is removed. */
  | { readonly kind: 'done' }
  /** Not finished: run again at `runAt` (UTC ISO 8601). */
  | { readonly kind: 'retry'; readonly runAt: string; readonly note?: string };

/** Handles one job of a kind. Must be safe to run twice for the same job (at-least-once). */
/**
 * Runs one job. A handler whose jobs keep a schedule of their own (polling) may say how soon a job of its kind that
 * failed runs again (`delayAfterErrorMs`): `attempts` counts every run of such a job, not its failures, so the
 * default backoff (doubling with `attempts`, up to 10 minutes) would leave a long-polled job idle for minutes after
 * one failure.
 */
export type JobHandler = ((job: Job) => Promise<JobOutcome>) & { readonly delayAfterErrorMs?: (job: Job) => number };

/** How long a job whose handler failed waits before it runs again. */
export function delayAfterError(job: Job, handler: JobHandler | undefined): number {
  return handler?.delayAfterErrorMs?.(job) ?? Math.min(10 * 60_000, 1000 * 2 ** Math.min(job.attempts, 10));
}

export interface WorkerOptions {
  readonly queue: JobQueue;
  readonly handlers: Partial<Record<JobKind, JobHandler>>;
  readonly logger: FastifyBaseLogger;
  /** How often to look for due jobs when there were none (ms). */
  readonly pollIntervalMs?: number;
  /** Jobs run at once by this process. */
  readonly concurrency?: number;
  /** How long a claim lasts before another process may take the job (ms). */
  readonly leaseMs?: number;
  readonly now?: () => Date;
  /** Called after each job with its kind and how it ended (metrics). */
  readonly onJobFinished?: (kind: JobKind, result: 'done' | 'retry' | 'error') => void;
}

export class JobWorker {
  private readonly worker: PollingWorker<Job>;

  constructor(private readonly options: WorkerOptions) {
    const kinds = Object.keys(options.handlers) as JobKind[];
    const leaseMs = options.leaseMs ?? 60_000;
    this.worker = new PollingWorker<Job>(
      'jobs',
      {
        claim: (workerId, limit) => (kinds.length === 0 ? Promise.resolve([]) : options.queue.claim(workerId, kinds, limit, leaseMs)),
        nextDueInMs: () => (kinds.length === 0 ? Promise.resolve(undefined) : options.queue.nextDueInMs(kinds)),
        process: (job, workerId) => this.runJob(job, workerId),
      },
      { logger: options.logger, pollIntervalMs: options.pollIntervalMs ?? 500, concurrency: options.concurrency ?? 8 },
    );
  }

  get id(): string {
    return this.worker.id;
  }

  start(): void {
    this.worker.start();
  }

  /** Looks for due jobs now (e.g. right after one was scheduled in this process). */
  poke(): void {
    this.worker.poke();
  }

  /** Looks for due jobs by `at` (epoch ms) at the latest: a job scheduled in this process falls due then. */
  wakeBy(at: number): void {
    this.worker.wakeBy(at);
  }

  /** Stops claiming; waits for the jobs in flight to finish. */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  private async runJob(job: Job, workerId: string): Promise<void> {
    const { queue, handlers, logger } = this.options;
    const handler = handlers[job.kind];
    const now = this.options.now ?? (() => new Date());
    try {
      if (handler === undefined) throw new Error(`No handler for job kind ${job.kind}`);
      const outcome = await handler(job);
      if (outcome.kind === 'done') await queue.complete(job, workerId);
      else {
        await queue.retryAt(job, workerId, outcome.runAt, outcome.note);
        // This worker knows when the job is due again: it wakes by then rather than at its next poll.
        this.worker.wakeBy(Date.parse(outcome.runAt));
      }
      this.options.onJobFinished?.(job.kind, outcome.kind);
    } catch (error) {
      // A failing handler must not lose the job: back off and try again.
      const delayMs = delayAfterError(job, handler);
      logger.error(
        { err: error, jobId: job.id, kind: job.kind, subjectType: job.subjectType, subjectId: job.subjectId },
        'job failed; will retry',
      );
      this.options.onJobFinished?.(job.kind, 'error');
      await queue
        .retryAt(job, workerId, new Date(now().getTime() + delayMs).toISOString(), error instanceof Error ? error.message : String(error))
        .catch((retimeError: unknown) => logger.error({ err: retimeError, jobId: job.id }, 'could not re-time the job'));
    }
  }
}
