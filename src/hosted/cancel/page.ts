/**
 * "Cancel this payment?": every page links here (`GET /pay/:flowToken/cancel`) instead of cancelling at once, so a
 * slip of the finger does not end the payment. The payer confirms with a form (no script needed) or goes back to
 * the page they came from; confirmed, the flow link shows the cancelled page with the way back to the shop.
 */
import { html } from '../html.js';
import { layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export function cancelConfirmationPage(context: PageContext): string {
  const { t } = context;
  const merchant = context.summary.merchant;
  const confirm = html`<button type="submit" class="primary">${t('cancel.confirm')}</button>`;
  return layout(context, {
    heading: t('cancel.heading'),
    body: html`<p>${t('cancel.intro', { merchant })}</p>${postForm(context, 'cancel', confirm)}<a class="button secondary" href="${context.flowUrl}">${t('cancel.keep')}</a>`,
    compactSummary: true,
    cancel: false,
    back: false,
  });
}
