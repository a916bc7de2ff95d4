/**
 * The payer's current page of a payment: which step shows (src/hosted/payer-steps.ts), in which language, with the
 * payment's summary and the client's branding, and how an action's outcome is answered (a page, or a redirect).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientLogoPath, type ClientBrandingStore } from '../branding/client-branding.js';
import type { OperatorIdentity } from '../config/config.js';
import { payerVisibleText } from '../domain/display-text.js';
import { decimalSum } from '../domain/money.js';
import { followsBulkLeader, splitSortCodeAccountNumber, type Payment, type RecipientAccountNumber } from '../domain/payment.js';
import { isWaiting, type ActionOutcome, type FlowEngine, type InputError, type Notice } from '../flow/engine.js';
import { flowStateOf } from '../flow/flow-state.js';
import { sha256, type HandoverStore } from '../flow/handovers.js';
import { isSupportedLocale, type Locale } from '../i18n/locale.js';
import { translator, type Translate } from '../i18n/messages.js';
import { actorOf, queryText, requestLocale, sendPage } from './answers.js';
import type { AccountView, MerchantView, PageContext, PaymentSummaryView } from './layout/page-context.js';
import { brandStylesheetPath } from './layout/styles.js';
import { cancelConfirmationPage } from './cancel/page.js';
import { flowIsOverForPayer } from './outcome/step.js';
import { handoverOffer, qrCodeSvg } from './handover/page.js';
import { takenOverStep } from './handover/step.js';
import { currentStep } from './payer-steps.js';
import { csrfToken, newPageKey, pageHeaders, payerCookie } from './security.js';
import type { PayerStep, PaymentRetries, StepInput } from './step.js';
import { payerMayRetryWithAnotherBank } from '../flow/retry.js';

/** The cookie marking the browser that took a payment's flow over from a desktop (its path: the payment's link). */
export const DEVICE_COOKIE = 'pis_device';

/** What the payer's pages are given besides the engine (each optional: without it, the feature is off). */
export interface PayerPagesOptions {
  /** Our public origin: the hand-over link in the QR code is absolute. */
  readonly baseUrl: string;
  /** Desktop to phone hand-overs (docs/hosted-pages.md). */
  readonly handovers?: HandoverStore;
  /** The banks failing now (the console's "Failing now"), for the bank list. */
  readonly failingBanks?: () => Promise<ReadonlySet<string>>;
  /** "Pay with another bank" on the outcome of a failure another bank could avoid (src/hosted/outcome/step.ts). */
  readonly retries?: PaymentRetries;
}

const NO_BANK_FAILING: ReadonlySet<string> = new Set();

/** What a page shows besides the step's own view. */
export interface PageExtras {
  /** Input errors of the form just posted (the page answers 422). */
  readonly errors?: readonly InputError[];
  readonly notice?: Notice;
  readonly status?: number;
  /** The bank refused the payer's input (a wrong login or code): 422. */
  readonly refused?: boolean;
}

/** The account a payment is paid to, as the payer pages show it. */
function accountViewOf(number: RecipientAccountNumber): AccountView {
  if (number.type !== 'SORT_CODE_ACCOUNT_NUMBER') return { iban: number.value };
  return {
    ...splitSortCodeAccountNumber(number.value),
    ...(number.rollNumber === undefined ? {} : { rollNumber: payerVisibleText(number.rollNumber) }),
  };
}

/** The payer's view now: a waiting page's script reloads when it changes. */
export function liveViewOf(stepName: string, payment: Payment): string {
  return `${stepName}:${payment.detailedStatus}`;
}

export class PayerPages {
  constructor(
    readonly engine: FlowEngine,
    private readonly branding: ClientBrandingStore,
    private readonly operator: OperatorIdentity,
    private readonly options: PayerPagesOptions = { baseUrl: '' },
  ) {}

  /** What a step reads of the payment and the request. */
  stepInput(request: FastifyRequest, payment: Payment): StepInput {
    const acceptLanguage = request.headers['accept-language'];
    const failingBanks = this.options.failingBanks;
    return {
      payment,
      state: flowStateOf(payment),
      engine: this.engine,
      retries: this.options.retries,
      query: (name) => queryText(request, name),
      cookie: (name) => payerCookie(request, name),
      acceptLanguage: typeof acceptLanguage === 'string' ? acceptLanguage : undefined,
      // The list is shown without the marks rather than not at all when the records of bank calls cannot be read.
      failingBanks: async () =>
        failingBanks === undefined
          ? NO_BANK_FAILING
          : failingBanks().catch((error: unknown) => {
              request.log.warn(
                { err: error, paymentId: payment.id },
                'banks failing now unknown: the bank list shows none as having problems',
              );
              return NO_BANK_FAILING;
            }),
    };
  }

  /**
   * Whether a phone took the payment's flow over and this browser is not that phone: it then only follows the
   * payment (its page takes no input) until the payer's part is over.
   */
  async takenOverElsewhere(request: FastifyRequest, payment: Payment): Promise<boolean> {
    if (this.options.handovers === undefined || flowIsOverForPayer(payment)) return false;
    const handover = await this.options.handovers.stateOf(payment.id);
    if (handover.takenAt === undefined) return false;
    const device = payerCookie(request, DEVICE_COOKIE);
    return device === undefined || sha256(device) !== handover.deviceHash;
  }

  /** The page this browser is shown now: the payment's current step, or the page following a phone that took over. */
  async stepFor(request: FastifyRequest, payment: Payment): Promise<PayerStep<unknown>> {
    return (await this.takenOverElsewhere(request, payment)) ? takenOverStep : currentStep(this.stepInput(request, payment));
  }

  /** Renders the page of the payment's current step (or sends the payer on). */
  async show(request: FastifyRequest, reply: FastifyReply, loaded: Payment, extras: PageExtras = {}): Promise<FastifyReply> {
    const { engine } = this;
    // A refund approved together with others is approved, and followed, on the page of the bulk's leader.
    const leader = followsBulkLeader(loaded) && loaded.bulkLeaderId !== null ? await engine.loadById(loaded.bulkLeaderId) : undefined;
    if (leader !== undefined) return pageHeaders(reply).code(303).header('Location', `/pay/${leader.flowToken}`).send();
    let payment = loaded;
    // A finished payment's page has a form only when it offers another bank (its CSRF token needs the key).
    if (flowStateOf(payment).page?.key === undefined && (!flowIsOverForPayer(payment) || this.offersRetry(payment)))
      payment = await engine.updatePage(payment, { pageKey: newPageKey(), ...approverOf(request, payment) });
    if (isWaiting(payment) && extras.errors === undefined) payment = await engine.refresh(payment, actorOf(request));
    const input = this.stepInput(request, payment);
    const step = await this.stepFor(request, payment);
    // A refusal of the bank (a wrong login or code) stays in the flow state: every view of the form says so, with the
    // attempts left; input errors of this very post come first. So does a notice the step keeps standing.
    const errors = extras.errors !== undefined && extras.errors.length > 0 ? extras.errors : (step.standingErrors?.(input) ?? []);
    const context = await this.contextOf(request, payment, {
      errors,
      notice: extras.notice ?? step.standingNotice?.(input),
      liveView: liveViewOf(step.name, payment),
    });
    const view = await step.view(input);
    // A completed payment's page continues to the shop by itself once: opened again, it shows the outcome and waits.
    if (
      step.name === 'outcome' &&
      payment.detailedStatus === 'PAYMENT_EXECUTION_COMPLETED' &&
      flowStateOf(payment).page?.outcomeShown !== true
    )
      await engine.updatePage(payment, { outcomeShown: true });
    const handover = step.offersHandover === true ? await this.handoverOfferOf(payment, context) : undefined;
    const status = extras.status ?? ((extras.errors !== undefined && extras.errors.length > 0) || extras.refused === true ? 422 : 200);
    return sendPage(reply, status, step.page(handover === undefined ? context : { ...context, handover }, view));
  }

  /** "Cancel this payment?": the page every page's cancel link opens (its form posts the cancel). */
  async showCancelConfirmation(request: FastifyRequest, reply: FastifyReply, loaded: Payment): Promise<FastifyReply> {
    let payment = loaded;
    if (flowStateOf(payment).page?.key === undefined)
      payment = await this.engine.updatePage(payment, { pageKey: newPageKey(), ...approverOf(request, payment) });
    const context = await this.contextOf(request, payment, { errors: [], notice: undefined, liveView: liveViewOf('cancel', payment) });
    return sendPage(reply, 200, cancelConfirmationPage(context));
  }

  /** What a page of this payment is rendered with. */
  private async contextOf(
    request: FastifyRequest,
    payment: Payment,
    view: Pick<PageContext, 'errors' | 'notice' | 'liveView'>,
  ): Promise<PageContext> {
    const locale = localeOf(request, payment);
    const merchant = await this.merchantOf(payment);
    const followers = await this.engine.bulkFollowersOf(payment);
    const pageKey = flowStateOf(payment).page?.key ?? '';
    return {
      locale,
      t: pageTranslator(locale, payment, followers.length),
      flowUrl: `/pay/${payment.flowToken}`,
      csrf: (action) => csrfToken(pageKey, action),
      summary: this.summaryOf(payment, merchant, followers),
      merchant,
      operator: this.operator,
      sandbox: payment.environment === 'sandbox',
      canGoBack: this.engine.canGoBack(payment),
      twoLogins: this.engine.twoLoginsAhead(payment),
      ...view,
    };
  }

  /** The QR code a desktop's page offers to finish on a phone (none once a phone took the flow over). */
  private async handoverOfferOf(payment: Payment, context: PageContext): Promise<PageContext['handover']> {
    const pageKey = flowStateOf(payment).page?.key ?? '';
    if (this.options.handovers === undefined || pageKey === '') return undefined;
    const secret = await this.options.handovers.linkSecret(payment.id, pageKey);
    if (secret === undefined) return undefined;
    return handoverOffer(context, await qrCodeSvg(`${this.options.baseUrl}/pay/handover/${secret}`));
  }

  private offersRetry(payment: Payment): boolean {
    return this.options.retries !== undefined && payerMayRetryWithAnotherBank(payment);
  }

  /** Answers an action's outcome: the bank's or the shop's address, the same page again, or the next page. */
  async answer(request: FastifyRequest, reply: FastifyReply, outcome: ActionOutcome): Promise<FastifyReply> {
    switch (outcome.kind) {
      case 'redirect':
        return pageHeaders(reply).code(303).header('Location', outcome.url).send();
      case 'page':
        return this.show(request, reply, outcome.payment, {
          ...(outcome.errors === undefined ? {} : { errors: outcome.errors }),
          ...(outcome.notice === undefined ? {} : { notice: outcome.notice }),
          ...(outcome.refused === true ? { refused: true } : {}),
        });
      case 'next':
        // Post/redirect/get: a reload never posts the form again.
        return pageHeaders(reply).code(303).header('Location', `/pay/${outcome.payment.flowToken}`).send();
    }
  }

  /** The payment as every page summarises it (the typed view the layout renders). */
  private summaryOf(payment: Payment, merchant: MerchantView, followers: readonly Payment[]): PaymentSummaryView {
    const bank = this.engine.bankOf(payment);
    const refund = payment.refundOf !== null;
    const bulk = followers.length === 0 ? undefined : [payment, ...followers];
    return {
      // A bulk's total, exact: added in minor units, never as floats.
      amount:
        bulk === undefined
          ? payment.amount
          : decimalSum(
              bulk.map((each) => each.amount),
              payment.currency,
            ),
      currency: payment.currency,
      merchant: merchant.name,
      recipientName: payerVisibleText(payment.recipient.name),
      recipientAccount: accountViewOf(payment.recipient.account.number),
      reference: payerVisibleText(
        bank !== undefined && payment.remittance.truncate
          ? payment.remittance.value.slice(0, bank.remittanceMaxLength)
          : payment.remittance.value,
      ),
      bankName: bank === undefined ? undefined : payerVisibleText(bank.name),
      fromIban: payment.sender?.account?.number.value,
      ...(refund ? { refund } : {}),
      ...(bulk === undefined
        ? {}
        : {
            bulk: bulk.map((each) => ({
              recipientName: payerVisibleText(each.recipient.name),
              recipientAccount: accountViewOf(each.recipient.account.number),
              amount: each.amount,
              reference: payerVisibleText(each.remittance.value),
            })),
          }),
    };
  }

  /** The client as its payers see it: its branding, falling back to the payment's recipient name. */
  private async merchantOf(payment: Payment): Promise<MerchantView> {
    const brand = await this.branding.get(payment.clientId);
    // A refund's recipient is the payer: without branding, the merchant is named as the refunded payment's recipient.
    const refunded =
      brand?.displayName === undefined && payment.refundOf !== null ? await this.engine.loadById(payment.refundOf) : undefined;
    return {
      // Names and references reach the payer only through payerVisibleText: NFC, no control or format characters.
      name: payerVisibleText(brand?.displayName ?? refunded?.recipient.name ?? payment.recipient.name),
      logo:
        brand?.logo === undefined
          ? undefined
          : { path: clientLogoPath(brand.logo.sha256), width: brand.logo.width, height: brand.logo.height },
      supportUrl: brand?.supportUrl,
      stylesheetPath: brand?.brandColour === undefined ? undefined : brandStylesheetPath(brand.brandColour),
    };
  }
}

/**
 * A refund's PSU is the merchant's approver, who first appears here: their browser's address and user agent replace
 * the refund request's (which came from the merchant's server) before any bank is called (docs/api-decisions.md,
 * "Refunds"). Nothing for other payments, whose client sent the payer's own.
 */
function approverOf(request: FastifyRequest, payment: Payment): { psu?: { ipAddress: string; userAgent: string } } {
  if (payment.refundOf === null) return {};
  const userAgent = request.headers['user-agent'];
  return {
    psu: {
      ipAddress: /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(request.ip)?.[1] ?? request.ip,
      userAgent: typeof userAgent === 'string' && userAgent !== '' ? userAgent.slice(0, 1024) : payment.psuUserAgent,
    },
  };
}

/**
 * The words of a payment's pages: a refund's (docs/api-decisions.md, "Refunds") speak to the merchant's approver
 * paying the customer, its recipient, back, every other payment's to its payer. A refund leading `followers` others
 * approved together pays back all their customers ("3 customers").
 */
export function pageTranslator(locale: Locale, payment: Pick<Payment, 'refundOf' | 'recipient'>, followers = 0): Translate {
  if (payment.refundOf === null) return translator(locale);
  const recipient =
    followers === 0
      ? payerVisibleText(payment.recipient.name)
      : translator(locale)('summary.bulkRecipients', { count: String(followers + 1) });
  return translator(locale, { recipient });
}

/** The page's language: asked for in the query, else the payment's, else the browser's. */
function localeOf(request: FastifyRequest, payment: Payment): Locale {
  // A finished payment's language is not stored any more: the switch applies to the page asked for.
  const asked = queryText(request, 'lang');
  if (asked !== undefined && isSupportedLocale(asked)) return asked;
  const stored = payment.locale;
  return stored !== null && isSupportedLocale(stored) ? stored : requestLocale(request);
}
