/**
 * The payer logs in to an embedded bank on our login page: phase 3, and phase 6 (PAYMENT_CONSENT_REQUIRED_CHECK_PENDING)
 * when the password of an earlier request is gone after a bank error took the answer to the login
 * (`FlowEngine.awaitsLogin`).
 */
import type { DetailedStatus } from '../../domain/detailed-status.js';
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { credentialErrors, missingData } from '../steps/followup-data.js';
import { submitSenderLogin } from '../steps/sender-authorization.js';
import { CONTINUE } from '../steps/step-result.js';

export interface LogInInput {
  readonly loginId: string | undefined;
  readonly password: string | undefined;
}

const LOGIN: DetailedStatus = 'SENDER_AUTHORIZATION_REDIRECT_PENDING';
const LOGIN_AGAIN: DetailedStatus = 'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING';

export function logIn(engine: FlowEngine, payment: Payment, input: LogInInput, actor: Actor): Promise<ActionOutcome> {
  // The consent check is the login page's status only while it awaits the login; otherwise it is not the payer's.
  return engine.perform(payment, engine.awaitsLogin(payment) ? [LOGIN, LOGIN_AGAIN] : [LOGIN], actor, async (run) => {
    const missing = missingData(run);
    const errors = credentialErrors(input, missing);
    if (errors.length > 0) return { kind: 'invalid', errors };
    run.secrets = {
      ...(missing.loginId ? { loginId: (input.loginId ?? '').trim() } : {}),
      ...(missing.password ? { password: input.password ?? '' } : {}),
    };
    // At the login page's own status the login is sent; at the payment consent's check the engine goes on with it.
    return run.status === LOGIN ? submitSenderLogin(run) : CONTINUE;
  });
}
