/** Phase 1 (hosted mode): the payer picks a bank (see page.ts for what the list shows). */
import { createHash } from 'node:crypto';
import type { Bank } from '../../providers/catalogue.js';
import { iconUrlOf } from '../../providers/routes.js';
import { chooseBank } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { localeFromAcceptLanguage } from '../../i18n/locale.js';
import { payerStep, type StepInput } from '../step.js';
import { countryFromLanguage } from './country.js';
import { bankSelectionPage, type BankChoice, type BankSelectionView } from './page.js';

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

/**
 * The cookie remembering the bank a payer chose last for a client, on this browser: named by a hash of the client's
 * id (the name says nothing of the shop), holding the bank's catalogue id only, sent to our payer pages only.
 */
export const LAST_BANK_COOKIE_PREFIX = 'pis_bank_';
export const LAST_BANK_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

export function lastBankCookieName(clientId: string): string {
  return `${LAST_BANK_COOKIE_PREFIX}${createHash('sha256').update(clientId).digest('base64url').slice(0, 16)}`;
}

/** The country the list opens on: the client's default, else the payer's region or language, else the only one. */
function preselectedCountry({ payment, acceptLanguage }: StepInput, countries: readonly string[]): string | undefined {
  const preferred = payment.providerPreferences?.countryCodes?.default;
  if (preferred !== undefined && countries.includes(preferred)) return preferred;
  const payerLanguage = payment.locale ?? localeFromAcceptLanguage(acceptLanguage) ?? 'en';
  return countryFromLanguage(countries, payerLanguage, acceptLanguage) ?? (countries.length === 1 ? countries[0] : undefined);
}

async function bankSelectionView(input: StepInput): Promise<BankSelectionView> {
  const { payment, engine, query, cookie } = input;
  const banks = engine.banksFor(payment);
  const preferences = payment.providerPreferences?.countryCodes;
  const countries = [...new Set(preferences?.list ?? banks.map((bank) => bank.countryCode))];
  const asked = query('country');
  const country =
    asked === 'ALL' ? undefined : asked !== undefined && countries.includes(asked) ? asked : preselectedCountry(input, countries);
  const search = (query('q') ?? '').trim().slice(0, 100);
  const failing = await input.failingBanks();
  const choice = (bank: Bank): BankChoice => ({
    id: bank.id,
    name: bank.name,
    countryCode: bank.countryCode,
    iconPath: new URL(iconUrlOf('http://x', bank.id)).pathname,
    searchText: searchTextOf(bank),
    problems: failing.has(bank.id),
  });
  const shown = banks.filter(
    (bank: Bank) => (country === undefined || bank.countryCode === country) && (search === '' || searchTextOf(bank).includes(fold(search))),
  );
  // Banks failing now come last everywhere and are never among the popular ones; the rest by name.
  const byName = (a: Bank, b: Bank): number => Number(failing.has(a.id)) - Number(failing.has(b.id)) || a.name.localeCompare(b.name);
  const remembered = cookie(lastBankCookieName(payment.clientId));
  const lastBank = search === '' ? banks.find((bank) => bank.id === remembered) : undefined;
  // Each bank once: the remembered one, else among the popular ones, else among the others.
  const popular = shown
    .filter((bank) => bank.popularRank !== undefined && !failing.has(bank.id) && bank !== lastBank)
    .sort((a, b) => (a.popularRank ?? 0) - (b.popularRank ?? 0) || a.name.localeCompare(b.name));
  return {
    countries,
    country,
    search,
    lastBank: lastBank === undefined ? undefined : choice(lastBank),
    popular: popular.map(choice),
    banks: shown
      .filter((bank) => bank !== lastBank && !popular.includes(bank))
      .sort(byName)
      .map(choice),
  };
}

export const bankSelectionStep = payerStep<BankSelectionView>({
  name: 'bank-selection',
  waitsIn: statusesShownOn('bank-selection'),
  offersHandover: true,
  view: bankSelectionView,
  page: bankSelectionPage,
  actions: {
    'select-bank': async ({ engine, payment, form, actor, remember }) => {
      const { outcome, chosen } = await chooseBank(engine, payment, { providerId: form('providerId') }, actor);
      // Remembered for this client's next payment on this browser (docs/hosted-pages.md, "The bank list").
      if (chosen !== undefined)
        remember({ name: lastBankCookieName(payment.clientId), value: chosen.id, path: '/pay', maxAgeSeconds: LAST_BANK_MAX_AGE_SECONDS });
      return outcome;
    },
  },
});
