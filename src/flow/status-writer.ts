/**
 * Appends status records and their events inside a caller's transaction. Every status a payment enters goes
 * through here, so a record never exists without its event (in the client's event feed, and in the webhook
 * outbox when the payment has a webhookUrl) and never the other way round: all commit or none does.
 */
import { newRecordId } from '../domain/ids.js';
import { PostgresAdapter, type Insertable, type Transaction } from 'kysely';
import { takeEventPositions } from '../storage/event-counters.js';
import type { Database, EventsTable, PaymentStatusHistoryTable, WebhookEventsTable } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';
import { PAYMENT_STATUS_UPDATED, paymentStatusWebhookBody } from '../webhooks/payload.js';
import type { DetailedStatus, FailureReason } from '../domain/detailed-status.js';

export interface StatusEntry {
  readonly status: DetailedStatus;
  readonly failureReasons?: readonly FailureReason[] | null;
}

/** What a status change writes: its records and, as table rows, their history, feed events and deliveries. */
export interface StatusChangeRows {
  readonly records: StatusRecord[];
  readonly history: Insertable<PaymentStatusHistoryTable>[];
  /** Feed events without their position: it is given as they are written (appendToClientFeed). */
  readonly events: (Omit<Insertable<EventsTable>, 'position'> & { readonly id: string })[];
  /** Webhook deliveries, one per event under the same id and bytes; none when the payment has no webhook URL. */
  readonly deliveries: Insertable<WebhookEventsTable>[];
}

/**
 * The rows of one history record per entry, numbered after `lastSequence`, each at `at`, with its event (feed and
 * webhook). `deliveryState` 'gone': the receiver answered 410 for this payment, so deliveries are kept, never sent.
 */
export function statusChangeRows(
  payment: Pick<Payment, 'id' | 'clientId' | 'endToEndId' | 'webhookUrl'> & Partial<Pick<Payment, 'retryOf'>>,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
  deliveryState: 'pending' | 'gone' = 'pending',
): StatusChangeRows {
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
  // A delivery is its event: the same id and the same bytes, made only where there is somewhere to deliver.
  const url = payment.webhookUrl;
  const events: StatusChangeRows['events'] = [];
  const deliveries: Insertable<WebhookEventsTable>[] = [];
  for (const record of records) {
    const event = {
      id: newRecordId(),
      client_id: payment.clientId,
      type: PAYMENT_STATUS_UPDATED,
      payment_id: payment.id,
      body: paymentStatusWebhookBody({
        paymentId: record.paymentId,
        endToEndId: payment.endToEndId,
        statusId: record.id,
        detailedStatus: record.detailedStatus,
        failureReasons: record.failureReasons,
        createdAt: record.createdAt,
        retryOf: payment.retryOf ?? null,
      }),
      created_at: at,
    };
    events.push(event);
    if (url === null) continue;
    deliveries.push({
      id: event.id,
      payment_id: payment.id,
      client_id: payment.clientId,
      status_record_id: record.id,
      sequence: record.sequence,
      url,
      body: event.body,
      state: deliveryState,
      attempts: 0,
      next_attempt_at: at,
      locked_by: null,
      locked_until: null,
      created_at: at,
      updated_at: at,
      delivered_at: null,
    });
  }
  return { records, history, events, deliveries };
}

/**
 * Writes one history record per entry, numbered after `lastSequence`, each at `at`, with its event (feed and
 * webhook). Returns the records written.
 */
export async function appendStatusRecords(
  trx: Transaction<Database>,
  payment: Pick<Payment, 'id' | 'clientId' | 'endToEndId' | 'webhookUrl'> & Partial<Pick<Payment, 'retryOf'>>,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
): Promise<StatusRecord[]> {
  if (entries.length === 0) return [];
  // After a receiver answered 410 for this payment, later events are kept (for the operator) but never sent.
  const stopped =
    payment.webhookUrl === null
      ? undefined
      : await trx
          .selectFrom('webhook_events')
          .select('id')
          .where('client_id', '=', payment.clientId)
          .where('payment_id', '=', payment.id)
          .where('state', '=', 'gone')
          .limit(1)
          .executeTakeFirst();
  const rows = statusChangeRows(payment, entries, lastSequence, at, stopped === undefined ? 'pending' : 'gone');
  await trx.insertInto('payment_status_history').values(rows.history).execute();
  if (rows.deliveries.length > 0) await trx.insertInto('webhook_events').values(rows.deliveries).execute();
  await appendToClientFeed(trx, payment.clientId, rows.events);
  return rows.records;
}

/**
 * Every record is an event of the client's feed (GET /api/v1/events), numbered 1, 2, 3 … per client in commit
 * order from the client's counter (src/storage/event-counters.ts). Every status change of one client takes that
 * counter, so it must be held as briefly as possible:
 *
 * - PostgreSQL: the events are written without a position; a deferred trigger numbers them inside COMMIT
 *   (migrations 0012 and 0014), so the counter is locked only while the transaction commits.
 * - SQLite: one writer at a time holds the whole database until it commits anyway; the position is taken here.
 */
async function appendToClientFeed(trx: Transaction<Database>, clientId: string, events: StatusChangeRows['events']): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx
      .insertInto('events')
      .values(events.map((event) => ({ ...event, position: null })))
      .execute();
    return;
  }
  const lastPosition = await takeEventPositions(trx, clientId, events.length);
  await trx
    .insertInto('events')
    .values(events.map((event, index) => ({ ...event, position: lastPosition - events.length + index + 1 })))
    .execute();
}
