/**
 * Appends status records and their events inside a caller's transaction. Every status a payment enters goes
 * through here, so a record never exists without its event (in the client's event feed, and in the webhook
 * outbox when the payment has a webhookUrl) and never the other way round: all commit or none does.
 */
import { newRecordId } from '../domain/ids.js';
import { PostgresAdapter, type Transaction } from 'kysely';
import { takeEventPositions } from '../storage/event-counters.js';
import type { Database } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';
import { PAYMENT_STATUS_UPDATED, paymentStatusWebhookBody } from '../webhooks/payload.js';
import type { DetailedStatus, FailureReason } from '../domain/detailed-status.js';

export interface StatusEntry {
  readonly status: DetailedStatus;
  readonly failureReasons?: readonly FailureReason[] | null;
}

/**
 * Writes one history record per entry, numbered after `lastSequence`, each at `at`, with its event (feed and
 * webhook). Returns the records written.
 */
export async function appendStatusRecords(
  trx: Transaction<Database>,
  payment: Pick<Payment, 'id' | 'clientId' | 'endToEndId' | 'webhookUrl'>,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
): Promise<StatusRecord[]> {
  const records: StatusRecord[] = entries.map((entry, index) => ({
    id: newRecordId(),
    paymentId: payment.id,
    sequence: lastSequence + index + 1,
    detailedStatus: entry.status,
    failureReasons: entry.failureReasons ?? null,
    createdAt: at,
  }));
  if (records.length === 0) return records;
  await trx
    .insertInto('payment_status_history')
    .values(
      records.map((record) => ({
        id: record.id,
        client_id: payment.clientId,
        payment_id: record.paymentId,
        sequence: record.sequence,
        detailed_status: record.detailedStatus,
        failure_reasons: record.failureReasons === null ? null : JSON.stringify(record.failureReasons),
        created_at: record.createdAt,
      })),
    )
    .execute();
  const events = records.map((record) => ({
    record,
    id: newRecordId(),
    body: paymentStatusWebhookBody({
      paymentId: record.paymentId,
      endToEndId: payment.endToEndId,
      statusId: record.id,
      detailedStatus: record.detailedStatus,
      failureReasons: record.failureReasons,
      createdAt: record.createdAt,
    }),
  }));
  // Deliveries only where there is somewhere to deliver; a delivery is its event, under the same id with the same bytes.
  if (payment.webhookUrl !== null) {
    const url = payment.webhookUrl;
    // After a receiver answered 410 for this payment, later events are kept (for the operator) but never sent.
    const stopped = await trx
      .selectFrom('webhook_events')
      .select('id')
      .where('client_id', '=', payment.clientId)
      .where('payment_id', '=', payment.id)
      .where('state', '=', 'gone')
      .limit(1)
      .executeTakeFirst();
    await trx
      .insertInto('webhook_events')
      .values(
        events.map((event) => ({
          id: event.id,
          payment_id: payment.id,
          client_id: payment.clientId,
          status_record_id: event.record.id,
          sequence: event.record.sequence,
          url,
          body: event.body,
          state: stopped === undefined ? ('pending' as const) : ('gone' as const),
          attempts: 0,
          next_attempt_at: at,
          locked_by: null,
          locked_until: null,
          created_at: at,
          updated_at: at,
          delivered_at: null,
        })),
      )
      .execute();
  }
  await appendToClientFeed(
    trx,
    payment,
    events.map((event) => ({ id: event.id, body: event.body })),
    at,
  );
  return records;
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
async function appendToClientFeed(
  trx: Transaction<Database>,
  payment: Pick<Payment, 'id' | 'clientId'>,
  events: readonly { readonly id: string; readonly body: string }[],
  at: string,
): Promise<void> {
  const rows = events.map((event) => ({
    id: event.id,
    client_id: payment.clientId,
    type: PAYMENT_STATUS_UPDATED,
    payment_id: payment.id,
    body: event.body,
    created_at: at,
  }));
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx.insertInto('events').values(rows.map((row) => ({ ...row, position: null }))).execute();
    return;
  }
  const lastPosition = await takeEventPositions(trx, payment.clientId, events.length);
  await trx
    .insertInto('events')
    .values(rows.map((row, index) => ({ ...row, position: lastPosition - events.length + index + 1 })))
    .execute();
}
