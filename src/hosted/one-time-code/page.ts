/** Phase 6 (embedded): the one-time code. A wrong code with attempts left shows this page again with the error. */
import type { ScaChallenge, ScaMethod } from '../../connectors/index.js';
import { html } from '../html.js';
import { field, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface OneTimeCodeView {
  readonly method: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
}

export function oneTimeCodePage(context: PageContext, { method, challenge }: OneTimeCodeView): string {
  const { t } = context;
  const numeric = challenge?.otpFormat === 'integer';
  const inner = html`<p>${method?.name === undefined ? t('otp.sent') : t('otp.sentVia', { method: method.name })}</p>
${field(context, { name: 'otp', label: t('otp.label'), type: 'text', autocomplete: 'one-time-code', maxlength: challenge?.otpMaxLength ?? 64, ...(numeric ? { inputmode: 'numeric' } : {}) })}
<button type="submit" class="primary">${t('otp.submit')}</button>`;
  return layout(context, { heading: t('otp.heading'), body: postForm(context, 'code', inner, { novalidate: true }) });
}
