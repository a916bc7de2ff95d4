/**
 * Tells this process's background workers that work was just committed (a status record with its webhook event,
 * a scheduled job), so they look for it now instead of at their next poll. Workers in other processes still find
 * it by polling; the signal only takes the poll interval out of the latency when API and workers share a process.
 */
export class WorkSignal {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` on every signal; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Work was committed: wake every subscriber. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
