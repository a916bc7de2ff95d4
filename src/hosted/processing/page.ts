/** While we wait for the bank's answer (after a timeout, or while another request works on the payment). */
import { html } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export function processingPage(context: PageContext): string {
  const { t } = context;
  return layout(context, {
    heading: t('processing.heading'),
    waiting: true,
    cancel: false,
    back: false,
    body: html`<p>${t('processing.intro')}</p><p class="hint">${t('processing.hint')}</p>`,
  });
}
