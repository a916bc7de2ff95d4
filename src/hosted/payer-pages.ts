/**
 * The payer's current page of a payment: which step shows (src/hosted/payer-steps.ts), in which language, with the
 * payment's summary and the client's branding, and how an action's outcome is answered (a page, or a redirect).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientLogoPath, type ClientBrandingStore } from '../branding/client-branding.js';
import type { OperatorIdentity } from '../config/config.js';
import { payerVisibleText } from '../domain/display-text.js';
import type { Payment } from '../domain/payment.js';
import { isWaiting, type ActionOutcome, type FlowEngine, type InputError, type Notice } from '../flow/engine.js';
import { flowStateOf } from '../flow/flow-state.js';
import { isSupportedLocale, type Locale } from '../i18n/locale.js';
import { translator } from '../i18n/messages.js';
import { actorOf, queryText, requestLocale, sendPage } from './answers.js';
import type { MerchantView, PageContext, PaymentSummaryView } from './layout/page-context.js';
import { brandStylesheetPath } from './layout/styles.js';
import { cancelConfirmationPage } from './cancel/page.js';
import { flowIsOverForPayer } from './outcome/step.js';
import { currentStep } from './payer-steps.js';
import { csrfToken, newPageKey, pageHeaders } from './security.js';
import type { StepInput } from './step.js';

/** What a page shows besides the step's own view. */
export interface PageExtras {
  /** Input errors of the form just posted (the page answers 422). */
  readonly errors?: readonly InputError[];
  readonly notice?: Notice;
  readonly status?: number;
  /** The bank refused the payer's input (a wrong login or code): 422. */
  readonly refused?: boolean;
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
  ) {}

  /** What a step reads of the payment and the request. */
  stepInput(request: FastifyRequest, payment: Payment): StepInput {
    return { payment, state: flowStateOf(payment), engine: this.engine, query: (name) => queryText(request, name) };
  }

  /** Renders the page of the payment's current step (or sends the payer on). */
  async show(request: FastifyRequest, reply: FastifyReply, loaded: Payment, extras: PageExtras = {}): Promise<FastifyReply> {
    const { engine } = this;
    let payment = loaded;
    if (flowStateOf(payment).pageKey === undefined && !flowIsOverForPayer(payment))
      payment = await engine.updatePage(payment, { pageKey: newPageKey() });
    if (isWaiting(payment) && extras.errors === undefined) payment = await engine.refresh(payment, actorOf(request));
    const input = this.stepInput(request, payment);
    const step = currentStep(input);
    // A refusal of the bank (a wrong login or code) stays in the flow state: every view of the form says so, with the
    // attempts left; input errors of this very post come first. So does a notice the step keeps standing.
    const errors = extras.errors !== undefined && extras.errors.length > 0 ? extras.errors : (step.standingErrors?.(input) ?? []);
    const context = await this.contextOf(request, payment, {
      errors,
      notice: extras.notice ?? step.standingNotice?.(input),
      liveView: liveViewOf(step.name, payment),
    });
    const view = step.view(input);
    // A completed payment's page continues to the shop by itself once: opened again, it shows the outcome and waits.
    if (step.name === 'outcome' && payment.detailedStatus === 'PAYMENT_EXECUTION_COMPLETED' && flowStateOf(payment).outcomeShown !== true)
      await engine.updatePage(payment, { outcomeShown: true });
    const status = extras.status ?? ((extras.errors !== undefined && extras.errors.length > 0) || extras.refused === true ? 422 : 200);
    return sendPage(reply, status, step.page(context, view));
  }

  /** "Cancel this payment?": the page every page's cancel link opens (its form posts the cancel). */
  async showCancelConfirmation(request: FastifyRequest, reply: FastifyReply, loaded: Payment): Promise<FastifyReply> {
    let payment = loaded;
    if (flowStateOf(payment).pageKey === undefined) payment = await this.engine.updatePage(payment, { pageKey: newPageKey() });
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
    const pageKey = flowStateOf(payment).pageKey ?? '';
    return {
      locale,
      t: translator(locale),
      flowUrl: `/pay/${payment.flowToken}`,
      csrf: (action) => csrfToken(pageKey, action),
      summary: this.summaryOf(payment, merchant),
      merchant,
      operator: this.operator,
      sandbox: payment.environment === 'sandbox',
      canGoBack: this.engine.canGoBack(payment),
      twoLogins: this.engine.twoLoginsAhead(payment),
      ...view,
    };
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
  private summaryOf(payment: Payment, merchant: MerchantView): PaymentSummaryView {
    const bank = this.engine.bankOf(payment);
    return {
      amount: payment.amount,
      currency: payment.currency,
      merchant: merchant.name,
      recipientName: payerVisibleText(payment.recipient.name),
      recipientIban: payment.recipient.account.number.value,
      reference: payerVisibleText(
        bank !== undefined && payment.remittance.truncate
          ? payment.remittance.value.slice(0, bank.remittanceMaxLength)
          : payment.remittance.value,
      ),
      bankName: bank === undefined ? undefined : payerVisibleText(bank.name),
      fromIban: payment.sender?.account?.number.value,
    };
  }

  /** The client as its payers see it: its branding, falling back to the payment's recipient name. */
  private async merchantOf(payment: Payment): Promise<MerchantView> {
    const brand = await this.branding.get(payment.clientId);
    return {
      // Names and references reach the payer only through payerVisibleText: NFC, no control or format characters.
      name: payerVisibleText(brand?.displayName ?? payment.recipient.name),
      logo:
        brand?.logo === undefined
          ? undefined
          : { path: clientLogoPath(brand.logo.sha256), width: brand.logo.width, height: brand.logo.height },
      supportUrl: brand?.supportUrl,
      stylesheetPath: brand?.brandColour === undefined ? undefined : brandStylesheetPath(brand.brandColour),
    };
  }
}

/** The page's language: asked for in the query, else the payment's, else the browser's. */
function localeOf(request: FastifyRequest, payment: Payment): Locale {
  // A finished payment's language is not stored any more: the switch applies to the page asked for.
  const asked = queryText(request, 'lang');
  if (asked !== undefined && isSupportedLocale(asked)) return asked;
  const stored = payment.locale;
  return stored !== null && isSupportedLocale(stored) ? stored : requestLocale(request);
}
