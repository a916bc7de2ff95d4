/**
 * The Payment links pages: the list (newest first, with the creation form), and a link's page (its facts, the QR
 * code of its URL to print or show on a screen, the payments payers started from it, and deactivation behind a
 * confirmation).
 */
import type { PaymentLink } from '../../domain/payment-link.js';
import type { Payment } from '../../domain/payment.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { money, statusBadge, timeTag } from '../format.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';

interface ClientChoice {
  readonly clientId: string;
  readonly name: string;
}

/** What the creation form was sent with, to fill it again after a refusal. */
export type LinkForm = Readonly<Record<string, string>>;

export const LINK_FORM_DEFAULTS: LinkForm = { currency: 'EUR', country: 'DE', scheme: 'SEPA', hours: '24', remittance: '', reusable: '' };

export interface LinkListView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly links: readonly (PaymentLink & { readonly clientName: string })[];
  readonly clients: readonly ClientChoice[];
  readonly problems: readonly string[];
  readonly form: LinkForm;
  readonly nextLink: string | undefined;
}

function linkStatusBadge(status: PaymentLink['status']): SafeHtml {
  const kind = status === 'ACTIVE' ? 'pending' : status === 'PAID' ? 'completed' : 'neutral';
  return html`<span class="badge ${kind}">${status}</span>`;
}

function creationForm(view: LinkListView): SafeHtml {
  const value = (name: string): string => view.form[name] ?? LINK_FORM_DEFAULTS[name] ?? '';
  const field = (name: string, label: string, hint = '', type = 'text', required = true): SafeHtml =>
    html`<div class="field"><label for="${name}">${label}${hint === '' ? '' : html` <span class="hint">${hint}</span>`}</label><input id="${name}" name="${name}" type="${type}" value="${value(name)}"${required ? html` required` : ''}></div>`;
  const clientField =
    view.viewer.clientScope === undefined
      ? html`<div class="field"><label for="client">Client</label><select id="client" name="client" required>${view.clients.map(
          (client) =>
            html`<option value="${client.clientId}"${client.clientId === value('client') ? html` selected` : ''}>${client.name}</option>`,
        )}</select></div>`
      : '';
  return html`<form class="card" method="post" action="/console/payment-links" aria-labelledby="create-heading">${csrfField(view.viewer.csrfToken)}
<h2 id="create-heading">Create a payment link</h2>
${errorSummary(view.problems)}
<div class="filters">
${clientField}
${field('reference', 'Reference', 'Your id of the link, unique')}
${field('amount', 'Amount', 'e.g. 10.50')}
<div class="field"><label for="currency">Currency</label><input id="currency" name="currency" type="text" maxlength="3" value="${value('currency')}" required></div>
<div class="field"><label for="scheme">Scheme</label><select id="scheme" name="scheme">${['SEPA', 'DOMESTIC'].map(
    (scheme) => html`<option value="${scheme}"${scheme === value('scheme') ? html` selected` : ''}>${scheme}</option>`,
  )}</select></div>
${field('remittance', 'Remittance', 'What the payer’s statement shows')}
${field('recipientName', 'Recipient name')}
${field('iban', 'Recipient IBAN')}
${field('street', 'Street')}
${field('building', 'Building number')}
${field('postCode', 'Post code')}
${field('city', 'City')}
${field('country', 'Country', 'ISO code, e.g. DE')}
${field('redirectUri', 'Return address', 'Where payers go at the end (https)', 'url')}
${field('webhookUrl', 'Webhook URL', 'Optional', 'url', false)}
${field('hours', 'Valid for (hours)', 'At most 2160 (90 days)', 'number')}
<fieldset class="checks"><legend>Use</legend><label><input type="checkbox" name="reusable" value="yes"${value('reusable') === 'yes' ? html` checked` : ''}> Reusable: every payer may pay (otherwise the first completed payment closes it)</label></fieldset>
<div class="actions"><button class="primary" type="submit">Create link</button></div>
</div>
</form>`;
}

export function paymentLinkListPage(view: LinkListView): string {
  const table =
    view.links.length === 0
      ? emptyState('No payment links yet', 'Create one below: payers open its address (or scan its QR code) to pay.')
      : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Payment links, newest first</caption>
<thead><tr><th scope="col">Reference</th><th scope="col">Status</th><th scope="col">Amount</th>${view.viewer.clientScope === undefined ? html`<th scope="col">Client</th>` : ''}<th scope="col">Expires</th><th scope="col">Created</th></tr></thead>
<tbody>${view.links.map(
          (link) =>
            html`<tr><td data-label="Reference"><a href="/console/payment-links/${link.id}">${link.reference}</a></td><td data-label="Status">${linkStatusBadge(link.status)}</td><td data-label="Amount" class="num">${money(link.amount, link.currency)}</td>${view.viewer.clientScope === undefined ? html`<td data-label="Client">${link.clientName}</td>` : ''}<td data-label="Expires">${timeTag(link.expiresAt)}</td><td data-label="Created">${timeTag(link.createdAt)}</td></tr>`,
        )}</tbody></table></div>${view.nextLink === undefined ? '' : html`<p><a class="button secondary" href="${view.nextLink}">Older links</a></p>`}`;
  return consolePage({
    title: 'Payment links',
    section: 'payment-links',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: 'Links payers open to pay: share the address or its QR code.',
    body: html`${table}${creationForm(view)}`,
  });
}

export interface LinkPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly link: PaymentLink;
  readonly clientName: string;
  readonly url: string;
  readonly qr: SafeHtml;
  readonly payments: readonly Payment[];
  readonly done: string | undefined;
  readonly problems: readonly string[];
}

const DONE: Readonly<Record<string, string>> = {
  created: 'Payment link created. Share its address or QR code.',
  deactivated: 'Payment link deactivated: it takes no more payments.',
};

export function paymentLinkPage(view: LinkPageView): string {
  const { link, viewer } = view;
  const facts = html`<div class="card"><dl class="facts">
<dt>Status</dt><dd>${linkStatusBadge(link.status)}</dd>
<dt>Amount</dt><dd>${money(link.amount, link.currency)}</dd>
<dt>Remittance</dt><dd>${link.remittance.value}</dd>
<dt>Recipient</dt><dd>${link.recipient.name} · ${link.recipient.account.number.value}</dd>
<dt>Use</dt><dd>${link.reusable ? 'Reusable' : 'Single use'}</dd>
<dt>Client</dt><dd>${view.clientName}</dd>
<dt>Expires</dt><dd>${timeTag(link.expiresAt)}</dd>
<dt>Created</dt><dd>${timeTag(link.createdAt)}</dd>
<dt>Link id</dt><dd><code>${link.id}</code></dd>
<dt>Address</dt><dd><a href="${view.url}">${view.url}</a></dd>
</dl></div>`;
  const qr =
    link.status === 'ACTIVE'
      ? html`<section class="card" aria-labelledby="qr-heading"><h2 id="qr-heading">QR code</h2><p class="muted">Print it or show it on a screen: a phone's camera opens the link.</p><div class="qr" role="img" aria-label="QR code of ${view.url}">${view.qr}</div></section>`
      : '';
  const payments =
    view.payments.length === 0
      ? emptyState('No payments yet', 'A payment appears here when a payer continues from the link.')
      : html`<h2>Payments started from this link</h2><div class="table-wrap"><table class="cards"><caption class="visually-hidden">Payments started from this link</caption>
<thead><tr><th scope="col">End-to-end id</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${view.payments.map(
          (payment) =>
            html`<tr><td data-label="End-to-end id"><a href="/console/payments/${payment.id}">${payment.endToEndId}</a></td><td data-label="Status">${statusBadge(payment.detailedStatus)}</td><td data-label="Created">${timeTag(payment.createdAt)}</td></tr>`,
        )}</tbody></table></div>`;
  const deactivate =
    link.status === 'ACTIVE'
      ? html`<form class="card" method="post" action="/console/payment-links/${link.id}/deactivate">${csrfField(viewer.csrfToken)}
<h2>Deactivate</h2>${errorSummary(view.problems)}
<p><label><input type="checkbox" name="confirm" value="yes" required> Stop this link taking payments (a payment already started goes on)</label></p>
<p><button class="danger" type="submit">Deactivate link</button></p></form>`
      : '';
  const done = view.done === undefined || DONE[view.done] === undefined ? '' : notice(DONE[view.done] ?? '', 'success');
  return consolePage({
    title: `Payment link ${link.reference}`,
    section: 'payment-links',
    viewer,
    navigation: view.navigation,
    body: html`${done}${facts}${qr}${payments}${deactivate}`,
  });
}
