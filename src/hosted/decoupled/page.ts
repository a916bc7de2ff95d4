/** Phase 6 (decoupled): the payer approves in the bank's app; this page follows the status and we ask the bank. */
import { html } from '../html.js';
import { layout, textWith } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface DecoupledView {
  /** Sandbox only: the page standing in for the bank's app. */
  readonly sandboxAppUrl: string | undefined;
  /** When the payer's time runs out (UTC ISO 8601): the script counts the minutes down to it. */
  readonly deadline: string;
  /** Whole minutes left until the deadline when the page was made (at least 0). */
  readonly minutesLeft: number;
}

export function decoupledPage(context: PageContext, view: DecoupledView): string {
  const { t } = context;
  const minutes = html`<span data-until="${view.deadline}">${String(view.minutesLeft)}</span>`;
  return layout(context, {
    heading: t('decoupled.heading'),
    waiting: true,
    body: html`<p class="lead">${t('decoupled.openApp')}</p><p>${t('decoupled.intro', { bank: context.summary.bankName ?? '' })}</p>
<p class="timer">${textWith(t('decoupled.timeLeft'), 'minutes', minutes)}</p>${
      view.sandboxAppUrl === undefined
        ? ''
        : html`<p><a href="${view.sandboxAppUrl}" target="_blank" rel="noopener noreferrer">${t('decoupled.sandboxApp')}</a></p>`
    }`,
  });
}
