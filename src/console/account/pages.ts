/**
 * The signed-in person's own account: changing their password, with the current one. Every person can; it is not a
 * navigation section but a link beside their name. A wrong current password counts toward the lock-out, and the
 * failure that locks the account ends its sessions. A change ends the person's other sessions (not this one) and is
 * audited. Passwords are never put back into the form or shown.
 */
import { html } from '../../hosted/html.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../people/passwords.js';
import { consolePage, csrfField, errorSummary, notice } from '../layout.js';
import { page, type ConsoleAnswer, type ConsoleRouter } from '../router.js';
import { cookieValue, SESSION_COOKIE } from '../security.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';

const PASSWORD_PAGE_PATH = '/console/account/password';

export function registerAccountPages(router: ConsoleRouter, services: ConsoleServices): void {
  /** The form, with what was wrong and the fields it was about (`wrong`). */
  const passwordPage = (viewer: Viewer, options: { problems?: readonly string[]; wrong?: 'current' | 'new'; changed?: boolean } = {}, status = 200): ConsoleAnswer => {
    const problems = options.problems ?? [];
    const marked = (field: 'current' | 'new') => (options.wrong === field ? html` aria-invalid="true"` : '');
    return page(
      consolePage({
        title: 'Change your password',
        section: undefined,
        viewer,
        navigation: services.navigation,
        lead: `At least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a strong one. Your other sessions end when it changes.`,
        body: html`${errorSummary(problems)}${options.changed === true ? notice('Your password is changed. Your other sessions ended.', 'success') : ''}
<form class="card narrow" method="post" action="${PASSWORD_PAGE_PATH}">${csrfField(viewer.csrfToken)}
<input type="text" name="username" autocomplete="username" value="${viewer.user.email}" hidden>
<div class="field"><label for="current">Current password</label><input id="current" name="current" type="password" autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}"${marked('current')}></div>
<div class="field"><label for="next">New password</label><input id="next" name="next" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"${marked('new')}></div>
<div class="field"><label for="confirm">New password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"${marked('new')}></div>
<div class="actions"><button class="primary" type="submit">Change password</button></div>
</form>`,
      }),
      status,
    );
  };

  router.get('/account/password', {}, async ({ viewer, query }) => passwordPage(viewer, { changed: query('done') === 'changed' }));

  router.post('/account/password', {}, async ({ viewer, form, request }) => {
    const current = form('current') ?? '';
    const next = form('next') ?? '';
    if (next !== (form('confirm') ?? '')) return passwordPage(viewer, { problems: ['The new password and its repetition differ.'], wrong: 'new' }, 400);
    const result = await services.users.changeOwnPassword(viewer.user.id, current, next);
    switch (result.outcome) {
      case 'wrong-password':
        await services.audit.record(viewer.actor, { action: 'user.password-change-failed', clientId: viewer.user.clientId, target: viewer.user.email });
        if (result.nowLocked) {
          await services.audit.record(viewer.actor, { action: 'account.locked', clientId: viewer.user.clientId, target: viewer.user.email });
          return { kind: 'redirect', location: '/console/sign-in', endSession: true };
        }
        return passwordPage(viewer, { problems: ['The current password is not right.'], wrong: 'current' }, 400);
      case 'locked':
        // Locked by other attempts meanwhile (this one was not checked): the account's sessions have ended.
        return { kind: 'redirect', location: '/console/sign-in', endSession: true };
      case 'refused':
        return passwordPage(viewer, { problems: [`The new password is refused: ${result.problem}.`], wrong: 'new' }, 400);
      case 'changed': {
        const token = cookieValue(request, SESSION_COOKIE);
        if (token !== undefined) await services.sessions.endOthers(token);
        await services.audit.record(viewer.actor, { action: 'user.password-changed', clientId: viewer.user.clientId, target: viewer.user.email });
        return { kind: 'redirect', location: `${PASSWORD_PAGE_PATH}?done=changed` };
      }
    }
  });
}
