/**
 * What every hosted page is rendered with: the payer's language, the payment as the payer sees it (a view, never
 * the stored payment or its flow state), the page's links and form tokens, and the messages of this view.
 */
import type { Locale } from '../../i18n/locale.js';
import type { Translate } from '../../i18n/messages.js';
import type { InputError, Notice } from '../../flow/engine.js';
import type { OperatorIdentity } from '../../config/config.js';
import type { SafeHtml } from '../html.js';

/**
 * The account paid to, as the payer checks it: an IBAN, or (a refund to a UK payer, docs/api-decisions.md "Refunds")
 * a sort code and account number with the building society's roll number, if any.
 */
export type AccountView =
  { readonly iban: string } | { readonly sortCode: string; readonly accountNumber: string; readonly rollNumber?: string };

/** The payment as every page summarises it. */
export interface PaymentSummaryView {
  /** Decimal string, formatted for the payer's locale by the layout. */
  readonly amount: string;
  readonly currency: string;
  /** Who is paid, as the payer should recognise it (the shop). */
  readonly merchant: string;
  readonly recipientName: string;
  readonly recipientAccount: AccountView;
  /** The reference as it will reach the bank (cut to the bank's limit when the client allowed it). */
  readonly reference: string;
  readonly bankName: string | undefined;
  readonly fromIban: string | undefined;
  /**
   * A refund (docs/api-decisions.md, "Refunds"): the merchant's approver pays the payer (`recipientName`) back; the
   * merchant is still who the pages are of, told of the outcome and returned to.
   */
  readonly refund?: boolean;
  /**
   * Refunds approved together (docs/api-decisions.md, "Many refunds, one approval"): each refund of the bulk, the
   * leader first; `amount` above is then their total. Absent outside a bulk.
   */
  readonly bulk?: readonly BulkLineView[];
}

/** One refund of a bulk, as the approver checks it before authorising them all. */
export interface BulkLineView {
  readonly recipientName: string;
  readonly recipientAccount: AccountView;
  readonly amount: string;
  readonly reference: string;
}

/** The client as its payers see it in the header and the footer (its branding, src/branding/). */
export interface MerchantView {
  /** The branding's display name, else the payment's recipient name. */
  readonly name: string;
  /** Our URL of the logo we re-encoded, with its size (the image is named by its hash, so it is cached for long). */
  readonly logo: { readonly path: string; readonly width: number; readonly height: number } | undefined;
  readonly supportUrl: string | undefined;
  /** Our stylesheet painting the primary buttons in the brand colour (its text colour chosen for contrast). */
  readonly stylesheetPath: string | undefined;
}

export interface PageContext {
  readonly locale: Locale;
  readonly t: Translate;
  /** The payment's flow link (`/pay/<token>`): the page's own address, base of its forms. */
  readonly flowUrl: string;
  /** The CSRF token of a form posting to `action`. */
  readonly csrf: (action: string) => string;
  readonly summary: PaymentSummaryView;
  readonly merchant: MerchantView;
  /** The operator of this service: named in the payment sentence, its statement and links in the footer. */
  readonly operator: OperatorIdentity;
  readonly sandbox: boolean;
  /** Whether the payer may still go back to the bank list (hosted mode, before the bank holds the payment). */
  readonly canGoBack: boolean;
  /** The bank will ask the payer to log in twice (a consent first), and the first login is still ahead. */
  readonly twoLogins: boolean;
  readonly errors: readonly InputError[];
  readonly notice: Notice | undefined;
  /** What the payer sees now (step and status): a waiting page's script reloads when the status endpoint differs. */
  readonly liveView: string;
  /** A desktop's offer to finish on a phone (a QR code of a single-use link), on the steps that offer it. */
  readonly handover?: SafeHtml;
}

export function formAction(context: Pick<PageContext, 'flowUrl'>, action: string): string {
  return `${context.flowUrl}/${action}`;
}
