/**
 * Phase 3: the payer's login at banks that need it before any payment call (`requiresSenderAuthorization`).
 * Berlin Group has no login separate from an authorisation, so the login is the payment's authorisation started
 * with the payer's password (`startAuthorisationWithPsuAuthentication`), right after registering the payment,
 * within the request that carries the password. A wrong password fails here, at
 * SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED with PSU_AUTHENTICATION_FAILED.
 */
import type { FlowRun } from '../run.js';
import { callBank } from './bank-errors.js';
import { initiate } from './payment-registration.js';
import { startReconciling } from './reconciliation.js';
import { BANK_UNAVAILABLE, CONTINUE, STOP, type StepResult } from './step-result.js';

export async function checkSenderAuthorization(run: FlowRun): Promise<StepResult> {
  if (!run.bank().connector.requiresSenderAuthorization) {
    run.enter('SENDER_ACCOUNT_REQUIRED_CHECK_PENDING');
    return CONTINUE;
  }
  if (run.secrets.password === undefined || run.loginId() === undefined) {
    // The password of an earlier request is gone (it is never kept): ask for the login on our page.
    run.enter('SENDER_AUTHORIZATION_REDIRECT_PENDING');
    return STOP;
  }
  return authorizeSender(run);
}

/** The payer submitted the login page (SENDER_AUTHORIZATION_REDIRECT_PENDING). */
export async function submitSenderLogin(run: FlowRun, loginId: string, password: string): Promise<StepResult> {
  run.secrets = { ...run.secrets, loginId, password };
  return authorizeSender(run);
}

async function authorizeSender(run: FlowRun): Promise<StepResult> {
  const registered = await initiate(run);
  if (!registered.ok) {
    if (!registered.definite) return BANK_UNAVAILABLE;
    run.enter('SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING');
    run.fail(registered.code);
    return CONTINUE;
  }
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) throw new Error('initiate() keeps the bank payment');
  const loginId = run.loginId();
  const password = run.secrets.password;
  const started = await callBank(() =>
    run.connector().startPaymentAuthorisation({
      context: run.callContext(),
      resource: bankPayment,
      psu: { ...(loginId === undefined ? {} : { id: loginId }), ...(password === undefined ? {} : { password }) },
      scaApproach: 'EMBEDDED',
    }),
  );
  // From here the bank holds the payment: whatever happens is recorded, the payer's data is consumed.
  if (run.status !== 'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING') run.enter('SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING');
  if (!started.ok) {
    if (!started.definite) return startReconciling(run);
    run.fail(started.code);
    await cancelAtBank(run);
    return CONTINUE;
  }
  run.next = started.value.next;
  run.setState({ authorisation: started.value.authorisation, ...(started.value.scaApproach === undefined ? {} : { scaApproach: started.value.scaApproach }) });
  run.enter('SENDER_ACCOUNT_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}

/** Best effort: a payment the payer can no longer authorise is withdrawn at the bank (it would expire there anyway). */
export async function cancelAtBank(run: FlowRun): Promise<void> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) return;
  const cancelled = await callBank(() => run.connector().cancelPayment({ context: run.callContext(), payment: bankPayment }));
  if (!cancelled.ok) run.log.info({ paymentId: run.payment.id, err: cancelled.error.message }, 'could not withdraw the payment at the bank');
}
