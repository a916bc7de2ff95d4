/**
 * The audit log, newest first, 100 entries a page: operators see every entry, members their client's. There is no
 * form here that changes an entry, and none anywhere else (src/people/audit-log.ts).
 */
import { html } from '../../hosted/html.js';
import { consolePage, emptyState } from '../layout.js';
import { page, type ConsoleRouter } from '../router.js';
import type { ConsoleServices } from '../services.js';
import { timeTag } from '../format.js';
import type { AuditPosition } from '../../people/audit-log.js';

const PAGE_SIZE = 100;

function decodeAfter(text: string | undefined): AuditPosition | undefined {
  if (text === undefined || !/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [at, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  return at === undefined || id === undefined || extra !== undefined ? undefined : { at, id };
}

export function registerAuditPages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'audit', label: 'Audit log', path: '/console/audit', operatorsOnly: false });

  router.get('/audit', { section: 'audit' }, async ({ viewer, query }) => {
    const action = query('action');
    const actor = query('actor');
    const after = decodeAfter(query('after'));
    const entries = await services.audit.list({
      ...(viewer.clientScope === undefined ? {} : { clientId: viewer.clientScope }),
      ...(action === undefined || action === '' ? {} : { action }),
      ...(actor === undefined || actor === '' ? {} : { actor: actor.toLowerCase() }),
      ...(after === undefined ? {} : { after }),
      limit: PAGE_SIZE + 1,
    });
    const shown = entries.slice(0, PAGE_SIZE);
    const last = shown.at(-1);
    const filters = new URLSearchParams({ ...(action ? { action } : {}), ...(actor ? { actor } : {}) });
    const next = entries.length > PAGE_SIZE && last !== undefined ? `/console/audit?${new URLSearchParams([...filters.entries(), ['after', Buffer.from(`${last.at}|${last.id}`).toString('base64url')]]).toString()}` : undefined;
    return page(
      consolePage({
        title: 'Audit log',
        section: 'audit',
        viewer,
        navigation: services.navigation,
        lead: viewer.clientScope === undefined ? 'Every action of every operator and member, and of the command line. It cannot be changed.' : 'Every action concerning your client. It cannot be changed.',
        body: html`<form class="card" method="get" action="/console/audit" role="search" aria-label="Audit log"><div class="filters">
<div class="field"><label for="actor">Who <span class="hint">Email, exact</span></label><input id="actor" name="actor" type="text" value="${actor ?? ''}"></div>
<div class="field"><label for="action">Action <span class="hint">e.g. sign-in.failed, webhook.redelivered</span></label><input id="action" name="action" type="text" value="${action ?? ''}"></div>
<div class="actions"><button class="primary" type="submit">Show entries</button><a class="button secondary" href="/console/audit">Clear</a></div>
</div></form>
${shown.length === 0
  ? emptyState('No entries', html`<p>${filters.toString() === '' ? 'Actions appear here as people use the console and the command line.' : 'Nothing matches these filters.'}</p>`)
  : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Audit log entries, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">What</th><th scope="col">From</th></tr></thead>
<tbody>${shown.map(
      (entry) => html`<tr>
<td data-label="When">${timeTag(entry.at)}</td>
<td data-label="Who">${entry.actor}<span class="detail">${entry.actorRole}</span></td>
<td data-label="Action"><span class="mono">${entry.action}</span></td>
<td data-label="What">${entry.target === null ? '' : html`<span class="mono">${entry.target}</span>`}${entry.details === null ? '' : html`<span class="detail">${Object.entries(entry.details).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(' ') : String(value)}`).join(' · ')}</span>`}</td>
<td data-label="From">${entry.ip ?? '—'}<span class="detail">${entry.userAgent ?? ''}</span></td>
</tr>`,
    )}</tbody></table></div>`}
<nav class="pager" aria-label="Pages">${after === undefined ? html`<span></span>` : html`<a href="/console/audit${filters.toString() === '' ? '' : `?${filters.toString()}`}">Newest entries</a>`}${next === undefined ? '' : html`<a class="button secondary" href="${next}">Older entries</a>`}</nav>`,
      }),
    );
  });
}
