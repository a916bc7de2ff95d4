/**
 * Validation of a payment link creation request: the link's own fields by its schema, then every rule a payment
 * request of the link would meet (src/payments/validation.ts: amounts, currencies, the scheme, the addresses, the
 * banks that could take it), by validating the payment the link's first payer would start. All violations in one
 * message, as for payments.
 */
import { createAjv } from '../http/ajv.js';
import { limitedMessagesFor } from '../http/ajv-messages.js';
import { linkPaymentEndToEndId, PAYMENT_LINK_DEFAULT_LIFETIME_MS, PAYMENT_LINK_MAX_LIFETIME_MS } from '../domain/payment-link.js';
import { validatePaymentCreation, type ValidationContext, type ValidPaymentRequest } from '../payments/validation.js';
import { PaymentLinkCreationRequestSchema, type PaymentLinkCreationRequest } from './schemas.js';

export interface ValidPaymentLinkRequest {
  readonly request: PaymentLinkCreationRequest;
  /** The payment each payer starts, as validated (amount as an exact decimal string, the bank if one was named). */
  readonly payment: ValidPaymentRequest;
  readonly expiresAt: string;
  readonly reusable: boolean;
}

export type PaymentLinkValidationResult =
  | { readonly kind: 'valid'; readonly link: ValidPaymentLinkRequest }
  | { readonly kind: 'invalid'; readonly violations: readonly string[]; readonly unlisted?: number }
  | { readonly kind: 'unknown-provider'; readonly providerId: string };

const checkSchema = createAjv().compile<PaymentLinkCreationRequest>(PaymentLinkCreationRequestSchema);

/** Stand-ins for the payer's details, which the payer's own request gives when they continue. */
const PAYER_PLACEHOLDER = { psuIpAddress: '192.0.2.1', psuUserAgent: 'payment link' } as const;

export function validatePaymentLinkCreation(body: unknown, context: ValidationContext, now: Date): PaymentLinkValidationResult {
  if (!checkSchema(body)) {
    const { messages, unlisted } = limitedMessagesFor(checkSchema.errors ?? []);
    return { kind: 'invalid', violations: messages, unlisted };
  }
  const violations: string[] = [];
  const expiresAt = body.expiresAt === undefined ? new Date(now.getTime() + PAYMENT_LINK_DEFAULT_LIFETIME_MS) : new Date(body.expiresAt);
  if (expiresAt.getTime() <= now.getTime()) violations.push('expiresAt must be in the future');
  else if (expiresAt.getTime() > now.getTime() + PAYMENT_LINK_MAX_LIFETIME_MS) violations.push('expiresAt must be at most 90 days ahead');

  const { reference, expiresAt: _expiresAt, reusable, ...paymentPart } = body;
  const payment = validatePaymentCreation(
    { ...paymentPart, metadata: { ...body.metadata, ...PAYER_PLACEHOLDER, endToEndId: linkPaymentEndToEndId(reference, 1) } },
    context,
  );
  if (payment.kind === 'invalid')
    return { kind: 'invalid', violations: [...violations, ...payment.violations], unlisted: payment.unlisted ?? 0 };
  if (violations.length > 0) return { kind: 'invalid', violations };
  if (payment.kind === 'unknown-provider') return payment;
  return {
    kind: 'valid',
    link: { request: body, payment: payment.payment, expiresAt: expiresAt.toISOString(), reusable: reusable ?? false },
  };
}
