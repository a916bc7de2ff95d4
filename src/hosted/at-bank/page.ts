/** The payer came back to our link while the bank's page waits for them: a link to go on there. */
import { html } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export function atBankPage(context: PageContext, bankUrl: string): string {
  const { t } = context;
  const bank = context.bank?.name ?? '';
  return layout(context, {
    heading: t('atBank.heading', { bank }),
    body: html`<p>${t('atBank.intro')}</p><p><a class="button primary" href="${bankUrl}">${t('atBank.link', { bank })}</a></p>`,
  });
}
