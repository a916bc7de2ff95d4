/** Phase 6 (embedded): the one-time code. A wrong code with attempts left shows the page again with the error. */
import { enterCode } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import { scaMethodChoice } from '../sca-method/step.js';
import { oneTimeCodePage, type OneTimeCodeView } from './page.js';

export const oneTimeCodeStep = payerStep<OneTimeCodeView>({
  name: 'one-time-code',
  waitsIn: statusesShownOn('one-time-code'),
  view: ({ state }) => {
    const chosen = state.authorisation?.chosenScaMethod;
    const method = chosen === undefined ? undefined : scaMethodChoice(chosen);
    const additional = state.authorisation?.challenge?.additionalInformation;
    return {
      methodType: method?.type,
      methodText: method?.bankText,
      challengeText: additional === undefined || additional.trim() === '' ? undefined : additional,
      numeric: state.authorisation?.challenge?.otpFormat === 'integer',
      maxLength: state.authorisation?.challenge?.otpMaxLength ?? 64,
    };
  },
  standingErrors: ({ engine, payment }) => {
    const left = engine.refusals(payment).code;
    return left === undefined ? [] : [{ field: 'otp', message: 'wrongCode', attemptsLeft: left }];
  },
  // A code lost in a bank error that the bank's SCA status shows was not taken (found in the background).
  standingNotice: ({ state }) => (state.authorisation?.codeNotProcessed === true ? 'codeNotProcessed' : undefined),
  page: oneTimeCodePage,
  actions: {
    code: ({ engine, payment, form, actor }) => enterCode(engine, payment, { otp: form('otp') }, actor),
  },
});
