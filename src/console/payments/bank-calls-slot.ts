/**
 * SLOT: the bank calls made for a payment (operation, outcome, latency; never credentials or tokens). The records
 * of bank calls are not kept yet; the module that starts keeping them replaces this function's body with the
 * section that lists them. The payment page shows whatever this returns, in its place between the timeline and
 * the webhook deliveries.
 */
import { html, type SafeHtml } from '../../hosted/html.js';
import type { ConsoleServices } from '../services.js';

export async function bankCallsSection(_paymentId: string, _services: ConsoleServices): Promise<SafeHtml> {
  return html`<section aria-labelledby="bank-calls">
<h2 id="bank-calls">Bank calls</h2>
<div class="slot">The calls made to the bank for this payment will be listed here (operation, outcome, latency) once the service records them.</div>
</section>`;
}
