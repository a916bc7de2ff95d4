/**
 * Tells this process's background workers what a commit of this process left for them (jobs, and when the
 * earliest falls due; webhook deliveries, due at once), so they take it when it is due instead of at their next
 * poll, and are not woken for work that is not due yet (a creation's flow-expiry job, due in minutes, wakes
 * nobody). Workers in other processes still find the work by polling; the signal only takes the poll interval out
 * of the latency when API and workers share a process.
 */
export interface CommittedWork {
  /** When the earliest job the commit scheduled falls due (epoch ms); absent when it scheduled none. */
  readonly jobsDueAt?: number;
  /** The commit queued webhook deliveries (due at once). */
  readonly webhooks: boolean;
}

export class WorkSignal {
  private readonly listeners = new Set<(work: CommittedWork) => void>();

  /** Calls `listener` on every signal; returns the function that stops it. */
  subscribe(listener: (work: CommittedWork) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A commit left `work`: tell every subscriber (nothing when it left none). */
  notify(work: CommittedWork): void {
    if (work.jobsDueAt === undefined && !work.webhooks) return;
    for (const listener of this.listeners) listener(work);
  }
}

/** When the earliest of `runAts` (UTC ISO 8601) falls due, in epoch ms; undefined for none. */
export function earliestDue(runAts: readonly string[]): number | undefined {
  let earliest: number | undefined;
  for (const runAt of runAts) {
    const at = Date.parse(runAt);
    if (earliest === undefined || at < earliest) earliest = at;
  }
  return earliest;
}
