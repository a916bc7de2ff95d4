/**
 * Work a console page starts and answers before it is done (e.g. a sandbox scenario playing the payer's part): a
 * shutdown waits for it, up to UNFINISHED_WORK_GRACE_MS, instead of cutting it off halfway. The console plugin
 * waits in its `preClose` hook, before the server stops listening, since such work may call the server.
 */

/** How long a shutdown waits for the work pages started and answered before it was done. */
export const UNFINISHED_WORK_GRACE_MS = 15_000;

export class UnfinishedWork {
  private readonly pending = new Set<Promise<void>>();

  /** Work that must handle its own errors; it is forgotten once it settles. */
  add(work: Promise<void>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Settles once every piece of work has, or once the grace is over, whichever is first. */
  async settle(): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, UNFINISHED_WORK_GRACE_MS);
    });
    await Promise.race([Promise.allSettled(this.pending), grace]);
    clearTimeout(timer);
  }
}
