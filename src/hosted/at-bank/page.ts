/** The payer came back to our link while the bank's page waits for them: a link to go on there. */
import { html } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface AtBankView {
  /** The bank's page for the payer. */
  readonly bankUrl: string;
  /** What the bank's page asks: the account-information consent (phase 4) or the payment itself. */
  readonly purpose: 'consent' | 'payment';
}

export function atBankPage(context: PageContext, { bankUrl, purpose }: AtBankView): string {
  const { t } = context;
  const bank = context.summary.bankName ?? '';
  return layout(context, {
    heading: purpose === 'consent' ? t('atBank.consentHeading', { bank }) : t('atBank.heading', { bank }),
    body: html`<p>${purpose === 'consent' ? t('atBank.consentIntro') : t('atBank.intro')}</p><p><a class="button primary" href="${bankUrl}">${t('atBank.link', { bank })}</a></p>`,
  });
}
