/**
 * The only writer of a payment's status after creation. `transition` moves a payment along a path of statuses,
 * each step checked against the transition table, and in one transaction: updates the payment (guarded by its
 * version, so two racing callbacks cannot both advance it), appends the history records with their webhook
 * events, and schedules or cancels the payment's background jobs.
 */
import type { Kysely, Transaction, Updateable } from 'kysely';
import { sha256Hex } from '../crypto/hashes.js';
import type { Database, PaymentsTable } from '../storage/schema.js';
import type { GroupCommitter } from '../storage/group-commit.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { JobKind, JobSchedule } from '../jobs/job-kinds.js';
import { earliestDue, type CommittedWork } from '../jobs/work-signal.js';
import { scheduleJobs, cancelJobs } from '../jobs/job-queue.js';
import type { PayerDetails, Payment, SenderDetails, StatusRecord } from '../domain/payment.js';
import { paymentColumns, paymentFromRow } from './payment-rows.js';
import { DETAILED_STATUSES, isFinal, type DetailedStatus } from '../domain/detailed-status.js';
import { appendNextStatusRecords, type StatusEntry } from './status-writer.js';
import { assertTransition } from '../domain/transitions.js';
import { payLinkOfPayment } from './payment-link-store.js';
import { moveFollowers } from './refund-bulks.js';
import { leadsBulk } from '../domain/payment.js';

/** Columns a step may change together with the status. */
export interface PaymentChanges {
  /** null: the payer went back to the bank list. */
  readonly providerId?: string | null;
  readonly providerPaymentId?: string;
  readonly sender?: SenderDetails | null;
  /** The payer's account, written once: when the bank first tells it (src/flow/run.ts, `paymentStatus`). */
  readonly payer?: PayerDetails;
  readonly locale?: string;
  readonly flowState?: Readonly<Record<string, unknown>> | null;
  /** The PSU's IP address and user agent the bank is told (a refund's approver, from their browser's first visit). */
  readonly psu?: { readonly ipAddress: string; readonly userAgent: string };
}

export interface TransitionRequest {
  /** The payment as the caller loaded it: its status is where the path starts, its version the guard. */
  readonly payment: Payment;
  /** Statuses to enter, in order (at least one). */
  readonly path: readonly StatusEntry[];
  readonly changes?: PaymentChanges;
  /** Jobs to (re)schedule for this payment in the same transaction. */
  readonly schedule?: readonly JobSchedule[];
  /** Jobs of this payment to drop in the same transaction (a final status drops them all). */
  readonly cancel?: readonly JobKind[];
}

export type TransitionResult =
  | { readonly kind: 'applied'; readonly payment: Payment; readonly records: readonly StatusRecord[] }
  /** Someone else changed the payment first (a racing callback or process): reload and decide again. */
  | { readonly kind: 'conflict' };

export class PaymentStateStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** Opens the sealed flow token of a loaded payment. */
    private readonly secrets: SecretBox,
    private readonly now: () => Date = () => new Date(),
    /**
     * Told after each write committed: the status records it wrote (metrics) and what it left for the background
     * workers (jobs and when they fall due, webhook deliveries).
     */
    private readonly onCommitted: (records: readonly StatusRecord[], work: CommittedWork) => void = () => undefined,
    /** Commits concurrent writes together (SQLite, src/storage/group-commit.ts); each in its own transaction without. */
    private readonly groupCommit?: GroupCommitter,
  ) {}

  async load(paymentId: string): Promise<Payment | undefined> {
    const row = await this.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
    return row === undefined ? undefined : paymentFromRow(row, this.secrets);
  }

  /** The followers of a bulk's leader, oldest first: the payments its bulk registration carries after its own. */
  async loadFollowers(leader: Payment): Promise<Payment[]> {
    const rows = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('client_id', '=', leader.clientId)
      .where('bulk_leader_id', '=', leader.id)
      .where('id', '!=', leader.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => paymentFromRow(row, this.secrets));
  }

  async loadByFlowToken(flowToken: string): Promise<Payment | undefined> {
    const row = await this.db.selectFrom('payments').selectAll().where('flow_token_hash', '=', sha256Hex(flowToken)).executeTakeFirst();
    return row === undefined ? undefined : paymentFromRow(row, this.secrets);
  }

  /**
   * Updates non-status columns (e.g. flow state) under the same version guard, optionally (re)scheduling jobs in
   * the same transaction (a bank answer still open is handed to the bank-status job without a status change).
   */
  async update(
    payment: Payment,
    changes: PaymentChanges,
    jobs: { readonly schedule?: readonly JobSchedule[]; readonly cancel?: readonly JobKind[] } = {},
  ): Promise<TransitionResult> {
    return this.write(payment, [], changes, jobs.schedule ?? [], jobs.cancel ?? []);
  }

  /**
   * Open payments with no way forward (docs/state-machine.md, "No payment without a future"): no bank-status job, and
   * not a payer's page with its expiry job. The engine cannot leave a payment so; the sweep finds any that an older
   * version or a bug did. Served by the index on (detailed_status, created_at): only open statuses are read.
   */
  async findWithoutFuture(limit: number): Promise<
    Array<{
      readonly id: string;
      readonly clientId: string;
      readonly detailedStatus: DetailedStatus;
      readonly flowExpiresAt: string;
      readonly untouched: boolean;
    }>
  > {
    const open = DETAILED_STATUSES.filter((status) => !isFinal(status));
    const rows = await this.db
      .selectFrom('payments as p')
      .select(['p.id', 'p.client_id', 'p.detailed_status', 'p.flow_expires_at', 'p.flow_state'])
      .where('p.detailed_status', 'in', open)
      // A bulk's follower has no jobs of its own: its leader's carry it (src/flow/refund-bulks.ts).
      .where((eb) => eb.or([eb('p.bulk_leader_id', 'is', null), eb('p.bulk_leader_id', '=', eb.ref('p.id'))]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as j')
              .select('j.id')
              .whereRef('j.client_id', '=', 'p.client_id')
              .whereRef('j.subject_id', '=', 'p.id')
              .where((inner) =>
                inner.or([
                  inner('j.kind', '=', 'bank-status'),
                  inner.and([
                    inner('j.kind', '=', 'flow-expiry'),
                    // A payer's page: a *_REDIRECT_PENDING status, or a custom-mode payment no run has touched yet
                    // (its payer opens the link; one whose flow runs within its creation is born with its job).
                    inner.or([
                      inner('p.detailed_status', 'like', '%REDIRECT_PENDING'),
                      inner.and([
                        inner('p.detailed_status', '=', 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING'),
                        inner('p.flow_state', 'is', null),
                      ]),
                    ]),
                  ]),
                ]),
              ),
          ),
        ),
      )
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      clientId: row.client_id,
      detailedStatus: row.detailed_status as DetailedStatus,
      flowExpiresAt: row.flow_expires_at,
      untouched: row.flow_state === null,
    }));
  }

  /** (Re)schedules jobs of a payment on their own (the sweep), telling the workers when they fall due. */
  async schedule(payment: { readonly id: string; readonly clientId: string }, schedule: readonly JobSchedule[]): Promise<void> {
    const at = this.now().toISOString();
    await this.db.transaction().execute((trx) => scheduleJobs(trx, payment, schedule, at));
    this.onCommitted([], { jobsDueAt: earliestDue(schedule.map((job) => job.runAt)), webhooks: false });
  }

  async transition(request: TransitionRequest): Promise<TransitionResult> {
    if (request.path.length === 0) throw new Error('A transition needs at least one status');
    let from = request.payment.detailedStatus;
    for (const entry of request.path) {
      assertTransition(from, entry.status);
      from = entry.status;
    }
    return this.write(request.payment, request.path, request.changes ?? {}, request.schedule ?? [], request.cancel ?? []);
  }

  private async write(
    payment: Payment,
    path: readonly StatusEntry[],
    changes: PaymentChanges,
    schedule: readonly JobSchedule[],
    cancel: readonly JobKind[],
  ): Promise<TransitionResult> {
    const at = this.now().toISOString();
    const last = path[path.length - 1];
    const next: Payment = {
      ...payment,
      ...(changes.providerId === undefined ? {} : { providerId: changes.providerId }),
      ...(changes.providerPaymentId === undefined ? {} : { providerPaymentId: changes.providerPaymentId }),
      ...(changes.sender === undefined ? {} : { sender: changes.sender }),
      ...(changes.payer === undefined ? {} : { payer: changes.payer }),
      ...(changes.locale === undefined ? {} : { locale: changes.locale }),
      ...(changes.flowState === undefined ? {} : { flowState: changes.flowState }),
      ...(changes.psu === undefined ? {} : { psuIpAddress: changes.psu.ipAddress, psuUserAgent: changes.psu.userAgent }),
      ...(last === undefined ? {} : { detailedStatus: last.status, failureReasons: last.failureReasons ?? null }),
      version: payment.version + 1,
      updatedAt: at,
    };
    // Only the columns this write may change: the version guard makes the rest equal to what the caller loaded, so
    // writing them again would only rewrite every index of the payment (a third of SQLite's time per status
    // change) and undo a column written beside the engine since (the sandbox runner's flow deadline).
    const columns = paymentColumns(next);
    const row: Updateable<PaymentsTable> = { version: columns.version, updated_at: columns.updated_at };
    if (last !== undefined) {
      row.detailed_status = columns.detailed_status;
      row.failure_reasons = columns.failure_reasons;
    }
    if (changes.providerId !== undefined) row.provider_id = columns.provider_id;
    if (changes.providerPaymentId !== undefined) row.provider_payment_id = columns.provider_payment_id;
    if (changes.sender !== undefined) row.sender = columns.sender;
    if (changes.payer !== undefined) row.payer = columns.payer;
    if (changes.locale !== undefined) row.locale = columns.locale;
    if (changes.flowState !== undefined) row.flow_state = columns.flow_state;
    if (changes.psu !== undefined) {
      row.psu_ip_address = columns.psu_ip_address;
      row.psu_user_agent = columns.psu_user_agent;
    }
    const work = async (trx: Transaction<Database>) => {
      const updated = await trx
        .updateTable('payments')
        .set(row)
        .where('client_id', '=', payment.clientId)
        .where('id', '=', payment.id)
        .where('version', '=', payment.version)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return { kind: 'conflict' as const };
      if (isFinal(next.detailedStatus)) {
        await cancelJobs(trx, payment);
      } else {
        if (cancel.length > 0) await cancelJobs(trx, payment, cancel);
        if (schedule.length > 0) await scheduleJobs(trx, payment, schedule, at);
      }
      const records = await appendNextStatusRecords(trx, next, path, at);
      // A single-use payment link is paid in the very commit its payment completes in (docs/api-decisions.md).
      const linkEvent =
        last?.status === 'PAYMENT_EXECUTION_COMPLETED' && next.paymentLinkId !== null ? await payLinkOfPayment(trx, next, at) : false;
      // A bulk's followers take the leader's statuses in the leader's own commit (src/flow/refund-bulks.ts).
      const followers = leadsBulk(next) ? await moveFollowers(trx, next, path, changes, at) : { records: [], webhooks: false };
      return { kind: 'applied' as const, payment: next, records, linkEvent, followers };
    };
    // Grouped or not, the caller hears of its write only once it has committed.
    const result = this.groupCommit === undefined ? await this.db.transaction().execute(work) : await this.groupCommit.run(work);
    if (result.kind === 'applied') {
      const scheduled = isFinal(next.detailedStatus) ? [] : schedule;
      this.onCommitted([...result.records, ...result.followers.records], {
        jobsDueAt: earliestDue(scheduled.map((job) => job.runAt)),
        webhooks: (result.records.length > 0 && next.webhookUrl !== null) || result.linkEvent || result.followers.webhooks,
      });
      return { kind: 'applied', payment: result.payment, records: result.records };
    }
    return result;
  }
}
