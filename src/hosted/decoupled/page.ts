/** Phase 6 (decoupled): the payer approves in the bank's app; this page refreshes itself and we ask the bank. */
import { html } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export const WAITING_REFRESH_SECONDS = 2;

export function decoupledPage(context: PageContext, sandboxAppUrl: string | undefined): string {
  const { t } = context;
  return layout(context, {
    heading: t('decoupled.heading'),
    refreshSeconds: WAITING_REFRESH_SECONDS,
    body: html`<p>${t('decoupled.intro', { bank: context.bank?.name ?? '' })}</p>${
      sandboxAppUrl === undefined ? '' : html`<p><a href="${sandboxAppUrl}" target="_blank" rel="noopener noreferrer">${t('decoupled.sandboxApp')}</a></p>`
    }`,
  });
}
