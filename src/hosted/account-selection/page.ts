/** Phase 4: the payer chooses the sending account among the eligible ones the bank listed. */
import { payerVisibleText } from '../../domain/display-text.js';
import type { OfferedAccount } from '../../flow/flow-state.js';
import { html } from '../html.js';
import { formatIban, layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface AccountSelectionView {
  readonly accounts: readonly OfferedAccount[];
}

export function accountSelectionPage(context: PageContext, { accounts }: AccountSelectionView): string {
  const { t } = context;
  const inner = html`<fieldset><legend>${t('account.legend', { bank: context.summary.bankName ?? '' })}</legend>${accounts.map(
    (account, index) =>
      html`<label class="choice"><input type="radio" name="iban" value="${account.iban}"${index === 0 ? html` checked` : ''}><span>${account.name === undefined ? '' : payerVisibleText(account.name)} ${formatIban(account.iban)} (${account.currency})</span></label>`,
  )}</fieldset><button type="submit" class="primary">${t('account.submit')}</button>`;
  return layout(context, { heading: t('account.heading'), body: postForm(context, 'account', inner) });
}
