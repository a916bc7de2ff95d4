/**
 * The Payments pages: the list (the filter form, a table of 50, the pager) and a payment's page (its facts, the
 * status timeline with the time between records and the failure reasons, the bank calls, the webhook deliveries with
 * every attempt and a redeliver button).
 */
import {
  DETAILED_STATUS_MEANINGS,
  DETAILED_STATUSES,
  isDetailedStatus,
  isFinal,
  topLevelStatus,
  type DetailedStatus,
  type FailureReason,
} from '../../domain/detailed-status.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import type { BankCallOutcome } from '../../storage/schema.js';
import type { WebhookEventView } from '../../webhooks/outbox.js';
import { breakableStatus, duration, money, statusBadge, statusClass, timeTag } from '../format.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import type { BankCallRecord, PaymentListRow, PaymentRecords, PaymentRow, StatusRecord } from './queries.js';

export const TOP_LEVEL = ['PENDING', 'COMPLETED', 'FAILED'] as const;

interface ClientChoice {
  readonly clientId: string;
  readonly name: string;
}

export interface PaymentListView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly problems: readonly string[];
  /** The filters as given, to refill the form and build the pages' links. */
  readonly echo: URLSearchParams;
  readonly banks: Map<string, string>;
  /** The clients an operator may filter by (none for a member). */
  readonly clients: readonly ClientChoice[];
  readonly rows: readonly PaymentListRow[];
  /** Whether this is a later page (it links back to the first). */
  readonly paged: boolean;
  readonly nextLink: string | undefined;
}

const option = (optionValue: string, label: string, current: string): SafeHtml =>
  html`<option value="${optionValue}"${optionValue === current ? html` selected` : ''}>${label}</option>`;

function moreFilters(view: PaymentListView, value: (name: string) => string): SafeHtml {
  const { echo, banks, clients } = view;
  const moreOpen = ['detailed', 'bank', 'client', 'min', 'max', 'e2e', 'id'].some((name) => echo.has(name));
  return html`<details class="more wide"${moreOpen ? html` open` : ''}><summary>More filters</summary>
<div class="filters">
<div class="field"><label for="detailed">Detailed status</label><select id="detailed" name="detailed">${option('', 'Any', value('detailed'))}${DETAILED_STATUSES.map((status) => option(status, status, value('detailed')))}</select></div>
<div class="field"><label for="bank">Bank</label><select id="bank" name="bank">${option('', 'Any', value('bank'))}${[...banks.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => option(id, name, value('bank')))}</select></div>
${view.viewer.clientScope === undefined ? html`<div class="field"><label for="client">Client</label><select id="client" name="client">${option('', 'Every client', value('client'))}${clients.map((client) => option(client.clientId, client.name, value('client')))}</select></div>` : ''}
<div class="field"><label for="min">Amount from</label><input id="min" name="min" type="text" inputmode="decimal" value="${value('min')}"></div>
<div class="field"><label for="max">Amount to</label><input id="max" name="max" type="text" inputmode="decimal" value="${value('max')}"></div>
<div class="field"><label for="e2e">End-to-end id <span class="hint">Exact</span></label><input id="e2e" name="e2e" type="text" value="${value('e2e')}"></div>
<div class="field"><label for="id">Payment id <span class="hint">Exact</span></label><input id="id" name="id" type="text" value="${value('id')}"></div>
</div>
</details>`;
}

function filterForm(view: PaymentListView): SafeHtml {
  const value = (name: string): string => view.echo.get(name) ?? '';
  const chosen = new Set(view.echo.getAll('status'));
  return html`<form class="card" method="get" action="/console/payments" role="search" aria-label="Payments">
<div class="filters">
<div class="field wide"><label for="q">Search <span class="hint">Payment id, the bank's payment id, or the start of an end-to-end id</span></label><input id="q" name="q" type="search" value="${value('q')}"></div>
<fieldset class="checks"><legend>Status</legend>
${TOP_LEVEL.map((status) => html`<label><input type="checkbox" name="status" value="${status}"${chosen.has(status) ? html` checked` : ''}> ${status.charAt(0) + status.slice(1).toLowerCase()}</label>`)}
</fieldset>
<div class="field"><label for="from">Created from</label><input id="from" name="from" type="date" value="${value('from')}"></div>
<div class="field"><label for="to">Created to <span class="hint">Inclusive</span></label><input id="to" name="to" type="date" value="${value('to')}"></div>
${moreFilters(view, value)}
<div class="actions"><button class="primary" type="submit">Show payments</button><a class="button secondary" href="/console/payments">Clear filters</a></div>
</div>
</form>`;
}

function paymentRow(view: PaymentListView, clientNames: Map<string, string>, row: PaymentListRow): SafeHtml {
  const everyClient = view.viewer.clientScope === undefined;
  return html`<tr>
<td data-label="Created"><a href="/console/payments/${row.id}">${timeTag(row.createdAt)}</a></td>
<td data-label="Status">${statusBadge(row.detailedStatus)}</td>
<td data-label="Amount" class="amount">${money(row.amount, row.currency)}</td>
<td data-label="Recipient">${row.recipientName}</td>
<td data-label="End-to-end id" class="mono">${row.endToEndId}</td>
<td data-label="Bank">${row.providerId === null ? html`<span class="muted">Not chosen yet</span>` : (view.banks.get(row.providerId) ?? row.providerId)}</td>
${everyClient ? html`<td data-label="Client">${clientNames.get(row.clientId) ?? row.clientId}</td>` : ''}
</tr>`;
}

function paymentTable(view: PaymentListView): SafeHtml {
  const filtered = view.echo.toString() !== '';
  if (view.rows.length === 0) {
    return emptyState(
      filtered ? 'No payment matches these filters' : 'No payments yet',
      filtered
        ? html`<p>Try fewer filters, or <a href="/console/payments">clear them</a>.</p>`
        : html`<p>Payments appear here as soon as the API creates them.</p>`,
    );
  }
  const clientNames = new Map(view.clients.map((client) => [client.clientId, client.name]));
  return html`<div class="table-wrap"><table class="cards">
<caption class="visually-hidden">Payments, newest first</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Status</th><th scope="col" class="amount">Amount</th><th scope="col">Recipient</th><th scope="col">End-to-end id</th><th scope="col">Bank</th>${view.viewer.clientScope === undefined ? html`<th scope="col">Client</th>` : ''}</tr></thead>
<tbody>
${view.rows.map((row) => paymentRow(view, clientNames, row))}
</tbody></table></div>`;
}

export function paymentListPage(view: PaymentListView): string {
  const { viewer, echo } = view;
  return consolePage({
    title: 'Payments',
    section: 'payments',
    viewer,
    navigation: view.navigation,
    lead:
      viewer.clientScope === undefined
        ? 'Every client’s payments, newest first.'
        : `${viewer.clientName ?? 'Your client'}’s payments, newest first.`,
    body: html`${errorSummary(view.problems)}${filterForm(view)}${paymentTable(view)}
<nav class="pager" aria-label="Pages">${view.paged ? html`<a href="/console/payments${echo.toString() === '' ? '' : `?${echo.toString()}`}">First page</a>` : html`<span></span>`}${view.nextLink === undefined ? '' : html`<a class="button secondary" href="${view.nextLink}">Older payments</a>`}</nav>`,
  });
}

function timelineRecord(record: StatusRecord, previous: StatusRecord | undefined): SafeHtml {
  const status = record.detailed_status as DetailedStatus;
  const recordReasons = record.failure_reasons === null ? [] : (JSON.parse(record.failure_reasons) as FailureReason[]);
  const gap = previous === undefined ? undefined : Date.parse(record.created_at) - Date.parse(previous.created_at);
  return html`<li class="${statusClass(status)}">
<div class="status-name">${breakableStatus(status)}${topLevelStatus(status) === 'PENDING' ? '' : html` ${statusBadge(status, false)}`}</div>
${isDetailedStatus(status) ? html`<p class="meaning">${DETAILED_STATUS_MEANINGS[status]}</p>` : ''}
<div class="when">#${Number(record.sequence)} · ${timeTag(record.created_at)} · ${gap === undefined ? 'created' : html`<span class="gap">+${duration(gap)}</span>`}</div>
${recordReasons.length === 0 ? '' : html`<ul class="reasons">${recordReasons.map((reason) => html`<li><strong>${reason.code}</strong>: ${reason.message}</li>`)}</ul>`}
</li>`;
}

function timeline(history: readonly StatusRecord[]): SafeHtml {
  const started = history[0] === undefined ? undefined : Date.parse(history[0].created_at);
  const last = history.at(-1);
  return html`<ol class="timeline">
${history.map((record, index) => timelineRecord(record, history[index - 1]))}
</ol>
${started === undefined || last === undefined || history.length < 2 ? '' : html`<p class="total">${isFinal(last.detailed_status as DetailedStatus) ? 'From creation to the final status' : 'So far'}: <strong>${duration(Date.parse(last.created_at) - started)}</strong> over ${history.length} records.</p>`}`;
}

const CALL_OUTCOME: Record<BankCallOutcome, { word: string; tone: string }> = {
  ok: { word: 'OK', tone: 'completed' },
  refused: { word: 'Refused', tone: 'pending' },
  unavailable: { word: 'Unavailable', tone: 'failed' },
  protocol: { word: 'Protocol error', tone: 'failed' },
  error: { word: 'Error', tone: 'failed' },
};

/**
 * The bank calls made for the payment (operation, outcome, HTTP status of a failure, latency), from the records of
 * bank calls. The records hold nothing else: never credentials, tokens, bodies or URLs.
 */
function bankCallsSection(calls: readonly BankCallRecord[]): SafeHtml {
  return html`<section aria-labelledby="bank-calls">
<h2 id="bank-calls">Bank calls</h2>
${
  calls.length === 0
    ? emptyState(
        'No bank calls',
        html`<p>The bank has not been called for this payment (yet), or its records are older than the retention period.</p>`,
      )
    : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Calls to the bank for this payment, oldest first</caption>
<thead><tr><th scope="col">At</th><th scope="col">Operation</th><th scope="col">Outcome</th><th scope="col">HTTP</th><th scope="col" class="amount">Latency</th></tr></thead>
<tbody>${calls.map((call) => {
        const outcome = CALL_OUTCOME[call.outcome];
        return html`<tr><td data-label="At">${timeTag(call.at)}</td><td data-label="Operation" class="mono">${call.operation}</td><td data-label="Outcome"><span class="badge ${outcome.tone}">${outcome.word}</span></td><td data-label="HTTP">${call.http_status ?? '—'}</td><td data-label="Latency" class="amount">${duration(Number(call.latency_ms))}</td></tr>`;
      })}</tbody></table></div>`
}
</section>`;
}

/** The detailed status an event reports (its body's), for people to tell the events apart. */
function reported(body: string): string {
  try {
    return (JSON.parse(body) as { data?: { detailedStatus?: string } }).data?.detailedStatus ?? '';
  } catch {
    return '';
  }
}

const stateKind = (state: string): string => (state === 'delivered' ? 'completed' : state === 'pending' ? 'pending' : 'failed');

function webhookRow(row: PaymentRow, event: WebhookEventView, csrfToken: string): SafeHtml {
  return html`<tr>
<td data-label="Event">#${event.sequence} <span class="detail">${breakableStatus(reported(event.body))}</span><span class="detail">${event.eventId}</span></td>
<td data-label="State"><span class="badge ${stateKind(event.state)}">${event.state}</span>${event.nextAttemptAt === null ? '' : html`<span class="detail">next ${timeTag(event.nextAttemptAt)}</span>`}</td>
<td data-label="Attempts">${
    event.attemptLog.length === 0
      ? html`<span class="muted">None yet</span>`
      : html`<ul class="attempts">${event.attemptLog.map(
          (attempt) =>
            html`<li>${attempt.attempt}. ${timeTag(attempt.attemptedAt)} · ${attempt.outcome} · ${attempt.statusCode === null ? 'no response' : html`HTTP ${attempt.statusCode}`} · ${duration(attempt.latencyMs)}${attempt.error === null ? '' : html` · <span class="error">${attempt.error}</span>`}</li>`,
        )}</ul>`
  }</td>
<td data-label="Action"><form method="post" action="/console/payments/${row.id}/webhooks/${event.eventId}/redeliver">${csrfField(csrfToken)}<button class="secondary" type="submit">Redeliver<span class="visually-hidden"> event #${event.sequence}</span></button></form></td>
</tr>`;
}

function webhooksSection(row: PaymentRow, events: readonly WebhookEventView[], csrfToken: string): SafeHtml {
  const deliveries =
    events.length === 0
      ? emptyState(
          'No webhook deliveries',
          row.webhook_url === null ? html`<p>This payment was created without a webhook URL.</p>` : html`<p>None has been due yet.</p>`,
        )
      : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Webhook events and their delivery attempts</caption>
<thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col">Attempts (response, latency, error)</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${events.map((event) => webhookRow(row, event, csrfToken))}</tbody></table></div>`;
  return html`<section aria-labelledby="webhooks"><h2 id="webhooks">Webhook deliveries</h2>${row.webhook_url === null ? '' : html`<p class="muted">To <span class="mono">${row.webhook_url}</span></p>`}${deliveries}</section>`;
}

/**
 * The account the payer pays from, when the payment has one (sent by the client, typed or chosen by the payer): only
 * its IBAN and currency are read from the stored sender, so nothing else of it can reach the page. (Credentials are
 * never stored; decisions §7.)
 */
function senderAccount(stored: string | null): { readonly iban: string; readonly currency: string | undefined } | undefined {
  if (stored === null) return undefined;
  let sender: unknown;
  try {
    sender = JSON.parse(stored);
  } catch {
    return undefined;
  }
  const account = typeof sender === 'object' && sender !== null ? (sender as { account?: unknown }).account : undefined;
  if (typeof account !== 'object' || account === null) return undefined;
  const { number, currency } = account as { number?: { value?: unknown }; currency?: unknown };
  const iban = number?.value;
  return typeof iban === 'string' ? { iban, currency: typeof currency === 'string' ? currency : undefined } : undefined;
}

/**
 * The payer's account as the bank told it (the payment's `payer`, migration 0019): the holder's name and the account
 * in words, from the stored JSON read field by field, so that nothing else of it can reach the page.
 */
function bankToldPayer(stored: string | null): { readonly name: string | undefined; readonly account: string } | undefined {
  if (stored === null) return undefined;
  let payer: unknown;
  try {
    payer = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (typeof payer !== 'object' || payer === null) return undefined;
  const { account, name } = payer as { account?: unknown; name?: unknown };
  if (typeof account !== 'object' || account === null) return undefined;
  const { type, value, sortCode, accountNumber, rollNumber } = account as Record<string, unknown>;
  let text: string | undefined;
  if (type === 'IBAN' && typeof value === 'string') text = value;
  if (type === 'SORT_CODE_ACCOUNT_NUMBER' && typeof sortCode === 'string' && typeof accountNumber === 'string') {
    text = sortCodeAccountText(sortCode, accountNumber, rollNumber);
  }
  return text === undefined ? undefined : { name: typeof name === 'string' ? name : undefined, account: text };
}

/** A UK account in words: the sort code in pairs (60-16-13), the account number, the roll number if any. */
function sortCodeAccountText(sortCode: string, accountNumber: string, rollNumber: unknown): string {
  const dashed = sortCode.replace(/^(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3');
  return `Sort code ${dashed} · account ${accountNumber}${typeof rollNumber === 'string' ? ` · roll number ${rollNumber}` : ''}`;
}

type Recipient = { name?: string; account?: { number?: { type?: string; value?: string; rollNumber?: string } } };

/**
 * The account a payment is paid to in words: the IBAN, or (a refund to a UK payer) the sort code and account number
 * of the stored 14 digits.
 */
function recipientAccountText(recipient: Recipient): string {
  const number = recipient.account?.number;
  const value = number?.value ?? '';
  if (number?.type === 'SORT_CODE_ACCOUNT_NUMBER' && /^\d{14}$/.test(value)) {
    return sortCodeAccountText(value.slice(0, 6), value.slice(6), number.rollNumber);
  }
  return value;
}

function paymentFacts(row: PaymentRow, recipient: Recipient, clientName: string | undefined, bank: string | undefined): SafeHtml {
  const detailed = row.detailed_status as DetailedStatus;
  const sender = senderAccount(row.sender);
  const payer = bankToldPayer(row.payer);
  return html`<section class="card" aria-labelledby="facts"><h2 id="facts" class="visually-hidden">Payment</h2><dl class="facts">
<dt>Status</dt><dd>${statusBadge(detailed)}</dd>
<dt>Amount</dt><dd>${money(row.amount, row.currency)}</dd>
<dt>Recipient</dt><dd>${recipient.name ?? ''}<span class="detail">${recipientAccountText(recipient)}</span></dd>
<dt>Paid from</dt><dd>${
    payer !== undefined
      ? html`${payer.name ?? 'Holder not named by the bank'}<span class="detail">${payer.account}</span><span class="hint">As the bank told it</span>`
      : sender === undefined
        ? html`<span class="muted">${isFinal(detailed) ? 'Not known' : 'Not known yet'}</span>`
        : html`${sender.currency === undefined ? 'Account' : `Account in ${sender.currency}`}<span class="detail">${sender.iban}</span>`
  }</dd>
<dt>End-to-end id</dt><dd class="mono">${row.end_to_end_id}</dd>
${row.refund_of === null ? '' : html`<dt>Refund of</dt><dd><a class="mono" href="/console/payments/${row.refund_of}">${row.refund_of}</a></dd>`}
${
  // Refunds approved together (docs/api-decisions.md): one bank payment, authorised on the first refund's flow.
  row.bulk_leader_id === null
    ? ''
    : html`<dt>Approved together</dt><dd>${
        row.bulk_leader_id === row.id
          ? 'With other refunds, on this refund’s approval'
          : html`On the approval of <a class="mono" href="/console/payments/${row.bulk_leader_id}">${row.bulk_leader_id}</a>`
      }</dd>`
}
<dt>Client</dt><dd>${clientName ?? row.client_id}</dd>
<dt>Bank</dt><dd>${bank ?? (row.provider_id === null ? 'Not chosen yet' : row.provider_id)}</dd>
<dt>Bank’s payment id</dt><dd class="mono">${row.provider_payment_id ?? '—'}</dd>
</dl></section>`;
}

function paymentDetails(row: PaymentRow): SafeHtml {
  const reasons = row.failure_reasons === null ? [] : (JSON.parse(row.failure_reasons) as FailureReason[]);
  return html`<section class="card" aria-labelledby="more-facts"><h2 id="more-facts" class="visually-hidden">Details</h2><dl class="facts">
<dt>Created</dt><dd>${timeTag(row.created_at)}</dd>
<dt>Last change</dt><dd>${timeTag(row.updated_at)}</dd>
<dt>Mode</dt><dd>${row.mode === 'hosted' ? 'Hosted (payer picks the bank)' : 'Custom (client picked the bank)'}</dd>
<dt>Scheme</dt><dd>${row.payment_scheme}${row.scheme_mode === null ? '' : ` · ${row.scheme_mode}`}</dd>
<dt>Environment</dt><dd>${row.environment}</dd>
<dt>Failure</dt><dd>${reasons.length === 0 ? '—' : html`<ul class="reasons">${reasons.map((reason) => html`<li><strong>${reason.code}</strong>: ${reason.message}</li>`)}</ul>`}</dd>
</dl></section>`;
}

/** The payment's refunds (none: nothing shown), each with its amount, status and page. */
function refundsSection(refunds: PaymentRecords['refunds']): SafeHtml | '' {
  if (refunds.length === 0) return '';
  return html`<section aria-labelledby="refunds"><h2 id="refunds">Refunds</h2><div class="table-wrap"><table class="cards"><caption class="visually-hidden">Refunds of this payment, oldest first</caption>
<thead><tr><th scope="col">Refund</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${refunds.map(
    (refund) =>
      html`<tr><td data-label="Refund"><a class="mono" href="/console/payments/${refund.id}">${refund.id}</a></td><td data-label="Amount" class="num">${money(refund.amount, refund.currency)}</td><td data-label="Status">${statusBadge(refund.detailedStatus)}</td><td data-label="Created">${timeTag(refund.createdAt)}</td></tr>`,
  )}</tbody></table></div></section>`;
}

export interface PaymentPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly row: PaymentRow;
  readonly records: PaymentRecords;
  /** The bank's name in the catalogue, when it has one. */
  readonly bank: string | undefined;
  readonly done: string | undefined;
}

export function paymentPage(view: PaymentPageView): string {
  const { row, records, viewer } = view;
  const recipient = JSON.parse(row.recipient) as Recipient;
  return consolePage({
    title: `${money(row.amount, row.currency)} to ${recipient.name ?? 'unknown'}`,
    section: 'payments',
    viewer,
    navigation: view.navigation,
    lead: html`${statusBadge(row.detailed_status as DetailedStatus, false)} <span class="mono">${row.id}</span>`,
    headActions: html`<a class="button secondary" href="/console/payments">All payments</a>`,
    body: html`${view.done === 'redelivered' ? notice('The event is queued: it is sent again within seconds, with the same webhook-id.', 'success') : ''}
<div class="grid two">
${paymentFacts(row, recipient, records.clientName, view.bank)}
${paymentDetails(row)}
</div>
${refundsSection(records.refunds)}
<section aria-labelledby="timeline"><h2 id="timeline">Status timeline</h2><div class="card">${timeline(records.history)}</div></section>
${bankCallsSection(records.bankCalls)}
${webhooksSection(row, records.events, viewer.csrfToken)}`,
  });
}
