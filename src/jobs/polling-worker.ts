/**
 * The loop shared by every background worker: claim due items (leases in the database), process them with
 * bounded concurrency, sleep when idle. Stopping stops claiming and waits for the items in flight.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

export interface LeasedWork<T> {
  /** Claims up to `limit` due items for this worker. */
  claim(workerId: string, limit: number): Promise<T[]>;
  /** Processes one claimed item. Errors are logged; the item's lease then lapses and it is claimed again. */
  process(item: T, workerId: string): Promise<void>;
}

export interface PollingWorkerOptions {
  readonly logger: FastifyBaseLogger;
  /** How often to look for due items when there were none (ms). */
  readonly pollIntervalMs: number;
  /** Items processed at once by this worker. */
  readonly concurrency: number;
}

export class PollingWorker<T> {
  readonly id: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    readonly name: string,
    private readonly work: LeasedWork<T>,
    private readonly options: PollingWorkerOptions,
  ) {
    this.id = `${name}-${randomUUID()}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for due items now instead of at the next poll. */
  poke(): void {
    this.wake?.();
  }

  /** Stops claiming and waits for the items in flight (graceful shutdown). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const { logger, concurrency, pollIntervalMs } = this.options;
    while (this.running) {
      let claimed: T[] = [];
      const free = concurrency - this.inFlight.size;
      if (free > 0) {
        try {
          claimed = await this.work.claim(this.id, free);
        } catch (error) {
          logger.error({ err: error, worker: this.name }, 'claiming work failed');
        }
      }
      for (const item of claimed) {
        const task = this.work
          .process(item, this.id)
          .catch((error: unknown) => logger.error({ err: error, worker: this.name }, 'processing failed'))
          .finally(() => this.inFlight.delete(task));
        this.inFlight.add(task);
      }
      if (claimed.length === 0 || this.inFlight.size >= concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, claimed.length === 0 ? pollIntervalMs : 5);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }
}
