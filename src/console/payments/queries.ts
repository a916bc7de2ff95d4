/**
 * What the Payments pages read: a payment with its records (timeline, webhook deliveries, bank calls, refunds), and the
 * payment list.
 *
 * The console's payment list: filters, search and keyset pagination over one client's payments (a member, or an
 * operator who picked a client) or every client's (an operator). Newest first by (created_at, id), a total order,
 * so a page never repeats or skips a payment whatever is written meanwhile. Reads only the columns a list row
 * shows (no flow token is opened). Indexes: migration 0006 (client-led) and 0008 (operators' order, amounts,
 * end-to-end ids); the timings on a million payments are in docs/performance.md.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ClientService } from '../../auth/clients.js';
import type { WebhookEventView, WebhookOutbox } from '../../webhooks/outbox.js';
import { bankCallsOf } from '../banks/queries.js';
import { DETAILED_STATUSES, topLevelStatus, type DetailedStatus, type PaymentStatus } from '../../domain/detailed-status.js';
import type { Database } from '../../storage/schema.js';

export interface PaymentListFilters {
  /** The one client to list; undefined: every client (operators only; the caller decides). */
  readonly clientId?: string;
  /** Top-level statuses (any of). */
  readonly statuses?: readonly Exclude<PaymentStatus, 'UNKNOWN'>[];
  readonly detailedStatus?: DetailedStatus;
  readonly providerId?: string;
  /** Created at or after (ISO 8601 UTC). */
  readonly createdFrom?: string;
  /** Created before (ISO 8601 UTC). */
  readonly createdBefore?: string;
  /** In ten-thousandths of the currency unit (src/domain/money.ts). */
  readonly amountMin?: number;
  readonly amountMax?: number;
  readonly endToEndId?: string;
  readonly paymentId?: string;
  /** Free search: a payment id or the bank's payment id (exact), or the start of an end-to-end id. */
  readonly search?: string;
}

export interface PaymentListPosition {
  readonly createdAt: string;
  readonly id: string;
}

export interface PaymentListRow {
  readonly id: string;
  readonly clientId: string;
  readonly endToEndId: string;
  readonly amount: string;
  readonly currency: string;
  readonly detailedStatus: DetailedStatus;
  readonly providerId: string | null;
  readonly recipientName: string;
  readonly environment: 'sandbox' | 'production';
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface PaymentListPage {
  readonly rows: readonly PaymentListRow[];
  /** Where the next page starts; undefined on the last page. */
  readonly next: PaymentListPosition | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The highest character, so `[prefix, prefix + MAX)` is every text starting with the prefix (an index range). */
const PREFIX_END = '\u{10FFFF}';

/**
 * `sqlite`: a top-level status filter over every client is read in the list's order from `(created_at, id)`,
 * skipping the other statuses (`+detailed_status` keeps SQLite's planner off the client-led status index, which
 * it would otherwise skip-scan for every match of the year and sort them: 0.8 s on a million payments against
 * under 1 ms; docs/performance.md). A status class is a fifth of the payments or more, so the scan stops soon.
 */
export type ListDialect = 'sqlite' | 'postgres';

export async function listPayments(
  db: Kysely<Database>,
  filters: PaymentListFilters,
  limit: number,
  after: PaymentListPosition | undefined,
  dialect: ListDialect = 'postgres',
): Promise<PaymentListPage> {
  let detailed: readonly DetailedStatus[] | undefined;
  if (filters.statuses !== undefined && filters.statuses.length > 0) {
    const wanted = new Set(filters.statuses);
    detailed = DETAILED_STATUSES.filter((status) => wanted.has(topLevelStatus(status)));
  }
  if (filters.detailedStatus !== undefined)
    detailed = (detailed ?? DETAILED_STATUSES).filter((status) => status === filters.detailedStatus);
  if (detailed !== undefined && detailed.length === 0) return { rows: [], next: undefined };

  let query = db
    .selectFrom('payments')
    .select([
      'id',
      'client_id',
      'end_to_end_id',
      'amount',
      'currency',
      'detailed_status',
      'provider_id',
      'recipient',
      'environment',
      'created_at',
      'updated_at',
    ]);
  if (filters.clientId !== undefined) query = query.where('client_id', '=', filters.clientId);
  if (detailed !== undefined) {
    const unordered = dialect === 'sqlite' && filters.clientId === undefined && filters.detailedStatus === undefined;
    query = unordered
      ? query.where(sql<string>`+detailed_status`, 'in', [...detailed])
      : query.where('detailed_status', 'in', [...detailed]);
  }
  if (filters.providerId !== undefined) query = query.where('provider_id', '=', filters.providerId);
  if (filters.createdFrom !== undefined) query = query.where('created_at', '>=', filters.createdFrom);
  if (filters.createdBefore !== undefined) query = query.where('created_at', '<', filters.createdBefore);
  if (filters.amountMin !== undefined) query = query.where('amount_scaled', '>=', filters.amountMin);
  if (filters.amountMax !== undefined) query = query.where('amount_scaled', '<=', filters.amountMax);
  if (filters.endToEndId !== undefined) query = query.where('end_to_end_id', '=', filters.endToEndId);
  if (filters.paymentId !== undefined) query = query.where('id', '=', filters.paymentId.toLowerCase());
  const search = filters.search?.trim();
  if (search !== undefined && search !== '') {
    query = UUID.test(search)
      ? query.where((eb) =>
          eb.or([eb('id', '=', search.toLowerCase()), eb('provider_payment_id', '=', search), eb('end_to_end_id', '=', search)]),
        )
      : query.where((eb) =>
          eb.or([
            eb.and([eb('end_to_end_id', '>=', search), eb('end_to_end_id', '<', search + PREFIX_END)]),
            eb('provider_payment_id', '=', search),
          ]),
        );
  }
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
    );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const shown = rows.slice(0, limit).map((row): PaymentListRow => ({
    id: row.id,
    clientId: row.client_id,
    endToEndId: row.end_to_end_id,
    amount: row.amount,
    currency: row.currency,
    detailedStatus: row.detailed_status as DetailedStatus,
    providerId: row.provider_id,
    recipientName: (JSON.parse(row.recipient) as { name?: string }).name ?? '',
    environment: row.environment,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
  const last = shown.at(-1);
  return { rows: shown, next: rows.length > limit && last !== undefined ? { createdAt: last.createdAt, id: last.id } : undefined };
}

/** A cursor as it travels in the page's link: plain (the query itself enforces who sees what). */
export function encodePosition(position: PaymentListPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url');
}

export function decodePosition(text: string | undefined): PaymentListPosition | undefined {
  if (text === undefined || !/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [createdAt, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (createdAt === undefined || id === undefined || extra !== undefined || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(createdAt) || !UUID.test(id))
    return undefined;
  return { createdAt, id };
}

/** A payment's row as its page reads it. */
export type PaymentRow = Selectable<Database['payments']>;
export type StatusRecord = Selectable<Database['payment_status_history']>;
export type BankCallRecord = Awaited<ReturnType<typeof bankCallsOf>>[number];

/** The payment, if this viewer may see it (else undefined: answered as not found, as an unknown one). */
export async function visiblePayment(
  db: Kysely<Database>,
  paymentId: string,
  clientScope: string | undefined,
): Promise<PaymentRow | undefined> {
  if (!UUID.test(paymentId)) return undefined;
  let query = db.selectFrom('payments').selectAll().where('id', '=', paymentId.toLowerCase());
  if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
  return query.executeTakeFirst();
}

export interface PaymentRecords {
  readonly history: readonly StatusRecord[];
  readonly events: readonly WebhookEventView[];
  readonly bankCalls: readonly BankCallRecord[];
  readonly clientName: string | undefined;
  /** The payment's refunds, oldest first (failed ones too); empty for a refund itself and a payment never refunded. */
  readonly refunds: readonly RefundOfPayment[];
}

export interface RefundOfPayment {
  readonly id: string;
  readonly amount: string;
  readonly currency: string;
  readonly detailedStatus: DetailedStatus;
  readonly createdAt: string;
}

/** What a payment's page shows beside the row: its status timeline, webhook deliveries, bank calls and client. */
export async function paymentRecords(
  db: Kysely<Database>,
  outbox: WebhookOutbox,
  clients: ClientService,
  row: PaymentRow,
): Promise<PaymentRecords> {
  const history = await db.selectFrom('payment_status_history').selectAll().where('payment_id', '=', row.id).orderBy('sequence').execute();
  const events = await outbox.listForSubject(row.id);
  const client = (await clients.list()).find((candidate) => candidate.clientId === row.client_id);
  const bankCalls = await bankCallsOf(db, row.id);
  const refunds = await db
    .selectFrom('payments')
    .select(['id', 'amount', 'currency', 'detailed_status', 'created_at'])
    .where('client_id', '=', row.client_id)
    .where('refund_of', '=', row.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    history,
    events,
    bankCalls,
    clientName: client?.name,
    refunds: refunds.map((refund) => ({
      id: refund.id,
      amount: refund.amount,
      currency: refund.currency,
      detailedStatus: refund.detailed_status as DetailedStatus,
      createdAt: refund.created_at,
    })),
  };
}
