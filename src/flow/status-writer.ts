/**
 * Appends status records and their events inside a caller's transaction. Every status a payment enters goes
 * through here, so a record never exists without its event (in the client's event feed, and in the webhook
 * outbox when the payment has a webhookUrl) and never the other way round: all commit or none does.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { Payment, StatusRecord } from '../domain/payment.js';
import { PAYMENT_STATUS_UPDATED, paymentStatusWebhookBody } from '../webhooks/payload.js';
import type { DetailedStatus, FailureReason } from '../domain/detailed-status.js';

export interface StatusEntry {
  readonly status: DetailedStatus;
  readonly failureReasons?: readonly FailureReason[] | null;
}

/**
 * Writes one history record per entry, numbered after `lastSequence`, each at `at`, with its webhook event.
 * Returns the records written.
 */
export async function appendStatusRecords(
  trx: Transaction<Database>,
  payment: Pick<Payment, 'id' | 'clientId' | 'endToEndId' | 'webhookUrl'>,
  entries: readonly StatusEntry[],
  lastSequence: number,
  at: string,
): Promise<StatusRecord[]> {
  const records: StatusRecord[] = entries.map((entry, index) => ({
    id: randomUUID(),
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
  // Every record is an event of the client's feed (GET /api/v1/events); positions come from the client's counter,
  // whose row stays locked until this transaction commits, so the feed's order is the commit order.
  const { event_position: lastPosition } = await trx
    .updateTable('clients')
    .set((eb) => ({ event_position: eb('event_position', '+', records.length) }))
    .where('id', '=', payment.clientId)
    .returning('event_position')
    .executeTakeFirstOrThrow();
  const events = records.map((record, index) => ({
    record,
    id: randomUUID(),
    client_id: payment.clientId,
    position: Number(lastPosition) - records.length + index + 1,
    type: PAYMENT_STATUS_UPDATED,
    payment_id: payment.id,
    body: paymentStatusWebhookBody({
      paymentId: record.paymentId,
      endToEndId: payment.endToEndId,
      statusId: record.id,
      detailedStatus: record.detailedStatus,
      failureReasons: record.failureReasons,
      createdAt: record.createdAt,
    }),
    created_at: at,
  }));
  await trx.insertInto('events').values(events.map(({ record: _record, ...event }) => event)).execute();
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
  return records;
}
