/**
 * Appends a payment's status records and their events inside a caller's transaction. Every status a payment enters
 * goes through here, so a record never exists without its event (in the client's event feed, and in the webhook
 * outbox when the payment has a webhookUrl) and never the other way round: all commit or none does. The events
 * themselves are written as every subject's are (src/webhooks/event-writer.ts).
 */
import { newRecordId } from '../domain/ids.js';
import type { Insertable, Transaction } from 'kysely';
import type { Database, PaymentStatusHistoryTable } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';
import { PAYMENT_STATUS_UPDATED, paymentStatusWebhookBody } from '../webhooks/payload.js';
import { appendEvents, eventRows, type EventRows, type EventSubject, type NewEvent } from '../webhooks/event-writer.js';
import type { DetailedStatus, FailureReason } from '../domain/detailed-status.js';

export interface StatusEntry {
  readonly status: DetailedStatus;
  readonly failureReasons?: readonly FailureReason[] | null;
}

/** What a status change writes: its records and, as table rows, their history, feed events and deliveries. */
export interface StatusChangeRows extends EventRows {
  readonly records: StatusRecord[];
  readonly history: Insertable<PaymentStatusHistoryTable>[];
}

type PaymentForRecords = Pick<Payment, 'id' | 'clientId' | 'endToEndId' | 'webhookUrl'> &
  Partial<Pick<Payment, 'retryOf' | 'paymentLinkId' | 'refundOf'>>;

/**
 * The rows of one history record per entry, numbered after `lastSequence`, each at `at`, with its event (feed and
 * webhook). `deliveryState` 'gone': the receiver answered 410 for this payment, so deliveries are kept, never sent.
 */
export function statusChangeRows(
  payment: PaymentForRecords,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
  deliveryState: 'pending' | 'gone' = 'pending',
): StatusChangeRows {
  const { records, history, events } = recordsOf(payment, entries, lastSequence, at);
  return { records, history, ...eventRows(paymentSubject(payment), events, at, deliveryState) };
}

/**
 * Writes one history record per entry, numbered after `lastSequence`, each at `at`, with its event (feed and
 * webhook). Returns the records written.
 */
export async function appendStatusRecords(
  trx: Transaction<Database>,
  payment: PaymentForRecords,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
): Promise<StatusRecord[]> {
  if (entries.length === 0) return [];
  const { records, history, events } = recordsOf(payment, entries, lastSequence, at);
  await trx.insertInto('payment_status_history').values(history).execute();
  await appendEvents(trx, paymentSubject(payment), events, at);
  return records;
}

/**
 * Writes one history record per entry after the payment's last one (read here, in the caller's transaction, whose
 * version-guarded update of the payment's row keeps two writers from numbering alike), each at `at`, with its event.
 */
export async function appendNextStatusRecords(
  trx: Transaction<Database>,
  payment: PaymentForRecords,
  entries: readonly StatusEntry[],
  at: string,
): Promise<StatusRecord[]> {
  if (entries.length === 0) return [];
  const last = await trx
    .selectFrom('payment_status_history')
    .select((eb) => eb.fn.max('sequence').as('sequence'))
    .where('client_id', '=', payment.clientId)
    .where('payment_id', '=', payment.id)
    .executeTakeFirst();
  return appendStatusRecords(trx, payment, entries, Number(last?.sequence ?? 0), at);
}

function paymentSubject(payment: PaymentForRecords): EventSubject {
  return { type: 'payment', id: payment.id, clientId: payment.clientId, webhookUrl: payment.webhookUrl };
}

function recordsOf(
  payment: PaymentForRecords,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
): { records: StatusRecord[]; history: Insertable<PaymentStatusHistoryTable>[]; events: NewEvent[] } {
  const records: StatusRecord[] = entries.map((entry, index) => ({
    id: newRecordId(),
    paymentId: payment.id,
    sequence: lastSequence + index + 1,
    detailedStatus: entry.status,
    failureReasons: entry.failureReasons ?? null,
    createdAt: at,
  }));
  const history = records.map((record) => ({
    id: record.id,
    client_id: payment.clientId,
    payment_id: record.paymentId,
    sequence: record.sequence,
    detailed_status: record.detailedStatus,
    failure_reasons: record.failureReasons === null ? null : JSON.stringify(record.failureReasons),
    created_at: record.createdAt,
  }));
  const events = records.map((record): NewEvent => ({
    id: newRecordId(),
    type: PAYMENT_STATUS_UPDATED,
    statusRecordId: record.id,
    sequence: record.sequence,
    body: paymentStatusWebhookBody({
      paymentId: record.paymentId,
      endToEndId: payment.endToEndId,
      statusId: record.id,
      detailedStatus: record.detailedStatus,
      failureReasons: record.failureReasons,
      createdAt: record.createdAt,
      retryOf: payment.retryOf ?? null,
      paymentLinkId: payment.paymentLinkId ?? null,
      refundOf: payment.refundOf ?? null,
    }),
  }));
  return { records, history, events };
}
