/** What every hosted page is rendered with: the payer's language, the payment, and the form tokens. */
import type { Payment } from '../../domain/payment.js';
import type { Bank } from '../../providers/catalogue.js';
import type { Locale } from '../../i18n/locale.js';
import type { Translate } from '../../i18n/messages.js';
import type { InputError, Notice } from '../../flow/engine.js';
import { csrfToken } from '../security.js';

export interface PageContext {
  readonly locale: Locale;
  readonly t: Translate;
  readonly payment: Payment;
  readonly bank: Bank | undefined;
  readonly pageKey: string;
  readonly errors: readonly InputError[];
  readonly notice: Notice | undefined;
}

export function formAction(context: PageContext, action: string): string {
  return `/pay/${context.payment.flowToken}/${action}`;
}

export function tokenFor(context: PageContext, action: string): string {
  return csrfToken(context.pageKey, action);
}
