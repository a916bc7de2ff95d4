/**
 * The Refunds pages: the list (awaiting approval by default, or all), each awaiting refund with "Approve at your
 * bank" and a box to select it; and the approval page for several selected refunds: "Approve all together" (one
 * authorisation at a bank that makes bulk payments) where they may be, else one bank authorisation after another. It
 * reloads itself while any of them is still under way when the person asks it to.
 */
import { topLevelStatus } from '../../domain/detailed-status.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { money, statusBadge, timeTag } from '../format.js';
import { consolePage, csrfField, emptyState, errorSummary } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import { decimalSum } from '../../domain/money.js';
import { isAwaitingApproval, mayJoinBulk, type RefundRow } from './queries.js';

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
  /** The banks that make bulk payments in the refunds' currency (none: they are approved one by one). */
  readonly bulkBanks: readonly string[];
  /** Why the last "Approve all together" was refused. */
  readonly problems: readonly string[];
}

/** Whether these refunds may be approved together: two or more, none begun, one currency, a bank for it. */
function mayApproveTogether(view: ApprovalView): boolean {
  const first = view.refunds[0];
  return (
    first !== undefined &&
    view.refunds.length >= 2 &&
    view.bulkBanks.length > 0 &&
    view.refunds.every((refund) => mayJoinBulk(refund) && refund.currency === first.currency)
  );
}

/**
 * One authorisation for all: the total, the banks that can take it, and the button. A new tab, as for one refund:
 * this page stays to show their statuses.
 */
function togetherForm(view: ApprovalView): SafeHtml {
  const first = view.refunds[0];
  if (first === undefined) return html``;
  const total = decimalSum(
    view.refunds.map((refund) => refund.amount),
    first.currency,
  );
  return html`<form class="card" method="post" action="/console/refunds/approve-together" target="_blank" aria-labelledby="together-heading"><h2 id="together-heading">Approve all ${String(view.refunds.length)} together</h2>${csrfField(view.viewer.csrfToken)}
<p>One authorisation at your bank pays all ${String(view.refunds.length)} refunds, ${money(total, first.currency)} in all, as one bulk payment from your account. Banks here that take bulk payments: ${view.bulkBanks.join(', ')}. With another bank, approve them one after another below.</p>
${view.refunds.map((refund) => html`<input type="hidden" name="refund" value="${refund.id}">`)}
<div class="actions"><button class="primary" type="submit">Approve all together<span class="visually-hidden"> (opens a new tab)</span></button></div>
</form>`;
}

function approvalState(refund: RefundRow): SafeHtml {
  // A refund in a bulk is approved on its leader's flow, which its own approval address leads to.
  if (isAwaitingApproval(refund.detailedStatus))
    return approveLink(refund, refund.bulkLeaderId === null ? 'Approve' : 'Continue approving together');
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

/** What the page says of approving one by one, and why not together when they cannot be. */
function oneByOneText(view: ApprovalView): string {
  if (view.refunds.some((refund) => refund.bulkLeaderId !== null))
    return 'Refunds approved together are authorised once, on the approval of the first of them; the others follow its status.';
  if (mayApproveTogether(view)) return 'Or approve them one after another, one authorisation each.';
  if (!view.refunds.some((refund) => isAwaitingApproval(refund.detailedStatus))) return 'None of these refunds awaits approval any more.';
  const first = view.refunds[0];
  if (first !== undefined && view.bulkBanks.length === 0 && view.refunds.length >= 2)
    return `No bank here takes bulk payments in ${first.currency}, so your bank authorises each refund on its own: approve them one after another.`;
  if (view.refunds.length >= 2)
    return 'These refunds cannot be approved together (only refunds in one currency whose approval has not begun can be): approve them one after another.';
  return 'Approve the refund at your bank.';
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
      : html`${errorSummary(view.problems)}${mayApproveTogether(view) ? togetherForm(view) : ''}<p>${oneByOneText(view)}${
          view.refunds.some((refund) => isAwaitingApproval(refund.detailedStatus)) ? ' Each approval opens your bank in a new tab.' : ''
        }${refreshing ? ` This page checks their status every ${APPROVAL_REFRESH_SECONDS} seconds.` : ''}</p>
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
    lead: mayApproveTogether(view)
      ? 'One authorisation at your bank for all of them, or one per refund.'
      : 'One authorisation at your bank per refund, or one for refunds approved together.',
    headActions: html`<a class="button secondary" href="/console/refunds">All awaiting refunds</a>`,
    body,
    ...(refreshing ? { refreshSeconds: APPROVAL_REFRESH_SECONDS } : {}),
  });
}
