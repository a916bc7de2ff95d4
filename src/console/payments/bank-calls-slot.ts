/**
 * The bank calls made for a payment (operation, outcome, HTTP status of a failure, latency), from the records of
 * bank calls (table `bank_calls`). The records hold nothing else: never credentials, tokens, bodies or URLs. The
 * payment page shows this between the timeline and the webhook deliveries; the caller has checked the viewer may
 * see the payment.
 */
import { html, type SafeHtml } from '../../hosted/html.js';
import type { BankCallOutcome } from '../../storage/schema.js';
import { bankCallsOf } from '../banks/queries.js';
import { duration, timeTag } from '../format.js';
import { emptyState } from '../layout.js';
import type { ConsoleServices } from '../services.js';

const OUTCOME: Record<BankCallOutcome, { word: string; tone: string }> = {
  ok: { word: 'OK', tone: 'completed' },
  refused: { word: 'Refused', tone: 'pending' },
  unavailable: { word: 'Unavailable', tone: 'failed' },
  protocol: { word: 'Protocol error', tone: 'failed' },
  error: { word: 'Error', tone: 'failed' },
};

export async function bankCallsSection(paymentId: string, services: ConsoleServices): Promise<SafeHtml> {
  const calls = await bankCallsOf(services.db, paymentId);
  return html`<section aria-labelledby="bank-calls">
<h2 id="bank-calls">Bank calls</h2>
${calls.length === 0
  ? emptyState('No bank calls', html`<p>The bank has not been called for this payment (yet), or its records are older than the retention period.</p>`)
  : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Calls to the bank for this payment, oldest first</caption>
<thead><tr><th scope="col">At</th><th scope="col">Operation</th><th scope="col">Outcome</th><th scope="col">HTTP</th><th scope="col" class="amount">Latency</th></tr></thead>
<tbody>${calls.map((call) => {
      const outcome = OUTCOME[call.outcome];
      return html`<tr><td data-label="At">${timeTag(call.at)}</td><td data-label="Operation" class="mono">${call.operation}</td><td data-label="Outcome"><span class="badge ${outcome.tone}">${outcome.word}</span></td><td data-label="HTTP">${call.http_status ?? '—'}</td><td data-label="Latency" class="amount">${duration(Number(call.latency_ms))}</td></tr>`;
    })}</tbody></table></div>`}
</section>`;
}
