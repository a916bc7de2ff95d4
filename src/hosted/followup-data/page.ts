/** Phase 2: what the bank needs and the request lacked (login id, password, sender IBAN). */
import type { FollowupNeeds } from '../../flow/steps/followup-data.js';
import { html } from '../html.js';
import { consentLine, field, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface FollowupDataView {
  readonly needs: FollowupNeeds;
}

export function followupDataPage(context: PageContext, { needs }: FollowupDataView): string {
  const { t } = context;
  const bankName = context.summary.bankName ?? '';
  const credentials = needs.loginId || needs.password;
  const inner = html`${credentials ? html`<p>${t('followup.intro')}</p>` : ''}
${needs.loginId ? field(context, { name: 'loginId', label: t('field.loginId'), type: 'text', autocomplete: 'username', maxlength: 256 }) : ''}
${needs.password ? field(context, { name: 'password', label: t('field.password'), type: 'password', autocomplete: 'current-password', maxlength: 256 }) : ''}
${needs.senderIban ? field(context, { name: 'iban', label: t('field.iban'), type: 'text', autocomplete: 'off', hint: t('field.ibanHint'), maxlength: 42 }) : ''}
${consentLine(context)}<button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, {
    heading: t('followup.heading', { bank: bankName }),
    body: postForm(context, 'details', inner, { novalidate: true, keepsLoginId: needs.loginId }),
    formFirst: true,
  });
}
