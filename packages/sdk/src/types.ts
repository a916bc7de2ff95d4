/**
 * The SDK's public types: the OpenAPI document's named schemas (src/generated/openapi.ts), so they follow the
 * document. Statuses, detailed statuses and failure codes are open lists there (`x-extensible-enum`), generated as
 * the known values or any other string: the service may add values, and a value a client does not know yet must not
 * break it — treat an unknown status as not final.
 */
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

/** A known set of values, open to values added later: editors still offer the known ones. */
export type Open<Known extends string> = Known | (string & {});

/** The body of a payment creation request (`POST /api/v1/ob/payments`). */
export type PaymentCreationRequest = Schemas['PaymentCreationRequest'];
/** The answer to a payment creation. */
export type CreatedPayment = Schemas['PaymentCreationResponse'];
/** The payment resource (`GET /api/v1/ob/payments/{paymentId}`, and each item of the payment list). */
export type Payment = Schemas['Payment'];
/** The body of a refund request (`POST /api/v1/ob/payments/{paymentId}/refunds`). */
export type RefundCreationRequest = Schemas['RefundCreationRequest'];
/** Whom a refund pays (`Payment.recipient`, present on refunds only): the account and the holder's name. */
export type RefundRecipient = Schemas['RefundRecipient'];
/** A refund's recipient account: `{ type: 'IBAN', value }` or `{ type: 'SORT_CODE_ACCOUNT_NUMBER', value, rollNumber? }`. */
export type RecipientAccountNumber = Schemas['RecipientAccountNumber'];
/** One refund as the refunded payment lists it (`Payment.refunds`). */
export type RefundSummary = Schemas['RefundSummary'];
/**
 * The payment's `payer`: the account the payer paid from and its holder's name, once the bank told them. Its
 * `account` is one of {@link PayerAccount}'s types, told apart by `type`; accept a type you do not know.
 */
export type Payer = Schemas['Payer'];
/** The payer's account: `{ type: 'IBAN', value }` or `{ type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode, accountNumber, rollNumber? }`. */
export type PayerAccount = Schemas['PayerAccount'];
/** One element of a payment's status history. */
export type PaymentStatusRecord = Schemas['PaymentStatusRecord'];
/** A bank of the providers list. */
export type Provider = Schemas['Provider'];
/** Filters of the providers list. */
export type ProviderQuery = NonNullable<operations['listProviders']['parameters']['query']>;

/** Top-level status: `'PENDING' | 'COMPLETED' | 'FAILED' | 'UNKNOWN' | (string & {})`. Only COMPLETED and FAILED are final. */
export type PaymentStatus = Schemas['PaymentStatus'];
/** Detailed status (interface spec, "States and transitions"), open like the status. */
export type DetailedStatus = Schemas['DetailedStatus'];
/** A failure reason's stable code, open like the status. */
export type FailureCode = Schemas['FailureCode'];

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
export type PaymentPage = Schemas['PaymentList'];

/** The `data` of a `payment.status.updated` event: the status record it reports, with the payment's ids. */
export type PaymentStatusUpdatedData = Schemas['PaymentStatusUpdatedData'];

/** The body of a `payment.status.updated` webhook: the payment's new status record in `data`. */
export interface PaymentStatusUpdatedWebhookBody extends Omit<Schemas['PaymentStatusUpdatedWebhook'], 'type'> {
  readonly type: 'payment.status.updated';
}

/** The `data` of a `payment_link.*` event: the link, the status it entered, and when. */
export type PaymentLinkEventData = Schemas['PaymentLinkEventData'];

/** The body of a `payment_link.paid` webhook: a single-use link's payment completed; `data.paymentId` names it. */
export interface PaymentLinkPaidWebhookBody extends Omit<Schemas['PaymentLinkWebhook'], 'type' | 'data'> {
  readonly type: 'payment_link.paid';
  readonly data: PaymentLinkEventData & { readonly paymentId: string };
}

/** The body of a `payment_link.expired` webhook: the link reached its `expiresAt` while ACTIVE. */
export interface PaymentLinkExpiredWebhookBody extends Omit<Schemas['PaymentLinkWebhook'], 'type'> {
  readonly type: 'payment_link.expired';
}

/** The body of a `payment_link.deactivated` webhook: you deactivated the link. */
export interface PaymentLinkDeactivatedWebhookBody extends Omit<Schemas['PaymentLinkWebhook'], 'type'> {
  readonly type: 'payment_link.deactivated';
}

/**
 * The body of a webhook (Standard Webhooks), and `data` of an event of the event feed: one of the event types openpis
 * sends, told apart by `type` (`switch (event.type)` narrows `data`). The list grows: a service newer than this SDK
 * may send a type not listed here, so handle the types you need and ignore the others (a `default` that does
 * nothing), rather than treating the switch as exhaustive.
 */
export type WebhookEventBody =
  PaymentStatusUpdatedWebhookBody | PaymentLinkPaidWebhookBody | PaymentLinkExpiredWebhookBody | PaymentLinkDeactivatedWebhookBody;

/** The event types of {@link WebhookEventBody}: the feed's `type` filter takes them. */
export type WebhookEventType = WebhookEventBody['type'];

/** The body of a `payment_link.*` webhook (and `data` of such an event of the feed). */
export type PaymentLinkWebhookBody = Extract<WebhookEventBody, { readonly type: `payment_link.${string}` }>;

/** An event of the feed whose webhook's body is `Body`: the same `type` outside and inside. */
type FeedEventOf<Body extends WebhookEventBody> = Body extends WebhookEventBody
  ? Omit<Schemas['Event'], 'type' | 'data'> & {
      readonly type: Body['type'];
      /** Exactly the body the webhook of this event delivers (the same handler can take both). */
      readonly data: Body;
    }
  : never;

/**
 * An event of the event feed (`GET /api/v1/events`): its `id` is the `webhook-id` of the same event's webhook.
 * `data` is that webhook's body, which has a `data` of its own: `event.data.data.paymentId`, `event.data.data.status`.
 * Told apart by `type`, as {@link WebhookEventBody} (and as open to types added later): narrowing `event.type` narrows
 * `event.data`.
 */
export type FeedEvent = FeedEventOf<WebhookEventBody>;

/** One page of the event feed, oldest first; pass `nextCursor` as `after` next time (it is always there). */
export interface EventPage extends Omit<Schemas['EventFeed'], 'items'> {
  readonly items: FeedEvent[];
}

/** Filters of the event feed. */
export interface EventQuery {
  /** `nextCursor` of an earlier page; absent: from the oldest retained event. */
  readonly after?: string;
  /** Page size, 1–100 (the service's default: 50). */
  readonly limit?: number;
  /** Only events of this type. */
  readonly type?: Open<WebhookEventType>;
}

/** The body of a payment link creation request (`POST /api/v1/ob/payment-links`). */
export type PaymentLinkCreationRequest = Schemas['PaymentLinkCreationRequest'];
/** The payment link resource (`GET /api/v1/ob/payment-links/{paymentLinkId}`, each item of the list, the creation's answer). */
export type PaymentLink = Schemas['PaymentLink'];
/** A payment link's status: `'ACTIVE' | 'PAID' | 'EXPIRED' | 'DEACTIVATED' | (string & {})`; only ACTIVE takes payments. */
export type PaymentLinkStatus = Schemas['PaymentLinkStatus'];
/** One page of the payment link list, newest first; `nextCursor` is `null` on the last page. */
export type PaymentLinkPage = Schemas['PaymentLinkList'];

/** Filters of the payment link list (`GET /api/v1/ob/payment-links`). */
export interface PaymentLinkListQuery {
  readonly status?: readonly PaymentLinkStatus[];
  /** Exactly this reference (unique per client, so at most one link). */
  readonly reference?: string;
  /** Page size, 1–100 (the service's default: 20). */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}
