/** Phase 6 (decoupled): the payer approves in the bank's app; this page refreshes itself and we ask the bank. */
import { html } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface DecoupledView {
  /** Sandbox only: the page standing in for the bank's app. */
  readonly sandboxAppUrl: string | undefined;
  /** When the payer's time runs out (UTC ISO 8601). */
  readonly deadline: string;
}

export function decoupledPage(context: PageContext, { sandboxAppUrl }: DecoupledView): string {
  const { t } = context;
  return layout(context, {
    heading: t('decoupled.heading'),
    waiting: true,
    body: html`<p>${t('decoupled.intro', { bank: context.summary.bankName ?? '' })}</p>${
      sandboxAppUrl === undefined ? '' : html`<p><a href="${sandboxAppUrl}" target="_blank" rel="noopener noreferrer">${t('decoupled.sandboxApp')}</a></p>`
    }`,
  });
}
