/** Phase 4: the payer chooses the sending account among the eligible ones the bank listed. */
import { chooseAccount } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import { accountSelectionPage, type AccountSelectionView } from './page.js';

export const accountSelectionStep = payerStep<AccountSelectionView>({
  name: 'account-selection',
  waitsIn: statusesShownOn('account-selection'),
  view: ({ state }) => ({ accounts: state.senderAccount?.accounts ?? [] }),
  page: accountSelectionPage,
  actions: {
    account: ({ engine, payment, form, actor }) => chooseAccount(engine, payment, { iban: form('iban') }, actor),
  },
});
