/**
 * `@openpis/sdk`: a typed client for the openpis payment initiation API.
 *
 * ```ts
 * import { OpenpisClient } from '@openpis/sdk';
 * const openpis = new OpenpisClient({ baseUrl, clientId, clientSecret });
 * const payment = await openpis.createPayment({ ... });
 * ```
 */
export {
  OpenpisClient,
  type CallOptions,
  type CreatePaymentOptions,
  type CreateRefundOptions,
  type Refunds,
  type FollowOptions,
  type OpenpisClientOptions,
  type WaitOptions,
} from './client.js';
export type { RetryOptions } from './transport.js';
export {
  OpenpisApiError,
  OpenpisAuthenticationError,
  OpenpisConflictError,
  OpenpisError,
  OpenpisNetworkError,
  OpenpisNotFoundError,
  OpenpisPermissionError,
  OpenpisRateLimitError,
  OpenpisServerError,
  OpenpisTimeoutError,
  OpenpisValidationError,
  OpenpisWebhookVerificationError,
} from './errors.js';
export { verifyWebhook, WebhookVerifier, type IncomingHeaders, type VerifiedWebhook } from './webhooks.js';
export {
  FINAL_STATUSES,
  isFinalStatus,
  type CreatedPayment,
  type DetailedStatus,
  type EventPage,
  type EventQuery,
  type FailureCode,
  type FeedEvent,
  type Open,
  type Payer,
  type PayerAccount,
  type Payment,
  type PaymentCreationRequest,
  type PaymentLink,
  type PaymentLinkCreationRequest,
  type PaymentLinkListQuery,
  type PaymentLinkPage,
  type PaymentLinkStatus,
  type PaymentLinkDeactivatedWebhookBody,
  type PaymentLinkEventData,
  type PaymentLinkExpiredWebhookBody,
  type PaymentLinkPaidWebhookBody,
  type PaymentLinkWebhookBody,
  type PaymentListQuery,
  type PaymentPage,
  type PaymentStatus,
  type PaymentStatusRecord,
  type PaymentStatusUpdatedWebhookBody,
  type PaymentStatusUpdatedData,
  type Provider,
  type ProviderQuery,
  type RecipientAccountNumber,
  type RefundCreationRequest,
  type RefundRecipient,
  type RefundSummary,
  type WebhookEventBody,
  type WebhookEventType,
} from './types.js';
export type { paths as OpenApiPaths, components as OpenApiComponents } from './generated/openapi.js';
