/**
 * Validation of a refund request (docs/api-decisions.md, "Refunds"): the schema and the rules beyond it, every
 * violation in one message like a payment's. What depends on the payment refunded (its currency's decimals, what is
 * left to refund) is checked by the service, which knows it.
 */
import { createAjv } from '../http/ajv.js';
import { limitedMessagesFor } from '../http/ajv-messages.js';
import { MAX_LISTED_VIOLATIONS } from '../http/errors.js';
import { hasInvisibleCharacters, normalisedDisplayText, VISIBLE_TEXT_MESSAGE } from '../domain/display-text.js';
import { RefundCreationRequestSchema, REFUND_AMOUNT_TEXT, type RefundCreationRequest } from './refund-schemas.js';
import { pick, returnAndWebhookViolations, type ValidationContext } from './validation.js';

export type RefundValidationResult =
  | { readonly kind: 'valid'; readonly request: RefundCreationRequest }
  | { readonly kind: 'invalid'; readonly violations: readonly string[]; readonly unlisted?: number };

const checkSchema = createAjv().compile<RefundCreationRequest>(RefundCreationRequestSchema);

const AMOUNT_MESSAGE = 'amount must be a number or a decimal string (e.g. "4.00") of at least 0.01';

export function validateRefundCreation(
  body: unknown,
  context: Pick<ValidationContext, 'environment' | 'allowPrivateWebhookTargets'>,
): RefundValidationResult {
  const schemaValid = checkSchema(body);
  // The amount's two forms make the schema's own messages for it a list of alternatives: one message says it instead.
  const errors = (checkSchema.errors ?? []).filter((error) => error.instancePath !== '/amount');
  const amountFaulty = (checkSchema.errors ?? []).length > errors.length || !amountInRange(pick(body, 'amount'));
  const schemaMessages = schemaValid ? { messages: [], unlisted: 0 } : limitedMessagesFor(errors);
  if (schemaMessages.messages.length + schemaMessages.unlisted >= MAX_LISTED_VIOLATIONS) {
    return { kind: 'invalid', violations: schemaMessages.messages, unlisted: schemaMessages.unlisted };
  }
  const violations = [...(amountFaulty ? [AMOUNT_MESSAGE] : []), ...schemaMessages.messages, ...returnAndWebhookViolations(body, context)];
  const payerName = pick(body, 'payerName');
  if (typeof payerName === 'string' && hasInvisibleCharacters(payerName)) violations.push(`payerName ${VISIBLE_TEXT_MESSAGE}`);
  if (!schemaValid || violations.length > 0) return { kind: 'invalid', violations: [...new Set(violations)] };
  return {
    kind: 'valid',
    request: body.payerName === undefined ? body : { ...body, payerName: normalisedDisplayText(body.payerName) },
  };
}

/** A decimal string amount at least 0.01 and at most 999999999.99 (a number's range is the schema's). */
function amountInRange(amount: unknown): boolean {
  if (typeof amount !== 'string') return true;
  if (!new RegExp(REFUND_AMOUNT_TEXT).test(amount)) return false;
  const [whole = '', fraction = ''] = amount.split('.');
  // Whole cents, the rest cut off: at least one cent and at most the payments' maximum (the currency's own decimals
  // are the service's rule).
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return cents >= 1n && cents <= 99999999999n;
}
