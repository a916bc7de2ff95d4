/**
 * Group commit: writes that arrive while a transaction is committing wait, then commit together in the next one,
 * each inside a savepoint of its own. On SQLite every commit is an fsync (synchronous=FULL) and transactions run
 * one at a time, so one fsync for many writes instead of one each is what sets the pace of concurrent payment
 * creations (docs/performance.md). Nothing is weakened: a caller's promise settles only after the transaction
 * holding its write committed (or failed), and a write that fails is rolled back to its savepoint alone, leaving
 * the others of its group to commit.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/** One caller's work inside the shared transaction. */
type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  readonly work: Work<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** At most this many writes share a transaction (bounds its duration and the savepoint stack). */
const MAX_GROUP = 64;

export class GroupCommitter {
  private readonly queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `work` in a transaction shared with other writes; settles once that transaction has committed. */
  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work: work as Work<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, MAX_GROUP);
        const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
        try {
          await this.db.transaction().execute(async (trx) => {
            for (const [index, pending] of group.entries()) {
              const savepoint = sql.raw(`group_write_${index}`);
              await sql`SAVEPOINT ${savepoint}`.execute(trx);
              try {
                outcomes.push({ ok: true, value: await pending.work(trx) });
                await sql`RELEASE SAVEPOINT ${savepoint}`.execute(trx);
              } catch (error) {
                await sql`ROLLBACK TO SAVEPOINT ${savepoint}`.execute(trx);
                await sql`RELEASE SAVEPOINT ${savepoint}`.execute(trx);
                outcomes.push({ ok: false, error });
              }
            }
          });
        } catch (error) {
          // The commit itself failed: nothing of the group is stored.
          for (const pending of group) pending.reject(error);
          continue;
        }
        group.forEach((pending, index) => {
          const outcome = outcomes[index];
          if (outcome?.ok === true) pending.resolve(outcome.value);
          else pending.reject(outcome?.error ?? new Error('group commit lost a write'));
        });
      }
    } finally {
      this.flushing = false;
    }
  }
}
