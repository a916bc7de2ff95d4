/** Phase 6 (embedded): the one-time code. A wrong code with attempts left shows the page again with the error. */
import { submitCode } from '../../flow/steps/payment-consent.js';
import { STOP } from '../../flow/steps/step-result.js';
import { payerStep } from '../step.js';
import { scaMethodChoice } from '../sca-method/step.js';
import { oneTimeCodePage, type OneTimeCodeView } from './page.js';

const step = {
  name: 'one-time-code',
  waitsIn: ['SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING', 'PAYMENT_CONSENT_REDIRECT_PENDING'] as const,
};

export const oneTimeCodeStep = payerStep<OneTimeCodeView>({
  ...step,
  view: ({ state }) => {
    const method = state.chosenScaMethod === undefined ? undefined : scaMethodChoice(state.chosenScaMethod);
    const additional = state.challenge?.additionalInformation;
    return {
      methodType: method?.type,
      methodText: method?.bankText,
      challengeText: additional === undefined || additional.trim() === '' ? undefined : additional,
      numeric: state.challenge?.otpFormat === 'integer',
      maxLength: state.challenge?.otpMaxLength ?? 64,
    };
  },
  standingErrors: ({ engine, payment }) => {
    const left = engine.refusals(payment).code;
    return left === undefined ? [] : [{ field: 'otp', message: 'wrongCode', attemptsLeft: left }];
  },
  // A code lost in a bank error that the bank's SCA status shows was not taken (found in the background).
  standingNotice: ({ state }) => (state.codeNotProcessed === true ? 'codeNotProcessed' : undefined),
  page: oneTimeCodePage,
  actions: {
    code: ({ engine, payment, form, actor }) =>
      engine.perform(payment, ['PAYMENT_CONSENT_REDIRECT_PENDING'], actor, async (run) => {
        const trimmed = (form('otp') ?? '').trim();
        const maxLength = Math.min(run.state.challenge?.otpMaxLength ?? 64, 64);
        const format = run.state.challenge?.otpFormat === 'integer' ? /^[0-9]+$/ : /^[\x21-\x7e]+$/;
        if (trimmed === '') return { kind: 'invalid', errors: [{ field: 'otp', message: 'required' }] };
        if (trimmed.length > maxLength || !format.test(trimmed))
          return { kind: 'invalid', errors: [{ field: 'otp', message: 'otpFormat' }] };
        if (run.state.scaApproach === 'DECOUPLED' || run.state.bankRedirectUrl !== undefined) return STOP;
        return submitCode(run, trimmed);
      }),
  },
});
