/**
 * The Clients pages: the list (and, for operators, the form that creates one) and a client's page (its facts and
 * branding; for operators its credentials, scopes, branding and logo forms). Secrets are shown once, on the answer
 * to the post that issued them.
 */
import type { ClientSummary } from '../../auth/clients.js';
import { SCOPES } from '../../auth/scopes.js';
import { clientLogoPath, type ClientBranding } from '../../branding/client-branding.js';
import { buttonColours, describeButtonColours } from '../../branding/colour.js';
import { LOGO_BOX, MAX_LOGO_FILE_BYTES } from '../../branding/logo.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import type { ConsoleUser } from '../../people/accounts.js';
import { timeTag } from '../format.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';

const DONE: Readonly<Record<string, string>> = {
  created: 'The client is created.',
  disabled: 'The client is disabled: its tokens stopped working and it gets no new ones.',
  scopes: 'Scopes saved. The client’s tokens ended: it asks for new ones with the new scopes.',
  branding: 'Branding saved: payers see it on their next page.',
  logo: 'Logo saved: payers see it on their next page.',
};

const doneNotice = (done: string | undefined): SafeHtml | '' =>
  done === undefined || DONE[done] === undefined ? '' : notice(DONE[done] ?? '', 'success');

function scopeBoxes(chosen: readonly string[], legend: string): SafeHtml {
  return html`<fieldset class="checks"><legend>${legend}</legend>${SCOPES.map(
    (scope) =>
      html`<label><input type="checkbox" name="scopes" value="${scope}"${chosen.includes(scope) ? html` checked` : ''}> <span class="mono">${scope}</span></label>`,
  )}</fieldset>`;
}

/** The secret a rotation or creation issued, shown once. */
export function secretsShownOnce(title: string, secrets: readonly [string, string][]): SafeHtml {
  return html`<div class="secret" role="status"><h2>${title}</h2><p>Copy ${secrets.length === 1 ? 'it' : 'them'} now: ${secrets.length === 1 ? 'it is' : 'they are'} shown only on this page and cannot be shown again.</p>
${secrets.map(([label, value]) => html`<p><strong>${label}</strong><code class="mono">${value}</code></p>`)}</div>`;
}

/** What a page says after a form: its problems, a secret shown once, or what was done. */
export interface FormOutcome {
  readonly problems?: readonly string[];
  readonly shown?: SafeHtml;
  readonly done?: string | undefined;
}

export interface ClientListView extends FormOutcome {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly clients: readonly ClientSummary[];
  readonly brandings: ReadonlyMap<string, ClientBranding>;
}

function createForm(viewer: Viewer): SafeHtml | '' {
  if (viewer.user.role !== 'operator') return '';
  return html`<section aria-labelledby="new-client"><h2 id="new-client">New client</h2><form class="card" method="post" action="/console/clients">${csrfField(viewer.csrfToken)}
<div class="filters">
<div class="field"><label for="name">Name</label><input id="name" name="name" type="text" required maxlength="120"></div>
<div class="field"><label for="environment">Environment</label><select id="environment" name="environment"><option value="sandbox">Sandbox</option><option value="production">Production</option></select></div>
<div class="wide">${scopeBoxes(SCOPES, 'Scopes')}</div>
<div class="actions"><button class="primary" type="submit">Create client</button></div>
</div></form></section>`;
}

const stateBadge = (client: ClientSummary): SafeHtml =>
  client.disabledAt === null ? html`<span class="badge completed">Active</span>` : html`<span class="badge failed">Disabled</span>`;

function clientTable(clients: readonly ClientSummary[], brandings: ReadonlyMap<string, ClientBranding>): SafeHtml {
  if (clients.length === 0)
    return emptyState('No clients yet', html`<p>Create the first one below, or with <code class="mono">openpis clients create</code>.</p>`);
  return html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Clients</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">State</th><th scope="col">Scopes</th><th scope="col">Created</th></tr></thead>
<tbody>${clients.map(
    (client) => html`<tr>
<td data-label="Name"><a href="/console/clients/${client.clientId}">${client.name}</a>${brandings.get(client.clientId)?.displayName === undefined ? '' : html`<span class="detail">shown as ${brandings.get(client.clientId)?.displayName ?? ''}</span>`}</td>
<td data-label="Environment">${client.environment}</td>
<td data-label="State">${stateBadge(client)}</td>
<td data-label="Scopes"><span class="mono">${client.scopes.join(' ')}</span></td>
<td data-label="Created">${timeTag(client.createdAt)}</td>
</tr>`,
  )}</tbody></table></div>`;
}

export function clientListPage(view: ClientListView): string {
  const { viewer } = view;
  return consolePage({
    title: 'Clients',
    section: 'clients',
    viewer,
    navigation: view.navigation,
    lead: viewer.user.role === 'operator' ? 'The payment initiation providers that call the API.' : 'Your client, as the service knows it.',
    body: html`${errorSummary(view.problems ?? [])}${view.shown ?? ''}${doneNotice(view.done)}
${clientTable(view.clients, view.brandings)}
${createForm(viewer)}`,
  });
}

export interface ClientPageView extends FormOutcome {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly client: ClientSummary;
  readonly branding: ClientBranding | undefined;
  readonly members: readonly ConsoleUser[];
  /** How long a rotated webhook secret keeps signing beside the new one. */
  readonly webhookSecretGraceSeconds: number;
}

function clientFacts(client: ClientSummary, members: readonly ConsoleUser[]): SafeHtml {
  return html`<section class="card" aria-labelledby="about"><h2 id="about">Client</h2><dl class="facts">
<dt>Environment</dt><dd>${client.environment}</dd>
<dt>State</dt><dd>${client.disabledAt === null ? html`<span class="badge completed">Active</span>` : html`<span class="badge failed">Disabled</span> since ${timeTag(client.disabledAt)}`}</dd>
<dt>Scopes</dt><dd class="mono">${client.scopes.join(' ')}</dd>
<dt>Created</dt><dd>${timeTag(client.createdAt)}</dd>
<dt>Members</dt><dd>${members.length === 0 ? 'None' : members.map((member, index) => html`${index > 0 ? ', ' : ''}${member.name}`)}</dd>
</dl></section>`;
}

function brandingFacts(client: ClientSummary, branding: ClientBranding | undefined): SafeHtml {
  const colours = branding?.brandColour === undefined ? undefined : buttonColours(branding.brandColour);
  return html`<section class="card" aria-labelledby="branding"><h2 id="branding">Branding on the payer pages</h2><dl class="facts">
<dt>Shown as</dt><dd>${branding?.displayName ?? html`<span class="muted">Not set: the payment’s recipient name</span>`}</dd>
<dt>Logo</dt><dd>${branding?.logo === undefined ? html`<span class="muted">Not set</span>` : html`<img src="${clientLogoPath(branding.logo.sha256)}" alt="Logo of ${client.name}" width="${branding.logo.width}" height="${branding.logo.height}" class="logo">`}</dd>
<dt>Brand colour</dt><dd>${colours === undefined ? html`<span class="muted">Not set: the standard colours</span>` : describeButtonColours(colours)}</dd>
<dt>Support link</dt><dd>${branding?.supportUrl ?? html`<span class="muted">Not set</span>`}</dd>
</dl></section>`;
}

function credentialsSection(view: ClientPageView): SafeHtml {
  const { client, viewer } = view;
  const action = (path: string, label: string, kind: 'secondary' | 'danger', hint: string): SafeHtml =>
    html`<form method="post" action="/console/clients/${client.clientId}/${path}">${csrfField(viewer.csrfToken)}<button class="${kind}" type="submit">${label}</button> <span class="hint">${hint}</span></form>`;
  return html`<section aria-labelledby="credentials"><h2 id="credentials">Credentials</h2><div class="card action-list">
${action('rotate-secret', 'Rotate client secret', 'secondary', 'The old secret and its tokens stop working at once.')}
${action('rotate-webhook-secret', 'Rotate webhook secret', 'secondary', `The old one keeps signing beside the new one for ${Math.round(view.webhookSecretGraceSeconds / 3600)} h.`)}
${client.disabledAt === null ? action('disable', 'Disable client', 'danger', 'Its tokens stop working and it gets no new ones.') : ''}
</div></section>`;
}

function brandingForm(client: ClientSummary, branding: ClientBranding | undefined, csrfToken: string): SafeHtml {
  return html`<section aria-labelledby="branding-form"><h2 id="branding-form">Change branding</h2><form class="card" method="post" action="/console/clients/${client.clientId}/branding">${csrfField(csrfToken)}
<div class="filters">
<div class="field"><label for="displayName">Display name <span class="hint">Empty: unchanged</span></label><input id="displayName" name="displayName" type="text" maxlength="80" value="${branding?.displayName ?? ''}"></div>
<div class="field"><label for="brandColour">Brand colour <span class="hint">e.g. #0a5c36</span></label><input id="brandColour" name="brandColour" type="text" maxlength="7" value="${branding?.brandColour ?? ''}"></div>
<div class="field wide"><label for="supportUrl">Support link <span class="hint">https</span></label><input id="supportUrl" name="supportUrl" type="url" value="${branding?.supportUrl ?? ''}"></div>
<fieldset class="checks wide"><legend>Remove</legend>
<label><input type="checkbox" name="clear" value="display-name"> Display name</label>
<label><input type="checkbox" name="clear" value="brand-colour"> Brand colour</label>
<label><input type="checkbox" name="clear" value="support-url"> Support link</label>
<label><input type="checkbox" name="clear" value="logo"> Logo</label>
</fieldset>
<div class="actions"><button class="primary" type="submit">Save branding</button></div>
</div></form></section>`;
}

function logoForm(client: ClientSummary, csrfToken: string): SafeHtml {
  return html`<section aria-labelledby="logo-form"><h2 id="logo-form">Upload a logo</h2><form class="card" method="post" action="/console/clients/${client.clientId}/logo" enctype="multipart/form-data">${csrfField(csrfToken)}
<div class="field"><label for="logo">Logo file <span class="hint">PNG, JPEG or WebP, at most ${MAX_LOGO_FILE_BYTES / 1024 / 1024} MiB; shown at most ${LOGO_BOX.width / 2}×${LOGO_BOX.height / 2}</span></label><input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" required></div>
<p class="hint">The file is checked and re-encoded to a PNG of our own; SVG is not taken.</p>
<div class="actions"><button class="primary" type="submit">Upload logo</button></div>
</form></section>`;
}

/** The forms an operator has on a client's page (a member has none). */
function operatorForms(view: ClientPageView): SafeHtml {
  const { client, viewer } = view;
  return html`${credentialsSection(view)}
<section aria-labelledby="scopes-heading"><h2 id="scopes-heading">Scopes</h2><form class="card" method="post" action="/console/clients/${client.clientId}/scopes">${csrfField(viewer.csrfToken)}
${scopeBoxes(client.scopes, 'The client may be granted')}<button class="primary" type="submit">Save scopes</button></form></section>
${brandingForm(client, view.branding, viewer.csrfToken)}
${logoForm(client, viewer.csrfToken)}`;
}

export function clientPage(view: ClientPageView): string {
  const { client, viewer } = view;
  const operator = viewer.user.role === 'operator';
  return consolePage({
    title: client.name,
    section: 'clients',
    viewer,
    navigation: view.navigation,
    lead: html`<span class="mono">${client.clientId}</span>`,
    headActions: html`<a class="button secondary" href="/console/payments${operator ? `?client=${client.clientId}` : ''}">Payments</a>`,
    body: html`${errorSummary(view.problems ?? [])}${view.shown ?? ''}${doneNotice(view.done)}
<div class="grid two">
${clientFacts(client, view.members)}
${brandingFacts(client, view.branding)}
</div>
${operator ? operatorForms(view) : ''}`,
  });
}
