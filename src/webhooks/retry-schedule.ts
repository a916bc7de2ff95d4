/**
 * When a failed webhook delivery is tried again (decisions §4): after attempt n fails, attempt n+1 is due after the
 * n-th delay of 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — eight attempts in all over about 28 hours, then the event
 * is given up.
 *
 * Jitter: each scheduled delay is multiplied by a factor drawn uniformly from [1 − jitter, 1 + jitter] (default ±10 %),
 * so that events that failed together (a receiver outage) do not all come back in the same second.
 *
 * `Retry-After` rule: a receiver's `Retry-After` (seconds or HTTP date) can only postpone, never hasten, and only
 * within a bound. With `d` the jittered scheduled delay and `D` the un-jittered one, the delay used is
 *
 *     clamp(retryAfter, d, max(2 × D, retryAfterCap))        (retryAfterCap = 1 h, scaled with the schedule)
 *
 * Sooner than the schedule would let one misbehaving receiver make us hammer it; much later would let it park events
 * for days, beyond the ~28 h a client can expect every event to be settled in.
 */

export { parseRetryDelays } from '../config/durations.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Decisions §4: the waits after attempts 1 … 7. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

export const DEFAULT_RETRY_JITTER = 0.1;
export const DEFAULT_RETRY_AFTER_CAP_MS = HOUR;

export interface RetrySchedule {
  /** Wait after failed attempt 1, 2, …; its length + 1 is the number of attempts. */
  readonly delaysMs: readonly number[];
  /** Fraction, 0 ≤ jitter < 1. */
  readonly jitter: number;
  /** Lower bound of the `Retry-After` ceiling (see the module comment). */
  readonly retryAfterCapMs: number;
}

export interface RetryScheduleOptions {
  /** Replaces the default delays (e.g. from a setting such as `5s,5m,30m`). */
  readonly delaysMs?: readonly number[];
  /**
   * Multiplies every delay and the `Retry-After` cap; `0.001` runs the whole default schedule in about 100 s,
   * `0.0001` in about 10 s. For tests and demos.
   */
  readonly scale?: number;
  readonly jitter?: number;
  readonly retryAfterCapMs?: number;
}

/** A schedule from settings; validates them, so a bad setting fails at start-up rather than at the first failure. */
export function createRetrySchedule(options: RetryScheduleOptions = {}): RetrySchedule {
  const scale = options.scale ?? 1;
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError('retry scale must be a positive number');
  const jitter = options.jitter ?? DEFAULT_RETRY_JITTER;
  if (!(jitter >= 0 && jitter < 1)) throw new RangeError('retry jitter must be at least 0 and below 1');
  const delays = options.delaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (delays.some((delay) => !(Number.isFinite(delay) && delay >= 0))) {
    throw new RangeError('retry delays must be non-negative numbers of milliseconds');
  }
  const cap = options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS;
  if (!(Number.isFinite(cap) && cap >= 0)) throw new RangeError('retry-after cap must be a non-negative number');
  return {
    delaysMs: delays.map((delay) => Math.round(delay * scale)),
    jitter,
    retryAfterCapMs: Math.round(cap * scale),
  };
}

/** Total number of attempts (the first one included) before an event is given up. */
export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.delaysMs.length + 1;
}

/**
 * Milliseconds to wait before the next attempt after attempt `failedAttempt` (1-based) failed, or `null` when that was
 * the last attempt and the event is given up. `random` returns a number in [0, 1) (injectable for tests).
 */
export function nextRetryDelayMs(
  schedule: RetrySchedule,
  failedAttempt: number,
  options: { readonly retryAfterSeconds?: number | undefined; readonly random?: () => number } = {},
): number | null {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) throw new RangeError('attempt numbers start at 1');
  const base = schedule.delaysMs[failedAttempt - 1];
  if (base === undefined) return null;
  const random = options.random ?? Math.random;
  const jittered = Math.round(base * (1 + schedule.jitter * (2 * random() - 1)));
  const retryAfter = options.retryAfterSeconds;
  if (retryAfter === undefined || !Number.isFinite(retryAfter) || retryAfter < 0) return jittered;
  const ceiling = Math.max(2 * base, schedule.retryAfterCapMs, jittered);
  return Math.min(Math.max(Math.round(retryAfter * SECOND), jittered), ceiling);
}

/**
 * Seconds a `Retry-After` header asks us to wait, measured from `now`: either whole seconds or an HTTP date.
 * `undefined` for a missing or malformed header; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // Only the date forms of RFC 9110 have letters; Date.parse alone would also accept strings such as "1".
  if (!/^[A-Za-z]{3},? /.test(trimmed) && !/^[A-Za-z]+day, /.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / SECOND));
}
