/**
 * Phase 6: the payer authorises the payment. Driven by the connector's `NextScaStep`:
 * - redirect: to the bank's page (PAYMENT_CONSENT_REDIRECT_PENDING); the payer comes back to our callback URL;
 * - embedded: the authorisation is started with the password in memory; the payer chooses an SCA method on our
 *   page when the bank offers several (the AUTHENTICATION_METHOD_SELECTION statuses) and types the one-time code on
 *   our page (PAYMENT_CONSENT_REDIRECT_PENDING);
 * - decoupled: the authorisation is started with the login id; the payer approves in the bank's app while our
 *   waiting page and the bank-status job poll (PAYMENT_CONSENT_REDIRECT_PENDING);
 * - exempted: straight to execution.
 */
import type { AuthorisationResult, NextScaStep, ScaMethod } from '../../connectors/index.js';
import { pathTo } from '../../domain/paths.js';
import type { FlowRun } from '../run.js';
import { callBank, type BankCall } from './bank-errors.js';
import { callbackOfRun } from './callback.js';
import { needsPassword, startsWithCredentials } from './followup-data.js';
import { loginAccepted, refuseLogin } from './login.js';
import { notificationUriOf } from './notification.js';
import {
  failAfterRefusal,
  failFromBank,
  keepAuthorisationReferences,
  moveToExecution,
  reconcile,
  startReconciling,
} from './reconciliation.js';
import { BANK_UNAVAILABLE, CONTINUE, REFUSED, STOP, type StepResult } from './step-result.js';

function keepAuthorisation(run: FlowRun, result: AuthorisationResult): void {
  run.next = result.next;
  keepAuthorisationReferences(run, result);
  run.setState({
    authorisation: {
      ...(result.scaApproach === undefined ? {} : { scaApproach: result.scaApproach }),
      ...(result.chosenScaMethod === undefined ? {} : { chosenScaMethod: result.chosenScaMethod }),
      ...(result.challenge === undefined ? {} : { challenge: result.challenge }),
    },
  });
}

/**
 * PAYMENT_CONSENT_REQUIRED_CHECK_PENDING, as the engine finds it: with the bank's next step from the registration in
 * hand (`run.next`), or resumed without it (a later request, a job).
 */
export async function resumePaymentConsent(run: FlowRun): Promise<StepResult> {
  if (
    run.next === undefined &&
    run.state.bank?.payment !== undefined &&
    run.state.authorisation?.reference === undefined &&
    startsWithCredentials(run)
  ) {
    // The bank holds the payment; its authorisation is started with the password (embedded, registered with the
    // login id) or the login id (decoupled). Without it in hand the payer types it again (`FlowEngine.awaitsLogin`).
    if (needsPassword(run.bank())) run.next = { kind: 'start-authorisation', needs: 'psu-authentication' };
    else if (run.loginId() !== undefined) run.next = { kind: 'start-authorisation', needs: 'psu-identification' };
    else return STOP;
  }
  // A redirect bank's payer not yet sent to the bank (a run died before its commit) is led there now.
  run.next ??= redirectResumed(run);
  // Resumed without the bank's answer in hand (it is not kept): only the bank can tell what is next.
  return run.next === undefined ? startReconciling(run) : checkPaymentConsent(run);
}

/** Runs the bank's next steps that need nothing from the payer, then stops where the payer must act. */
export async function checkPaymentConsent(run: FlowRun): Promise<StepResult> {
  const bankPayment = run.state.bank?.payment;
  if (bankPayment === undefined) throw new Error('Phase 6 without a bank payment');
  for (let step = 0; step < 5; step += 1) {
    const next = run.next ?? { kind: 'wait' as const };
    switch (next.kind) {
      case 'redirect':
        run.setState({ authorisation: { bankRedirectUrl: next.url } });
        // Already there when the payer authorises again (`authoriseAgain`): the link is new, the status the same.
        if (run.status !== 'PAYMENT_CONSENT_REDIRECT_PENDING') run.enter('PAYMENT_CONSENT_REDIRECT_PENDING');
        return { kind: 'redirect', url: next.url };
      case 'start-authorisation':
      case 'authenticate': {
        const loginId = run.loginId();
        const password = run.secrets.password;
        const wantsPassword = next.kind === 'authenticate' || next.needs === 'psu-authentication';
        if (wantsPassword && password === undefined) {
          // The password of an earlier request is gone (it is never kept), for instance after a bank error on the
          // login: the payer types it again on our page (`awaitsLogin`), nothing is recorded meanwhile.
          return STOP;
        }
        const psu = { ...(loginId === undefined ? {} : { id: loginId }), ...(wantsPassword && password !== undefined ? { password } : {}) };
        const authorisation = run.state.authorisation?.reference;
        const context = run.callContext();
        // A start still open from an earlier run (its answer lost, the payment unauthorised at the bank since).
        const earlierStartUnanswered = run.state.reconciliation?.openCall?.operation === 'startAuthorisation';
        const starts = !(next.kind === 'authenticate' && authorisation !== undefined);
        // Made before the call, so its durable step commits the address the bank may notify at once.
        const notificationUri = starts ? notificationUriOf(run) : undefined;
        const call: BankCall<AuthorisationResult> =
          !starts && authorisation !== undefined
            ? await run.send('updatePsuAuthentication', () =>
                run.embedded().updatePsuAuthentication({ context, resource: bankPayment, authorisation, psu }),
              )
            : await run.send('startAuthorisation', () => {
                const connector = run.connector();
                // Redirect banks may send the payer back from this authorisation: the registration's callback, or a new one.
                const returnAddress = connector.profile.scaApproach === 'REDIRECT' ? callbackOfRun(run, 'payment') : undefined;
                return connector.startAuthorisation({
                  context,
                  payment: bankPayment,
                  psu,
                  ...(returnAddress === undefined ? {} : { returnAddress }),
                  ...(earlierStartUnanswered ? { earlierStartUnanswered } : {}),
                  ...(notificationUri === undefined ? {} : { notificationUri }),
                });
              });
        if (!call.ok) {
          if (!call.definite) return startReconciling(run);
          if (wantsPassword && call.code === 'PSU_AUTHENTICATION_FAILED')
            return refuseLogin(run, () => run.fail('PSU_AUTHENTICATION_FAILED'));
          const code = call.code;
          return failAfterRefusal(run, () => run.fail(code));
        }
        if (wantsPassword) loginAccepted(run);
        keepAuthorisation(run, call.value);
        continue;
      }
      case 'select-sca-method':
        // The payer's choice is sent through the embedded steps: a connector without them cannot go on.
        run.embedded();
        run.setState({ authorisation: { scaMethods: next.methods.map(toPlainMethod) } });
        run.enter('PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING');
        run.enter('PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING');
        return STOP;
      case 'authorise-transaction':
        run.embedded();
        run.setState({
          authorisation: {
            ...(next.method === undefined ? {} : { chosenScaMethod: toPlainMethod(next.method) }),
            ...(next.challenge === undefined ? {} : { challenge: next.challenge }),
          },
        });
        run.enter('PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING');
        run.enter('PAYMENT_CONSENT_REDIRECT_PENDING');
        return STOP;
      case 'wait': {
        // Only a sandbox bank's approval page is linked from ours (the page says it stands in for the bank's app).
        if (next.approvalUrl !== undefined && run.payment.environment === 'sandbox')
          run.setState({ authorisation: { decoupledAppUrl: next.approvalUrl } });
        run.setState({ authorisation: { scaApproach: run.state.authorisation?.scaApproach ?? 'DECOUPLED' } });
        run.enter('PAYMENT_CONSENT_REDIRECT_PENDING');
        // The payer acts in the bank's app: the job (and our waiting page) ask the bank until it is decided.
        run.scheduleJob('bank-status', new Date(run.context.now().getTime() + 1000));
        return STOP;
      }
      case 'authorised':
        moveToExecution(run);
        return STOP;
      case 'failed':
        run.fail('SCA_FAILED');
        return CONTINUE;
    }
  }
  throw new Error('The bank kept asking for steps without the payer');
}

function toPlainMethod(method: ScaMethod): ScaMethod {
  return {
    id: method.id,
    type: method.type,
    ...(method.name === undefined ? {} : { name: method.name }),
    ...(method.explanation === undefined ? {} : { explanation: method.explanation }),
  };
}

/**
 * A start of the authorisation with the payer's password whose answer was lost, the bank's payment still unauthorised:
 * the bank may have taken the password all the same. Its list of the payment's authorisations tells (the connector's
 * `findAuthorisation`): one past the password waiting for the code is adopted, and the payer is asked for the code
 * only, never for the password again (a second authorisation); one already finalised goes on to execution. Anything
 * else (none listed, the password not taken, a method still to choose, which the bank's status cannot offer) leaves the
 * decision to the caller: undefined. A bank that cannot answer the list is asked again later, the same way.
 */
export async function adoptStartedAuthorisation(run: FlowRun): Promise<StepResult | undefined> {
  const bankPayment = run.state.bank?.payment;
  const find = run.connector().embedded?.findAuthorisation;
  if (bankPayment === undefined || find === undefined || run.state.reconciliation?.openCall?.operation !== 'startAuthorisation')
    return undefined;
  const found = await callBank(() => find({ context: run.callContext(), resource: bankPayment }));
  if (!found.ok || found.value === undefined) return undefined;
  const { next } = found.value;
  if (next.kind !== 'authorise-transaction' && next.kind !== 'authorised') return undefined;
  run.log.info(
    { paymentId: run.payment.id, requestId: run.requestId, scaStatus: found.value.scaStatus.code },
    'the bank took the login whose answer was lost: its authorisation is adopted',
  );
  const path = pathTo(run.status, 'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING');
  if (path === undefined) return undefined;
  for (const status of path) run.enter(status);
  run.setState({
    reconciliation: { openCall: undefined, reconciling: undefined },
    authorisation: { scaApproach: run.state.authorisation?.scaApproach ?? run.profile().scaApproach },
  });
  loginAccepted(run);
  keepAuthorisation(run, found.value);
  return checkPaymentConsent(run);
}

/**
 * Where a redirect bank's payer goes when the payment is found held at the bank, unauthorised, and the payer was never
 * sent there (a run died between the registration and its commit of the redirect): to the bank's page the
 * registration gave (stored with its answer), or, without one, through a new start of the authorisation. The payer is
 * then at PAYMENT_CONSENT_REDIRECT_PENDING with the flow's expiry, which withdraws the payment at the bank if they
 * never come: a payment with a future either way. Undefined for other banks.
 */
export function redirectResumed(run: FlowRun): NextScaStep | undefined {
  if (run.state.bank?.payment === undefined || run.profile().scaApproach !== 'REDIRECT') return undefined;
  const url = run.state.authorisation?.bankRedirectUrl;
  return url === undefined ? { kind: 'start-authorisation', needs: 'nothing' } : { kind: 'redirect', url };
}

/** The payer chose an SCA method on our page (already checked to be one offered). */
export async function chooseScaMethod(run: FlowRun, method: ScaMethod): Promise<StepResult> {
  const bankPayment = run.state.bank?.payment;
  const authorisation = run.state.authorisation?.reference;
  if (bankPayment === undefined || authorisation === undefined) throw new Error('No authorisation to choose a method for');
  const chosen = await run.send('selectScaMethod', () =>
    run.embedded().selectScaMethod({ context: run.callContext(), resource: bankPayment, authorisation, methodId: method.id }),
  );
  // Choosing a method authorises nothing, so an unreachable bank only means: choose again.
  if (!chosen.ok && !chosen.definite) return BANK_UNAVAILABLE;
  run.enter('PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING');
  if (!chosen.ok) {
    const code = chosen.code;
    return failAfterRefusal(run, () => run.fail(code));
  }
  keepAuthorisation(run, chosen.value);
  run.setState({ authorisation: { chosenScaMethod: chosen.value.chosenScaMethod ?? method, scaMethods: undefined } });
  if (chosen.value.next.kind !== 'authorise-transaction') {
    run.fail('SCA_FAILED');
    return CONTINUE;
  }
  run.enter('PAYMENT_CONSENT_REDIRECT_PENDING');
  return STOP;
}

/**
 * The payer typed the one-time code on our page. A wrong code with attempts left records nothing but the count; a
 * code lost in a bank error is settled by the bank's SCA status (`afterUnansweredCode`).
 */
export async function submitCode(run: FlowRun, code: string): Promise<StepResult> {
  const bankPayment = run.state.bank?.payment;
  const authorisation = run.state.authorisation?.reference;
  if (bankPayment === undefined || authorisation === undefined) throw new Error('No authorisation to send the code to');
  run.setState({ authorisation: { codeNotProcessed: undefined } });
  const context = run.callContext();
  const sent = await run.send('authoriseTransaction', () =>
    run.embedded().authoriseTransaction({ context, resource: bankPayment, authorisation, scaAuthenticationData: code }),
  );
  if (!sent.ok && !sent.definite) return afterUnansweredCode(run, 'in-request');
  if (!sent.ok && sent.code === 'SCA_FAILED') {
    const sca = await callBank(() => run.connector().completeAuthorisation({ context, payment: bankPayment, authorisation }));
    if (!(sca.ok && sca.value.scaStatus.state === 'failed')) {
      // The bank still takes codes for this authorisation: the payer tries again, unless our count says that was
      // the last one the bank allows (then the payment is withdrawn there and fails as below).
      const failed = (run.state.authorisation?.failedCodes ?? 0) + 1;
      if (failed < run.profile().oneTimeCodeAttempts) {
        run.setState({ authorisation: { failedCodes: failed } });
        return REFUSED;
      }
      run.enter('PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING');
      return failAfterRefusal(run, () => run.fail('SCA_FAILED'), { withdraw: true });
    }
  }
  run.enter('PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING');
  if (!sent.ok) {
    const code = sent.code;
    return failAfterRefusal(run, () => run.fail(code));
  }
  keepAuthorisation(run, sent.value);
  if (sent.value.next.kind === 'authorised') {
    moveToExecution(run);
    return STOP;
  }
  if (sent.value.next.kind === 'failed') {
    run.fail('SCA_FAILED');
    return CONTINUE;
  }
  // Anything else (the bank still working on it): ask it again in the background.
  return startReconciling(run);
}

/**
 * The answer to the payer's one-time code was lost (timeout, 5xx). The bank's SCA status tells what became of it:
 * finalised → execution; failed → the failure; still waiting for a code → the code did not reach the bank, so the
 * payer types it again (at once, or on the next page view when the bank-status job found it out). Nothing is
 * recorded while the bank cannot say: the payment waits at PAYMENT_CONSENT_REDIRECT_PENDING with the job asking,
 * because its processing status would leave no way back to the code form.
 */
export async function afterUnansweredCode(run: FlowRun, where: 'in-request' | 'in-background'): Promise<StepResult> {
  const bankPayment = run.state.bank?.payment;
  const authorisation = run.state.authorisation?.reference;
  if (bankPayment === undefined || authorisation === undefined) throw new Error('No authorisation to ask about');
  const sca = await callBank(() =>
    run.connector().completeAuthorisation({ context: run.callContext(), payment: bankPayment, authorisation }),
  );
  if (!sca.ok) return sca.definite ? reconcileCode(run) : startReconciling(run);
  keepAuthorisationReferences(run, sca.value);
  switch (sca.value.scaStatus.state) {
    case 'finalised':
    case 'exempted':
      moveToExecution(run);
      return STOP;
    case 'failed':
      return reconcileCode(run);
    case 'unconfirmed':
    case 'unknown':
      return startReconciling(run);
    case 'received':
    case 'psu-identified':
    case 'psu-authenticated':
    case 'sca-method-selected':
    case 'started':
      // Still waiting for a code. A bank may still be working on a code whose answer we gave up on: only once it can
      // no longer be (the settle window) was the code not taken; until then the page waits and the job asks again.
      if (!run.openCallSettled()) return startReconciling(run);
      run.setState({ reconciliation: { openCall: undefined } });
      run.log.info(
        { paymentId: run.payment.id, requestId: run.requestId },
        'the bank did not take the one-time code; the payer types it again',
      );
      if (where === 'in-request') return { kind: 'retry', notice: 'codeNotProcessed' };
      run.setState({ reconciliation: { reconciling: undefined }, authorisation: { codeNotProcessed: true } });
      return STOP;
  }
}

/** The bank's payment status decides (a refusal with its reason, or execution). */
async function reconcileCode(run: FlowRun): Promise<StepResult> {
  const outcome = await reconcile(run);
  if (outcome === 'authorise-again') return authoriseAgain(run);
  return outcome === 'moved' ? STOP : startReconciling(run);
}

/**
 * The payer came back from the bank's pages to our callback, the run at PAYMENT_CONSENT_REDIRECT_PENDING. Back
 * through the "not OK" address, the return is processed from CALLBACK_PROCESSING (the payer gave up: the payment is
 * withdrawn at the bank unless it moved on). Otherwise the completion's answer decides the path (through
 * CALLBACK_PROCESSING to execution or to the failure), and an open answer records CALLBACK_PROCESSING with
 * reconciliation — except when the connector holds what it needs to send the completion again (UK: the payer's
 * single-use code, its exchange unanswered): only that retry can tell whether the bank needs the payer again (a code
 * the lost exchange spent), so, like a lost login or code, the payment waits at PAYMENT_CONSENT_REDIRECT_PENDING,
 * the payer's page waiting, while the bank-status job sends it again.
 */
export async function processPaymentReturn(run: FlowRun): Promise<StepResult> {
  if (run.returnedNok) run.enter('PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING');
  const outcome = await reconcile(run, { payerGaveUp: run.returnedNok });
  if (outcome === 'moved') return STOP;
  if (outcome === 'authorise-again') return authoriseAgain(run);
  const heldForRetry =
    run.state.reconciliation?.openCall?.operation === 'completeAuthorisation' && run.state.authorisation?.heldSecret !== undefined;
  if (run.status === 'PAYMENT_CONSENT_REDIRECT_PENDING' && !heldForRetry) run.enter('PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING');
  return startReconciling(run);
}

/**
 * The bank spent the payment's authorisation without a payment and holds a new resource for the payer to authorise
 * (reconciliation's `authorise-again`; UK: the payer's code was spent by an exchange whose answer was lost, and a
 * payment consent cannot be authorised twice, so the connector made a new consent of the same payment). The payer is
 * asked again because the bank really needs it: the authorisation of the new resource starts (a new link to the
 * bank's pages, a new callback) and the payment waits at PAYMENT_CONSENT_REDIRECT_PENDING as before, with its expiry.
 * From a processing status there is no way back to the bank's pages (forward only): nothing can execute there (the
 * spent authorisation was never used, the new resource never authorised), so the step fails.
 */
export async function authoriseAgain(run: FlowRun): Promise<StepResult> {
  run.setState({
    authorisation: { reference: undefined, bankRedirectUrl: undefined, heldSecret: undefined },
    reconciliation: { openCall: undefined, reconciling: undefined },
  });
  if (run.status !== 'PAYMENT_CONSENT_REDIRECT_PENDING') {
    run.log.warn(
      { paymentId: run.payment.id, requestId: run.requestId, detailedStatus: run.status },
      'the bank spent the authorisation without a payment and the payer cannot be led back from here',
    );
    run.fail('BANK_UNAVAILABLE');
    return CONTINUE;
  }
  run.log.info(
    { paymentId: run.payment.id, requestId: run.requestId },
    'the bank spent the authorisation without a payment; the payer authorises again',
  );
  run.next = { kind: 'start-authorisation', needs: 'nothing' };
  return checkPaymentConsent(run);
}

/** Cancel on our page while the bank holds the payment: withdraw it there first (never fail what may execute). */
export async function cancelHeldPayment(run: FlowRun): Promise<StepResult> {
  const outcome = await reconcile(run, { payerGaveUp: true });
  if (outcome === 'moved') return STOP;
  if (outcome === 'unreachable') return BANK_UNAVAILABLE;
  return STOP;
}

export { failFromBank };
