/**
 * Phase 1 (hosted mode): the bank list. Grouped by country, popular banks first; only the countries of
 * `provider.preferences.countryCodes.list` (else those of the eligible banks), `.default` preselected; a search
 * box and a country choice in a GET form, filtered on the server, which works without script. Our script
 * (`filter-script.ts`) filters as the payer types and applies a new country at once. Bank groups appear as their
 * subsidiaries, found by the group's name too. Each bank is a button of one POST form (keyboard alone works).
 */
import { html } from '../html.js';
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
}

export interface BankSelectionView {
  /** The countries offered (ISO codes). */
  readonly countries: readonly string[];
  /** The country shown (undefined: all). */
  readonly country: string | undefined;
  readonly search: string;
  /** The banks that match the country and the search. */
  readonly banks: readonly BankChoice[];
}

export function bankSelectionPage(context: PageContext, view: BankSelectionView): string {
  const { t, locale } = context;
  const { country, search } = view;
  const countries = [...view.countries].sort((a, b) => countryName(a, locale).localeCompare(countryName(b, locale), locale));
  const groups = countries
    .map((code) => ({ code, banks: view.banks.filter((bank) => bank.countryCode === code) }))
    .filter((group) => group.banks.length > 0);
  const filters = html`<form method="get" action="${context.flowUrl}" class="filters" role="search">
<div><label for="country">${t('selection.country')}</label><select id="country" name="country">
<option value="ALL"${country === undefined ? html` selected` : ''}>${t('selection.allCountries')}</option>
${countries.map((code) => html`<option value="${code}"${code === country ? html` selected` : ''}>${countryName(code, locale)}</option>`)}
</select></div>
<div><label for="q">${t('selection.search')}</label><input type="search" id="q" name="q" value="${search}" autocomplete="off" aria-describedby="bank-count"></div>
<button type="submit" class="secondary">${t('selection.searchButton')}</button></form>`;
  // The live status the script fills as the payer types (its texts in every language come with the page).
  const status = html`<p id="bank-count" class="visually-hidden" role="status" data-none="${t('selection.noMatch')}" data-one="${t('selection.oneFound')}" data-many="${t('selection.manyFound')}"></p>`;
  const elsewhere =
    country === undefined
      ? ''
      : html`<p><a id="search-elsewhere" href="${context.flowUrl}?country=ALL&amp;q=${encodeURIComponent(search)}"${groups.length === 0 ? '' : html` hidden`}>${t('selection.searchAllCountries')}</a></p>`;
  const list =
    groups.length === 0
      ? html`<p>${t('selection.noMatch')}</p>`
      : html`<form method="post" action="${formAction(context, 'select-bank')}">${csrfField(context, 'select-bank')}${groups.map(
          (
            group,
          ) => html`<section class="bank-group" aria-labelledby="country-${group.code}"><h2 id="country-${group.code}">${t('selection.banksIn', { country: countryName(group.code, locale) })}</h2>
<ul class="banks">${group.banks.map(
            (bank) =>
              html`<li data-search="${bank.searchText}"><button type="submit" class="bank" name="providerId" value="${bank.id}" aria-label="${t('selection.choose', { bank: bank.name })}"><img src="${bank.iconPath}" alt="" width="40" height="40"><span>${bank.name}</span></button></li>`,
          )}</ul></section>`,
        )}</form>`;
  return layout(context, {
    heading: t('selection.heading'),
    body: html`${filters}${status}${list}${elsewhere}${consentLine(context)}`,
    script: BANK_FILTER_SCRIPT_PATH,
    compactSummary: true,
  });
}
