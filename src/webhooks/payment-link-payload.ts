/**
 * The body of a payment link's event (`payment_link.paid`, `payment_link.expired`, `payment_link.deactivated`),
 * serialised once when the event is written in the status change's transaction and sent unchanged on every retry, as
 * a payment's (src/webhooks/payload.ts). docs/webhooks.md documents it.
 */
import type { EventType } from './event-types.js';

export type PaymentLinkEventType = Extract<EventType, `payment_link.${string}`>;

/** The event type of each final status a link enters. */
export const PAYMENT_LINK_EVENT_OF_STATUS = {
  PAID: 'payment_link.paid',
  EXPIRED: 'payment_link.expired',
  DEACTIVATED: 'payment_link.deactivated',
} as const satisfies Readonly<Record<string, PaymentLinkEventType>>;

export interface PaymentLinkEventData {
  readonly paymentLinkId: string;
  /** The client's reference of the link. */
  readonly reference: string;
  /** The status the link entered. */
  readonly status: keyof typeof PAYMENT_LINK_EVENT_OF_STATUS;
  /** `payment_link.paid` only: the payment that completed. */
  readonly paymentId?: string;
  /** When the link entered the status (ISO 8601, UTC). */
  readonly createdAt: string;
}

export interface PaymentLinkEvent {
  readonly type: PaymentLinkEventType;
  /** When the event was written (ISO 8601, UTC); the same on retries. */
  readonly timestamp: string;
  readonly data: PaymentLinkEventData;
}

/** The bytes of a link's event: the fields in a fixed order, nothing else. */
export function paymentLinkEventBody(data: PaymentLinkEventData): string {
  const event: PaymentLinkEvent = {
    type: PAYMENT_LINK_EVENT_OF_STATUS[data.status],
    timestamp: data.createdAt,
    data: {
      paymentLinkId: data.paymentLinkId,
      reference: data.reference,
      status: data.status,
      ...(data.paymentId === undefined ? {} : { paymentId: data.paymentId }),
      createdAt: data.createdAt,
    },
  };
  return JSON.stringify(event);
}
