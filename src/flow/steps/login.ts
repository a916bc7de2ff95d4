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
import { lookAtPayment, moveToExecution, withdrawAtBank } from './reconciliation.js';
import { CONTINUE, REFUSED, STOP, type StepResult } from './step-result.js';

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
  if (run.state.authorisation?.failedLogins !== undefined) run.setState({ authorisation: { failedLogins: undefined } });
}

/**
 * The bank refused the payer's login (user ID or password) on a call that carried it. With attempts left, the
 * payer tries again: a payment this run registered with the refused user ID is withdrawn at the bank (the payer may
 * correct the user ID too; the next attempt registers it anew), a payment the bank held before stays (the bank knows
 * the payer from its registration; only the password is asked). The last attempt fails the step (`failStep`), and
 * the payment is withdrawn at the bank.
 */
export async function refuseLogin(run: FlowRun, failStep: () => void): Promise<StepResult> {
  const failed = (run.state.authorisation?.failedLogins ?? 0) + 1;
  const limit = run.profile().loginAttempts;
  const heldBefore = run.state.bank?.payment !== undefined && !run.registeredInRun;
  // A payment the bank held before this login may have been authorised by an earlier login whose answer was lost
  // (the bank then refuses the repeat), or closed after too many refusals: its own status decides first.
  const view = heldBefore ? await lookAtPayment(run) : undefined;
  if (view?.kind === 'proceeded') {
    run.log.info(
      { paymentId: run.payment.id, requestId: run.requestId },
      'the bank refused a repeated login but has authorised the payment: on to execution',
    );
    moveToExecution(run);
    if (view.completed) run.enter('PAYMENT_EXECUTION_COMPLETED');
    return STOP;
  }
  if (failed < limit && view?.kind !== 'closed') {
    if (run.registeredInRun) await withdrawAtBank(run);
    run.log.info(
      { paymentId: run.payment.id, requestId: run.requestId, attemptsLeft: limit - failed },
      'login refused by the bank; the payer may try again',
    );
    run.setState({ authorisation: { failedLogins: failed } });
    return REFUSED;
  }
  failStep();
  await withdrawAtBank(run);
  return CONTINUE;
}
