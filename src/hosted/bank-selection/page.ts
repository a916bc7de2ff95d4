/**
 * Phase 1 (hosted mode): the bank list. Grouped by country; only the countries of
 * `provider.preferences.countryCodes.list` (else those of the eligible banks), `.default` preselected; a search
 * box and a country choice in a GET form, filtered on the server (no script). Bank groups appear as their
 * subsidiaries. Each bank is a button of one POST form, so the list works with the keyboard alone.
 */
import type { Bank } from '../../providers/catalogue.js';
import { iconUrlOf } from '../../providers/routes.js';
import { html } from '../html.js';
import { countryName, csrfField, layout } from '../layout/layout.js';
import { formAction, type PageContext } from '../layout/page-context.js';

export interface SelectionQuery {
  readonly country?: string | undefined;
  readonly q?: string | undefined;
}

/** Lower case without accents, so "credit" finds "Crédit". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

export function bankSelectionPage(context: PageContext, banks: readonly Bank[], query: SelectionQuery): string {
  const { t, locale, payment } = context;
  const preferences = payment.providerPreferences?.countryCodes;
  const countries = [...new Set(preferences?.list ?? banks.map((bank) => bank.countryCode))].sort((a, b) =>
    countryName(a, locale).localeCompare(countryName(b, locale), locale),
  );
  const asked = query.country;
  const country = asked === 'ALL' ? undefined : asked !== undefined && countries.includes(asked) ? asked : (preferences?.default ?? (countries.length === 1 ? countries[0] : undefined));
  const search = (query.q ?? '').trim().slice(0, 100);
  const shown = banks.filter(
    (bank) => (country === undefined || bank.countryCode === country) && (search === '' || fold(bank.name).includes(fold(search))),
  );
  const groups = countries
    .map((code) => ({ code, banks: shown.filter((bank) => bank.countryCode === code) }))
    .filter((group) => group.banks.length > 0);
  const filters = html`<form method="get" action="/pay/${payment.flowToken}" class="filters" role="search">
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
              html`<li><button type="submit" class="bank" name="providerId" value="${bank.id}" aria-label="${t('selection.choose', { bank: bank.name })}"><img src="${new URL(iconUrlOf('http://x', bank.id)).pathname}" alt="" width="40" height="40"><span>${bank.name}</span></button></li>`,
          )}</ul>`,
        )}</form>`;
  return layout(context, { heading: t('selection.heading'), body: html`${filters}${list}` });
}
