/**
 * The review before the bank is called (custom mode's first page, and the page to try again after a bank error). It
 * says what Continue leads to, for the bank's approach: our form for the login details, the bank's pages, its app,
 * or a confirmation on our pages.
 */
import type { MessageKey } from '../../i18n/messages.js';
import { html } from '../html.js';
import { consentLine, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface ReviewView {
  /** What comes after Continue (undefined: no bank yet, which a review page does not meet). */
  readonly next: 'credentials' | 'redirect' | 'decoupled' | 'embedded' | undefined;
}

const INTROS: Readonly<Record<NonNullable<ReviewView['next']>, MessageKey>> = {
  credentials: 'review.intro.credentials',
  redirect: 'review.intro',
  decoupled: 'review.intro.decoupled',
  embedded: 'review.intro.embedded',
};

export function reviewPage(context: PageContext, view: ReviewView): string {
  const { t } = context;
  const inner = html`${consentLine(context)}<button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, {
    heading: t('review.heading'),
    body: html`<p>${t(INTROS[view.next ?? 'redirect'], { bank: context.summary.bankName ?? '' })}</p>${postForm(context, 'continue', inner)}`,
  });
}
