/**
 * People (operators only): every operator and member, with their second factor and lock state; creating one
 * (a password is made and shown once, to hand over), and on a person's page disable, enable, unlock, a new
 * password, forgetting the authenticator. Nobody disables themselves here. Every change is audited.
 */
import { randomBytes } from 'node:crypto';
import { ConsoleUserError, type ConsoleUser } from '../../people/accounts.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import { notFound, page, redirect, type ConsoleRequest, type ConsoleRouter } from '../router.js';
import type { ConsoleServices } from '../services.js';
import { timeTag } from '../format.js';
import type { Viewer } from '../viewer.js';

const DONE: Readonly<Record<string, string>> = {
  disabled: 'The account is disabled; its sessions ended.',
  enabled: 'The account is enabled.',
  unlocked: 'The lock is lifted.',
  'second-factor-reset': 'The authenticator is forgotten: a new one is set up at the next sign-in. Their sessions ended.',
};

function stateBadge(user: ConsoleUser, now: Date): SafeHtml {
  if (user.disabledAt !== null) return html`<span class="badge failed">Disabled</span>`;
  if (user.lockedUntil !== null && user.lockedUntil > now.toISOString()) return html`<span class="badge pending">Locked</span>`;
  return html`<span class="badge completed">Active</span>`;
}

function secondFactorText(user: ConsoleUser): string {
  return user.secondFactor === 'enrolled' ? 'Authenticator app' : 'Set up at next sign-in';
}

const newPassword = (): string => randomBytes(18).toString('base64url');

export function registerPeoplePages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'people', label: 'People', path: '/console/people', operatorsOnly: true });
  const access = { section: 'people', operatorsOnly: true } as const;

  const listPage = async (viewer: Viewer, extras: { problems?: string[]; shown?: SafeHtml } = {}, status = 200) => {
    const [people, clients] = await Promise.all([services.users.list(), services.clients.list()]);
    const clientNames = new Map(clients.map((client) => [client.clientId, client.name]));
    const now = services.now();
    return page(
      consolePage({
        title: 'People',
        section: 'people',
        viewer,
        navigation: services.navigation,
        lead: 'Operators see every client; members see one client. Everyone signs in with a password and an authenticator app.',
        body: html`${errorSummary(extras.problems ?? [])}${extras.shown ?? ''}
${people.length === 0
  ? emptyState('Nobody yet', html`<p>Add people below or with <code class="mono">openpis users create</code>.</p>`)
  : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">People</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">State</th><th scope="col">Second factor</th><th scope="col">Last sign-in</th></tr></thead>
<tbody>${people.map(
      (person) => html`<tr>
<td data-label="Name"><a href="/console/people/${person.id}">${person.name}</a><span class="detail">${person.email}</span></td>
<td data-label="Role">${person.role === 'operator' ? 'Operator' : html`Member of ${clientNames.get(person.clientId ?? '') ?? person.clientId ?? ''}`}</td>
<td data-label="State">${stateBadge(person, now)}</td>
<td data-label="Second factor">${secondFactorText(person)}</td>
<td data-label="Last sign-in">${person.lastSignInAt === null ? html`<span class="muted">Never</span>` : timeTag(person.lastSignInAt)}</td>
</tr>`,
    )}</tbody></table></div>`}
<section aria-labelledby="add-person"><h2 id="add-person">Add a person</h2><form class="card" method="post" action="/console/people">${csrfField(viewer.csrfToken)}
<div class="filters">
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="off"></div>
<div class="field"><label for="name">Name</label><input id="name" name="name" type="text" required maxlength="120" autocomplete="off"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role"><option value="member">Member (one client)</option><option value="operator">Operator (every client)</option></select></div>
<div class="field"><label for="client">Client <span class="hint">Members only</span></label><select id="client" name="client"><option value="">—</option>${clients.map((client) => html`<option value="${client.clientId}">${client.name}</option>`)}</select></div>
<p class="hint wide">A password is made for them and shown once on the next page, for you to hand over.</p>
<div class="actions"><button class="primary" type="submit">Add person</button></div>
</div></form></section>`,
      }),
      status,
    );
  };

  router.get('/people', access, async ({ viewer }) => listPage(viewer));

  router.post('/people', access, async ({ viewer, form }) => {
    const role = form('role') === 'operator' ? 'operator' : 'member';
    const client = form('client');
    const password = newPassword();
    try {
      const created = await services.users.create({
        email: form('email') ?? '',
        name: form('name') ?? '',
        role,
        clientId: role === 'member' && client !== undefined && client !== '' ? client : undefined,
        password,
      });
      await services.audit.record(viewer.actor, { action: 'user.created', clientId: created.clientId, target: created.email, details: { role } });
      return listPage(
        viewer,
        { shown: html`<div class="secret" role="status"><h2>${created.name} can sign in</h2><p>Hand this password over safely; it is shown only now. At the first sign-in they set up an authenticator app.</p><p><strong>Password</strong><code class="mono">${password}</code></p></div>` },
        201,
      );
    } catch (error) {
      if (error instanceof ConsoleUserError) return listPage(viewer, { problems: [...error.problems] }, 400);
      throw error;
    }
  });

  const personOf = async (context: ConsoleRequest): Promise<ConsoleUser | undefined> => services.users.get((context.request.params as { userId: string }).userId);

  const personPage = async (context: ConsoleRequest, person: ConsoleUser, shown?: SafeHtml) => {
    const { viewer } = context;
    const self = person.id === viewer.user.id;
    const done = context.query('done');
    const client = person.clientId === null ? undefined : (await services.clients.list()).find((candidate) => candidate.clientId === person.clientId);
    const action = (path: string, label: string, kind: 'secondary' | 'danger'): SafeHtml =>
      html`<form method="post" action="/console/people/${person.id}/${path}">${csrfField(viewer.csrfToken)}<button class="${kind}" type="submit">${label}</button></form>`;
    const recent = await services.audit.list({ actor: person.email, limit: 10 });
    return page(
      consolePage({
        title: person.name,
        section: 'people',
        viewer,
        navigation: services.navigation,
        lead: person.email,
        headActions: html`<a class="button secondary" href="/console/people">All people</a>`,
        body: html`${shown ?? ''}${done === undefined || DONE[done] === undefined ? '' : notice(DONE[done] ?? '', 'success')}
<section class="card" aria-labelledby="about"><h2 id="about" class="visually-hidden">Account</h2><dl class="facts">
<dt>Role</dt><dd>${person.role === 'operator' ? 'Operator (every client)' : html`Member of <a href="/console/clients/${person.clientId ?? ''}">${client?.name ?? person.clientId ?? ''}</a>`}</dd>
<dt>State</dt><dd>${stateBadge(person, services.now())}${person.lockedUntil !== null && person.lockedUntil > services.now().toISOString() ? html` until ${timeTag(person.lockedUntil)}` : ''}</dd>
<dt>Second factor</dt><dd>${secondFactorText(person)}</dd>
<dt>Last sign-in</dt><dd>${person.lastSignInAt === null ? 'Never' : timeTag(person.lastSignInAt)}</dd>
<dt>Created</dt><dd>${timeTag(person.createdAt)}</dd>
</dl></section>
<section aria-labelledby="manage"><h2 id="manage">Manage</h2><div class="card actions">
${self ? html`<p class="muted">This is you: another operator manages your account.</p>` : html`
${action('reset-password', 'New password', 'secondary')}
${person.lockedUntil === null ? '' : action('unlock', 'Unlock', 'secondary')}
${person.secondFactor === 'enrolled' ? action('reset-second-factor', 'Forget authenticator', 'secondary') : ''}
${person.disabledAt === null ? action('disable', 'Disable', 'danger') : action('enable', 'Enable', 'secondary')}`}
</div></section>
<section aria-labelledby="recent"><h2 id="recent">Recent actions</h2>${recent.length === 0 ? emptyState('Nothing yet', '') : html`<div class="card"><ul>${recent.map((entry) => html`<li>${timeTag(entry.at)} <span class="mono">${entry.action}</span>${entry.target === null ? '' : html` <span class="muted">${entry.target}</span>`}</li>`)}</ul><p><a href="/console/audit?actor=${encodeURIComponent(person.email)}">All their entries</a></p></div>`}</section>`,
      }),
    );
  };

  router.get('/people/:userId', access, async (context) => {
    const person = await personOf(context);
    return person === undefined ? notFound : personPage(context, person);
  });

  const change = (path: string, action: string, work: (person: ConsoleUser) => Promise<ConsoleUser>) =>
    router.post(`/people/:userId/${path}`, access, async (context) => {
      const person = await personOf(context);
      if (person === undefined || person.id === context.viewer.user.id) return notFound;
      await work(person);
      await services.audit.record(context.viewer.actor, { action, clientId: person.clientId, target: person.email });
      return redirect(`/console/people/${person.id}?done=${path}`);
    });
  change('disable', 'user.disabled', (person) => services.users.disable(person.id));
  change('enable', 'user.enabled', (person) => services.users.enable(person.id));
  change('unlock', 'user.unlocked', (person) => services.users.unlock(person.id));
  change('reset-second-factor', 'user.second-factor-reset', (person) => services.users.resetSecondFactor(person.id));

  router.post('/people/:userId/reset-password', access, async (context) => {
    const person = await personOf(context);
    if (person === undefined || person.id === context.viewer.user.id) return notFound;
    const password = newPassword();
    const changed = await services.users.resetPassword(person.id, password);
    await services.audit.record(context.viewer.actor, { action: 'user.password-reset', clientId: person.clientId, target: person.email });
    return personPage(context, changed, html`<div class="secret" role="status"><h2>New password</h2><p>Hand it over safely; it is shown only now. Their sessions ended.</p><p><strong>Password</strong><code class="mono">${password}</code></p></div>`);
  });
}
