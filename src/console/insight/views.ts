/**
 * The Insight page: what to show (period, client, the funnel's bank), then the charts (src/console/insight/charts.ts),
 * each with its figures as a table and a sentence that says what it shows.
 */
import { html, type SafeHtml } from '../../hosted/html.js';
import { duration, percent } from '../format.js';
import { consolePage, emptyState } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import { columns, horizontalBars, stackedBars, type Series } from './charts.js';
import { retryChart, type RetryFigures } from './retries.js';
import {
  COMPLETION_BUCKETS,
  COMPLETION_SAMPLE_LIMIT,
  FUNNEL_STEPS,
  overallFunnel,
  RANGES,
  type CompletionTimes,
  type FunnelRow,
  type HandoverCounts,
  type OutcomeBucket,
  type RangeId,
} from './queries.js';

const OUTCOMES: readonly Series[] = [
  { key: 'completed', label: 'Completed', tone: 'completed' },
  { key: 'failed', label: 'Failed', tone: 'failed' },
  { key: 'pending', label: 'Pending', tone: 'pending' },
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function bucketLabel(start: string, bucket: 'hour' | 'day'): string {
  return bucket === 'hour' ? `${start.slice(11, 13)}:00` : `${Number(start.slice(8, 10))} ${MONTHS[Number(start.slice(5, 7)) - 1] ?? ''}`;
}

function outcomesChart(buckets: readonly OutcomeBucket[], bucket: 'hour' | 'day', rangeLabel: string): SafeHtml {
  const totals = buckets.reduce(
    (sum, item) => ({ completed: sum.completed + item.completed, failed: sum.failed + item.failed, pending: sum.pending + item.pending }),
    { completed: 0, failed: 0, pending: 0 },
  );
  const all = totals.completed + totals.failed + totals.pending;
  return stackedBars({
    frame: {
      id: 'outcomes',
      title: 'Payments per outcome',
      summary: `${rangeLabel}: ${all} payments created, ${totals.completed} completed (${percent(totals.completed, all)}), ${totals.failed} failed, ${totals.pending} still pending; one bar per ${bucket}, by where each payment stands now.`,
      table: html`<div class="table-wrap"><table><caption class="visually-hidden">Payments per ${bucket} by outcome</caption>
<thead><tr><th scope="col">${bucket === 'hour' ? 'Hour (UTC)' : 'Day (UTC)'}</th><th scope="col" class="amount">Completed</th><th scope="col" class="amount">Failed</th><th scope="col" class="amount">Pending</th></tr></thead>
<tbody>${buckets.map(
        (item) =>
          html`<tr><th scope="row">${bucket === 'hour' ? `${item.start.slice(0, 10)} ${item.start.slice(11, 16)}` : item.start.slice(0, 10)}</th><td class="amount">${item.completed}</td><td class="amount">${item.failed}</td><td class="amount">${item.pending}</td></tr>`,
      )}</tbody></table></div>`,
    },
    series: OUTCOMES,
    bars: buckets.map((item) => ({
      key: item.start,
      label: bucketLabel(item.start, bucket),
      values: { completed: item.completed, failed: item.failed, pending: item.pending },
    })),
    labelEvery: bucket === 'hour' ? 3 : buckets.length > 10 ? 5 : 1,
  });
}

function funnelChart(reached: readonly number[], scopeLabel: string): SafeHtml {
  const created = reached[0] ?? 0;
  // The step where most payers were lost, to say in words what the chart shows.
  let worst: { step: number; lost: number } = { step: 0, lost: 0 };
  for (let step = 1; step < FUNNEL_STEPS.length; step += 1) {
    const lost = (reached[step - 1] ?? 0) - (reached[step] ?? 0);
    if (lost > worst.lost) worst = { step, lost };
  }
  const summary =
    created === 0
      ? `${scopeLabel}: no payments in this range.`
      : `${scopeLabel}: of ${created} payments, ${reached[FUNNEL_STEPS.length - 1] ?? 0} completed (${percent(reached[FUNNEL_STEPS.length - 1] ?? 0, created)}).${worst.lost === 0 ? '' : ` Most were lost before “${FUNNEL_STEPS[worst.step]?.label ?? ''}”: ${worst.lost} payments.`}`;
  return horizontalBars({
    frame: {
      id: 'funnel',
      title: 'Where payers drop off',
      summary,
      table: html`<div class="table-wrap"><table><caption class="visually-hidden">Payments that reached each step</caption>
<thead><tr><th scope="col">Step</th><th scope="col" class="amount">Payments</th><th scope="col" class="amount">Share<span class="visually-hidden"> of created</span></th><th scope="col" class="amount">Lost<span class="visually-hidden"> before this step</span></th></tr></thead>
<tbody>${FUNNEL_STEPS.map(
        (step, index) =>
          html`<tr><th scope="row">${step.label}<span class="hint">${step.hint}</span></th><td class="amount">${reached[index] ?? 0}</td><td class="amount">${percent(reached[index] ?? 0, created)}</td><td class="amount">${index === 0 ? '—' : (reached[index - 1] ?? 0) - (reached[index] ?? 0)}</td></tr>`,
      )}</tbody></table></div>`,
    },
    full: created,
    bars: FUNNEL_STEPS.map((step, index) => ({
      label: step.label,
      value: reached[index] ?? 0,
      note: `${reached[index] ?? 0} · ${percent(reached[index] ?? 0, created)}`,
      tone: index === FUNNEL_STEPS.length - 1 ? 'completed' : 'primary',
    })),
  });
}

/** Beside the funnel: how many payers moved from a desktop to a phone by the QR code, and how many of them completed. */
function handoverLine(counts: HandoverCounts, created: number): SafeHtml {
  return html`<p id="handovers" class="hint">QR taken over (desktop to phone): ${counts.takenOver} of ${created} payments (${percent(counts.takenOver, created)}), ${counts.completed} of them completed.</p>`;
}

function bankConversionChart(rows: readonly FunnelRow[], names: Map<string, string>): SafeHtml {
  const completedStep = FUNNEL_STEPS.length - 1;
  const banks = rows
    .filter((row): row is FunnelRow & { bankId: string } => row.bankId !== null && (row.reached[0] ?? 0) > 0)
    .map((row) => ({ name: names.get(row.bankId) ?? row.bankId, created: row.reached[0] ?? 0, completed: row.reached[completedStep] ?? 0 }))
    .sort((a, b) => b.created - a.created || a.name.localeCompare(b.name))
    .slice(0, 12);
  const lowest = [...banks].sort((a, b) => a.completed / a.created - b.completed / b.created)[0];
  return horizontalBars({
    frame: {
      id: 'banks-conversion',
      title: 'Completion rate by bank',
      summary:
        banks.length === 0
          ? 'No payment reached a bank in this range.'
          : `Completed payments out of those created, for the ${banks.length} busiest banks.${lowest === undefined ? '' : ` Lowest: ${lowest.name}, ${percent(lowest.completed, lowest.created)} of ${lowest.created}.`}`,
      table: html`<div class="table-wrap"><table><caption class="visually-hidden">Completion rate by bank</caption>
<thead><tr><th scope="col">Bank</th><th scope="col" class="amount">Created</th><th scope="col" class="amount">Completed</th><th scope="col" class="amount">Rate</th></tr></thead>
<tbody>${banks.map((bank) => html`<tr><th scope="row">${bank.name}</th><td class="amount">${bank.created}</td><td class="amount">${bank.completed}</td><td class="amount">${percent(bank.completed, bank.created)}</td></tr>`)}</tbody></table></div>`,
    },
    full: 1,
    bars: banks.map((bank) => ({
      label: bank.name,
      value: bank.completed / bank.created,
      note: `${percent(bank.completed, bank.created)} of ${bank.created}`,
      tone: 'completed',
    })),
  });
}

function completionChart(times: CompletionTimes): SafeHtml {
  return columns({
    frame: {
      id: 'completion-time',
      title: 'Time from creation to completion',
      summary:
        times.total === 0
          ? 'No payment completed in this range.'
          : `${times.total === 1 ? '1 completed payment' : `${times.total} completed payments`}${times.sampled ? ` (the newest ${COMPLETION_SAMPLE_LIMIT})` : ''}: half within ${duration(times.medianMs ?? 0)}, 95 % within ${duration(times.p95Ms ?? 0)}.`,
      table: html`<div class="table-wrap"><table><caption class="visually-hidden">Completed payments by time to completion</caption>
<thead><tr><th scope="col">Time to completion</th><th scope="col" class="amount">Payments</th><th scope="col" class="amount">Share</th></tr></thead>
<tbody>${COMPLETION_BUCKETS.map((bucket, index) => html`<tr><th scope="row">${bucket.label}</th><td class="amount">${times.counts[index] ?? 0}</td><td class="amount">${percent(times.counts[index] ?? 0, times.total)}</td></tr>`)}</tbody></table></div>`,
    },
    columns: COMPLETION_BUCKETS.map((bucket, index) => ({ label: bucket.label, value: times.counts[index] ?? 0 })),
    tone: 'primary',
  });
}

export interface InsightPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly rangeId: RangeId;
  /** The clients an operator may pick (none for a member). */
  readonly clients: readonly { readonly clientId: string; readonly name: string }[];
  /** The client shown: a member's, an operator's pick, or undefined for every client. */
  readonly clientId: string | undefined;
  readonly names: Map<string, string>;
  readonly buckets: readonly OutcomeBucket[];
  readonly funnelRows: readonly FunnelRow[];
  /** The funnel's one bank, when one is picked and has payments. */
  readonly bankRow: FunnelRow | undefined;
  /** Payments a phone took over from a desktop by the QR code (every bank). */
  readonly handovers: HandoverCounts;
  readonly times: CompletionTimes;
  /** Payers who paid with another bank after a bank failed them (src/console/insight/retries.ts). */
  readonly retries: RetryFigures;
  /** Payers who cancelled on the payment page after confirming (every bank). */
  readonly cancelledOnPage: number;
}

const option = (value: string, label: string, current: string | undefined): SafeHtml =>
  html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;

function controls(view: InsightPageView): SafeHtml {
  const { viewer, clients, clientId, bankRow } = view;
  const bankChoices = view.funnelRows
    .filter((row): row is FunnelRow & { bankId: string } => row.bankId !== null)
    .map((row) => ({ id: row.bankId, name: view.names.get(row.bankId) ?? row.bankId }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return html`<form class="card" method="get" action="/console/insight" aria-label="What to show"><div class="filters">
<div class="field"><label for="range">Period</label><select id="range" name="range">${Object.entries(RANGES).map(([id, item]) => option(id, item.label, view.rangeId))}</select></div>
${viewer.clientScope === undefined ? html`<div class="field"><label for="client">Client</label><select id="client" name="client">${option('', 'Every client', clientId)}${clients.map((client) => option(client.clientId, client.name, clientId))}</select></div>` : ''}
<div class="field"><label for="bank">Funnel of <span class="hint">One bank, or all</span></label><select id="bank" name="bank">${option('', 'Every bank', bankRow?.bankId ?? undefined)}${bankChoices.map((bank) => option(bank.id, bank.name, bankRow?.bankId ?? undefined))}</select></div>
<div class="actions"><button class="primary" type="submit">Show</button></div>
</div></form>`;
}

function charts(view: InsightPageView): SafeHtml {
  const { buckets, bankRow, funnelRows, names } = view;
  const range = RANGES[view.rangeId];
  if (!buckets.some((item) => item.completed + item.failed + item.pending > 0)) {
    return emptyState(
      'No payments in this period',
      html`<p>Charts appear once payments are created. Try a longer period${view.viewer.clientScope === undefined ? ', or every client' : ''}.</p>`,
    );
  }
  const funnelScope =
    bankRow?.bankId === undefined || bankRow.bankId === null ? 'Every bank' : (names.get(bankRow.bankId) ?? bankRow.bankId);
  return html`${outcomesChart(buckets, range.bucket, range.label)}
${funnelChart(bankRow === undefined ? overallFunnel(funnelRows) : bankRow.reached, funnelScope)}
${handoverLine(view.handovers, overallFunnel(funnelRows)[0] ?? 0)}
<p class="hint" id="cancelled-after-confirmation">Cancelled on the payment page after confirming (every bank): ${String(view.cancelledOnPage)}</p>
${retryChart(view.retries)}
${bankConversionChart(funnelRows, names)}
${completionChart(view.times)}`;
}

export function insightPage(view: InsightPageView): string {
  const { viewer, clientId, clients } = view;
  return consolePage({
    title: 'Insight',
    section: 'insight',
    viewer,
    navigation: view.navigation,
    lead:
      viewer.clientScope === undefined
        ? `How payments are going${clientId === undefined ? ' across every client' : ` for ${clients.find((client) => client.clientId === clientId)?.name ?? clientId}`}. Times are UTC.`
        : `How ${viewer.clientName ?? 'your client'}’s payments are going. Times are UTC.`,
    body: html`${controls(view)}${charts(view)}`,
  });
}
