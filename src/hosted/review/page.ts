/** The review before the bank is called (custom mode's first page, and the page to try again after a bank error). */
import { html } from '../html.js';
import { layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export function reviewPage(context: PageContext): string {
  const { t } = context;
  const inner = html`<button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, {
    heading: t('review.heading'),
    body: html`<p>${t('review.intro', { bank: context.summary.bankName ?? '' })}</p>${postForm(context, 'continue', inner)}`,
  });
}
