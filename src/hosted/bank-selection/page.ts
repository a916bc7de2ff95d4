/**
 * Phase 1 (hosted mode): the bank list. A search box first, then the country (the client's `countryCodes.default`,
 * else the payer's region or language, preselected: bank-selection/country.ts); then the bank this browser chose
 * last for this client ("Your last bank", from a first-party cookie the page says it keeps), the popular banks
 * (the catalogue's `popularRank`) and the other banks by name ("All banks (A–Z)" when there is no section before
 * them), each under a heading saying the order; each bank once. Banks failing now
 * (the console's "Failing now") are marked "having problems" and sorted last, never hidden. With every country
 * shown, the banks by name are one collapsed group per country, so a phone's list stays short.
 *
 * A GET form filters on the server, which works without script; our script (`filter-script.ts`) filters as the
 * payer types and applies a new country at once. Bank groups appear as their subsidiaries, found by the group's
 * name too. Each bank is a button of one POST form (keyboard alone works).
 */
import { html, type SafeHtml } from '../html.js';
import { BANK_FILTER_SCRIPT_PATH } from './filter-script.js';
import { consentLine, countryName, csrfField, layout } from '../layout/layout.js';
import { formAction, type PageContext } from '../layout/page-context.js';

export interface BankChoice {
  readonly id: string;
  readonly name: string;
  readonly countryCode: string;
  /** Our own URL of the bank's logo. */
  readonly iconPath: string;
  /** What the page's filter matches as the payer types (folded: lower case, no accents). */
  readonly searchText: string;
  /** Failing now by the records of our calls to it: shown as having problems, sorted last. */
  readonly problems: boolean;
}

export interface BankSelectionView {
  /** The countries offered (ISO codes). */
  readonly countries: readonly string[];
  /** The country shown (undefined: all). */
  readonly country: string | undefined;
  readonly search: string;
  /** The bank this browser chose last for this client, while it may be chosen (not while searching). */
  readonly lastBank: BankChoice | undefined;
  /** The popular banks among those shown, most popular first (none failing now). */
  readonly popular: readonly BankChoice[];
  /** The other banks that match the country and the search, by name, those failing now last. */
  readonly banks: readonly BankChoice[];
}

function bankItem(context: PageContext, bank: BankChoice): SafeHtml {
  const { t } = context;
  const label = bank.problems ? t('selection.chooseProblems', { bank: bank.name }) : t('selection.choose', { bank: bank.name });
  return html`<li data-search="${bank.searchText}" data-bank="${bank.id}"><button type="submit" class="bank${bank.problems ? ' problems' : ''}" name="providerId" value="${bank.id}" aria-label="${label}"><img src="${bank.iconPath}" alt="" width="40" height="40"><span>${bank.name}${
    bank.problems ? html`<span class="bank-problems">${t('selection.problems')}</span>` : ''
  }</span></button></li>`;
}

function section(context: PageContext, id: string, heading: string, banks: readonly BankChoice[], extra: SafeHtml | string = ''): SafeHtml {
  return html`<section class="bank-group" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2><ul class="banks">${banks.map((bank) => bankItem(context, bank))}</ul>${extra}</section>`;
}

export function bankSelectionPage(context: PageContext, view: BankSelectionView): string {
  const { t, locale } = context;
  const { country, search } = view;
  const found = view.banks.length + view.popular.length > 0;
  const countries = [...view.countries].sort((a, b) => countryName(a, locale).localeCompare(countryName(b, locale), locale));
  const filters = html`<form method="get" action="${context.flowUrl}" class="filters" role="search">
<div><label for="q">${t('selection.search')}</label><input type="search" id="q" name="q" value="${search}" autocomplete="off" aria-describedby="bank-count"></div>
<div><label for="country">${t('selection.country')}</label><select id="country" name="country">
<option value="ALL"${country === undefined ? html` selected` : ''}>${t('selection.allCountries')}</option>
${countries.map((code) => html`<option value="${code}"${code === country ? html` selected` : ''}>${countryName(code, locale)}</option>`)}
</select></div>
<button type="submit" class="secondary">${t('selection.searchButton')}</button></form>`;
  // The live status the script fills as the payer types (its texts in every language come with the page).
  const status = html`<p id="bank-count" class="visually-hidden" role="status" data-none="${t('selection.noMatch')}" data-one="${t('selection.oneFound')}" data-many="${t('selection.manyFound')}"></p>`;
  const elsewhere =
    country === undefined
      ? ''
      : html`<p><a id="search-elsewhere" href="${context.flowUrl}?country=ALL&amp;q=${encodeURIComponent(search)}"${found ? html` hidden` : ''}>${t('selection.searchAllCountries')}</a></p>`;
  const remembered = html`<p class="hint">${t('selection.rememberNote', { merchant: context.merchant.name })}</p>`;
  // Every country in one list: a collapsed group per country (open while searching, or when only one has banks).
  const byCountry = countries
    .map((code) => ({ code, banks: view.banks.filter((bank) => bank.countryCode === code) }))
    .filter((group) => group.banks.length > 0);
  const allHeading = view.popular.length > 0 || view.lastBank !== undefined ? t('selection.otherBanks') : t('selection.allBanks');
  const allBanks =
    country !== undefined || byCountry.length <= 1
      ? section(context, 'all-banks', allHeading, view.banks)
      : html`<section class="bank-group" aria-labelledby="all-banks"><h2 id="all-banks">${allHeading}</h2>${byCountry.map(
          (group) =>
            html`<details class="bank-group country-group"${search === '' ? '' : html` open`}><summary>${countryName(group.code, locale)} <span class="count">(${String(group.banks.length)})</span></summary><ul class="banks">${group.banks.map((bank) => bankItem(context, bank))}</ul></details>`,
        )}</section>`;
  const list =
    !found && view.lastBank === undefined
      ? html`<p>${t('selection.noMatch')}</p>`
      : html`<form method="post" action="${formAction(context, 'select-bank')}">${csrfField(context, 'select-bank')}${
          view.lastBank === undefined ? '' : section(context, 'last-bank', t('selection.lastBank'), [view.lastBank])
        }${view.popular.length === 0 ? '' : section(context, 'popular-banks', t('selection.popular'), view.popular)}${
          view.banks.length === 0 ? '' : allBanks
        }</form>`;
  return layout(context, {
    heading: t('selection.heading'),
    body: html`${filters}${status}${list}${elsewhere}${consentLine(context)}${remembered}`,
    script: BANK_FILTER_SCRIPT_PATH,
    compactSummary: true,
  });
}
