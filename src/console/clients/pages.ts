/**
 * Clients: operators create them, rotate their secret and webhook secret (each shown once, on the answer to the
 * post, never again), disable them, set their scopes and their branding on the payer pages; a member sees their
 * own client, read-only, and no other (404). Every change is audited.
 */
import { clientNameProblem } from '../../auth/clients.js';
import { SCOPES, isScope, type Scope } from '../../auth/scopes.js';
import { normalisedDisplayText } from '../../domain/display-text.js';
import { BrandingError, clientLogoPath, type BrandingChanges } from '../../branding/client-branding.js';
import { buttonColours, describeButtonColours } from '../../branding/colour.js';
import { LOGO_BOX, LogoError, MAX_LOGO_FILE_BYTES, processLogo } from '../../branding/logo.js';
import { httpsRequiredProblem } from '../../config/config.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import { notFound, page, redirect, type ConsoleRequest, type ConsoleRouter } from '../router.js';
import type { ConsoleServices } from '../services.js';
import { timeTag } from '../format.js';
import type { Viewer } from '../viewer.js';

const DONE: Readonly<Record<string, string>> = {
  created: 'The client is created.',
  disabled: 'The client is disabled: its tokens stopped working and it gets no new ones.',
  scopes: 'Scopes saved. The client’s tokens ended: it asks for new ones with the new scopes.',
  branding: 'Branding saved: payers see it on their next page.',
  logo: 'Logo saved: payers see it on their next page.',
};

function scopeBoxes(chosen: readonly string[], legend: string): SafeHtml {
  return html`<fieldset class="checks"><legend>${legend}</legend>${SCOPES.map(
    (scope) => html`<label><input type="checkbox" name="scopes" value="${scope}"${chosen.includes(scope) ? html` checked` : ''}> <span class="mono">${scope}</span></label>`,
  )}</fieldset>`;
}

/** The secret a rotation or creation issued, shown once. */
function secretsShownOnce(title: string, secrets: readonly [string, string][]): SafeHtml {
  return html`<div class="secret" role="status"><h2>${title}</h2><p>Copy ${secrets.length === 1 ? 'it' : 'them'} now: ${secrets.length === 1 ? 'it is' : 'they are'} shown only on this page and cannot be shown again.</p>
${secrets.map(([label, value]) => html`<p><strong>${label}</strong><code class="mono">${value}</code></p>`)}</div>`;
}

export function registerClientPages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'clients', label: 'Clients', path: '/console/clients', operatorsOnly: false });

  const listPage = async (viewer: Viewer, extras: { problems?: string[]; shown?: SafeHtml; done?: string | undefined } = {}, status = 200) => {
    const all = await services.clients.list();
    const clients = viewer.clientScope === undefined ? all : all.filter((client) => client.clientId === viewer.clientScope);
    const brandings = new Map((await services.branding.list()).map((branding) => [branding.clientId, branding]));
    const createForm =
      viewer.user.role !== 'operator'
        ? ''
        : html`<section aria-labelledby="new-client"><h2 id="new-client">New client</h2><form class="card" method="post" action="/console/clients">${csrfField(viewer.csrfToken)}
<div class="filters">
<div class="field"><label for="name">Name</label><input id="name" name="name" type="text" required maxlength="120"></div>
<div class="field"><label for="environment">Environment</label><select id="environment" name="environment"><option value="sandbox">Sandbox</option><option value="production">Production</option></select></div>
<div class="wide">${scopeBoxes(SCOPES, 'Scopes')}</div>
<div class="actions"><button class="primary" type="submit">Create client</button></div>
</div></form></section>`;
    return page(
      consolePage({
        title: 'Clients',
        section: 'clients',
        viewer,
        navigation: services.navigation,
        lead: viewer.user.role === 'operator' ? 'The payment initiation providers that call the API.' : 'Your client, as the service knows it.',
        body: html`${errorSummary(extras.problems ?? [])}${extras.shown ?? ''}${extras.done === undefined || DONE[extras.done] === undefined ? '' : notice(DONE[extras.done] ?? '', 'success')}
${clients.length === 0
  ? emptyState('No clients yet', html`<p>Create the first one below, or with <code class="mono">openpis clients create</code>.</p>`)
  : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Clients</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">State</th><th scope="col">Scopes</th><th scope="col">Created</th></tr></thead>
<tbody>${clients.map(
      (client) => html`<tr>
<td data-label="Name"><a href="/console/clients/${client.clientId}">${client.name}</a>${brandings.get(client.clientId)?.displayName === undefined ? '' : html`<span class="detail">shown as ${brandings.get(client.clientId)?.displayName ?? ''}</span>`}</td>
<td data-label="Environment">${client.environment}</td>
<td data-label="State">${client.disabledAt === null ? html`<span class="badge completed">Active</span>` : html`<span class="badge failed">Disabled</span>`}</td>
<td data-label="Scopes"><span class="mono">${client.scopes.join(' ')}</span></td>
<td data-label="Created">${timeTag(client.createdAt)}</td>
</tr>`,
    )}</tbody></table></div>`}
${createForm}`,
      }),
      status,
    );
  };

  router.get('/clients', { section: 'clients' }, async ({ viewer, query }) => listPage(viewer, { done: query('done') }));

  router.post('/clients', { section: 'clients', operatorsOnly: true }, async ({ viewer, form, all }) => {
    const name = normalisedDisplayText((form('name') ?? '').trim());
    const environment = form('environment');
    const scopes = all('scopes', 'form').filter(isScope);
    const problems: string[] = [];
    const nameProblem = clientNameProblem(name);
    if (nameProblem !== undefined) problems.push(`Name ${nameProblem}`);
    if (environment !== 'sandbox' && environment !== 'production') problems.push('Environment: sandbox or production');
    if (scopes.length === 0) problems.push('Scopes: at least one');
    if (environment === 'production') {
      const problem = httpsRequiredProblem(services.config.baseUrl);
      if (problem !== undefined) problems.push(problem);
    }
    if (problems.length > 0 || (environment !== 'sandbox' && environment !== 'production')) return listPage(viewer, { problems }, 400);
    const issued = await services.clients.create({ name, environment, scopes });
    await services.audit.record(viewer.actor, { action: 'client.created', clientId: issued.clientId, target: issued.clientId, details: { name, environment, scopes: issued.scopes } });
    return listPage(viewer, {
      shown: secretsShownOnce(`Client “${name}” created`, [
        ['Client id', issued.clientId],
        ['Client secret', issued.clientSecret],
        ['Webhook secret', issued.webhookSecret],
      ]),
    }, 201);
  });

  const visibleClient = async (context: ConsoleRequest) => {
    const clientId = (context.request.params as { clientId: string }).clientId;
    if (context.viewer.clientScope !== undefined && context.viewer.clientScope !== clientId) return undefined;
    return (await services.clients.list()).find((client) => client.clientId === clientId);
  };

  const detailPage = async (context: ConsoleRequest, extras: { problems?: string[]; shown?: SafeHtml } = {}, status = 200) => {
    const client = await visibleClient(context);
    if (client === undefined) return notFound;
    const { viewer } = context;
    const operator = viewer.user.role === 'operator';
    const branding = await services.branding.get(client.clientId);
    const colours = branding?.brandColour === undefined ? undefined : buttonColours(branding.brandColour);
    const done = context.query('done');
    const action = (path: string, label: string, kind: 'secondary' | 'danger', hint: string): SafeHtml =>
      html`<form method="post" action="/console/clients/${client.clientId}/${path}">${csrfField(viewer.csrfToken)}<button class="${kind}" type="submit">${label}</button> <span class="hint">${hint}</span></form>`;
    const members = await services.users.list({ clientId: client.clientId });
    return page(
      consolePage({
        title: client.name,
        section: 'clients',
        viewer,
        navigation: services.navigation,
        lead: html`<span class="mono">${client.clientId}</span>`,
        headActions: html`<a class="button secondary" href="/console/payments${operator ? `?client=${client.clientId}` : ''}">Payments</a>`,
        body: html`${errorSummary(extras.problems ?? [])}${extras.shown ?? ''}${done === undefined || DONE[done] === undefined ? '' : notice(DONE[done] ?? '', 'success')}
<div class="grid two">
<section class="card" aria-labelledby="about"><h2 id="about">Client</h2><dl class="facts">
<dt>Environment</dt><dd>${client.environment}</dd>
<dt>State</dt><dd>${client.disabledAt === null ? html`<span class="badge completed">Active</span>` : html`<span class="badge failed">Disabled</span> since ${timeTag(client.disabledAt)}`}</dd>
<dt>Scopes</dt><dd class="mono">${client.scopes.join(' ')}</dd>
<dt>Created</dt><dd>${timeTag(client.createdAt)}</dd>
<dt>Members</dt><dd>${members.length === 0 ? 'None' : members.map((member, index) => html`${index > 0 ? ', ' : ''}${member.name}`)}</dd>
</dl></section>
<section class="card" aria-labelledby="branding"><h2 id="branding">Branding on the payer pages</h2><dl class="facts">
<dt>Shown as</dt><dd>${branding?.displayName ?? html`<span class="muted">Not set: the payment’s recipient name</span>`}</dd>
<dt>Logo</dt><dd>${branding?.logo === undefined ? html`<span class="muted">Not set</span>` : html`<img src="${clientLogoPath(branding.logo.sha256)}" alt="Logo of ${client.name}" width="${branding.logo.width}" height="${branding.logo.height}" class="logo">`}</dd>
<dt>Brand colour</dt><dd>${colours === undefined ? html`<span class="muted">Not set: the standard colours</span>` : describeButtonColours(colours)}</dd>
<dt>Support link</dt><dd>${branding?.supportUrl ?? html`<span class="muted">Not set</span>`}</dd>
</dl></section>
</div>
${!operator
  ? ''
  : html`<section aria-labelledby="credentials"><h2 id="credentials">Credentials</h2><div class="card action-list">
${action('rotate-secret', 'Rotate client secret', 'secondary', 'The old secret and its tokens stop working at once.')}
${action('rotate-webhook-secret', 'Rotate webhook secret', 'secondary', `The old one keeps signing beside the new one for ${Math.round(services.config.webhooks.secretGraceSeconds / 3600)} h.`)}
${client.disabledAt === null ? action('disable', 'Disable client', 'danger', 'Its tokens stop working and it gets no new ones.') : ''}
</div></section>
<section aria-labelledby="scopes-heading"><h2 id="scopes-heading">Scopes</h2><form class="card" method="post" action="/console/clients/${client.clientId}/scopes">${csrfField(viewer.csrfToken)}
${scopeBoxes(client.scopes, 'The client may be granted')}<button class="primary" type="submit">Save scopes</button></form></section>
<section aria-labelledby="branding-form"><h2 id="branding-form">Change branding</h2><form class="card" method="post" action="/console/clients/${client.clientId}/branding">${csrfField(viewer.csrfToken)}
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
</div></form></section>
<section aria-labelledby="logo-form"><h2 id="logo-form">Upload a logo</h2><form class="card" method="post" action="/console/clients/${client.clientId}/logo" enctype="multipart/form-data">${csrfField(viewer.csrfToken)}
<div class="field"><label for="logo">Logo file <span class="hint">PNG, JPEG or WebP, at most ${MAX_LOGO_FILE_BYTES / 1024 / 1024} MiB; shown at most ${LOGO_BOX.width / 2}×${LOGO_BOX.height / 2}</span></label><input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" required></div>
<p class="hint">The file is checked and re-encoded to a PNG of our own; SVG is not taken.</p>
<div class="actions"><button class="primary" type="submit">Upload logo</button></div>
</form></section>`}`,
      }),
      status,
    );
  };

  router.get('/clients/:clientId', { section: 'clients' }, async (context) => detailPage(context));

  type ActionWork = (context: ConsoleRequest, clientId: string) => Promise<{ shown?: SafeHtml; problems?: string[]; done?: string }>;
  const actionHandler = (work: ActionWork) => async (context: ConsoleRequest) => {
    const client = await visibleClient(context);
    if (client === undefined) return notFound;
    const outcome = await work(context, client.clientId);
    if (outcome.done !== undefined) return redirect(`/console/clients/${client.clientId}?done=${outcome.done}`);
    return detailPage(context, outcome, outcome.problems !== undefined && outcome.problems.length > 0 ? 400 : 200);
  };
  const operatorAction = (path: string, work: ActionWork) => router.post(`/clients/:clientId/${path}`, { section: 'clients', operatorsOnly: true }, actionHandler(work));

  operatorAction('rotate-secret', async ({ viewer }, clientId) => {
    const rotated = await services.clients.rotateSecret(clientId);
    await services.audit.record(viewer.actor, { action: 'client.secret-rotated', clientId, target: clientId });
    return { shown: secretsShownOnce('New client secret', [['Client secret', rotated.clientSecret]]) };
  });

  operatorAction('rotate-webhook-secret', async ({ viewer }, clientId) => {
    const rotated = await services.clients.rotateWebhookSecret(clientId, services.config.webhooks.secretGraceSeconds);
    await services.audit.record(viewer.actor, { action: 'client.webhook-secret-rotated', clientId, target: clientId, details: { previousSecretExpiresAt: rotated.previousSecretExpiresAt } });
    return { shown: secretsShownOnce('New webhook secret', [['Webhook secret', rotated.webhookSecret]]) };
  });

  operatorAction('disable', async ({ viewer }, clientId) => {
    await services.clients.disable(clientId);
    await services.audit.record(viewer.actor, { action: 'client.disabled', clientId, target: clientId });
    return { done: 'disabled' };
  });

  operatorAction('scopes', async ({ viewer, all }, clientId) => {
    const scopes: Scope[] = all('scopes', 'form').filter(isScope);
    if (scopes.length === 0) return { problems: ['Scopes: at least one'] };
    await services.clients.setScopes(clientId, scopes);
    await services.audit.record(viewer.actor, { action: 'client.scopes-changed', clientId, target: clientId, details: { scopes } });
    return { done: 'scopes' };
  });

  operatorAction('branding', async ({ viewer, form, all }, clientId) => {
    const cleared = new Set(all('clear', 'form'));
    const given = (name: string): string | undefined => {
      const value = form(name)?.trim();
      return value === undefined || value === '' ? undefined : value;
    };
    const pick = (name: 'displayName' | 'brandColour' | 'supportUrl', clear: string): Partial<BrandingChanges> =>
      cleared.has(clear) ? { [name]: null } : given(name) !== undefined ? { [name]: given(name) } : {};
    const changes: BrandingChanges = {
      ...pick('displayName', 'display-name'),
      ...pick('brandColour', 'brand-colour'),
      ...pick('supportUrl', 'support-url'),
      ...(cleared.has('logo') ? { logo: null } : {}),
    };
    try {
      await services.branding.update(clientId, changes);
    } catch (error) {
      if (error instanceof BrandingError) return { problems: [...error.problems] };
      throw error;
    }
    await services.audit.record(viewer.actor, { action: 'client.branding-changed', clientId, target: clientId, details: { changed: Object.keys(changes) } });
    return { done: 'branding' };
  });

  // The logo: the same pipeline as `openpis clients branding --logo` (src/branding/logo.ts), which refuses SVG, other
  // formats, broken and too large files with its own message; the parser cuts a file one byte past its limit.
  router.upload(
    '/clients/:clientId/logo',
    { section: 'clients', operatorsOnly: true },
    { maxFileBytes: MAX_LOGO_FILE_BYTES, files: 1, fields: 1 },
    actionHandler(async ({ viewer, file }, clientId) => {
      const bytes = file('logo');
      if (bytes === undefined) return { problems: ['Logo: choose a PNG, JPEG or WebP file'] };
      let logo;
      try {
        logo = await processLogo(bytes);
      } catch (error) {
        if (error instanceof LogoError) return { problems: [`Logo: ${error.message}`] };
        throw error;
      }
      await services.branding.update(clientId, { logo });
      await services.audit.record(viewer.actor, { action: 'client.branding-changed', clientId, target: clientId, details: { changed: ['logo'], logoSha256: logo.sha256 } });
      return { done: 'logo' };
    }),
  );
}
