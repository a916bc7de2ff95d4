/** Phase 2: what the bank needs and the request lacked (login id, password, sender IBAN). */
import { submitFollowupData } from '../../flow/steps/followup-data.js';
import { payerStep, statusesOf } from '../step.js';
import { loginRefusal } from '../sender-login/step.js';
import { followupDataPage, type FollowupDataView } from './page.js';

const step = { name: 'followup-data', waitsIn: ['FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING'] as const };

export const followupDataStep = payerStep<FollowupDataView>({
  ...step,
  view: ({ engine, payment }) => ({ needs: engine.credentialFields(payment) }),
  standingErrors: loginRefusal,
  page: followupDataPage,
  actions: {
    details: ({ engine, payment, form, actor }) =>
      engine.perform(payment, statusesOf(step, payment), actor, async (run) => {
        const result = submitFollowupData(run, { loginId: form('loginId'), password: form('password'), iban: form('iban') });
        return result.kind === 'continue' ? engine.advance(run) : result;
      }),
  },
});
