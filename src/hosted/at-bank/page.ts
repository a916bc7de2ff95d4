/** The payer came back to our link while the bank's page waits for them: a link to go on there. */
import { html } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface AtBankView {
  /** The bank's page for the payer. */
  readonly bankUrl: string;
}

export function atBankPage(context: PageContext, { bankUrl }: AtBankView): string {
  const { t } = context;
  const bank = context.summary.bankName ?? '';
  return layout(context, {
    heading: t('atBank.heading', { bank }),
    body: html`<p>${t('atBank.intro')}</p><p><a class="button primary" href="${bankUrl}">${t('atBank.link', { bank })}</a></p>`,
  });
}
