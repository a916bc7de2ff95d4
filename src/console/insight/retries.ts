/**
 * The funnel's recovery: payers who did not stop where a bank failed them but paid with another bank
 * (docs/api-decisions.md, "Paying with another bank"). Of the payments created in the range: how many failed for a
 * reason another bank could avoid (src/domain/retry.ts), how many of those the payer retried at another bank, and
 * how many of those retries completed. Read from `payments` alone (`retry_of`, migration 0015).
 */
import { sql, type Kysely } from 'kysely';
import { RETRYABLE_FAILURE_CODES } from '../../domain/retry.js';
import { html, type SafeHtml } from '../../hosted/html.js';
import type { Database } from '../../storage/schema.js';
import { percent } from '../format.js';
import { horizontalBars } from './charts.js';
import type { InsightScope } from './queries.js';

export interface RetryFigures {
  /** Failed at a bank for a reason another bank could avoid (whether or not the client allowed the offer). */
  readonly failedAvoidably: number;
  /** Of those, retried at another bank (the retry exists). */
  readonly retried: number;
  /** Of those retries, completed. */
  readonly retriedCompleted: number;
}

export async function retryFigures(db: Kysely<Database>, scope: InsightScope): Promise<RetryFigures> {
  // Failure reasons are stored as JSON text: a code appears there quoted.
  const avoidable = sql.join(
    [...RETRYABLE_FAILURE_CODES].map((code) => sql`p.failure_reasons LIKE ${`%"${code}"%`}`),
    sql` OR `,
  );
  let query = db
    .selectFrom('payments as p')
    .leftJoin('payments as r', 'r.retry_of', 'p.id')
    .select([
      sql<number | string>`COUNT(*)`.as('failed'),
      sql<number | string>`COUNT(r.id)`.as('retried'),
      sql<number | string>`COUNT(CASE WHEN r.detailed_status = 'PAYMENT_EXECUTION_COMPLETED' THEN 1 END)`.as('completed'),
    ])
    .where('p.created_at', '>=', scope.from.toISOString())
    .where('p.created_at', '<', scope.to.toISOString())
    .where(sql<boolean>`p.detailed_status LIKE '%\\_FAILED' ESCAPE '\\'`)
    .where('p.provider_id', 'is not', null)
    .where(sql<boolean>`(${avoidable})`);
  if (scope.clientId !== undefined) query = query.where('p.client_id', '=', scope.clientId);
  const row = await query.executeTakeFirst();
  return { failedAvoidably: Number(row?.failed ?? 0), retried: Number(row?.retried ?? 0), retriedCompleted: Number(row?.completed ?? 0) };
}

const STEPS = [
  {
    key: 'failedAvoidably',
    label: 'Failed at a bank',
    hint: 'For a reason another bank could avoid: funds, refusal, cancelled at the bank, unreachable',
  },
  { key: 'retried', label: 'Retried at another bank', hint: 'The payer chose “Pay with another bank” on the outcome page' },
  { key: 'retriedCompleted', label: 'Completed after retry', hint: 'The retry at the other bank completed' },
] as const;

export function retryChart(figures: RetryFigures): SafeHtml {
  const full = figures.failedAvoidably;
  const summary =
    full === 0
      ? 'No payment failed at a bank for a reason another bank could avoid in this range.'
      : `Of ${full} payments that failed at a bank for a reason another bank could avoid, ${figures.retried} were retried at another bank (${percent(figures.retried, full)}) and ${figures.retriedCompleted} of those completed.`;
  return horizontalBars({
    frame: {
      id: 'retries',
      title: 'Retried at another bank',
      summary,
      table: html`<div class="table-wrap"><table><caption class="visually-hidden">Failed payments paid again with another bank</caption>
<thead><tr><th scope="col">Step</th><th scope="col" class="amount">Payments</th><th scope="col" class="amount">Share<span class="visually-hidden"> of failed at a bank</span></th></tr></thead>
<tbody>${STEPS.map(
        (step) =>
          html`<tr><th scope="row">${step.label}<span class="hint">${step.hint}</span></th><td class="amount">${figures[step.key]}</td><td class="amount">${percent(figures[step.key], full)}</td></tr>`,
      )}</tbody></table></div>`,
    },
    full,
    bars: STEPS.map((step, index) => ({
      label: step.label,
      value: figures[step.key],
      note: `${figures[step.key]} · ${percent(figures[step.key], full)}`,
      tone: index === 0 ? 'failed' : index === STEPS.length - 1 ? 'completed' : 'primary',
    })),
  });
}
