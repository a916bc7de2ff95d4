/**
 * Whether the payer is offered "Pay with another bank" (docs/api-decisions.md, "Paying with another bank"): the
 * domain's rule (a failure another bank could avoid, the client allowing it) unless the payer cancelled on our own
 * page. A cancel there, asked and confirmed, is the payer's choice not to pay; a cancel at the bank (turned down in
 * its app or pages) is a failure at that bank, which another bank could avoid. Both carry PSU_CANCELLED; the flow
 * state tells them apart.
 */
import type { Payment } from '../domain/payment.js';
import { mayRetryWithAnotherBank } from '../domain/retry.js';
import { flowStateOf } from './flow-state.js';

export function payerMayRetryWithAnotherBank(payment: Payment): boolean {
  return mayRetryWithAnotherBank(payment) && flowStateOf(payment).page?.cancelledOnPage !== true;
}
