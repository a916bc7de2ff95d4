/** Phase 3: the payer logs in to an embedded bank (asked again when an earlier password is gone: it is never kept). */
import { html } from '../html.js';
import { field, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export function senderLoginPage(context: PageContext): string {
  const { t } = context;
  const inner = html`<p>${t('followup.intro')}</p>
${field(context, { name: 'loginId', label: t('field.loginId'), type: 'text', autocomplete: 'username', maxlength: 256 })}
${field(context, { name: 'password', label: t('field.password'), type: 'password', autocomplete: 'current-password', maxlength: 256 })}
<button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, { heading: t('login.heading', { bank: context.bank?.name ?? '' }), body: postForm(context, 'details', inner, { novalidate: true }) });
}
