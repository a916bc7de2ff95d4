/**
 * Storage of payments for the payments API: creation (a payment and its first status record in one transaction)
 * and the client's reads and list, the same code on SQLite and PostgreSQL. History is append-only; every later change
 * of a payment is the flow engine's (src/flow/payment-state-store.ts). The row mapping both use is in
 * src/flow/payment-rows.ts, below this folder in the layers.
 */
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { DetailedStatus } from '../domain/detailed-status.js';
import { appendStatusRecords, statusChangeRows } from '../flow/status-writer.js';
import { holdLinkForRetry } from '../flow/payment-link-store.js';
import { paymentFromRow, paymentToRow, statusRecordFromRow } from '../flow/payment-rows.js';
import type { JobSchedule } from '../jobs/job-kinds.js';
import { jobRows, scheduleJobs } from '../jobs/job-queue.js';
import { decimalFromScaled, scaledAmount } from '../domain/money.js';
import { DETAILED_STATUSES, isDetailedStatus, topLevelStatus } from '../domain/detailed-status.js';
import { isUniqueViolation } from '../storage/database.js';
import { insertWithDependents } from '../storage/insert-with-dependents.js';
import type { GroupCommitter } from '../storage/group-commit.js';
import { ReusableQuery } from '../storage/reusable-query.js';
import { earliestDue, type CommittedWork } from '../jobs/work-signal.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';

/** Filters of a client's payment list (GET /api/v1/ob/payments); every one given must hold. */
export interface PaymentListFilter {
  /** The payment's detailed status is one of these (top-level statuses are expanded to theirs by the caller). */
  readonly detailedStatuses?: readonly DetailedStatus[];
  readonly providerId?: string;
  readonly endToEndId?: string;
  /** Created at or after (ISO 8601 UTC). */
  readonly createdFrom?: string;
  /** Created before (ISO 8601 UTC). */
  readonly createdTo?: string;
}

/** A refund as its original's resource lists it (`refunds`). */
export interface RefundSummary {
  readonly paymentId: string;
  /** Exact decimal string. */
  readonly amount: string;
  readonly detailedStatus: DetailedStatus;
}

/** What the insert of a refund did (PaymentRepository.createRefund). */
export type RefundInsertResult =
  | { readonly kind: 'created'; readonly refund: Payment; readonly firstStatus: StatusRecord }
  /** The amount asked (or, without one, nothing at all) is more than is left: `remaining` as an exact decimal string. */
  | { readonly kind: 'exceeds-remaining'; readonly remaining: string }
  | { readonly kind: 'duplicate' };

/** What the refund's transaction did: the insert's answer, or the rows it stored, told to the workers after the commit. */
type RefundWrite =
  | Exclude<RefundInsertResult, { readonly kind: 'created' }>
  | { readonly kind: 'stored'; readonly refund: Payment; readonly jobs: readonly JobSchedule[]; readonly firstStatus: StatusRecord };

/** Detailed statuses whose refunds no longer count towards the original's amount (failed ones, final). */
const FAILED_STATUSES = DETAILED_STATUSES.filter((status) => topLevelStatus(status) === 'FAILED');

/** Where a page of the newest-first list starts: after this payment of the previous page. */
export interface PaymentListPosition {
  readonly createdAt: string;
  readonly id: string;
}

export class PaymentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    /** Told what a creation's commit left for the background workers (its jobs, its first webhook delivery). */
    private readonly onCommitted: (work: CommittedWork) => void = () => undefined,
    /** Commits concurrent creations together (SQLite, src/storage/group-commit.ts); each in its own transaction without. */
    private readonly groupCommit?: GroupCommitter,
  ) {}

  /** The API's most frequent read, compiled once (src/storage/reusable-query.ts). */
  private readonly latestStatus = new ReusableQuery((value: (name: 'clientId' | 'paymentId') => string) =>
    this.db
      // The record carries its client, so tenancy needs no join: one probe of the client-led index (migration 0011).
      .selectFrom('payment_status_history')
      .selectAll()
      .where('client_id', '=', value('clientId'))
      .where('payment_id', '=', value('paymentId'))
      .orderBy('sequence', 'desc')
      .limit(1),
  );

  /**
   * Stores a new payment with its first status record, atomically. `duplicate` when the client already has
   * a payment with this endToEndId (the unique index decides, so concurrent requests cannot both win).
   */
  async create(
    payment: Payment,
    jobs: readonly JobSchedule[] = [],
  ): Promise<{ kind: 'created'; firstStatus: StatusRecord } | { kind: 'duplicate' }> {
    try {
      if (this.db.getExecutor().adapter instanceof PostgresAdapter) return await this.createInOneStatement(payment, jobs);
      const write = async (trx: Transaction<Database>): Promise<StatusRecord | 'duplicate'> => {
        // The scaled amount serves the console's amount filter (migration 0008). A payment of the client with the
        // same endToEndId already there (the unique index decides, so concurrent requests cannot both win) makes
        // this write nothing, without an error that would fail a group commit's other writes.
        const inserted = await trx
          .insertInto('payments')
          .values({ ...paymentToRow(payment, this.secrets), amount_scaled: scaledAmount(payment.amount) ?? null })
          .onConflict((conflict) => conflict.columns(['client_id', 'end_to_end_id']).doNothing())
          .executeTakeFirst();
        if (inserted.numInsertedOrUpdatedRows === 0n) return 'duplicate';
        await scheduleJobs(trx, payment, jobs, payment.createdAt);
        const [record] = await appendStatusRecords(trx, payment, [{ status: payment.detailedStatus }], 0, payment.createdAt);
        if (record === undefined) throw new Error('The first status record was not written');
        return record;
      };
      const firstStatus = this.groupCommit === undefined ? await this.db.transaction().execute(write) : await this.groupCommit.run(write);
      if (firstStatus === 'duplicate') return { kind: 'duplicate' };
      this.onCommitted({ jobsDueAt: earliestDue(jobs.map((job) => job.runAt)), webhooks: payment.webhookUrl !== null });
      return { kind: 'created', firstStatus };
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'duplicate' };
      throw error;
    }
  }

  /**
   * PostgreSQL: the payment, its jobs, its first status record, that record's feed event and webhook delivery in one
   * statement, so in one round trip and its own transaction (src/storage/insert-with-dependents.ts). The same rows
   * as the transaction of the other path writes; the feed event is numbered by the trigger at commit.
   */
  private async createInOneStatement(
    payment: Payment,
    jobs: readonly JobSchedule[],
  ): Promise<{ kind: 'created'; firstStatus: StatusRecord } | { kind: 'duplicate' }> {
    const status = statusChangeRows(payment, [{ status: payment.detailedStatus }], 0, payment.createdAt);
    const [firstStatus] = status.records;
    if (firstStatus === undefined) throw new Error('The first status record was not built');
    const inserted = await insertWithDependents(
      this.db,
      {
        table: 'payments',
        row: { ...paymentToRow(payment, this.secrets), amount_scaled: scaledAmount(payment.amount) ?? null },
        uniqueColumns: ['client_id', 'end_to_end_id'],
      },
      [
        ...jobRows(payment, jobs, payment.createdAt).map((row) => ({ table: 'jobs' as const, row })),
        ...status.history.map((row) => ({ table: 'payment_status_history' as const, row })),
        ...status.deliveries.map((row) => ({ table: 'webhook_events' as const, row })),
        ...status.events.map((row) => ({ table: 'events' as const, row: { ...row, position: null } })),
      ],
    );
    if (!inserted) return { kind: 'duplicate' };
    this.onCommitted({ jobsDueAt: earliestDue(jobs.map((job) => job.runAt)), webhooks: payment.webhookUrl !== null });
    return { kind: 'created', firstStatus };
  }

  /**
   * Stores the retry of a failed payment (src/payments/payment-service.ts, retryWithAnotherBank) with its jobs and
   * first status record, in one transaction. The unique `retry_of` (migration 0015) and the client's unique
   * end-to-end id decide between concurrent retries of one payment: the insert of the second does nothing (it waits
   * for the first to commit on PostgreSQL), and it answers the first's payment as `existing`. `refused`: the derived
   * end-to-end id is taken by a payment of the client's own.
   */
  async createRetry(
    payment: Payment,
    jobs: readonly JobSchedule[],
  ): Promise<{ kind: 'created' | 'existing'; payment: Payment } | { kind: 'refused' }> {
    const retryOf = payment.retryOf;
    if (retryOf === null) throw new Error('A retry names the payment it retries');
    const linkTaken = new Error('the payment link is no longer held by the failed payment');
    const result = await this.db
      .transaction()
      .execute(async (trx) => {
        const inserted = await trx
          .insertInto('payments')
          .values({ ...paymentToRow(payment, this.secrets), amount_scaled: scaledAmount(payment.amount) ?? null })
          .onConflict((conflict) => conflict.doNothing())
          .executeTakeFirst();
        if (inserted.numInsertedOrUpdatedRows === 0n) return 'not-inserted' as const;
        // A payment link's retry takes over the link's payment in progress, or is not made (docs/api-decisions.md).
        if (!(await holdLinkForRetry(trx, payment, retryOf))) throw linkTaken;
        await scheduleJobs(trx, payment, jobs, payment.createdAt);
        await appendStatusRecords(trx, payment, [{ status: payment.detailedStatus }], 0, payment.createdAt);
        return 'created' as const;
      })
      .catch((error: unknown) => {
        if (error === linkTaken) return 'link-taken' as const;
        throw error;
      });
    if (result === 'link-taken') return { kind: 'refused' };
    if (result === 'created') {
      this.onCommitted({ jobsDueAt: earliestDue(jobs.map((job) => job.runAt)), webhooks: payment.webhookUrl !== null });
      return { kind: 'created', payment };
    }
    const earlier = await this.findRetryOf(payment.clientId, retryOf);
    return earlier === undefined ? { kind: 'refused' } : { kind: 'existing', payment: earlier };
  }

  /**
   * Stores a refund of `original` (a client's completed payment) with its jobs and first status record, in one
   * transaction that first takes the original's row: PostgreSQL locks it (`FOR UPDATE`), so concurrent refunds of one
   * payment run this transaction one after another; SQLite has one writer, and our transactions take its lock at
   * BEGIN (src/storage/database.ts). Inside, the refunds of the original not failed are summed (scaled integers,
   * exact) and the new one is inserted only if it fits in what is left, so their sum never exceeds the original's
   * amount whatever the concurrency. A refund failing later frees its amount: its status changes without this lock,
   * which is safe because a failure only lowers the sum. `build` makes the refund for its amount: the one asked, or
   * without one, all that is left.
   */
  async createRefund(
    original: Payment,
    requestedAmount: string | undefined,
    build: (amount: string) => { readonly refund: Payment; readonly jobs: readonly JobSchedule[] },
  ): Promise<RefundInsertResult> {
    const originalScaled = scaledAmount(original.amount);
    if (originalScaled === undefined) throw new Error(`Payment ${original.id} has no exact amount`);
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    try {
      const result = await this.db.transaction().execute(async (trx): Promise<RefundWrite> => {
        let lock = trx.selectFrom('payments').select('id').where('client_id', '=', original.clientId).where('id', '=', original.id);
        if (postgres) lock = lock.forUpdate();
        await lock.executeTakeFirstOrThrow();
        const counted = await trx
          .selectFrom('payments')
          .select(['amount_scaled'])
          .where('client_id', '=', original.clientId)
          .where('refund_of', '=', original.id)
          .where('detailed_status', 'not in', FAILED_STATUSES)
          .execute();
        // Summed here as bigints rather than by SUM(), whose type differs between the databases (bigint, numeric).
        const refunded = counted.reduce((sum, row) => sum + BigInt(row.amount_scaled ?? 0), 0n);
        const remaining = BigInt(originalScaled) - refunded;
        const remainingText = decimalFromScaled(remaining < 0n ? 0n : remaining, original.currency);
        const amount = requestedAmount ?? remainingText;
        const asked = scaledAmount(amount);
        if (asked === undefined || asked <= 0 || BigInt(asked) > remaining) return { kind: 'exceeds-remaining', remaining: remainingText };
        const { refund, jobs } = build(amount);
        const inserted = await trx
          .insertInto('payments')
          .values({ ...paymentToRow(refund, this.secrets), amount_scaled: asked })
          .onConflict((conflict) => conflict.columns(['client_id', 'end_to_end_id']).doNothing())
          .executeTakeFirst();
        if (inserted.numInsertedOrUpdatedRows === 0n) return { kind: 'duplicate' };
        await scheduleJobs(trx, refund, jobs, refund.createdAt);
        const [firstStatus] = await appendStatusRecords(trx, refund, [{ status: refund.detailedStatus }], 0, refund.createdAt);
        if (firstStatus === undefined) throw new Error('The first status record was not written');
        return { kind: 'stored', refund, jobs, firstStatus };
      });
      if (result.kind !== 'stored') return result;
      this.onCommitted({ jobsDueAt: earliestDue(result.jobs.map((job) => job.runAt)), webhooks: result.refund.webhookUrl !== null });
      return { kind: 'created', refund: result.refund, firstStatus: result.firstStatus };
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'duplicate' };
      throw error;
    }
  }

  /** For each of the client's payments given, its refunds, oldest first (failed ones too). */
  async refundsOf(clientId: string, paymentIds: readonly string[]): Promise<ReadonlyMap<string, readonly RefundSummary[]>> {
    if (paymentIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('payments')
      .select(['id', 'refund_of', 'amount', 'detailed_status', 'created_at'])
      .where('client_id', '=', clientId)
      .where('refund_of', 'in', [...paymentIds])
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const refunds = new Map<string, RefundSummary[]>();
    for (const row of rows) {
      if (row.refund_of === null || !isDetailedStatus(row.detailed_status)) continue;
      const summary: RefundSummary = { paymentId: row.id, amount: row.amount, detailedStatus: row.detailed_status };
      refunds.set(row.refund_of, [...(refunds.get(row.refund_of) ?? []), summary]);
    }
    return refunds;
  }

  /** The retry made from a client's payment, if any. */
  async findRetryOf(clientId: string, paymentId: string): Promise<Payment | undefined> {
    const row = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('retry_of', '=', paymentId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row === undefined ? undefined : paymentFromRow(row, this.secrets);
  }

  /** For each of the client's payments given, the id of the retry made from it (the unique `retry_of` index). */
  async retriesOf(clientId: string, paymentIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    if (paymentIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('payments')
      .select(['id', 'retry_of'])
      .where('retry_of', 'in', [...paymentIds])
      .where('client_id', '=', clientId)
      .execute();
    return new Map(rows.flatMap((row) => (row.retry_of === null ? [] : [[row.retry_of, row.id] as const])));
  }

  /** A client's payment; undefined for an unknown id and for another client's payment alike. */
  async findForClient(paymentId: string, clientId: string): Promise<Payment | undefined> {
    const row = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row === undefined ? undefined : paymentFromRow(row, this.secrets);
  }

  /** The whole status history of a client's payment, earliest first; empty when not the client's. */
  async historyForClient(paymentId: string, clientId: string): Promise<StatusRecord[]> {
    const rows = await this.db
      .selectFrom('payment_status_history')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('payment_id', '=', paymentId)
      .orderBy('sequence', 'asc')
      .execute();
    return rows.map(statusRecordFromRow);
  }

  /**
   * A page of a client's payments, newest first (created_at desc, id desc: a total order, so pages never overlap
   * or skip), after `position` when given. Reads at most `limit` rows from the client-led indexes (migration 0006).
   */
  async listForClient(
    clientId: string,
    filter: PaymentListFilter,
    limit: number,
    position: PaymentListPosition | undefined,
  ): Promise<Payment[]> {
    // Filters that admit no status (e.g. PENDING and a failed detailed status): nothing to read.
    if (filter.detailedStatuses?.length === 0) return [];
    let query = this.db.selectFrom('payments').selectAll().where('client_id', '=', clientId);
    if (filter.detailedStatuses !== undefined) query = query.where('detailed_status', 'in', [...filter.detailedStatuses]);
    if (filter.providerId !== undefined) query = query.where('provider_id', '=', filter.providerId);
    if (filter.endToEndId !== undefined) query = query.where('end_to_end_id', '=', filter.endToEndId);
    // Stored times are UTC ISO 8601 with milliseconds, so text order is time order.
    if (filter.createdFrom !== undefined) query = query.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo !== undefined) query = query.where('created_at', '<', filter.createdTo);
    if (position !== undefined) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', position.createdAt), eb.and([eb('created_at', '=', position.createdAt), eb('id', '<', position.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => paymentFromRow(row, this.secrets));
  }

  /** The latest status record of a client's payment. */
  async latestForClient(paymentId: string, clientId: string): Promise<StatusRecord | undefined> {
    const [row] = await this.latestStatus.execute(this.db, { clientId, paymentId });
    return row === undefined ? undefined : statusRecordFromRow(row);
  }
}
