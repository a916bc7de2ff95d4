/**
 * The payer's login at embedded (and decoupled) banks and the attempts the bank allows. A bank that refuses the
 * login or a one-time code usually allows a few more tries (three at the sandbox banks); Berlin Group answers do not
 * say how many are left, so the flow counts the refusals in the flow state against the limits of the bank's profile
 * (`loginAttempts`, `oneTimeCodeAttempts`), and takes a bank that closed the payment meanwhile
 * as the bank's own answer that none are left. With attempts left a refusal records no status: the payer is asked
 * again on our page, with the refusal and the attempts left. The last one fails the step, as every definite
 * refusal does.
 */
import { bankProfile } from '../../connectors/index.js';
import type { Bank } from '../../providers/catalogue.js';
import type { FlowRun } from '../run.js';
import { callBank } from './bank-errors.js';
import { CONTINUE, REFUSED, type StepResult } from './step-result.js';

/** Refused logins the bank accepts for one payment (pages without a run at hand ask for the bank's profile). */
export function loginAttempts(bank: Bank): number {
  return bankProfile(bank.connector).loginAttempts;
}

export function oneTimeCodeAttempts(bank: Bank): number {
  return bankProfile(bank.connector).oneTimeCodeAttempts;
}

/** Attempts the payer has left after the refusals counted so far (for the page). */
export function attemptsLeft(limit: number, failed: number | undefined): number {
  return Math.max(limit - (failed ?? 0), 0);
}

/** The bank accepted the payer's login: the count of refusals starts again, as at the bank. */
export function loginAccepted(run: FlowRun): void {
  if (run.state.failedLogins !== undefined) run.setState({ failedLogins: undefined });
}

/**
 * The bank refused the payer's login (user ID or password) on a call that carried it. With attempts left, the
 * payer tries again: a payment this run registered with the refused user ID is withdrawn at the bank (the payer may
 * correct the user ID too; the next attempt registers it anew), a payment the bank held before stays (the bank knows
 * the payer from its registration; only the password is asked). The last attempt fails the step (`failStep`), and
 * the payment is withdrawn at the bank.
 */
export async function refuseLogin(run: FlowRun, failStep: () => void): Promise<StepResult> {
  const failed = (run.state.failedLogins ?? 0) + 1;
  const limit = run.profile().loginAttempts;
  const heldBefore = run.state.bankPayment !== undefined && !run.registeredInRun;
  if (failed < limit && !(heldBefore && (await bankClosedPayment(run)))) {
    if (run.registeredInRun) await cancelAtBank(run);
    run.log.info({ paymentId: run.payment.id, requestId: run.requestId, attemptsLeft: limit - failed }, 'login refused by the bank; the payer may try again');
    run.setState({ failedLogins: failed });
    return REFUSED;
  }
  failStep();
  await cancelAtBank(run);
  return CONTINUE;
}

/** Whether the bank already closed the payment (rejected after too many refusals): then no attempt is left. */
async function bankClosedPayment(run: FlowRun): Promise<boolean> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) return false;
  const status = await callBank(() => run.connector().getPaymentStatus({ context: run.callContext(), payment: bankPayment }));
  return status.ok && status.value.outcome === 'failed';
}

/** Best effort: a payment the payer can no longer authorise is withdrawn at the bank (it would expire there anyway). */
export async function cancelAtBank(run: FlowRun): Promise<void> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) return;
  const cancelled = await callBank(() => run.connector().cancelPayment({ context: run.callContext(), payment: bankPayment }));
  if (!cancelled.ok) run.log.info({ paymentId: run.payment.id, err: cancelled.error.message }, 'could not withdraw the payment at the bank');
}
