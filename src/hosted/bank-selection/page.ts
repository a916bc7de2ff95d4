/**
 * Phase 1 (hosted mode): the bank list. Grouped by country; only the countries of
 * `provider.preferences.countryCodes.list` (else those of the eligible banks), `.default` preselected; a search
 * box and a country choice in a GET form, filtered on the server (no script). Bank groups appear as their
 * subsidiaries. Each bank is a button of one POST form, so the list works with the keyboard alone.
 */
import { html } from '../html.js';
import { countryName, csrfField, layout } from '../layout/layout.js';
import { formAction, type PageContext } from '../layout/page-context.js';

export interface BankChoice {
  readonly id: string;
  readonly name: string;
  readonly countryCode: string;
  /** Our own URL of the bank's logo. */
  readonly iconPath: string;
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
<div><label for="q">${t('selection.search')}</label><input type="search" id="q" name="q" value="${search}" autocomplete="off"></div>
<button type="submit" class="secondary">${t('selection.searchButton')}</button></form>`;
  const list =
    groups.length === 0
      ? html`<p role="status">${t('selection.noMatch')}</p>`
      : html`<form method="post" action="${formAction(context, 'select-bank')}">${csrfField(context, 'select-bank')}${groups.map(
          (group) => html`<h2 id="country-${group.code}">${t('selection.banksIn', { country: countryName(group.code, locale) })}</h2>
<ul class="banks" aria-labelledby="country-${group.code}">${group.banks.map(
            (bank) =>
              html`<li><button type="submit" class="bank" name="providerId" value="${bank.id}" aria-label="${t('selection.choose', { bank: bank.name })}"><img src="${bank.iconPath}" alt="" width="40" height="40"><span>${bank.name}</span></button></li>`,
          )}</ul>`,
        )}</form>`;
  return layout(context, { heading: t('selection.heading'), body: html`${filters}${list}` });
}
