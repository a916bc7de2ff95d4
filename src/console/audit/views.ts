/** The audit log's page: the filters, the entries as a table (cards on phones), and the pager. */
import { html, type SafeHtml } from '../../hosted/html.js';
import { timeTag } from '../format.js';
import { consolePage, emptyState } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import type { AuditEntries } from './queries.js';

export interface AuditPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly action: string | undefined;
  readonly actor: string | undefined;
  readonly entries: AuditEntries;
  /** The filters as given, for the pager's links. */
  readonly filters: URLSearchParams;
  /** Whether this is a later page (it links back to the newest). */
  readonly paged: boolean;
  readonly nextLink: string | undefined;
}

function filterForm(actor: string | undefined, action: string | undefined): SafeHtml {
  return html`<form class="card" method="get" action="/console/audit" role="search" aria-label="Audit log"><div class="filters">
<div class="field"><label for="actor">Who <span class="hint">Email, exact</span></label><input id="actor" name="actor" type="text" value="${actor ?? ''}"></div>
<div class="field"><label for="action">Action <span class="hint">e.g. sign-in.failed, webhook.redelivered</span></label><input id="action" name="action" type="text" value="${action ?? ''}"></div>
<div class="actions"><button class="primary" type="submit">Show entries</button><a class="button secondary" href="/console/audit">Clear</a></div>
</div></form>`;
}

function entryRow(entry: AuditEntries[number]): SafeHtml {
  return html`<tr>
<td data-label="When">${timeTag(entry.at)}</td>
<td data-label="Who">${entry.actor}<span class="detail">${entry.actorRole}</span></td>
<td data-label="Action"><span class="mono">${entry.action}</span></td>
<td data-label="What">${entry.target === null ? '' : html`<span class="mono">${entry.target}</span>`}${
    entry.details === null
      ? ''
      : html`<span class="detail">${Object.entries(entry.details)
          .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(' ') : String(value)}`)
          .join(' · ')}</span>`
  }</td>
<td data-label="From">${entry.ip ?? '—'}<span class="detail">${entry.userAgent ?? ''}</span></td>
</tr>`;
}

function entriesTable(entries: AuditEntries, filtered: boolean): SafeHtml {
  if (entries.length === 0)
    return emptyState(
      'No entries',
      html`<p>${filtered ? 'Nothing matches these filters.' : 'Actions appear here as people use the console and the command line.'}</p>`,
    );
  return html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Audit log entries, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">What</th><th scope="col">From</th></tr></thead>
<tbody>${entries.map(entryRow)}</tbody></table></div>`;
}

export function auditLogPage(view: AuditPageView): string {
  const { viewer, filters } = view;
  return consolePage({
    title: 'Audit log',
    section: 'audit',
    viewer,
    navigation: view.navigation,
    lead:
      viewer.clientScope === undefined
        ? 'Every action of every operator and member, and of the command line. It cannot be changed.'
        : 'Every action concerning your client. It cannot be changed.',
    body: html`${filterForm(view.actor, view.action)}
${entriesTable(view.entries, filters.toString() !== '')}
<nav class="pager" aria-label="Pages">${view.paged ? html`<a href="/console/audit${filters.toString() === '' ? '' : `?${filters.toString()}`}">Newest entries</a>` : html`<span></span>`}${view.nextLink === undefined ? '' : html`<a class="button secondary" href="${view.nextLink}">Older entries</a>`}</nav>`,
  });
}
