/**
 * Storage of payments and their status history, the same code on SQLite and PostgreSQL. History is
 * append-only; a payment and its first status record are written in one transaction.
 */
import { PostgresAdapter, type Kysely, type Selectable, type Transaction } from 'kysely';
import { isDetailedStatus, type DetailedStatus, type FailureReason } from '../domain/detailed-status.js';
import { appendStatusRecords, statusChangeRows } from './status-writer.js';
import type { JobSchedule } from '../jobs/job-kinds.js';
import { jobRows, scheduleJobs } from '../jobs/job-queue.js';
import { sha256Hex } from '../crypto/hashes.js';
import { scaledAmount } from '../domain/money.js';
import { isUniqueViolation } from '../storage/database.js';
import { insertWithDependents } from '../storage/insert-with-dependents.js';
import type { GroupCommitter } from '../storage/group-commit.js';
import { ReusableQuery } from '../storage/reusable-query.js';
import { earliestDue, type CommittedWork } from '../jobs/work-signal.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { flowTokenContext } from '../storage/stored-secrets.js';
import type { Database, PaymentStatusHistoryTable, PaymentsTable } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function detailedStatusOf(value: string): DetailedStatus {
  if (!isDetailedStatus(value)) throw new Error(`Unknown detailed status in the database: ${value}`);
  return value;
}

/** The flow token is opened from its sealed copy (only a hash of it is searchable). */
export function paymentFromRow(row: Selectable<PaymentsTable>, secrets: SecretBox): Payment {
  return {
    id: row.id,
    clientId: row.client_id,
    environment: row.environment,
    endToEndId: row.end_to_end_id,
    mode: row.mode,
    providerId: row.provider_id,
    providerPreferences: parseJson(row.provider_preferences),
    paymentScheme: row.payment_scheme,
    schemeMode: row.scheme_mode,
    feePaidBy: row.fee_paid_by,
    amount: row.amount,
    currency: row.currency,
    sender: parseJson(row.sender),
    recipient: JSON.parse(row.recipient) as Payment['recipient'],
    remittance: JSON.parse(row.remittance) as Payment['remittance'],
    redirectUri: row.redirect_uri,
    webhookUrl: row.webhook_url,
    psuIpAddress: row.psu_ip_address,
    psuUserAgent: row.psu_user_agent,
    locale: row.locale,
    flowToken: secrets.open(row.flow_token_sealed, flowTokenContext(row.id)),
    providerPaymentId: row.provider_payment_id,
    detailedStatus: detailedStatusOf(row.detailed_status),
    failureReasons: parseJson<FailureReason[]>(row.failure_reasons),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    flowExpiresAt: row.flow_expires_at,
    flowState: parseJson<Record<string, unknown>>(row.flow_state),
  };
}

/** The flow token is stored only as its hash (for lookup) and sealed for this payment (for `redirectUrl`). */
export function paymentToRow(payment: Payment, secrets: SecretBox): PaymentsTable {
  return {
    ...paymentColumns(payment),
    flow_token_hash: sha256Hex(payment.flowToken),
    flow_token_sealed: secrets.seal(payment.flowToken, flowTokenContext(payment.id)),
  };
}

/** The payment's columns but its flow token's (which never changes after creation, so only creation writes it). */
export function paymentColumns(payment: Payment): Omit<PaymentsTable, 'flow_token_hash' | 'flow_token_sealed'> {
  return {
    id: payment.id,
    client_id: payment.clientId,
    environment: payment.environment,
    end_to_end_id: payment.endToEndId,
    mode: payment.mode,
    provider_id: payment.providerId,
    provider_preferences: payment.providerPreferences === null ? null : JSON.stringify(payment.providerPreferences),
    payment_scheme: payment.paymentScheme,
    scheme_mode: payment.schemeMode,
    fee_paid_by: payment.feePaidBy,
    amount: payment.amount,
    currency: payment.currency,
    sender: payment.sender === null ? null : JSON.stringify(payment.sender),
    recipient: JSON.stringify(payment.recipient),
    remittance: JSON.stringify(payment.remittance),
    redirect_uri: payment.redirectUri,
    webhook_url: payment.webhookUrl,
    psu_ip_address: payment.psuIpAddress,
    psu_user_agent: payment.psuUserAgent,
    locale: payment.locale,
    provider_payment_id: payment.providerPaymentId,
    detailed_status: payment.detailedStatus,
    failure_reasons: payment.failureReasons === null ? null : JSON.stringify(payment.failureReasons),
    version: payment.version,
    created_at: payment.createdAt,
    updated_at: payment.updatedAt,
    flow_expires_at: payment.flowExpiresAt,
    flow_state: payment.flowState === null ? null : JSON.stringify(payment.flowState),
  };
}

function statusRecordFromRow(row: Selectable<PaymentStatusHistoryTable>): StatusRecord {
  return {
    id: row.id,
    paymentId: row.payment_id,
    sequence: Number(row.sequence),
    detailedStatus: detailedStatusOf(row.detailed_status),
    failureReasons: parseJson<FailureReason[]>(row.failure_reasons),
    createdAt: row.created_at,
  };
}

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
        eb.or([
          eb('created_at', '<', position.createdAt),
          eb.and([eb('created_at', '=', position.createdAt), eb('id', '<', position.id)]),
        ]),
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
