/** The page where the signed-in person changes their password. Passwords are never put back into the form or shown. */
import { html } from '../../hosted/html.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../people/passwords.js';
import { consolePage, csrfField, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';

export const PASSWORD_PAGE_PATH = '/console/account/password';

export interface PasswordPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly problems?: readonly string[];
  /** The fields the problems are about. */
  readonly wrong?: 'current' | 'new';
  readonly changed?: boolean;
}

export function passwordPage(view: PasswordPageView): string {
  const { viewer } = view;
  const marked = (field: 'current' | 'new') => (view.wrong === field ? html` aria-invalid="true"` : '');
  return consolePage({
    title: 'Change your password',
    section: undefined,
    viewer,
    navigation: view.navigation,
    lead: `At least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a strong one. Your other sessions end when it changes.`,
    body: html`${errorSummary(view.problems ?? [])}${view.changed === true ? notice('Your password is changed. Your other sessions ended.', 'success') : ''}
<form class="card narrow" method="post" action="${PASSWORD_PAGE_PATH}">${csrfField(viewer.csrfToken)}
<input type="text" name="username" autocomplete="username" value="${viewer.user.email}" hidden>
<div class="field"><label for="current">Current password</label><input id="current" name="current" type="password" autocomplete="current-password" required maxlength="${MAX_PASSWORD_LENGTH}"${marked('current')}></div>
<div class="field"><label for="next">New password</label><input id="next" name="next" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"${marked('new')}></div>
<div class="field"><label for="confirm">New password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="${MAX_PASSWORD_LENGTH}"${marked('new')}></div>
<div class="actions"><button class="primary" type="submit">Change password</button></div>
</form>`,
  });
}
