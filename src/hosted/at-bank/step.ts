/** A redirect status while the bank's page waits for the payer: a link to go on there. */
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import { atBankPage, type AtBankView } from './page.js';

export const atBankStep = payerStep<AtBankView>({
  name: 'at-bank',
  waitsIn: statusesShownOn('at-bank'),
  shows: ({ state }) => state.authorisation?.bankRedirectUrl !== undefined,
  view: ({ state, payment }) => ({
    bankUrl: state.authorisation?.bankRedirectUrl ?? '',
    purpose: payment.detailedStatus === 'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING' ? 'consent' : 'payment',
  }),
  offersHandover: true,
  page: atBankPage,
  actions: {},
});
