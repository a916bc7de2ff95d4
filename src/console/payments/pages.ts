/**
 * Payments: the list (filters, search, pages of 50, newest first) and a payment's page (facts, the whole status
 * timeline with the time between records and the failure reasons, the bank calls, the webhook deliveries with
 * every attempt and a one-click redeliver). A member sees only their client's payments: another client's payment
 * is not found (404), by address and by search alike.
 */
import { DETAILED_STATUS_MEANINGS, DETAILED_STATUSES, isDetailedStatus, isFinal, topLevelStatus, type DetailedStatus, type FailureReason } from '../../domain/detailed-status.js';
import { scaledAmount } from '../../domain/money.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import { csrfField, consolePage, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleRequest, ConsoleRouter } from '../router.js';
import { notFound, page, redirect } from '../router.js';
import type { ConsoleServices } from '../services.js';
import { breakableStatus, duration, money, statusBadge, statusClass, timeTag } from '../format.js';
import { bankCallsSection } from './bank-calls-slot.js';
import { decodePosition, encodePosition, listPayments, type PaymentListFilters } from './payment-query.js';

const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TOP_LEVEL = ['PENDING', 'COMPLETED', 'FAILED'] as const;

interface ParsedFilters {
  readonly filters: PaymentListFilters;
  readonly problems: string[];
  /** The filters as given, to refill the form and build the next page's link. */
  readonly echo: URLSearchParams;
}

function parseFilters(context: ConsoleRequest): ParsedFilters {
  const { viewer } = context;
  const problems: string[] = [];
  const echo = new URLSearchParams();
  const text = (name: string): string | undefined => {
    const value = context.query(name)?.trim();
    if (value === undefined || value === '') return undefined;
    echo.set(name, value);
    return value;
  };
  const statuses = context.all('status', 'query').filter((value): value is (typeof TOP_LEVEL)[number] => (TOP_LEVEL as readonly string[]).includes(value));
  for (const status of statuses) echo.append('status', status);
  const detailed = text('detailed');
  if (detailed !== undefined && !isDetailedStatus(detailed)) problems.push('Detailed status: choose one from the list');
  const client = text('client');
  const bank = text('bank');
  const from = text('from');
  const to = text('to');
  if (from !== undefined && !DATE.test(from)) problems.push('From: a date (YYYY-MM-DD)');
  if (to !== undefined && !DATE.test(to)) problems.push('To: a date (YYYY-MM-DD)');
  const min = text('min');
  const max = text('max');
  const amountMin = min === undefined ? undefined : scaledAmount(min);
  const amountMax = max === undefined ? undefined : scaledAmount(max);
  if (min !== undefined && amountMin === undefined) problems.push('Amount from: a number such as 10 or 10.50');
  if (max !== undefined && amountMax === undefined) problems.push('Amount to: a number such as 10 or 10.50');
  const paymentId = text('id');
  if (paymentId !== undefined && !UUID.test(paymentId)) problems.push('Payment id: a UUID such as 3f0c…-…');
  const endToEndId = text('e2e');
  const search = text('q');
  const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
  const filters: PaymentListFilters = {
    // A member's own client, whatever the address says; an operator's choice of client, or every client.
    ...(viewer.clientScope !== undefined ? { clientId: viewer.clientScope } : client !== undefined ? { clientId: client } : {}),
    ...(statuses.length > 0 ? { statuses } : {}),
    ...(detailed !== undefined && isDetailedStatus(detailed) ? { detailedStatus: detailed } : {}),
    ...(bank !== undefined ? { providerId: bank } : {}),
    ...(from !== undefined && DATE.test(from) ? { createdFrom: `${from}T00:00:00.000Z` } : {}),
    ...(to !== undefined && DATE.test(to) ? { createdBefore: dayAfter(to) } : {}),
    ...(amountMin !== undefined ? { amountMin } : {}),
    ...(amountMax !== undefined ? { amountMax } : {}),
    ...(endToEndId !== undefined ? { endToEndId } : {}),
    ...(paymentId !== undefined && UUID.test(paymentId) ? { paymentId } : {}),
    ...(search !== undefined ? { search } : {}),
  };
  return { filters, problems, echo };
}

function bankNames(services: ConsoleServices): Map<string, string> {
  const names = new Map<string, string>();
  for (const environment of ['sandbox', 'production'] as const) {
    for (const bank of services.catalogue.banks(environment)) names.set(bank.id, bank.name);
  }
  return names;
}

function filterForm(context: ConsoleRequest, echo: URLSearchParams, banks: Map<string, string>, clients: readonly { clientId: string; name: string }[]): SafeHtml {
  const value = (name: string): string => echo.get(name) ?? '';
  const chosen = new Set(echo.getAll('status'));
  const moreOpen = ['detailed', 'bank', 'client', 'min', 'max', 'e2e', 'id'].some((name) => echo.has(name));
  const option = (optionValue: string, label: string, current: string): SafeHtml =>
    html`<option value="${optionValue}"${optionValue === current ? html` selected` : ''}>${label}</option>`;
  return html`<form class="card" method="get" action="/console/payments" role="search" aria-label="Payments">
<div class="filters">
<div class="field wide"><label for="q">Search <span class="hint">Payment id, the bank's payment id, or the start of an end-to-end id</span></label><input id="q" name="q" type="search" value="${value('q')}"></div>
<fieldset class="checks"><legend>Status</legend>
${TOP_LEVEL.map((status) => html`<label><input type="checkbox" name="status" value="${status}"${chosen.has(status) ? html` checked` : ''}> ${status.charAt(0) + status.slice(1).toLowerCase()}</label>`)}
</fieldset>
<div class="field"><label for="from">Created from</label><input id="from" name="from" type="date" value="${value('from')}"></div>
<div class="field"><label for="to">Created to <span class="hint">Inclusive</span></label><input id="to" name="to" type="date" value="${value('to')}"></div>
<details class="more wide"${moreOpen ? html` open` : ''}><summary>More filters</summary>
<div class="filters">
<div class="field"><label for="detailed">Detailed status</label><select id="detailed" name="detailed">${option('', 'Any', value('detailed'))}${DETAILED_STATUSES.map((status) => option(status, status, value('detailed')))}</select></div>
<div class="field"><label for="bank">Bank</label><select id="bank" name="bank">${option('', 'Any', value('bank'))}${[...banks.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => option(id, name, value('bank')))}</select></div>
${context.viewer.clientScope === undefined ? html`<div class="field"><label for="client">Client</label><select id="client" name="client">${option('', 'Every client', value('client'))}${clients.map((client) => option(client.clientId, client.name, value('client')))}</select></div>` : ''}
<div class="field"><label for="min">Amount from</label><input id="min" name="min" type="text" inputmode="decimal" value="${value('min')}"></div>
<div class="field"><label for="max">Amount to</label><input id="max" name="max" type="text" inputmode="decimal" value="${value('max')}"></div>
<div class="field"><label for="e2e">End-to-end id <span class="hint">Exact</span></label><input id="e2e" name="e2e" type="text" value="${value('e2e')}"></div>
<div class="field"><label for="id">Payment id <span class="hint">Exact</span></label><input id="id" name="id" type="text" value="${value('id')}"></div>
</div>
</details>
<div class="actions"><button class="primary" type="submit">Show payments</button><a class="button secondary" href="/console/payments">Clear filters</a></div>
</div>
</form>`;
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

export function registerPaymentPages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'payments', label: 'Payments', path: '/console/payments', operatorsOnly: false });

  router.get('/payments', { section: 'payments' }, async (context) => {
    const { viewer } = context;
    const { filters, problems, echo } = parseFilters(context);
    const after = decodePosition(context.query('after'));
    const clients = viewer.clientScope === undefined ? await services.clients.list() : [];
    const clientNames = new Map(clients.map((client) => [client.clientId, client.name]));
    const banks = bankNames(services);
    const result = problems.length > 0 ? { rows: [], next: undefined } : await listPayments(services.db, filters, PAGE_SIZE, after, services.databaseKind);
    if (echo.toString() !== '') await services.audit.record(viewer.actor, { action: 'payments.searched', clientId: viewer.clientScope ?? null, details: { filters: echo.toString() } });
    const nextLink = result.next === undefined ? undefined : `/console/payments?${new URLSearchParams([...echo.entries(), ['after', encodePosition(result.next)]]).toString()}`;
    const table =
      result.rows.length === 0
        ? emptyState(
            echo.toString() === '' ? 'No payments yet' : 'No payment matches these filters',
            echo.toString() === '' ? html`<p>Payments appear here as soon as the API creates them.</p>` : html`<p>Try fewer filters, or <a href="/console/payments">clear them</a>.</p>`,
          )
        : html`<div class="table-wrap"><table class="cards">
<caption class="visually-hidden">Payments, newest first</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Status</th><th scope="col" class="amount">Amount</th><th scope="col">Recipient</th><th scope="col">End-to-end id</th><th scope="col">Bank</th>${viewer.clientScope === undefined ? html`<th scope="col">Client</th>` : ''}</tr></thead>
<tbody>
${result.rows.map(
  (row) => html`<tr>
<td data-label="Created"><a href="/console/payments/${row.id}">${timeTag(row.createdAt)}</a></td>
<td data-label="Status">${statusBadge(row.detailedStatus)}</td>
<td data-label="Amount" class="amount">${money(row.amount, row.currency)}</td>
<td data-label="Recipient">${row.recipientName}</td>
<td data-label="End-to-end id" class="mono">${row.endToEndId}</td>
<td data-label="Bank">${row.providerId === null ? html`<span class="muted">Not chosen yet</span>` : (banks.get(row.providerId) ?? row.providerId)}</td>
${viewer.clientScope === undefined ? html`<td data-label="Client">${clientNames.get(row.clientId) ?? row.clientId}</td>` : ''}
</tr>`,
)}
</tbody></table></div>`;
    return page(
      consolePage({
        title: 'Payments',
        section: 'payments',
        viewer,
        navigation: services.navigation,
        lead: viewer.clientScope === undefined ? 'Every client’s payments, newest first.' : `${viewer.clientName ?? 'Your client'}’s payments, newest first.`,
        body: html`${errorSummary(problems)}${filterForm(context, echo, banks, clients)}${table}
<nav class="pager" aria-label="Pages">${after === undefined ? html`<span></span>` : html`<a href="/console/payments${echo.toString() === '' ? '' : `?${echo.toString()}`}">First page</a>`}${nextLink === undefined ? '' : html`<a class="button secondary" href="${nextLink}">Older payments</a>`}</nav>`,
      }),
      problems.length > 0 ? 400 : 200,
    );
  });

  /** The payment, if this viewer may see it (else undefined: answered as not found). */
  const visiblePayment = async (paymentId: string, clientScope: string | undefined) => {
    if (!UUID.test(paymentId)) return undefined;
    let query = services.db.selectFrom('payments').selectAll().where('id', '=', paymentId.toLowerCase());
    if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
    return query.executeTakeFirst();
  };

  router.get('/payments/:paymentId', { section: 'payments' }, async (context) => {
    const { viewer } = context;
    const paymentId = (context.request.params as { paymentId: string }).paymentId;
    const row = await visiblePayment(paymentId, viewer.clientScope);
    if (row === undefined) return notFound;
    await services.audit.record(viewer.actor, { action: 'payment.viewed', clientId: row.client_id, target: row.id });
    const history = await services.db.selectFrom('payment_status_history').selectAll().where('payment_id', '=', row.id).orderBy('sequence').execute();
    const events = await services.outbox.listForPayment(row.id);
    const client = (await services.clients.list()).find((candidate) => candidate.clientId === row.client_id);
    const bank = row.provider_id === null ? undefined : bankNames(services).get(row.provider_id);
    const recipient = JSON.parse(row.recipient) as { name?: string; account?: { number?: { value?: string } } };
    const sender = senderAccount(row.sender);
    const reasons = row.failure_reasons === null ? [] : (JSON.parse(row.failure_reasons) as FailureReason[]);
    const detailed = row.detailed_status as DetailedStatus;
    const done = context.query('done');
    const started = history[0] === undefined ? undefined : Date.parse(history[0].created_at);

    const last = history.at(-1);
    const timeline = html`<ol class="timeline">
${history.map((record, index) => {
  const status = record.detailed_status as DetailedStatus;
  const previous = history[index - 1];
  const recordReasons = record.failure_reasons === null ? [] : (JSON.parse(record.failure_reasons) as FailureReason[]);
  const gap = previous === undefined ? undefined : Date.parse(record.created_at) - Date.parse(previous.created_at);
  return html`<li class="${statusClass(status)}">
<div class="status-name">${breakableStatus(status)}${topLevelStatus(status) === 'PENDING' ? '' : html` ${statusBadge(status, false)}`}</div>
${isDetailedStatus(status) ? html`<p class="meaning">${DETAILED_STATUS_MEANINGS[status]}</p>` : ''}
<div class="when">#${Number(record.sequence)} · ${timeTag(record.created_at)} · ${gap === undefined ? 'created' : html`<span class="gap">+${duration(gap)}</span>`}</div>
${recordReasons.length === 0 ? '' : html`<ul class="reasons">${recordReasons.map((reason) => html`<li><strong>${reason.code}</strong>: ${reason.message}</li>`)}</ul>`}
</li>`;
})}
</ol>
${started === undefined || last === undefined || history.length < 2 ? '' : html`<p class="total">${isFinal(last.detailed_status as DetailedStatus) ? 'From creation to the final status' : 'So far'}: <strong>${duration(Date.parse(last.created_at) - started)}</strong> over ${history.length} records.</p>`}`;

    /** The detailed status an event reports (its body's), for people to tell the events apart. */
    const reported = (body: string): string => {
      try {
        return (JSON.parse(body) as { data?: { detailedStatus?: string } }).data?.detailedStatus ?? '';
      } catch {
        return '';
      }
    };
    const stateKind = (state: string): string => (state === 'delivered' ? 'completed' : state === 'pending' ? 'pending' : 'failed');
    const webhooks =
      events.length === 0
        ? emptyState('No webhook deliveries', row.webhook_url === null ? html`<p>This payment was created without a webhook URL.</p>` : html`<p>None has been due yet.</p>`)
        : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Webhook events and their delivery attempts</caption>
<thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col">Attempts (response, latency, error)</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${events.map(
            (event) => html`<tr>
<td data-label="Event">#${event.sequence} <span class="detail">${breakableStatus(reported(event.body))}</span><span class="detail">${event.eventId}</span></td>
<td data-label="State"><span class="badge ${stateKind(event.state)}">${event.state}</span>${event.nextAttemptAt === null ? '' : html`<span class="detail">next ${timeTag(event.nextAttemptAt)}</span>`}</td>
<td data-label="Attempts">${event.attemptLog.length === 0
              ? html`<span class="muted">None yet</span>`
              : html`<ul class="attempts">${event.attemptLog.map(
                  (attempt) => html`<li>${attempt.attempt}. ${timeTag(attempt.attemptedAt)} · ${attempt.outcome} · ${attempt.statusCode === null ? 'no response' : html`HTTP ${attempt.statusCode}`} · ${duration(attempt.latencyMs)}${attempt.error === null ? '' : html` · <span class="error">${attempt.error}</span>`}</li>`,
                )}</ul>`}</td>
<td data-label="Action"><form method="post" action="/console/payments/${row.id}/webhooks/${event.eventId}/redeliver">${csrfField(viewer.csrfToken)}<button class="secondary" type="submit">Redeliver<span class="visually-hidden"> event #${event.sequence}</span></button></form></td>
</tr>`,
          )}</tbody></table></div>`;

    return page(
      consolePage({
        title: `${money(row.amount, row.currency)} to ${recipient.name ?? 'unknown'}`,
        section: 'payments',
        viewer,
        navigation: services.navigation,
        lead: html`${statusBadge(detailed, false)} <span class="mono">${row.id}</span>`,
        headActions: html`<a class="button secondary" href="/console/payments">All payments</a>`,
        body: html`${done === 'redelivered' ? notice('The event is queued: it is sent again within seconds, with the same webhook-id.', 'success') : ''}
<div class="grid two">
<section class="card" aria-labelledby="facts"><h2 id="facts" class="visually-hidden">Payment</h2><dl class="facts">
<dt>Status</dt><dd>${statusBadge(detailed)}</dd>
<dt>Amount</dt><dd>${money(row.amount, row.currency)}</dd>
<dt>Recipient</dt><dd>${recipient.name ?? ''}<span class="detail">${recipient.account?.number?.value ?? ''}</span></dd>
<dt>Paid from</dt><dd>${sender === undefined
  ? html`<span class="muted">${isFinal(detailed) ? 'Not known' : 'Not known yet'}</span>`
  : html`${sender.currency === undefined ? 'Account' : `Account in ${sender.currency}`}<span class="detail">${sender.iban}</span>`}</dd>
<dt>End-to-end id</dt><dd class="mono">${row.end_to_end_id}</dd>
<dt>Client</dt><dd>${client?.name ?? row.client_id}</dd>
<dt>Bank</dt><dd>${bank ?? (row.provider_id === null ? 'Not chosen yet' : row.provider_id)}</dd>
<dt>Bank’s payment id</dt><dd class="mono">${row.provider_payment_id ?? '—'}</dd>
</dl></section>
<section class="card" aria-labelledby="more-facts"><h2 id="more-facts" class="visually-hidden">Details</h2><dl class="facts">
<dt>Created</dt><dd>${timeTag(row.created_at)}</dd>
<dt>Last change</dt><dd>${timeTag(row.updated_at)}</dd>
<dt>Mode</dt><dd>${row.mode === 'hosted' ? 'Hosted (payer picks the bank)' : 'Custom (client picked the bank)'}</dd>
<dt>Scheme</dt><dd>${row.payment_scheme}${row.scheme_mode === null ? '' : ` · ${row.scheme_mode}`}</dd>
<dt>Environment</dt><dd>${row.environment}</dd>
<dt>Failure</dt><dd>${reasons.length === 0 ? '—' : html`<ul class="reasons">${reasons.map((reason) => html`<li><strong>${reason.code}</strong>: ${reason.message}</li>`)}</ul>`}</dd>
</dl></section>
</div>
<section aria-labelledby="timeline"><h2 id="timeline">Status timeline</h2><div class="card">${timeline}</div></section>
${await bankCallsSection(row.id, services)}
<section aria-labelledby="webhooks"><h2 id="webhooks">Webhook deliveries</h2>${row.webhook_url === null ? '' : html`<p class="muted">To <span class="mono">${row.webhook_url}</span></p>`}${webhooks}</section>`,
      }),
    );
  });

  router.post('/payments/:paymentId/webhooks/:eventId/redeliver', { section: 'payments' }, async (context) => {
    const { viewer } = context;
    const { paymentId, eventId } = context.request.params as { paymentId: string; eventId: string };
    const row = await visiblePayment(paymentId, viewer.clientScope);
    if (row === undefined) return notFound;
    const event = (await services.outbox.listForPayment(row.id)).find((candidate) => candidate.eventId === eventId);
    if (event === undefined) return notFound;
    await services.outbox.redeliver(event.eventId);
    await services.audit.record(viewer.actor, { action: 'webhook.redelivered', clientId: row.client_id, target: row.id, details: { eventId: event.eventId, sequence: event.sequence } });
    return redirect(`/console/payments/${row.id}?done=redelivered#webhooks`);
  });
}
