/**
 * The figures behind the Insight charts (docs/console.md, "Insight"), read from payments and their status history:
 * payments per outcome over time, the conversion funnel (how far payers got, overall and per bank), and the time
 * from creation to completion. Every query takes the viewer's client scope: a member's figures are their client's.
 */
import { sql, type Kysely } from 'kysely';
import { topLevelStatus, type DetailedStatus } from '../../domain/detailed-status.js';
import type { Database } from '../../storage/schema.js';

export const RANGES = {
  '24h': { label: 'Last 24 hours', hours: 24, bucket: 'hour' },
  '7d': { label: 'Last 7 days', hours: 7 * 24, bucket: 'day' },
  '30d': { label: 'Last 30 days', hours: 30 * 24, bucket: 'day' },
} as const;
export type RangeId = keyof typeof RANGES;

export interface InsightScope {
  readonly from: Date;
  readonly to: Date;
  /** A member's client, or the client an operator picked; undefined: every client. */
  readonly clientId: string | undefined;
}

export interface OutcomeBucket {
  /** The bucket's start (UTC ISO 8601). */
  readonly start: string;
  readonly completed: number;
  readonly failed: number;
  readonly pending: number;
}

/** Payments created in each hour or day of the range, by where they stand now. Empty buckets included. */
export async function outcomesOverTime(db: Kysely<Database>, scope: InsightScope, bucket: 'hour' | 'day'): Promise<OutcomeBucket[]> {
  // `2026-11-24T10` (hour) or `2026-11-24` (day): created_at is ISO 8601 text on both databases.
  const length = bucket === 'hour' ? 13 : 10;
  let query = db
    .selectFrom('payments')
    .select((eb) => [
      sql<string>`substr(created_at, 1, ${sql.lit(length)})`.as('bucket'),
      'detailed_status',
      eb.fn.countAll<number | string>().as('count'),
    ])
    .where('created_at', '>=', scope.from.toISOString())
    .where('created_at', '<', scope.to.toISOString())
    .groupBy([sql`substr(created_at, 1, ${sql.lit(length)})`, 'detailed_status']);
  if (scope.clientId !== undefined) query = query.where('client_id', '=', scope.clientId);
  const rows = await query.execute();

  const buckets = new Map<string, { completed: number; failed: number; pending: number }>();
  const step = bucket === 'hour' ? 3_600_000 : 86_400_000;
  const first =
    bucket === 'hour'
      ? Date.parse(`${scope.from.toISOString().slice(0, 13)}:00:00Z`)
      : Date.parse(`${scope.from.toISOString().slice(0, 10)}T00:00:00Z`);
  for (let start = first; start < scope.to.getTime(); start += step) {
    buckets.set(new Date(start).toISOString().slice(0, length), { completed: 0, failed: 0, pending: 0 });
  }
  for (const row of rows) {
    const counts = buckets.get(row.bucket);
    if (counts === undefined) continue;
    const status = topLevelStatus(row.detailed_status as DetailedStatus);
    const key = status === 'COMPLETED' ? 'completed' : status === 'FAILED' ? 'failed' : 'pending';
    counts[key] += Number(row.count);
  }
  return [...buckets.entries()].map(([key, counts]) => ({
    start: bucket === 'hour' ? `${key}:00:00.000Z` : `${key}T00:00:00.000Z`,
    ...counts,
  }));
}

/**
 * The funnel's steps: how far a payment got. A payment counts at a step when it reached it or any later one, so
 * the bars only shrink (a payment whose bank the client chose skips bank selection, yet passed it). Reached means
 * a status of that phase other than a failure: a payer who gave up at the bank's login failed in phase 3 and is
 * counted up to phase 3, not further. Phases that most payments skip (follow-up data, account choice) are folded
 * into the step after them.
 */
export const FUNNEL_STEPS = [
  { id: 'created', label: 'Created', hint: 'The client created the payment' },
  { id: 'bank-chosen', label: 'Bank chosen', hint: 'The payer chose a bank (or the client chose it)' },
  { id: 'registered', label: 'Registered at the bank', hint: 'The bank accepted the payment for authorisation' },
  { id: 'authorised', label: 'Authorised', hint: 'The payer authorised the payment at the bank' },
  { id: 'completed', label: 'Completed', hint: 'The bank executed the payment' },
] as const;

/** How far a payment's status records show it got (0-based index into FUNNEL_STEPS), over `h`, its status history. */
const REACHED = sql<number>`MAX(CASE
  WHEN h.detailed_status LIKE '%\\_FAILED' ESCAPE '\\' THEN 0
  WHEN h.detailed_status = 'PAYMENT_EXECUTION_COMPLETED' THEN 4
  WHEN h.detailed_status LIKE 'PAYMENT\\_EXECUTION\\_%' ESCAPE '\\' THEN 3
  WHEN h.detailed_status LIKE 'PAYMENT\\_CONSENT\\_%' ESCAPE '\\' THEN 2
  WHEN h.detailed_status LIKE 'PROVIDER\\_SELECTION\\_%' ESCAPE '\\' THEN 0
  ELSE 1 END)`;

export interface FunnelRow {
  /** The bank, or null for payments that never got one. */
  readonly bankId: string | null;
  /** Payments that reached each step (index as FUNNEL_STEPS). */
  readonly reached: readonly number[];
}

/** The funnel per bank (payments created in the range). Sum the rows for the overall funnel. */
export async function funnelByBank(db: Kysely<Database>, scope: InsightScope): Promise<FunnelRow[]> {
  let furthest = db
    .selectFrom('payment_status_history as h')
    .innerJoin('payments as p', 'p.id', 'h.payment_id')
    .select(['p.id', 'p.provider_id', REACHED.as('reached')])
    .where('p.created_at', '>=', scope.from.toISOString())
    .where('p.created_at', '<', scope.to.toISOString())
    .groupBy(['p.id', 'p.provider_id']);
  if (scope.clientId !== undefined) furthest = furthest.where('p.client_id', '=', scope.clientId);
  const rows = await db
    .selectFrom(furthest.as('f'))
    .select((eb) => ['f.provider_id', 'f.reached', eb.fn.countAll<number | string>().as('count')])
    .groupBy(['f.provider_id', 'f.reached'])
    .execute();

  const byBank = new Map<string | null, number[]>();
  for (const row of rows) {
    const reached = byBank.get(row.provider_id) ?? FUNNEL_STEPS.map(() => 0);
    // Reaching step k means passing every step before it.
    for (let step = 0; step <= Number(row.reached); step += 1) reached[step] = (reached[step] ?? 0) + Number(row.count);
    byBank.set(row.provider_id, reached);
  }
  return [...byBank.entries()].map(([bankId, reached]) => ({ bankId, reached }));
}

/**
 * Payments the payer cancelled on our page after its confirmation (created in the range): the cancel's mark in the
 * flow state, and the payment failed with PSU_CANCELLED (a cancel the bank overtook, by executing first, is not one).
 * The stored flow state is flat JSON without spaces (`toStoredFlowState`), so the mark reads exactly as matched here.
 */
export async function cancelledAfterConfirmation(db: Kysely<Database>, scope: InsightScope): Promise<number> {
  let query = db
    .selectFrom('payments as p')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('p.created_at', '>=', scope.from.toISOString())
    .where('p.created_at', '<', scope.to.toISOString())
    .where('p.flow_state', 'like', '%"cancelledOnPage":true%')
    .where('p.failure_reasons', 'like', '%"PSU_CANCELLED"%');
  if (scope.clientId !== undefined) query = query.where('p.client_id', '=', scope.clientId);
  const row = await query.executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function overallFunnel(rows: readonly FunnelRow[]): number[] {
  return FUNNEL_STEPS.map((_, step) => rows.reduce((sum, row) => sum + (row.reached[step] ?? 0), 0));
}

/** Buckets of the time from creation to completion: upper bounds in seconds (the last is open). */
export const COMPLETION_BUCKETS = [
  { label: 'under 30 s', upToSeconds: 30 },
  { label: '30 s – 1 min', upToSeconds: 60 },
  { label: '1 – 2 min', upToSeconds: 120 },
  { label: '2 – 5 min', upToSeconds: 300 },
  { label: '5 – 15 min', upToSeconds: 900 },
  { label: '15 min – 1 h', upToSeconds: 3600 },
  { label: 'over 1 h', upToSeconds: Number.POSITIVE_INFINITY },
] as const;

export interface CompletionTimes {
  readonly counts: readonly number[];
  readonly total: number;
  readonly medianMs: number | undefined;
  readonly p95Ms: number | undefined;
  /** True when only the newest COMPLETION_SAMPLE_LIMIT completions were read. */
  readonly sampled: boolean;
}

/** Completions read at most (the newest): bounds the page's cost on a large range. */
export const COMPLETION_SAMPLE_LIMIT = 50_000;

/** How long completed payments (created in the range) took from creation to the bank's execution. */
export async function completionTimes(db: Kysely<Database>, scope: InsightScope): Promise<CompletionTimes> {
  let query = db
    .selectFrom('payments as p')
    .innerJoin('payment_status_history as h', (join) =>
      join.onRef('h.payment_id', '=', 'p.id').on('h.detailed_status', '=', 'PAYMENT_EXECUTION_COMPLETED'),
    )
    .select(['p.created_at as created', 'h.created_at as completed'])
    .where('p.created_at', '>=', scope.from.toISOString())
    .where('p.created_at', '<', scope.to.toISOString())
    .orderBy('p.created_at', 'desc')
    .limit(COMPLETION_SAMPLE_LIMIT + 1);
  if (scope.clientId !== undefined) query = query.where('p.client_id', '=', scope.clientId);
  const rows = await query.execute();
  const sampled = rows.length > COMPLETION_SAMPLE_LIMIT;
  const durations = rows
    .slice(0, COMPLETION_SAMPLE_LIMIT)
    .map((row) => Math.max(0, Date.parse(row.completed) - Date.parse(row.created)))
    .sort((a, b) => a - b);
  const counts = COMPLETION_BUCKETS.map(() => 0);
  for (const ms of durations) {
    const index = COMPLETION_BUCKETS.findIndex((bucket) => ms < bucket.upToSeconds * 1000);
    counts[index] = (counts[index] ?? 0) + 1;
  }
  const rank = (share: number): number | undefined =>
    durations.length === 0 ? undefined : durations[Math.ceil(share * durations.length) - 1];
  return { counts, total: durations.length, medianMs: rank(0.5), p95Ms: rank(0.95), sampled };
}

export interface HandoverCounts {
  /** Payments whose payer moved from a desktop to a phone by the QR code of our pages (docs/hosted-pages.md). */
  readonly takenOver: number;
  /** Of those, the ones completed. */
  readonly completed: number;
}

/** Payments created in the range that a phone took over from a desktop (table `payment_handovers`). */
export async function handoversTaken(db: Kysely<Database>, scope: InsightScope): Promise<HandoverCounts> {
  let query = db
    .selectFrom('payment_handovers as o')
    .innerJoin('payments as p', 'p.id', 'o.payment_id')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('taken'),
      eb.fn.sum<number | string>(sql`CASE WHEN p.detailed_status = 'PAYMENT_EXECUTION_COMPLETED' THEN 1 ELSE 0 END`).as('completed'),
    ])
    .where('o.taken_at', 'is not', null)
    .where('p.created_at', '>=', scope.from.toISOString())
    .where('p.created_at', '<', scope.to.toISOString());
  if (scope.clientId !== undefined) query = query.where('p.client_id', '=', scope.clientId);
  const row = await query.executeTakeFirst();
  return { takenOver: Number(row?.taken ?? 0), completed: Number(row?.completed ?? 0) };
}
