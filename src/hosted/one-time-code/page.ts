/** Phase 6 (embedded): the one-time code. A wrong code with attempts left shows this page again with the error. */
import { html } from '../html.js';
import { field, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';
import { methodLabel, type KnownScaType } from '../sca-method/page.js';

export interface OneTimeCodeView {
  /** The method the code comes by, when known (undefined: not said, or a type we do not know). */
  readonly methodType: KnownScaType | undefined;
  /** The bank's own words for the method, shown as the bank's. */
  readonly methodText: string | undefined;
  /** The bank's own words about the code (its challenge), shown as the bank's. */
  readonly challengeText: string | undefined;
  readonly numeric: boolean;
  readonly maxLength: number;
}

export function oneTimeCodePage(context: PageContext, view: OneTimeCodeView): string {
  const { t } = context;
  const method =
    view.methodType === undefined && view.methodText === undefined
      ? ''
      : html`<p class="method">${methodLabel(context, { type: view.methodType, bankText: view.methodText })}</p>`;
  const inner = html`<p>${t('otp.sent')}</p>${method}
${view.challengeText === undefined ? '' : html`<p class="bank-says">${t('bankSays', { text: view.challengeText })}</p>`}
${field(context, { name: 'otp', label: t('otp.label'), type: 'text', autocomplete: 'one-time-code', maxlength: view.maxLength, ...(view.numeric ? { inputmode: 'numeric' } : {}) })}
<button type="submit" class="primary">${t('otp.submit')}</button>`;
  return layout(context, { heading: t('otp.heading'), body: postForm(context, 'code', inner, { novalidate: true }), formFirst: true });
}
