/** Phase 1 (hosted mode): the payer picks a bank (see page.ts for what the list shows). */
import type { Bank } from '../../providers/catalogue.js';
import { iconUrlOf } from '../../providers/routes.js';
import { selectBank } from '../../flow/steps/provider-selection.js';
import { payerStep, statusesOf, type StepInput } from '../step.js';
import { bankSelectionPage, type BankSelectionView } from './page.js';

/** Lower case without accents, so "credit" finds "Crédit" (the page's script folds the same way). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** What a search matches: the bank's name and its group's, so "Baltic" finds every bank of the Baltic group. */
function searchTextOf(bank: Bank): string {
  return fold(bank.groupName === undefined ? bank.name : `${bank.name} ${bank.groupName}`);
}

/** Popular banks first (lowest rank first), then the others by name. */
function byPopularityThenName(a: Bank, b: Bank): number {
  const rank = (bank: Bank): number => bank.popularRank ?? Number.POSITIVE_INFINITY;
  return rank(a) - rank(b) || a.name.localeCompare(b.name);
}

function bankSelectionView({ payment, engine, query }: StepInput): BankSelectionView {
  const banks = engine.banksFor(payment);
  const preferences = payment.providerPreferences?.countryCodes;
  const countries = [...new Set(preferences?.list ?? banks.map((bank) => bank.countryCode))];
  const asked = query('country');
  const country =
    asked === 'ALL'
      ? undefined
      : asked !== undefined && countries.includes(asked)
        ? asked
        : (preferences?.default ?? (countries.length === 1 ? countries[0] : undefined));
  const search = (query('q') ?? '').trim().slice(0, 100);
  const shown = banks
    .filter(
      (bank: Bank) =>
        (country === undefined || bank.countryCode === country) && (search === '' || searchTextOf(bank).includes(fold(search))),
    )
    .sort(byPopularityThenName);
  return {
    countries,
    country,
    search,
    banks: shown.map((bank) => ({
      id: bank.id,
      name: bank.name,
      countryCode: bank.countryCode,
      iconPath: new URL(iconUrlOf('http://x', bank.id)).pathname,
      searchText: searchTextOf(bank),
    })),
  };
}

const step = {
  name: 'bank-selection',
  waitsIn: ['PROVIDER_SELECTION_REDIRECT_PENDING'] as const,
};

export const bankSelectionStep = payerStep<BankSelectionView>({
  ...step,
  view: bankSelectionView,
  page: bankSelectionPage,
  actions: {
    'select-bank': ({ engine, payment, form, actor }) =>
      engine
        .perform(payment, statusesOf(step, payment), actor, async (run) => {
          const bank = engine.banksFor(run.payment).find((candidate) => candidate.id === form('providerId'));
          if (bank === undefined) return { kind: 'invalid', errors: [{ field: 'providerId', message: 'chooseOne' }] };
          selectBank(run, bank);
          return engine.advance(run);
        })
        .then((outcome) =>
          // A bank that asks for an account-information consent first: our page says "you will log in twice" before
          // the payer leaves for the bank's first login.
          outcome.kind === 'redirect' && engine.twoLoginsAhead(outcome.payment) ? { kind: 'next', payment: outcome.payment } : outcome,
        ),
  },
});
