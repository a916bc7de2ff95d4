/**
 * The payer logs in to an embedded bank: phase 3 (banks that need the login first), and phase 6 when the password
 * of an earlier request is gone (it is never kept) after a bank error took the answer to the login. Asks only for
 * what the bank lacks: once it registered the payment with the user ID, the password alone.
 */
import { html } from '../html.js';
import { consentLine, field, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface SenderLoginView {
  readonly needs: { readonly loginId: boolean; readonly password: boolean };
  /**
   * The connection was interrupted after the login ("please enter your password again"), or after the start of a
   * decoupled authorisation, which the login id starts again ("please enter your user ID again").
   */
  readonly again: boolean;
}

export function senderLoginPage(context: PageContext, { needs, again }: SenderLoginView): string {
  const { t } = context;
  const intro = !again || (needs.loginId && needs.password) ? t('followup.intro') : needs.password ? t('login.again') : t('login.againApp');
  const inner = html`<p>${intro}</p>
${needs.loginId ? field(context, { name: 'loginId', label: t('field.loginId'), type: 'text', autocomplete: 'username', maxlength: 256 }) : ''}
${needs.password ? field(context, { name: 'password', label: t('field.password'), type: 'password', autocomplete: 'current-password', maxlength: 256 }) : ''}
${consentLine(context)}<button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, {
    heading: t('login.heading', { bank: context.summary.bankName ?? '' }),
    body: postForm(context, 'details', inner, { novalidate: true, keepsLoginId: needs.loginId }),
    formFirst: true,
  });
}
