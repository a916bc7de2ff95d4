/**
 * The webhook body (decisions §4). It is serialised once, when the outbox event is written in the status change's
 * transaction, and those exact bytes are sent on every retry: the signature covers them, and a receiver that
 * deduplicates on `webhook-id` must see the same content each time.
 */
import { topLevelStatus, type DetailedStatus, type FailureReason, type PaymentStatus } from '../domain/detailed-status.js';
import type { EventType } from './event-types.js';

/** A payment's event: one per status record (src/webhooks/event-types.ts lists every type). */
export const PAYMENT_STATUS_UPDATED = 'payment.status.updated' satisfies EventType;

export interface PaymentStatusUpdatedData {
  /** Our id of the payment. */
  readonly paymentId: string;
  /** The client's end-to-end id of the payment. */
  readonly endToEndId: string;
  /** Id of the status record this event reports (an element of the status history). */
  readonly statusId: string;
  /** Derived from `detailedStatus`. */
  readonly status: Exclude<PaymentStatus, 'UNKNOWN'>;
  readonly detailedStatus: DetailedStatus;
  /** `null` when there is no failure. */
  readonly failureReasons: readonly FailureReason[] | null;
  /** When the status record was created (ISO 8601, UTC). */
  readonly createdAt: string;
  /**
   * On every event of a payment the payer started with another bank after a failure: the failed payment's id
   * (docs/api-decisions.md, "Paying with another bank"). Absent on other payments' events.
   */
  readonly retryOf?: string;
  /**
   * On every event of a payment a payer started from a payment link: the link's id (docs/api-decisions.md, "Payment
   * links"). Absent on other payments' events.
   */
  readonly paymentLinkId?: string;
  /**
   * On every event of a refund: the id of the completed payment it refunds (docs/api-decisions.md, "Refunds"). Absent
   * on other payments' events, so their wire format is unchanged.
   */
  readonly refundOf?: string;
}

export interface PaymentStatusUpdatedEvent {
  readonly type: typeof PAYMENT_STATUS_UPDATED;
  /** When the event was written (ISO 8601, UTC); stays the same on retries. */
  readonly timestamp: string;
  readonly data: PaymentStatusUpdatedData;
}

/** What the flow engine knows when it writes a status record. */
export interface StatusRecordForEvent {
  readonly paymentId: string;
  readonly endToEndId: string;
  readonly statusId: string;
  readonly detailedStatus: DetailedStatus;
  readonly failureReasons: readonly FailureReason[] | null;
  readonly createdAt: Date | string;
  /** The failed payment this one retries with another bank, if it is a retry. */
  readonly retryOf?: string | null;
  /** The payment link the payment was started from, if any. */
  readonly paymentLinkId?: string | null;
  /** The completed payment this one refunds, if it is a refund. */
  readonly refundOf?: string | null;
}

/**
 * Builds the event for one status record. `now` defaults to the record's `createdAt`, because the event is written in
 * the same transaction as the record; pass it only if they differ.
 */
export function buildPaymentStatusUpdatedEvent(record: StatusRecordForEvent, now?: Date): PaymentStatusUpdatedEvent {
  const createdAt = toIso(record.createdAt);
  // Fields are listed one by one (not spread) so that the wire order is fixed and no stray property leaks out.
  return {
    type: PAYMENT_STATUS_UPDATED,
    timestamp: now === undefined ? createdAt : toIso(now),
    data: {
      paymentId: record.paymentId,
      endToEndId: record.endToEndId,
      statusId: record.statusId,
      status: topLevelStatus(record.detailedStatus),
      detailedStatus: record.detailedStatus,
      failureReasons:
        record.failureReasons === null || record.failureReasons.length === 0
          ? null
          : record.failureReasons.map((reason) => ({ code: reason.code, message: reason.message })),
      createdAt,
      ...(record.retryOf === undefined || record.retryOf === null ? {} : { retryOf: record.retryOf }),
      ...(record.paymentLinkId === undefined || record.paymentLinkId === null ? {} : { paymentLinkId: record.paymentLinkId }),
      ...(record.refundOf === undefined || record.refundOf === null ? {} : { refundOf: record.refundOf }),
    },
  };
}

/** The body bytes to store in the outbox and send unchanged on every attempt. */
export function serialiseWebhookEvent(event: PaymentStatusUpdatedEvent): string {
  return JSON.stringify(event);
}

/** Builds and serialises in one go: what the outbox writer needs. */
export function paymentStatusWebhookBody(record: StatusRecordForEvent, now?: Date): string {
  return serialiseWebhookEvent(buildPaymentStatusUpdatedEvent(record, now));
}

function toIso(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError('webhook event time is not a valid date');
  return date.toISOString();
}
