/**
 * Phase 6 (embedded): the payer chooses one of the bank's SCA methods. Methods we know are named in the payer's
 * language; the bank's own text (its name for the method: "SMS to +49 170 …") is shown as the bank's.
 */
import { html, type SafeHtml } from '../html.js';
import { layout, postForm } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

/** Berlin Group `authenticationType`s we name ourselves. */
export const KNOWN_SCA_TYPES = ['SMS_OTP', 'CHIP_OTP', 'PHOTO_OTP', 'PUSH_OTP', 'SMTP_OTP'] as const;
export type KnownScaType = (typeof KNOWN_SCA_TYPES)[number];

export interface ScaMethodChoice {
  readonly id: string;
  /** Undefined: a type we do not know (the bank's text alone describes it). */
  readonly type: KnownScaType | undefined;
  /** The bank's own words for it (its name and explanation), shown as the bank's. */
  readonly bankText: string | undefined;
}

export interface ScaMethodView {
  readonly methods: readonly ScaMethodChoice[];
}

/** A method as the payer reads it: our name for the type, then the bank's words marked as the bank's. */
export function methodLabel(context: PageContext, method: Pick<ScaMethodChoice, 'type' | 'bankText'>): SafeHtml {
  const { t } = context;
  const name = method.type === undefined ? t('scaType.other') : t(`scaType.${method.type}`);
  const bankSays = method.bankText === undefined ? '' : html`<span class="bank-says">${t('bankSays', { text: method.bankText })}</span>`;
  return html`<span><strong>${name}</strong>${bankSays}</span>`;
}

export function scaMethodPage(context: PageContext, { methods }: ScaMethodView): string {
  const { t } = context;
  const inner = html`<fieldset><legend>${t('method.legend', { bank: context.summary.bankName ?? '' })}</legend>${methods.map(
    (method, index) =>
      html`<label class="choice"><input type="radio" name="methodId" value="${method.id}"${index === 0 ? html` checked` : ''}>${methodLabel(context, method)}</label>`,
  )}</fieldset><button type="submit" class="primary">${t('page.continue')}</button>`;
  return layout(context, { heading: t('method.heading'), body: postForm(context, 'method', inner) });
}
