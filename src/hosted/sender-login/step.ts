/**
 * The payer logs in to an embedded bank: phase 3, and phase 6 (PAYMENT_CONSENT_REQUIRED_CHECK_PENDING) when the
 * password of an earlier request is gone after a bank error took the answer to the login (`engine.awaitsLogin`).
 */
import type { DetailedStatus } from '../../domain/detailed-status.js';
import type { InputError } from '../../flow/engine.js';
import { logIn } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep, type StepInput } from '../step.js';
import { senderLoginPage, type SenderLoginView } from './page.js';

/** A login the bank refused: every view of a login form says so, with the attempts left. */
export function loginRefusal({ engine, payment }: StepInput): readonly InputError[] {
  const left = engine.refusals(payment).login;
  return left === undefined ? [] : [{ field: 'form', message: 'wrongLogin', attemptsLeft: left }];
}

const LOGIN: DetailedStatus = 'SENDER_AUTHORIZATION_REDIRECT_PENDING';

export const senderLoginStep = payerStep<SenderLoginView>({
  name: 'sender-login',
  waitsIn: statusesShownOn('sender-login'),
  shows: ({ engine, payment }) => payment.detailedStatus === LOGIN || engine.awaitsLogin(payment),
  view: ({ engine, payment, state }) => ({
    needs: engine.credentialFields(payment),
    // The login's answer was lost while the bank holds the payment (a refusal says so itself).
    again: state.bank?.payment !== undefined && engine.refusals(payment).login === undefined,
  }),
  standingErrors: loginRefusal,
  page: senderLoginPage,
  actions: {
    details: ({ engine, payment, form, actor }) => logIn(engine, payment, { loginId: form('loginId'), password: form('password') }, actor),
  },
});
