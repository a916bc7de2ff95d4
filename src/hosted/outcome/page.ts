/**
 * The outcome: completed (a receipt, Continue, and an automatic continue after a few seconds the payer can stop),
 * still processing at the bank (what that means, and that the shop will be told; the page follows the status), or
 * failed (the reason in plain words and what to do next). Continue goes to the shop's return address.
 */
import type { MessageKey } from '../../i18n/messages.js';
import { html, type SafeHtml } from '../html.js';
import { bulkLines, formatAmount, formatIban, layout, paymentSummary, postForm, textWith } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

export type FailureGroup = 'cancelled' | 'expired' | 'authentication' | 'consent' | 'funds' | 'bank' | 'technical';

export interface OutcomeView {
  readonly kind: 'completed' | 'processing' | 'failed';
  /** For a failed payment: what kind of failure, for the payer's words. */
  readonly failure: FailureGroup | undefined;
  /** The shop's return address, with our payment id. */
  readonly continueUrl: string;
  /** Completed only: seconds before the page continues by itself. */
  readonly autoContinueSeconds: number | undefined;
  /** Failed only: "pay with another bank" is offered (src/domain/retry.ts). */
  readonly retry: boolean;
}

function receipt(context: PageContext): SafeHtml {
  const { t, summary } = context;
  if (summary.bulk !== undefined) {
    // Refunds approved together: their total, then each refund (who was paid back, with which reference).
    return html`<dl class="receipt">
<dt>${t('summary.amount')}</dt><dd class="amount">${formatAmount(summary.amount, summary.currency, context.locale)}</dd>
${summary.bankName === undefined ? '' : html`<dt>${t('summary.bank')}</dt><dd>${summary.bankName}</dd>`}
${summary.fromIban === undefined ? '' : html`<dt>${t('summary.from')}</dt><dd>${formatIban(summary.fromIban)}</dd>`}
</dl>${bulkLines(context)}`;
  }
  return html`<dl class="receipt">
<dt>${t('summary.amount')}</dt><dd class="amount">${formatAmount(summary.amount, summary.currency, context.locale)}</dd>
<dt>${t('outcome.paidTo')}</dt><dd>${summary.refund === true ? summary.recipientName : summary.merchant}</dd>
<dt>${t('summary.reference')}</dt><dd>${summary.reference}</dd>
${summary.bankName === undefined ? '' : html`<dt>${t('summary.bank')}</dt><dd>${summary.bankName}</dd>`}
${summary.fromIban === undefined ? '' : html`<dt>${t('summary.from')}</dt><dd>${formatIban(summary.fromIban)}</dd>`}
</dl>`;
}

const HEADINGS: Readonly<Record<OutcomeView['kind'], MessageKey>> = {
  completed: 'outcome.completed.heading',
  processing: 'outcome.processing.heading',
  failed: 'outcome.failed.heading',
};

export function outcomePage(context: PageContext, view: OutcomeView): string {
  const { t } = context;
  const merchant = context.summary.merchant;
  const onward = html`<a class="button ${view.retry ? 'secondary' : 'primary'}" id="continue" href="${view.continueUrl}"${
    view.autoContinueSeconds === undefined ? '' : html` data-auto-continue="${String(view.autoContinueSeconds)}"`
  }>${t('outcome.continue', { merchant })}</a>`;
  let body: SafeHtml;
  switch (view.kind) {
    case 'completed': {
      const lead = html`<p class="lead">${t('outcome.completed.lead', { merchant })}</p>${receipt(context)}`;
      if (view.autoContinueSeconds === undefined) {
        // Opened again: nothing moves by itself; the payer goes back when they choose.
        body = html`${lead}${onward}`;
        break;
      }
      const seconds = String(view.autoContinueSeconds);
      body = html`${lead}
<p class="hint" data-auto-note hidden>${textWith(t('outcome.completed.auto', { merchant }), 'seconds', html`<span data-countdown>${seconds}</span>`)}</p>
<noscript><p class="hint">${t('outcome.completed.autoNoScript', { merchant })}</p></noscript>
${onward}<button type="button" class="secondary" data-stay hidden>${t('outcome.stay')}</button>`;
      break;
    }
    case 'processing':
      body = html`<p>${t('outcome.processing.lead')}</p>
<p>${t('outcome.processing.told', { merchant })}</p>${receipt(context)}${onward}`;
      break;
    case 'failed': {
      const group = view.failure ?? 'technical';
      // With another bank on offer, that is the way on; going back to the shop stays beside it, secondary.
      body = view.retry
        ? html`<p class="lead">${t(`outcome.reason.${group}`)}</p>
<p>${t('retry.offer', { merchant })}</p>${paymentSummary(context, { sentence: false })}
${postForm(context, 'retry', html`<button type="submit" class="primary" id="retry">${t('retry.button')}</button>`)}${onward}`
        : html`<p class="lead">${t(`outcome.reason.${group}`)}</p>
<p>${t(`outcome.next.${group}`, { merchant })}</p>${paymentSummary(context, { sentence: false })}${onward}`;
      break;
    }
  }
  return layout(context, {
    // The payer's own cancel (on our page or at the bank) is said as such, not as a failure.
    heading: t(view.kind === 'failed' && view.failure === 'cancelled' ? 'cancel.done.heading' : HEADINGS[view.kind]),
    body,
    summary: false,
    ...(view.kind === 'completed' ? { mark: 'done' as const } : view.kind === 'failed' ? { mark: 'failed' as const } : {}),
    cancel: false,
    back: false,
    waiting: view.kind === 'processing',
    ...(view.autoContinueSeconds === undefined ? {} : { noScriptRefresh: { seconds: view.autoContinueSeconds, url: view.continueUrl } }),
  });
}
