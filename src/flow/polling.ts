/**
 * When the bank is asked again, for every kind of wait, in one place (decisions §8, docs/state-machine.md "Polling"):
 *
 * - a payer approving in the bank's app (decoupled, CIBA), a payment authorised and executing, and a bank answer we
 *   lost all start fast: every `baseMs` (1 s by default) for the first `fastForMs` (a minute), the time in which an
 *   instant payment settles or a payer approves;
 * - then the delay doubles up to `maxMs` (2 minutes by default), so a payment the bank settles late is seen within
 *   minutes, not a quarter of an hour, while a bank is asked at most every `maxMs` per payment;
 * - every delay carries ±20 % jitter, so payments created together do not ask together; a bank's `Retry-After` is a
 *   floor;
 * - a per-bank budget (`PollBudget`) bounds the background calls one process makes to one bank per second;
 * - a wait the bank confirmed it will notify (Berlin Group `TPP-Notification-URI` answered with
 *   `ASPSP-Notification-Support: true`; src/flow/steps/notification.ts) is woken by the notification, so polling is
 *   only the fallback for one that never came: it starts at `PUSH_FALLBACK_FACTOR` times the base (10 s by default)
 *   for the first minute, then doubles to the same cap, so a lost notification still costs at most the cap.
 */

export interface PollingOptions {
  /** The delay while the wait is young (BANK_STATUS_POLL_BASE_MS). */
  readonly baseMs: number;
  /** The cap of the backoff (BANK_STATUS_POLL_MAX_MS). */
  readonly maxMs: number;
  /** How long the fast phase lasts. */
  readonly fastForMs?: number;
  /** A number in [0, 1) (Math.random by default); tests pass a fixed one. */
  readonly random?: () => number;
}

export const DEFAULT_FAST_FOR_MS = 60_000;
const JITTER = 0.2;
/** How much slower the first minute's pace is for a wait the bank will notify (the fallback's pace). */
export const PUSH_FALLBACK_FACTOR = 10;

export class PollingSchedule {
  private readonly paces: Readonly<Record<'polled' | 'pushed', { readonly baseMs: number; readonly fastAttempts: number }>>;
  private readonly random: () => number;

  constructor(private readonly options: PollingOptions) {
    const fastForMs = options.fastForMs ?? DEFAULT_FAST_FOR_MS;
    const pace = (baseMs: number): { baseMs: number; fastAttempts: number } => ({
      baseMs,
      fastAttempts: Math.max(1, Math.ceil(fastForMs / baseMs)),
    });
    this.paces = {
      polled: pace(options.baseMs),
      pushed: pace(Math.min(options.maxMs, options.baseMs * PUSH_FALLBACK_FACTOR)),
    };
    this.random = options.random ?? Math.random;
  }

  /**
   * The delay before look number `attempt + 1` of one wait (`attempt` looks were made since the wait began; the job
   * queue counts them), at least the bank's `Retry-After`. `pushed`: the bank will notify the change awaited.
   */
  delayMs(attempt: number, retryAfterSeconds?: number, pushed = false): number {
    const { maxMs } = this.options;
    const { baseMs, fastAttempts } = this.paces[pushed ? 'pushed' : 'polled'];
    const backoffSteps = Math.max(0, attempt - fastAttempts + 1);
    const plain = attempt < fastAttempts ? baseMs : Math.min(maxMs, baseMs * 2 ** Math.min(backoffSteps, 30));
    const jittered = Math.round(plain * (1 - JITTER + 2 * JITTER * this.random()));
    return Math.max(jittered, (retryAfterSeconds ?? 0) * 1000);
  }
}

/**
 * Background calls one process may make to one bank per second (BANK_POLL_BUDGET_PER_SECOND), as a token bucket
 * with a second's burst. A poll over budget is not made: the job looks again when a token is free.
 */
export class PollBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  /** Takes a token for `bankId`: 0 when one was free, else how many milliseconds until one is. */
  take(bankId: string): number {
    const now = this.nowMs();
    const bucket = this.buckets.get(bankId) ?? { tokens: this.perSecond, at: now };
    const tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    if (tokens >= 1) {
      this.buckets.set(bankId, { tokens: tokens - 1, at: now });
      return 0;
    }
    this.buckets.set(bankId, { tokens, at: now });
    return Math.ceil(((1 - tokens) / this.perSecond) * 1000);
  }
}
