/**
 * A bank's health from the records of bank calls (table `bank_calls`, docs/console.md "Banks"): over the last hour
 * and the last day, how many calls got a usable answer and how long the slowest 5 % took (p95).
 *
 * A call counts as answered when the bank gave a proper answer, a refusal included (wrong credentials, no funds:
 * the bank works, the payer's case failed). It counts against the bank when there was no usable answer
 * (`unavailable`), an answer against the standard (`protocol`), or an error of ours on the way (`error`).
 *
 * A bank is *failing* when, in the last 15 minutes, at least 3 calls were made and at least half of them failed;
 * *degraded* when under 95 % of the last hour's calls were answered; *healthy* otherwise; *quiet* without a call
 * in the last day. Members see the same figures over their own client's calls only.
 */
import { sql, type Kysely } from 'kysely';
import type { StoredBank } from '../../providers/bank-store.js';
import type { Database } from '../../storage/schema.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';

export interface HealthWindow {
  readonly calls: number;
  readonly failed: number;
  /** Answered calls out of all, 0–1; undefined without calls. */
  readonly successRate: number | undefined;
  /** Nearest-rank 95th percentile of latency (ms); undefined without calls. */
  readonly p95Ms: number | undefined;
}

export type HealthState = 'failing' | 'degraded' | 'healthy' | 'quiet';

export interface BankHealth {
  readonly bankId: string;
  readonly state: HealthState;
  readonly lastQuarterHour: { readonly calls: number; readonly failed: number };
  readonly lastHour: HealthWindow;
  readonly lastDay: HealthWindow;
  readonly lastCallAt: string | undefined;
  readonly lastFailureAt: string | undefined;
}

export const FAILING_MIN_CALLS = 3;
export const FAILING_SHARE = 0.5;
export const DEGRADED_BELOW = 0.95;

const FAILURE_OUTCOMES = ['unavailable', 'protocol', 'error'] as const;
const MINUTE = 60_000;

interface Counts {
  quarter: { calls: number; failed: number };
  hour: { calls: number; failed: number };
  day: { calls: number; failed: number };
  lastCallAt: string | undefined;
  lastFailureAt: string | undefined;
}

/** The health of every bank with calls in the last day (for `clientScope`'s calls only when given). */
export async function bankHealth(db: Kysely<Database>, now: Date, clientScope: string | undefined): Promise<Map<string, BankHealth>> {
  const dayAgo = new Date(now.getTime() - 24 * 60 * MINUTE).toISOString();
  const hourAgo = new Date(now.getTime() - 60 * MINUTE).toISOString();
  const quarterAgo = new Date(now.getTime() - 15 * MINUTE).toISOString();
  const failedCase = sql<number>`CASE WHEN outcome IN (${sql.join([...FAILURE_OUTCOMES])}) THEN 1 ELSE 0 END`;
  let query = db
    .selectFrom('bank_calls')
    .select((eb) => [
      'bank_id',
      eb.fn.countAll<number | string>().as('day_calls'),
      eb.fn.sum<number | string>(failedCase).as('day_failed'),
      eb.fn.sum<number | string>(sql`CASE WHEN at >= ${hourAgo} THEN 1 ELSE 0 END`).as('hour_calls'),
      eb.fn
        .sum<number | string>(sql`CASE WHEN at >= ${hourAgo} AND outcome IN (${sql.join([...FAILURE_OUTCOMES])}) THEN 1 ELSE 0 END`)
        .as('hour_failed'),
      eb.fn.sum<number | string>(sql`CASE WHEN at >= ${quarterAgo} THEN 1 ELSE 0 END`).as('quarter_calls'),
      eb.fn
        .sum<number | string>(sql`CASE WHEN at >= ${quarterAgo} AND outcome IN (${sql.join([...FAILURE_OUTCOMES])}) THEN 1 ELSE 0 END`)
        .as('quarter_failed'),
      eb.fn.max('at').as('last_call_at'),
      eb.fn.max<string | null>(sql`CASE WHEN outcome IN (${sql.join([...FAILURE_OUTCOMES])}) THEN at END`).as('last_failure_at'),
    ])
    .where('at', '>=', dayAgo)
    .groupBy('bank_id');
  if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
  const rows = await query.execute();

  const health = new Map<string, BankHealth>();
  for (const row of rows) {
    const counts: Counts = {
      quarter: { calls: Number(row.quarter_calls ?? 0), failed: Number(row.quarter_failed ?? 0) },
      hour: { calls: Number(row.hour_calls ?? 0), failed: Number(row.hour_failed ?? 0) },
      day: { calls: Number(row.day_calls), failed: Number(row.day_failed ?? 0) },
      lastCallAt: row.last_call_at ?? undefined,
      lastFailureAt: row.last_failure_at ?? undefined,
    };
    const [hourP95, dayP95] = await Promise.all([
      p95(db, row.bank_id, hourAgo, counts.hour.calls, clientScope),
      p95(db, row.bank_id, dayAgo, counts.day.calls, clientScope),
    ]);
    health.set(row.bank_id, {
      bankId: row.bank_id,
      state: stateOf(counts),
      lastQuarterHour: counts.quarter,
      lastHour: windowOf(counts.hour, hourP95),
      lastDay: windowOf(counts.day, dayP95),
      lastCallAt: counts.lastCallAt,
      lastFailureAt: counts.lastFailureAt,
    });
  }
  return health;
}

/** A bank without calls in the last day. */
export function quietBank(bankId: string): BankHealth {
  const none: HealthWindow = { calls: 0, failed: 0, successRate: undefined, p95Ms: undefined };
  return {
    bankId,
    state: 'quiet',
    lastQuarterHour: { calls: 0, failed: 0 },
    lastHour: none,
    lastDay: none,
    lastCallAt: undefined,
    lastFailureAt: undefined,
  };
}

export function stateOf(counts: Pick<Counts, 'quarter' | 'hour' | 'day'>): HealthState {
  if (counts.quarter.calls >= FAILING_MIN_CALLS && counts.quarter.failed / counts.quarter.calls >= FAILING_SHARE) return 'failing';
  if (counts.hour.calls > 0 && (counts.hour.calls - counts.hour.failed) / counts.hour.calls < DEGRADED_BELOW) return 'degraded';
  if (counts.day.calls === 0) return 'quiet';
  return 'healthy';
}

function windowOf(counts: { calls: number; failed: number }, p95Ms: number | undefined): HealthWindow {
  return {
    calls: counts.calls,
    failed: counts.failed,
    successRate: counts.calls === 0 ? undefined : (counts.calls - counts.failed) / counts.calls,
    p95Ms,
  };
}

/**
 * The nearest-rank 95th percentile: the ⌈0.95·n⌉-th smallest latency, read as the (n − ⌈0.95·n⌉)-th from the top
 * through the (bank, time) index. Exact, and the same on SQLite and PostgreSQL (neither shares a percentile function).
 */
async function p95(
  db: Kysely<Database>,
  bankId: string,
  since: string,
  calls: number,
  clientScope: string | undefined,
): Promise<number | undefined> {
  if (calls === 0) return undefined;
  let query = db
    .selectFrom('bank_calls')
    .select('latency_ms')
    .where('bank_id', '=', bankId)
    .where('at', '>=', since)
    .orderBy('latency_ms', 'desc')
    .limit(1)
    .offset(calls - Math.ceil(0.95 * calls));
  if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
  const row = await query.executeTakeFirst();
  return row === undefined ? undefined : Number(row.latency_ms);
}

/** The bank calls made for one payment, oldest first. */
export async function bankCallsOf(db: Kysely<Database>, paymentId: string) {
  return db
    .selectFrom('bank_calls')
    .select(['at', 'bank_id', 'operation', 'outcome', 'http_status', 'latency_ms'])
    .where('payment_id', '=', paymentId)
    .orderBy('at')
    .orderBy('id')
    .limit(500)
    .execute();
}

/**
 * The banks failing now, by the same rule as the Banks page's "Failing now" (every client's calls): the payer's bank
 * list marks them "having problems" and sorts them last. One grouped query over the last 15 minutes.
 */
export async function failingBankIds(db: Kysely<Database>, now: Date): Promise<Set<string>> {
  const quarterAgo = new Date(now.getTime() - 15 * MINUTE).toISOString();
  const rows = await db
    .selectFrom('bank_calls')
    .select((eb) => [
      'bank_id',
      eb.fn.countAll<number | string>().as('calls'),
      eb.fn.sum<number | string>(sql`CASE WHEN outcome IN (${sql.join([...FAILURE_OUTCOMES])}) THEN 1 ELSE 0 END`).as('failed'),
    ])
    .where('at', '>=', quarterAgo)
    .groupBy('bank_id')
    .execute();
  const none = { calls: 0, failed: 0 };
  return new Set(
    rows
      .filter(
        (row) => stateOf({ quarter: { calls: Number(row.calls), failed: Number(row.failed ?? 0) }, hour: none, day: none }) === 'failing',
      )
      .map((row) => row.bank_id),
  );
}

/** An operator's change of a bank's lifecycle. */
export type BankLifecycleChange =
  { readonly kind: 'disable' } | { readonly kind: 'enable' } | { readonly kind: 'replace'; readonly replacement: string };

/**
 * Changes a bank's lifecycle through the bank store (so every process hears of it, as after the CLI's change) and
 * records it in the audit log. A change the lifecycle does not allow throws BankChangeError, and nothing is recorded.
 */
export async function changeBankLifecycle(
  services: ConsoleServices,
  viewer: Viewer,
  bankId: string,
  change: BankLifecycleChange,
): Promise<StoredBank> {
  const store = services.bankStore;
  const changed =
    change.kind === 'disable'
      ? await store.disable(bankId)
      : change.kind === 'enable'
        ? await store.enable(bankId)
        : await store.replace(bankId, change.replacement);
  await services.audit.record(viewer.actor, {
    action: `bank.${change.kind === 'disable' ? 'disabled' : change.kind === 'enable' ? 'enabled' : 'replaced'}`,
    target: changed.id,
    ...(change.kind === 'replace' ? { details: { replacedBy: changed.replacedBy } } : {}),
  });
  return changed;
}
