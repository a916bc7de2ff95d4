/**
 * The end of the payer's part: what happened, before the payer goes back to the shop. Shown from the payment
 * execution phase on and for every final status, whatever link brought the payer here (the flow link of a finished
 * or expired payment, our bank callback used once already): the payer always sees the outcome, never a bare redirect.
 */
import { isFinal, phaseOf, type FailureCode } from '../../domain/detailed-status.js';
import type { Payment } from '../../domain/payment.js';
import { payerMayRetryWithAnotherBank } from '../../flow/retry.js';
import { flowStateOf } from '../../flow/flow-state.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep, type PaymentRetries } from '../step.js';
import { outcomePage, type FailureGroup, type OutcomeView } from './page.js';

/** Seconds before the completed page continues to the shop by itself. */
export const AUTO_CONTINUE_SECONDS = 6;

/** Where the payer goes when the flow is over for them: the shop's URI with our payment id added to its query. */
export function clientReturnUrl(payment: Pick<Payment, 'redirectUri' | 'id'>): string {
  const url = new URL(payment.redirectUri);
  url.searchParams.set('paymentId', payment.id);
  return url.toString();
}

/** Whether the payer's part is over: the bank executes the payment, or it reached a final status. */
export function flowIsOverForPayer(payment: Pick<Payment, 'detailedStatus'>): boolean {
  return isFinal(payment.detailedStatus) || phaseOf(payment.detailedStatus) === 7;
}

/** Failure codes in groups the payer reads the same way: what happened, and what to do next. */
const FAILURE_GROUPS: Readonly<Record<FailureCode, FailureGroup>> = {
  PSU_CANCELLED: 'cancelled',
  EXPIRED: 'expired',
  PSU_AUTHENTICATION_FAILED: 'authentication',
  SCA_FAILED: 'authentication',
  CONSENT_REJECTED: 'consent',
  INSUFFICIENT_FUNDS: 'funds',
  BANK_REJECTED: 'bank',
  BANK_UNAVAILABLE: 'bank',
  INVALID_SENDER_DATA: 'bank',
  REMITTANCE_TOO_LONG: 'bank',
  INTERNAL_ERROR: 'technical',
};

export function failureGroupOf(codes: readonly FailureCode[]): FailureGroup {
  const first = codes[0];
  return first === undefined ? 'technical' : FAILURE_GROUPS[first];
}

function outcomeView(payment: Payment, retries: PaymentRetries | undefined): OutcomeView {
  const continueUrl = clientReturnUrl(payment);
  if (payment.detailedStatus === 'PAYMENT_EXECUTION_COMPLETED') {
    // Once only: the link opened again (a bookmark, the browser's history) shows the receipt and waits for the payer.
    const again = flowStateOf(payment).page?.outcomeShown === true;
    return {
      kind: 'completed',
      failure: undefined,
      continueUrl,
      autoContinueSeconds: again ? undefined : AUTO_CONTINUE_SECONDS,
      retry: false,
    };
  }
  if (!isFinal(payment.detailedStatus))
    return { kind: 'processing', failure: undefined, continueUrl, autoContinueSeconds: undefined, retry: false };
  return {
    kind: 'failed',
    failure: failureGroupOf((payment.failureReasons ?? []).map((reason) => reason.code)),
    continueUrl,
    autoContinueSeconds: undefined,
    retry: retries !== undefined && payerMayRetryWithAnotherBank(payment),
  };
}

export const outcomeStep = payerStep<OutcomeView>({
  name: 'outcome',
  waitsIn: statusesShownOn('outcome'),
  view: ({ payment, retries }) => outcomeView(payment, retries),
  page: outcomePage,
  actions: {
    // "Pay with another bank": the new payment's bank list (or, after a double click, the one the first click made).
    // A payment that may not be retried (any more) shows its outcome again.
    retry: async ({ payment, retries }) => {
      if (retries === undefined || !payerMayRetryWithAnotherBank(payment)) return { kind: 'next', payment };
      const result = await retries.retryWithAnotherBank(payment);
      return result.kind === 'refused'
        ? { kind: 'next', payment }
        : { kind: 'redirect', url: `/pay/${result.payment.flowToken}`, payment: result.payment };
    },
  },
});
