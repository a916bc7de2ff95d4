/**
 * The SDK's public types, derived from the generated ones (src/generated/openapi.ts) by path and method, so they
 * follow the OpenAPI document. Statuses, detailed statuses, failure codes and event types are widened to open
 * unions: the service may add values (the document says so), and a value a client does not know yet must not break
 * it — treat an unknown status as not final.
 */
import type { paths } from './generated/openapi.js';

/** A known set of values, open to values added later: editors still offer the known ones. */
export type Open<Known extends string> = Known | (string & {});

type OpenKey = 'status' | 'detailedStatus' | 'code' | 'type';

/** `T` with every status-like string field (`status`, `detailedStatus`, `code`, `type`) opened, at any depth. */
export type WithOpenEnums<T> = T extends readonly (infer Element)[]
  ? WithOpenEnums<Element>[]
  : T extends object
    ? { [K in keyof T]: K extends OpenKey ? (T[K] extends string ? Open<T[K]> : WithOpenEnums<T[K]>) : WithOpenEnums<T[K]> }
    : T;

type JsonOf<Answer> = Answer extends { content: { 'application/json': infer Body } } ? Body : never;

/** The body of a payment creation request (`POST /api/v1/ob/payments`). */
export type PaymentCreationRequest = JsonOf<paths['/api/v1/ob/payments']['post']['requestBody']>;

/** The answer to a payment creation. */
export type CreatedPayment = WithOpenEnums<JsonOf<paths['/api/v1/ob/payments']['post']['responses'][201]>>;

/** The payment resource (`GET /api/v1/ob/payments/{paymentId}`, and each item of the payment list). */
export type Payment = WithOpenEnums<JsonOf<paths['/api/v1/ob/payments/{paymentId}']['get']['responses'][200]>>;

/** One element of a payment's status history. */
export type PaymentStatusRecord = WithOpenEnums<JsonOf<paths['/api/v1/archive/payment-statuses/latest']['get']['responses'][200]>>;

/** A bank of the providers list. */
export type Provider = WithOpenEnums<JsonOf<paths['/api/v1/capabilities/providers']['get']['responses'][200]>[number]>;

/** Filters of the providers list. */
export type ProviderQuery = NonNullable<paths['/api/v1/capabilities/providers']['get']['parameters']['query']>;

/** Top-level status. Only `COMPLETED` and `FAILED` are final; treat anything else, known or not, as not final. */
export type PaymentStatus = Payment['status'];
/** Detailed status (interface spec, "States and transitions"). */
export type DetailedStatus = Payment['detailedStatus'];
/** A failure reason's stable code. */
export type FailureCode = NonNullable<Payment['failureReasons']>[number]['code'];

/** The two final top-level statuses. */
export const FINAL_STATUSES: readonly PaymentStatus[] = ['COMPLETED', 'FAILED'];

/** Whether a payment's top-level status is final (`COMPLETED` or `FAILED`); an unknown value is not. */
export function isFinalStatus(status: PaymentStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED';
}

/** Filters of the payment list (`GET /api/v1/ob/payments`). */
export interface PaymentListQuery {
  /** Only payments with one of these top-level statuses. */
  readonly status?: readonly PaymentStatus[];
  /** Only payments with one of these detailed statuses. */
  readonly detailedStatus?: readonly DetailedStatus[];
  readonly providerId?: string;
  /** Exactly this end-to-end id (it is unique per client, so at most one payment). */
  readonly endToEndId?: string;
  /** Created at or after (ISO 8601 UTC, or a Date). */
  readonly createdFrom?: string | Date;
  /** Created before (ISO 8601 UTC, or a Date). */
  readonly createdTo?: string | Date;
  /** Page size, 1–100 (the service's default: 20). */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/** One page of the payment list, newest first; `nextCursor` is `null` on the last page. */
export type PaymentPage = WithOpenEnums<JsonOf<paths['/api/v1/ob/payments']['get']['responses'][200]>>;

type GeneratedEventPage = JsonOf<paths['/api/v1/events']['get']['responses'][200]>;
type GeneratedFeedEvent = GeneratedEventPage['items'][number];

/** The `data` of a `payment.status.updated` event: the status record it reports, with the payment's ids. */
export interface PaymentStatusUpdatedData {
  readonly paymentId: string;
  readonly endToEndId: string;
  /** Id of the status record (an element of the payment's status history). */
  readonly statusId: string;
  readonly status: PaymentStatus;
  readonly detailedStatus: DetailedStatus;
  readonly failureReasons: { readonly code: FailureCode; readonly message: string }[] | null;
  readonly createdAt: string;
}

/** The body of a webhook (Standard Webhooks), and `data` of an event of the event feed. */
export interface WebhookEventBody {
  /** `payment.status.updated` so far; ignore types you do not know. */
  readonly type: Open<'payment.status.updated'>;
  /** When the event was written (ISO 8601 UTC); the same on every retry. */
  readonly timestamp: string;
  readonly data: PaymentStatusUpdatedData;
}

/** An event of the event feed (`GET /api/v1/events`). */
export interface FeedEvent extends Omit<GeneratedFeedEvent, 'type' | 'data'> {
  readonly type: Open<'payment.status.updated'>;
  /** Exactly the body the webhook of this event delivers. */
  readonly data: WebhookEventBody;
}

/** One page of the event feed, oldest first. */
export interface EventPage {
  readonly items: FeedEvent[];
  /** The position after the last item (or the given one when the page is empty): pass it as `after` next time. */
  readonly nextCursor: GeneratedEventPage['nextCursor'];
}

// The event body is written out above for its known values; this fails to compile when it stops fitting the document.
type Fits<Narrow extends Wide, Wide> = Narrow;
type WebhookBodyFitsDocument = Fits<WebhookEventBody, WithOpenEnums<GeneratedFeedEvent['data']>>;

/** Filters of the event feed. */
export interface EventQuery {
  /** `nextCursor` of an earlier page; absent: from the oldest retained event. */
  readonly after?: string;
  /** Page size, 1–100 (the service's default: 50). */
  readonly limit?: number;
  /** Only events of this type. */
  readonly type?: string;
}
