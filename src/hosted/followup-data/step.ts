/** Phase 2: what the bank needs and the request lacked (login id, password, sender IBAN). */
import { giveFollowupData } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import { loginRefusal } from '../sender-login/step.js';
import { followupDataPage, type FollowupDataView } from './page.js';

export const followupDataStep = payerStep<FollowupDataView>({
  name: 'followup-data',
  waitsIn: statusesShownOn('followup-data'),
  view: ({ engine, payment }) => ({ needs: engine.credentialFields(payment) }),
  standingErrors: loginRefusal,
  page: followupDataPage,
  actions: {
    details: ({ engine, payment, form, actor }) =>
      giveFollowupData(engine, payment, { loginId: form('loginId'), password: form('password'), iban: form('iban') }, actor),
  },
});
