/** Phase 4: the payer chooses the sending account among the eligible ones the bank listed. */
import { selectAccount } from '../../flow/steps/sender-account.js';
import { payerStep, statusesOf } from '../step.js';
import { accountSelectionPage, type AccountSelectionView } from './page.js';

const step = { name: 'account-selection', waitsIn: ['SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING'] as const };

export const accountSelectionStep = payerStep<AccountSelectionView>({
  ...step,
  view: ({ state }) => ({ accounts: state.accounts ?? [] }),
  page: accountSelectionPage,
  actions: {
    account: ({ engine, payment, form, actor }) =>
      engine.perform(payment, statusesOf(step, payment), actor, async (run) => {
        const account = (run.state.accounts ?? []).find((candidate) => candidate.iban === form('iban'));
        if (account === undefined) return { kind: 'invalid', errors: [{ field: 'accountIban', message: 'chooseOne' }] };
        selectAccount(run, account);
        return engine.advance(run);
      }),
  },
});
