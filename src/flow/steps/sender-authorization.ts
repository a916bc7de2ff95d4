/**
 * Phase 3: the payer's login at banks that need it before any payment call (the profile's `loginBeforeRegistration`).
 * The login is the payment's authorisation started with the payer's password (Berlin Group has no login separate
 * from an authorisation: `startAuthorisationWithPsuAuthentication`), right after registering the payment (unless
 * the bank holds it already, registered with the login id alone), within the request that carries the password.
 * A refused login is the payer's to correct while the bank allows more attempts (`login.ts`); the last one fails
 * here, at SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED with PSU_AUTHENTICATION_FAILED.
 */
import type { FlowRun } from '../run.js';
import { missingData } from './followup-data.js';
import { loginAccepted, refuseLogin } from './login.js';
import { notificationUriOf } from './notification.js';
import { initiate } from './payment-registration.js';
import { failAfterRefusal, keepAuthorisationReferences, startReconciling } from './reconciliation.js';
import { BANK_UNAVAILABLE, CONTINUE, STOP, type StepResult } from './step-result.js';

export async function checkSenderAuthorization(run: FlowRun): Promise<StepResult> {
  if (!run.profile().loginBeforeRegistration) {
    run.enter('SENDER_ACCOUNT_REQUIRED_CHECK_PENDING');
    return CONTINUE;
  }
  const missing = missingData(run);
  if (missing.password || missing.loginId) {
    // The password of an earlier request is gone (it is never kept): ask for the login on our page.
    run.enter('SENDER_AUTHORIZATION_REDIRECT_PENDING');
    return STOP;
  }
  return authorizeSender(run);
}

/** The payer submitted the login page (SENDER_AUTHORIZATION_REDIRECT_PENDING); the credentials are in the run. */
export function submitSenderLogin(run: FlowRun): Promise<StepResult> {
  return authorizeSender(run);
}

/** The login's own failure: recorded as the bank's answer to it. */
function failLogin(run: FlowRun, code: Parameters<FlowRun['fail']>[0]): void {
  if (run.status !== 'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING') run.enter('SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING');
  run.fail(code);
}

async function authorizeSender(run: FlowRun): Promise<StepResult> {
  if (run.state.bank?.payment === undefined) {
    const registered = await initiate(run);
    if (!registered.ok) {
      if (!registered.definite) return BANK_UNAVAILABLE;
      // A user ID the bank does not know is a refused login, like a wrong password.
      if (registered.code === 'PSU_AUTHENTICATION_FAILED') return refuseLogin(run, () => failLogin(run, 'PSU_AUTHENTICATION_FAILED'));
      failLogin(run, registered.code);
      return CONTINUE;
    }
  }
  const bankPayment = run.state.bank?.payment;
  if (bankPayment === undefined) throw new Error('initiate() keeps the bank payment');
  const loginId = run.loginId();
  const password = run.secrets.password;
  const notificationUri = notificationUriOf(run);
  const started = await run.send('startAuthorisation', () =>
    run.connector().startAuthorisation({
      context: run.callContext(),
      payment: bankPayment,
      psu: { ...(loginId === undefined ? {} : { id: loginId }), ...(password === undefined ? {} : { password }) },
      ...(notificationUri === undefined ? {} : { notificationUri }),
    }),
  );
  if (!started.ok && started.definite && started.code === 'PSU_AUTHENTICATION_FAILED') {
    return refuseLogin(run, () => failLogin(run, 'PSU_AUTHENTICATION_FAILED'));
  }
  if (!started.ok && !started.definite) {
    // The bank holds the payment; whether it took the login is open until it is asked (the bank-status job). Its
    // processing status is recorded only with a definite answer: the payer may have to log in again.
    return startReconciling(run);
  }
  if (!started.ok) {
    // Refused for another reason: the bank's own status for the payment decides first (an earlier login whose
    // answer was lost may have authorised it).
    return failAfterRefusal(run, () => failLogin(run, started.code), { withdraw: true });
  }
  run.enter('SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING');
  loginAccepted(run);
  run.next = started.value.next;
  keepAuthorisationReferences(run, started.value);
  if (started.value.scaApproach !== undefined) run.setState({ authorisation: { scaApproach: started.value.scaApproach } });
  run.enter('SENDER_ACCOUNT_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}
