/** The People pages: everyone (a table and the form to add a person), and one person's page with what can be done. */
import type { ConsoleUser } from '../../people/accounts.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { timeTag } from '../format.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import type { AuditEntries, ClientName } from './queries.js';

/** The confirmation of each change, keyed by the change's name as its route and the redirect after it carry it. */
const DONE: Readonly<Record<string, string>> = {
  disable: 'The account is disabled; its sessions ended.',
  enable: 'The account is enabled.',
  unlock: 'The lock is lifted.',
  'reset-second-factor': 'The authenticator is forgotten: a new one is set up at the next sign-in. Their sessions ended.',
};

function stateBadge(user: ConsoleUser, now: Date): SafeHtml {
  if (user.disabledAt !== null) return html`<span class="badge failed">Disabled</span>`;
  if (user.lockedUntil !== null && user.lockedUntil > now.toISOString()) return html`<span class="badge pending">Locked</span>`;
  return html`<span class="badge completed">Active</span>`;
}

function secondFactorText(user: ConsoleUser): string {
  return user.secondFactor === 'enrolled' ? 'Authenticator app' : 'Set up at next sign-in';
}

export function newPersonShown(name: string, password: string): SafeHtml {
  return html`<div class="secret" role="status"><h2>${name} can sign in</h2><p>Hand this password over safely; it is shown only now. At the first sign-in they set up an authenticator app.</p><p><strong>Password</strong><code class="mono">${password}</code></p></div>`;
}

export function newPasswordShown(password: string): SafeHtml {
  return html`<div class="secret" role="status"><h2>New password</h2><p>Hand it over safely; it is shown only now. Their sessions ended.</p><p><strong>Password</strong><code class="mono">${password}</code></p></div>`;
}

export interface PeoplePageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly people: readonly ConsoleUser[];
  readonly clients: readonly ClientName[];
  readonly now: Date;
  readonly problems?: readonly string[];
  /** A password made on this request, shown once. */
  readonly shown?: SafeHtml;
}

function peopleTable(people: readonly ConsoleUser[], clients: readonly ClientName[], now: Date): SafeHtml {
  if (people.length === 0)
    return emptyState('Nobody yet', html`<p>Add people below or with <code class="mono">openpis users create</code>.</p>`);
  const clientNames = new Map(clients.map((client) => [client.clientId, client.name]));
  return html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">People</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">State</th><th scope="col">Second factor</th><th scope="col">Last sign-in</th></tr></thead>
<tbody>${people.map(
    (person) => html`<tr>
<td data-label="Name"><a href="/console/people/${person.id}">${person.name}</a><span class="detail">${person.email}</span></td>
<td data-label="Role">${person.role === 'operator' ? 'Operator' : html`Member of ${clientNames.get(person.clientId ?? '') ?? person.clientId ?? ''}`}</td>
<td data-label="State">${stateBadge(person, now)}</td>
<td data-label="Second factor">${secondFactorText(person)}</td>
<td data-label="Last sign-in">${person.lastSignInAt === null ? html`<span class="muted">Never</span>` : timeTag(person.lastSignInAt)}</td>
</tr>`,
  )}</tbody></table></div>`;
}

function addPersonForm(csrfToken: string, clients: readonly ClientName[]): SafeHtml {
  return html`<section aria-labelledby="add-person"><h2 id="add-person">Add a person</h2><form class="card" method="post" action="/console/people">${csrfField(csrfToken)}
<div class="filters">
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="off"></div>
<div class="field"><label for="name">Name</label><input id="name" name="name" type="text" required maxlength="120" autocomplete="off"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role"><option value="member">Member (one client)</option><option value="operator">Operator (every client)</option></select></div>
<div class="field"><label for="client">Client <span class="hint">Members only</span></label><select id="client" name="client"><option value="">—</option>${clients.map((client) => html`<option value="${client.clientId}">${client.name}</option>`)}</select></div>
<p class="hint wide">A password is made for them and shown once on the next page, for you to hand over.</p>
<div class="actions"><button class="primary" type="submit">Add person</button></div>
</div></form></section>`;
}

export function peoplePage(view: PeoplePageView): string {
  return consolePage({
    title: 'People',
    section: 'people',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: 'Operators see every client; members see one client. Everyone signs in with a password and an authenticator app.',
    body: html`${errorSummary(view.problems ?? [])}${view.shown ?? ''}
${peopleTable(view.people, view.clients, view.now)}
${addPersonForm(view.viewer.csrfToken, view.clients)}`,
  });
}

export interface PersonPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly person: ConsoleUser;
  readonly client: ClientName | undefined;
  readonly recent: AuditEntries;
  readonly now: Date;
  readonly done: string | undefined;
  readonly shown?: SafeHtml;
}

function accountFacts(person: ConsoleUser, client: ClientName | undefined, now: Date): SafeHtml {
  return html`<section class="card" aria-labelledby="about"><h2 id="about" class="visually-hidden">Account</h2><dl class="facts">
<dt>Role</dt><dd>${person.role === 'operator' ? 'Operator (every client)' : html`Member of <a href="/console/clients/${person.clientId ?? ''}">${client?.name ?? person.clientId ?? ''}</a>`}</dd>
<dt>State</dt><dd>${stateBadge(person, now)}${person.lockedUntil !== null && person.lockedUntil > now.toISOString() ? html` until ${timeTag(person.lockedUntil)}` : ''}</dd>
<dt>Second factor</dt><dd>${secondFactorText(person)}</dd>
<dt>Last sign-in</dt><dd>${person.lastSignInAt === null ? 'Never' : timeTag(person.lastSignInAt)}</dd>
<dt>Created</dt><dd>${timeTag(person.createdAt)}</dd>
</dl></section>`;
}

/** What an operator can do to another person's account (nobody manages their own here). */
function manageSection(person: ConsoleUser, viewer: Viewer): SafeHtml {
  const action = (path: string, label: string, kind: 'secondary' | 'danger'): SafeHtml =>
    html`<form method="post" action="/console/people/${person.id}/${path}">${csrfField(viewer.csrfToken)}<button class="${kind}" type="submit">${label}</button></form>`;
  return html`<section aria-labelledby="manage"><h2 id="manage">Manage</h2><div class="card actions">
${
  person.id === viewer.user.id
    ? html`<p class="muted">This is you: another operator manages your account.</p>`
    : html`
${action('reset-password', 'New password', 'secondary')}
${person.lockedUntil === null ? '' : action('unlock', 'Unlock', 'secondary')}
${person.secondFactor === 'enrolled' ? action('reset-second-factor', 'Forget authenticator', 'secondary') : ''}
${person.disabledAt === null ? action('disable', 'Disable', 'danger') : action('enable', 'Enable', 'secondary')}`
}
</div></section>`;
}

function recentActions(person: ConsoleUser, recent: AuditEntries): SafeHtml {
  return html`<section aria-labelledby="recent"><h2 id="recent">Recent actions</h2>${recent.length === 0 ? emptyState('Nothing yet', '') : html`<div class="card"><ul>${recent.map((entry) => html`<li>${timeTag(entry.at)} <span class="mono">${entry.action}</span>${entry.target === null ? '' : html` <span class="muted">${entry.target}</span>`}</li>`)}</ul><p><a href="/console/audit?actor=${encodeURIComponent(person.email)}">All their entries</a></p></div>`}</section>`;
}

export function personPage(view: PersonPageView): string {
  const { person, done } = view;
  return consolePage({
    title: person.name,
    section: 'people',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: person.email,
    headActions: html`<a class="button secondary" href="/console/people">All people</a>`,
    body: html`${view.shown ?? ''}${done === undefined || DONE[done] === undefined ? '' : notice(DONE[done] ?? '', 'success')}
${accountFacts(person, view.client, view.now)}
${manageSection(person, view.viewer)}
${recentActions(person, view.recent)}`,
  });
}
