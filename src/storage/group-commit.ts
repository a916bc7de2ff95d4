/**
 * Group commit: writes that arrive while a transaction is committing wait, then commit together in the next one.
 * On SQLite every commit is an fsync (synchronous=FULL) and transactions run one at a time on the one connection,
 * so one BEGIN/COMMIT and one fsync for many writes instead of one each is what sets the pace of concurrent payment
 * creations (docs/performance.md). Nothing is weakened: a caller's promise settles only after the transaction
 * holding its write committed.
 *
 * A write that fails takes nothing else down with it: the group's transaction is rolled back and every write of
 * the group runs again in a transaction of its own, so each caller gets its own outcome. (Savepoints would isolate
 * a failure too, but cost two statements a write on the path every write takes; a failure is the rare case, and
 * the expected one, a duplicate payment, is answered by the write without an error.) So `work` may run twice and
 * must do nothing but write through the transaction it is given.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** One caller's work inside the shared transaction. */
type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  readonly work: Work<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** At most this many writes share a transaction (bounds its duration and what a failure makes run again). */
const MAX_GROUP = 64;

export class GroupCommitter {
  private readonly queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `work` in a transaction shared with other writes; settles once that transaction has committed. */
  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.flushing) return;
      this.flushing = true;
      // Wait for the rest of this turn of the event loop: the requests whose data arrived with this one are being
      // handled now, and their writes join this group instead of each waiting for a commit of its own.
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, MAX_GROUP);
        let values: unknown[];
        try {
          values = await this.db.transaction().execute(async (trx) => {
            const results: unknown[] = [];
            for (const pending of group) results.push(await pending.work(trx));
            return results;
          });
        } catch (error) {
          if (group.length === 1) group[0]?.reject(error);
          else await this.oneByOne(group);
          continue;
        }
        group.forEach((pending, index) => pending.resolve(values[index]));
      }
    } finally {
      this.flushing = false;
    }
  }

  /** After a group failed: each write again, in a transaction of its own, with its own outcome. */
  private async oneByOne(group: readonly Pending[]): Promise<void> {
    for (const pending of group) {
      try {
        pending.resolve(await this.db.transaction().execute(pending.work));
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
