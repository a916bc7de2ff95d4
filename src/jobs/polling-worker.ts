/**
 * The loop shared by every background worker: claim due items (leases in the database), process them with
 * bounded concurrency, sleep when idle. Stopping stops claiming and waits for the items in flight.
 *
 * How it keeps pace with a queue that is never quite empty (docs/performance.md): a claim that filled every free
 * slot is followed by another as soon as a slot frees (not after a fixed pause); a claim that found less sleeps
 * only until the next item falls due (`nextDueInMs`), a poke, or at most the poll interval.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

export interface LeasedWork<T> {
  /** Claims up to `limit` due items for this worker. */
  claim(workerId: string, limit: number): Promise<T[]>;
  /** Processes one claimed item. Errors are logged; the item's lease then lapses and it is claimed again. */
  process(item: T, workerId: string): Promise<void>;
  /** In how many ms the next item that is not due yet falls due; undefined when none is waiting. */
  nextDueInMs?(): Promise<number | undefined>;
}

export interface PollingWorkerOptions {
  readonly logger: FastifyBaseLogger;
  /** The longest an idle worker sleeps before it looks for due items again (ms). */
  readonly pollIntervalMs: number;
  /** Items processed at once by this worker. */
  readonly concurrency: number;
}

export class PollingWorker<T> {
  readonly id: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** A poke that came while the loop was awake (claiming): the next sleep is skipped. */
  private poked = false;
  /** When the current sleep ends (epoch ms), so `wakeBy` can only shorten it. */
  private sleepingUntil = Number.POSITIVE_INFINITY;
  /** The earliest `wakeBy` that came while the loop was awake (epoch ms): the next sleep ends by then. */
  private wakeByWhileAwake = Number.POSITIVE_INFINITY;
  private sleepTimer: NodeJS.Timeout | undefined;
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
    if (this.wake === undefined) this.poked = true;
    else this.wake();
  }

  /** Looks for due items by `at` (epoch ms) at the latest: an item this worker knows falls due then. */
  wakeBy(at: number): void {
    if (this.wake === undefined) this.wakeByWhileAwake = Math.min(this.wakeByWhileAwake, at);
    else if (at < this.sleepingUntil) this.arm(at);
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
      this.poked = false;
      let claimed: T[] = [];
      const free = concurrency - this.inFlight.size;
      let claimFailed = false;
      if (free > 0) {
        try {
          claimed = await this.work.claim(this.id, free);
        } catch (error) {
          claimFailed = true;
          logger.error({ err: error, worker: this.name }, 'claiming work failed');
        }
      }
      for (const item of claimed) {
        const task = this.work
          .process(item, this.id)
          .catch((error: unknown) => logger.error({ err: error, worker: this.name }, 'processing failed'))
          .finally(() => {
            this.inFlight.delete(task);
            // A slot is free: a worker that stopped claiming because it was full claims again now.
            if (this.inFlight.size === concurrency - 1) this.poke();
          });
        this.inFlight.add(task);
      }
      if (!this.running) break;
      if (this.inFlight.size >= concurrency) {
        // Full: the first item to finish wakes the loop (or the poll interval, as a backstop).
        await this.sleep(pollIntervalMs);
      } else if (claimFailed || claimed.length < free) {
        // Everything due was taken: sleep until the next item falls due, a poke, or the poll interval.
        await this.sleep(claimFailed ? pollIntervalMs : await this.untilNextDue(pollIntervalMs));
      }
      // Otherwise every free slot was filled and more may be due: claim again at once.
    }
  }

  private async untilNextDue(pollIntervalMs: number): Promise<number> {
    if (this.work.nextDueInMs === undefined) return pollIntervalMs;
    try {
      const dueInMs = await this.work.nextDueInMs();
      return dueInMs === undefined ? pollIntervalMs : Math.max(0, Math.min(pollIntervalMs, dueInMs));
    } catch (error) {
      this.options.logger.error({ err: error, worker: this.name }, 'reading when work falls due failed');
      return pollIntervalMs;
    }
  }

  private sleep(ms: number): Promise<void> {
    const until = Math.min(Date.now() + ms, this.wakeByWhileAwake);
    this.wakeByWhileAwake = Number.POSITIVE_INFINITY;
    if (this.poked) {
      this.poked = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.wake = () => {
        clearTimeout(this.sleepTimer);
        this.wake = undefined;
        this.sleepingUntil = Number.POSITIVE_INFINITY;
        resolve();
      };
      this.arm(until);
    });
  }

  private arm(at: number): void {
    clearTimeout(this.sleepTimer);
    this.sleepingUntil = at;
    const wake = this.wake;
    this.sleepTimer = setTimeout(() => wake?.(), Math.max(0, at - Date.now()));
  }
}
