/**
 * Paying with another bank after a failure another bank could avoid (docs/api-decisions.md, "Paying with another
 * bank"): which failures offer it, and the end-to-end id of the retry, derived from the client's.
 */
import { createHash } from 'node:crypto';
import { isFinal, topLevelStatus, type FailureCode } from './detailed-status.js';
import type { Payment } from './payment.js';

/**
 * Failures another bank could avoid: the payer's account there lacks the funds, that bank refused or could not be
 * reached, or the payer turned the payment down at that bank. Failures the payer or the request would meet at any
 * bank (expiry, wrong credentials, the request's own data, our error) offer nothing.
 */
export const RETRYABLE_FAILURE_CODES: ReadonlySet<FailureCode> = new Set<FailureCode>([
  'INSUFFICIENT_FUNDS',
  'BANK_REJECTED',
  'PSU_CANCELLED',
  'BANK_UNAVAILABLE',
]);

/** The longest `endToEndId` the API takes (decisions §2): a retry's must fit too. */
export const END_TO_END_ID_MAX_LENGTH = 64;

/**
 * Whether the payer may pay this payment with another bank: the client allowed it, the payment failed at a bank
 * (one was chosen) for a reason in RETRYABLE_FAILURE_CODES. Whether a retry exists already is the caller's question.
 */
export function mayRetryWithAnotherBank(
  payment: Pick<Payment, 'retryAllowed' | 'detailedStatus' | 'failureReasons' | 'providerId'>,
): boolean {
  return (
    payment.retryAllowed &&
    payment.providerId !== null &&
    isFinal(payment.detailedStatus) &&
    topLevelStatus(payment.detailedStatus) === 'FAILED' &&
    (payment.failureReasons ?? []).some((reason) => RETRYABLE_FAILURE_CODES.has(reason.code))
  );
}

/** The attempt suffix of a retry's end-to-end id: `-R2` for the first retry, `-R3` for a retry of it, … */
const ATTEMPT_SUFFIX = /^(.*)-R([2-9]|[1-9]\d+)$/s;

/**
 * The end-to-end id of the retry of `failed`: the client's id with `-R<attempt>` appended, the attempt counting
 * the original as 1 (`order-1001` → `order-1001-R2` → `order-1001-R3`). A retry's own suffix is replaced, never
 * stacked. When the result would pass END_TO_END_ID_MAX_LENGTH, the base is cut and made unique again with the first
 * 8 hex digits of its SHA-256 (`<first 52 characters>-<hash>-R2`). The result is a function of the failed
 * payment alone, so two concurrent retries of it derive the same id and the client's unique `endToEndId` admits one.
 */
export function retryEndToEndId(failed: Pick<Payment, 'endToEndId' | 'retryOf'>): string {
  const own = failed.retryOf === null ? undefined : ATTEMPT_SUFFIX.exec(failed.endToEndId);
  const base = own?.[1] ?? failed.endToEndId;
  const attempt = own?.[2] === undefined ? 2 : Number(own[2]) + 1;
  const suffix = `-R${String(attempt)}`;
  if (base.length + suffix.length <= END_TO_END_ID_MAX_LENGTH) return `${base}${suffix}`;
  const hash = createHash('sha256').update(base, 'utf8').digest('hex').slice(0, 8);
  return `${base.slice(0, END_TO_END_ID_MAX_LENGTH - suffix.length - hash.length - 1)}-${hash}${suffix}`;
}
