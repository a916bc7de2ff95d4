/**
 * The one script of the payer's pages, served from our origin (`script-src 'self'`, never inline): it makes the
 * bank list filter as the payer types and applies a new country at once. The page works without it: the same GET
 * form filters on the server (the Search button), so the script only spares a round trip.
 *
 * It reads what the page prepared: each bank's `data-search` (its name and its group's name, folded like the
 * server folds: lower case, no accents) and `data-bank` (a bank may be listed twice: popular and among all banks,
 * counted once), and the texts of the live status in the status element's data attributes. Every `.bank-group`
 * (a heading's section, a country's collapsed group) hides when none of its banks matches.
 */
import { createHash } from 'node:crypto';

export const BANK_FILTER_SCRIPT = `'use strict';
(function () {
  var form = document.querySelector('form.filters');
  var search = document.getElementById('q');
  var country = document.getElementById('country');
  var status = document.getElementById('bank-count');
  if (!form || !search || !status) return;
  var fold = function (text) { return text.normalize('NFD').replace(/\\p{Diacritic}/gu, '').toLowerCase().trim(); };
  var banks = Array.prototype.slice.call(document.querySelectorAll('li[data-search]'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('.bank-group'));
  var elsewhere = document.getElementById('search-elsewhere');
  var button = form.querySelector('button[type=submit]');
  if (button) button.hidden = true;
  var announce = function (count) {
    var template = count === 0 ? status.dataset.none : count === 1 ? status.dataset.one : status.dataset.many;
    status.textContent = (template || '').replace('{count}', String(count));
    if (elsewhere) {
      elsewhere.hidden = count !== 0 || !country || country.value === 'ALL';
      elsewhere.href = form.action + '?country=ALL&q=' + encodeURIComponent(search.value.trim());
    }
  };
  var wasOpen = groups.map(function (group) { return group.open === true; });
  var filter = function () {
    var query = fold(search.value);
    var shown = {};
    banks.forEach(function (bank) {
      var match = query === '' || bank.dataset.search.indexOf(query) !== -1;
      bank.hidden = !match;
      if (match) shown[bank.dataset.bank] = true;
    });
    groups.forEach(function (group, index) {
      group.hidden = group.querySelector('li[data-search]:not([hidden])') === null;
      // A country's collapsed group opens while the payer searches, and closes again when the search is cleared.
      if (group.tagName === 'DETAILS') group.open = query !== '' || wasOpen[index];
    });
    announce(Object.keys(shown).length);
  };
  search.addEventListener('input', filter);
  if (country) {
    country.addEventListener('change', function () {
      if (typeof form.requestSubmit === 'function') form.requestSubmit(); else form.submit();
    });
  }
  if (search.value !== '') filter();
})();
`;

export const BANK_FILTER_SCRIPT_PATH = `/pay/assets/bank-filter-${createHash('sha256').update(BANK_FILTER_SCRIPT).digest('base64url').slice(0, 12)}.js`;
