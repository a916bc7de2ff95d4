/**
 * Runs background jobs in this process: claims due jobs from the database, runs the handler of their kind, and
 * completes or re-times them. Several processes may run workers against one PostgreSQL: claims are leases,
 * so every job runs once in the normal case and again only if its worker died holding it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { JobKind } from './job-kinds.js';
import type { Job, JobQueue } from './job-queue.js';

export type JobOutcome =
  /** Finished: the job is removed. */
  | { readonly kind: 'done' }
  /** Not finished: run again at `runAt` (UTC ISO 8601). */
  | { readonly kind: 'retry'; readonly runAt: string; readonly note?: string };

/** Handles one job of a kind. Must be safe to run twice for the same job (at-least-once). */
export type JobHandler = (job: Job) => Promise<JobOutcome>;

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
}

export class JobWorker {
  readonly id = `worker-${randomUUID()}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: WorkerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the loop to look for jobs now (e.g. right after a job was scheduled in this process). */
  poke(): void {
    this.wake?.();
  }

  /** Stops claiming; waits for the jobs in flight to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const { queue, handlers, logger } = this.options;
    const kinds = Object.keys(handlers) as JobKind[];
    const concurrency = this.options.concurrency ?? 8;
    const pollIntervalMs = this.options.pollIntervalMs ?? 500;
    const leaseMs = this.options.leaseMs ?? 60_000;
    while (this.running) {
      let claimed: Job[] = [];
      const free = concurrency - this.inFlight.size;
      if (free > 0 && kinds.length > 0) {
        try {
          claimed = await queue.claim(this.id, kinds, free, leaseMs);
        } catch (error) {
          logger.error({ err: error }, 'claiming jobs failed');
        }
      }
      for (const job of claimed) {
        const task = this.runJob(job).finally(() => this.inFlight.delete(task));
        this.inFlight.add(task);
      }
      if (claimed.length === 0 || this.inFlight.size >= concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollIntervalMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  private async runJob(job: Job): Promise<void> {
    const { queue, handlers, logger } = this.options;
    const handler = handlers[job.kind];
    const now = this.options.now ?? (() => new Date());
    try {
      if (handler === undefined) throw new Error(`No handler for job kind ${job.kind}`);
      const outcome = await handler(job);
      if (outcome.kind === 'done') await queue.complete(job, this.id);
      else await queue.retryAt(job, this.id, outcome.runAt, outcome.note);
    } catch (error) {
      // A failing handler must not lose the job: back off and try again.
      const delayMs = Math.min(60_000 * 10, 1000 * 2 ** Math.min(job.attempts, 10));
      logger.error({ err: error, jobId: job.id, kind: job.kind, paymentId: job.paymentId }, 'job failed; will retry');
      await queue.retryAt(job, this.id, new Date(now().getTime() + delayMs).toISOString(), error instanceof Error ? error.message : String(error)).catch(
        (releaseError: unknown) => logger.error({ err: releaseError, jobId: job.id }, 'could not re-time the job'),
      );
    }
  }
}
