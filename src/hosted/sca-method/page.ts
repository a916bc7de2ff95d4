/** Phase 6 (embedded): the payer chooses one of the bank's SCA methods. */
import type { ScaMethod } from '../../connectors/index.js';
import { html } from '../html.js';
import { layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export interface ScaMethodView {
  readonly methods: readonly ScaMethod[];
}

export function scaMethodPage(context: PageContext, { methods }: ScaMethodView): string {
  const { t } = context;
  const inner = html`<fieldset><legend>${t('method.legend', { bank: context.summary.bankName ?? '' })}</legend>${methods.map(
    (method, index) =>
      html`<label class="choice"><input type="radio" name="methodId" value="${method.id}"${index === 0 ? html` checked` : ''}><span>${method.name ?? method.type}</span></label>`,
  )}</fieldset><button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, { heading: t('method.heading'), body: postForm(context, 'method', inner) });
}
