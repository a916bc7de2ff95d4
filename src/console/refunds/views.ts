/**
 * The Refunds pages: the list (awaiting approval by default, or all), each awaiting refund with "Approve at your
 * bank" and a box to select it; and the approval page for several selected refunds, one bank authorisation after
 * another, which reloads itself while any of them is still under way when the person asks it to.
 */
import { topLevelStatus } from '../../domain/detailed-status.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { money, statusBadge, timeTag } from '../format.js';
import { consolePage, emptyState } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import { isAwaitingApproval, type RefundRow } from './queries.js';

/** How often the approval page reloads while a refund is under way (no script: a refresh the page asks for). */
export const APPROVAL_REFRESH_SECONDS = 5;

export interface RefundListView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly rows: readonly (RefundRow & { readonly clientName: string })[];
  /** True: only the refunds awaiting approval. */
  readonly awaiting: boolean;
  readonly nextLink: string | undefined;
}

/**
 * A payment id shortened for a table, its last 12 characters (ids are UUIDv7, whose first characters are the time:
 * refunds of one day would all start alike); the whole id is on the payment's page.
 */
function shortId(id: string): string {
  return `…${id.slice(-12)}`;
}

function approveLink(refund: RefundRow, label: string): SafeHtml {
  // A new tab: the bank's pages end at the refund's return address, and this page stays to show what is left.
  return html`<a class="button primary" href="/console/refunds/${refund.id}/approve" target="_blank" rel="noopener">${label}<span class="visually-hidden"> (refund of ${money(refund.amount, refund.currency)} to ${refund.payerName}, opens a new tab)</span></a>`;
}

function filterLinks(awaiting: boolean): SafeHtml {
  return html`<nav class="tabs" aria-label="Which refunds"><ul>
<li><a href="/console/refunds"${awaiting ? html` aria-current="page"` : ''}>Awaiting approval</a></li>
<li><a href="/console/refunds?show=all"${awaiting ? '' : html` aria-current="page"`}>All refunds</a></li>
</ul></nav>`;
}

export function refundListPage(view: RefundListView): string {
  const operator = view.viewer.clientScope === undefined;
  const selectable = view.rows.some((row) => isAwaitingApproval(row.detailedStatus));
  const table =
    view.rows.length === 0
      ? emptyState(
          view.awaiting ? 'No refunds awaiting approval' : 'No refunds yet',
          view.awaiting
            ? html`Every refund has been approved at the bank or has ended. <a href="/console/refunds?show=all">Show all refunds</a>.`
            : 'A refund appears here when it is made through the API (POST /api/v1/ob/payments/{id}/refunds).',
        )
      : html`<form method="get" action="/console/refunds/approve"><div class="table-wrap"><table class="cards"><caption class="visually-hidden">${view.awaiting ? 'Refunds awaiting approval' : 'Refunds'}, newest first</caption>
<thead><tr><th scope="col">Select</th><th scope="col">Refund</th><th scope="col">Refunded payment</th><th scope="col">Amount</th><th scope="col">Payer</th><th scope="col">Status</th>${operator ? html`<th scope="col">Client</th>` : ''}<th scope="col">Created</th><th scope="col">Approval</th></tr></thead>
<tbody>${view.rows.map((row) => {
          const awaiting = isAwaitingApproval(row.detailedStatus);
          return html`<tr>
<td data-label="Select">${awaiting ? html`<input type="checkbox" name="refund" value="${row.id}" aria-label="Select the refund of ${money(row.amount, row.currency)} to ${row.payerName}">` : ''}</td>
<td data-label="Refund"><a href="/console/payments/${row.id}">${row.reference}</a></td>
<td data-label="Of payment"><a href="/console/payments/${row.refundOf}" class="mono">${shortId(row.refundOf)}</a></td>
<td data-label="Amount" class="num">${money(row.amount, row.currency)}</td>
<td data-label="Payer">${row.payerName}</td>
<td data-label="Status">${statusBadge(row.detailedStatus)}</td>
${operator ? html`<td data-label="Client">${row.clientName}</td>` : ''}
<td data-label="Created">${timeTag(row.createdAt)}</td>
<td data-label="Approval">${awaiting ? approveLink(row, 'Approve at your bank') : html`<span class="muted">${topLevelStatus(row.detailedStatus) === 'PENDING' ? 'At the bank' : 'Done'}</span>`}</td>
</tr>`;
        })}</tbody></table></div>
${selectable ? html`<div class="actions"><button class="secondary" type="submit">Approve selected</button></div>` : ''}
</form>${view.nextLink === undefined ? '' : html`<p><a class="button secondary" href="${view.nextLink}">Older refunds</a></p>`}`;
  return consolePage({
    title: 'Refunds',
    section: 'refunds',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: 'Refunds are paid from your account: each waits until someone of yours authorises it at your bank.',
    body: html`${filterLinks(view.awaiting)}${table}`,
  });
}

export interface ApprovalView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly refunds: readonly RefundRow[];
  /** The person asked the page to reload itself while a refund is under way. */
  readonly following: boolean;
}

function approvalState(refund: RefundRow): SafeHtml {
  if (isAwaitingApproval(refund.detailedStatus)) return approveLink(refund, 'Approve');
  const status = topLevelStatus(refund.detailedStatus);
  if (status === 'COMPLETED') return html`<span class="muted">Approved and paid</span>`;
  if (status === 'FAILED') return html`<span class="muted">Failed: <a href="/console/payments/${refund.id}">see why</a></span>`;
  return html`<span class="muted">Approved, the bank is executing it</span>`;
}

/**
 * The page's own address, following or not. Reloading by itself is the person's choice, never the default: a page
 * that refreshes on its own moves under a screen reader's or a slow reader's feet (WCAG 2.2.1; axe-core's
 * `meta-refresh`), so it starts still, with "Check status" and a link to turn following on and off.
 */
function approvalAddress(refunds: readonly RefundRow[], follow: boolean): string {
  const query = new URLSearchParams(refunds.map((refund): [string, string] => ['refund', refund.id]));
  if (follow) query.set('follow', 'yes');
  return `/console/refunds/approve?${query.toString()}`;
}

export function approvalPage(view: ApprovalView): string {
  const underWay = view.refunds.some((refund) => topLevelStatus(refund.detailedStatus) === 'PENDING');
  const refreshing = view.following && underWay;
  const controls = html`<div class="actions"><a class="button secondary" href="${approvalAddress(view.refunds, view.following)}">Check status</a>${
    underWay
      ? view.following
        ? html`<a href="${approvalAddress(view.refunds, false)}">Stop checking by itself</a>`
        : html`<a href="${approvalAddress(view.refunds, true)}">Check every ${APPROVAL_REFRESH_SECONDS} seconds by itself</a>`
      : ''
  }</div>`;
  const body =
    view.refunds.length === 0
      ? emptyState('No refunds selected', html`Select refunds awaiting approval on the <a href="/console/refunds">Refunds</a> page.`)
      : html`<p>Your bank authorises each refund on its own: no bank offers bulk payments here yet. Approve them one after another; each opens your bank in a new tab.${refreshing ? ` This page checks their status every ${APPROVAL_REFRESH_SECONDS} seconds.` : ''}</p>
<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Selected refunds</caption>
<thead><tr><th scope="col">Refund</th><th scope="col">Refunded payment</th><th scope="col">Amount</th><th scope="col">Payer</th><th scope="col">Status</th><th scope="col">Approval</th></tr></thead>
<tbody>${view.refunds.map(
          (refund) => html`<tr>
<td data-label="Refund"><a href="/console/payments/${refund.id}">${refund.reference}</a></td>
<td data-label="Of payment"><a href="/console/payments/${refund.refundOf}" class="mono">${shortId(refund.refundOf)}</a></td>
<td data-label="Amount" class="num">${money(refund.amount, refund.currency)}</td>
<td data-label="Payer">${refund.payerName}</td>
<td data-label="Status">${statusBadge(refund.detailedStatus)}</td>
<td data-label="Approval">${approvalState(refund)}</td>
</tr>`,
        )}</tbody></table></div>
${controls}`;
  return consolePage({
    title: 'Approve refunds',
    section: 'refunds',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: 'One authorisation at your bank per refund.',
    headActions: html`<a class="button secondary" href="/console/refunds">All awaiting refunds</a>`,
    body,
    ...(refreshing ? { refreshSeconds: APPROVAL_REFRESH_SECONDS } : {}),
  });
}
