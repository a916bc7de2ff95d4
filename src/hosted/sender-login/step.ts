/**
 * The payer logs in to an embedded bank: phase 3, and phase 6 (PAYMENT_CONSENT_REQUIRED_CHECK_PENDING) when the
 * password of an earlier request is gone after a bank error took the answer to the login (`engine.awaitsLogin`).
 */
import type { DetailedStatus } from '../../domain/detailed-status.js';
import type { InputError } from '../../flow/engine.js';
import { credentialErrors, missingData } from '../../flow/steps/followup-data.js';
import { submitSenderLogin } from '../../flow/steps/sender-authorization.js';
import { payerStep, type StepInput } from '../step.js';
import { senderLoginPage, type SenderLoginView } from './page.js';

/** A login the bank refused: every view of a login form says so, with the attempts left. */
export function loginRefusal({ engine, payment }: StepInput): readonly InputError[] {
  const left = engine.refusals(payment).login;
  return left === undefined ? [] : [{ field: 'form', message: 'wrongLogin', attemptsLeft: left }];
}

const LOGIN: DetailedStatus = 'SENDER_AUTHORIZATION_REDIRECT_PENDING';
const LOGIN_AGAIN: DetailedStatus = 'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING';

export const senderLoginStep = payerStep<SenderLoginView>({
  name: 'sender-login',
  waitsIn: [LOGIN, LOGIN_AGAIN],
  shows: ({ engine, payment }) => payment.detailedStatus === LOGIN || engine.awaitsLogin(payment),
  view: ({ engine, payment, state }) => ({
    needs: engine.credentialFields(payment),
    // The login's answer was lost while the bank holds the payment (a refusal says so itself).
    again: state.bankPayment !== undefined && engine.refusals(payment).login === undefined,
  }),
  standingErrors: loginRefusal,
  page: senderLoginPage,
  actions: {
    details: ({ engine, payment, form, actor }) =>
      engine.perform(payment, engine.awaitsLogin(payment) ? [LOGIN, LOGIN_AGAIN] : [LOGIN], actor, async (run) => {
        const missing = missingData(run);
        const credentials = { loginId: form('loginId'), password: form('password') };
        const errors = credentialErrors(credentials, missing);
        if (errors.length > 0) return { kind: 'invalid', errors };
        run.secrets = {
          ...(missing.loginId ? { loginId: (credentials.loginId ?? '').trim() } : {}),
          ...(missing.password ? { password: credentials.password ?? '' } : {}),
        };
        if (run.status === LOGIN) {
          const result = await submitSenderLogin(run);
          return result.kind === 'continue' ? engine.advance(run) : result;
        }
        return engine.advance(run);
      }),
  },
});
