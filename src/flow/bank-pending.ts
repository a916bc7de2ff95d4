/**
 * Payments pending at the bank, and the operator's view of those pending too long.
 *
 * A payment is *pending at the bank* when the bank holds it (we have its payment id), it has no final status, and
 * the payer's part is over: it reached execution (`PAYMENT_EXECUTION_PENDING`), or its flow deadline passed (then
 * only the bank's answer is awaited: reconciliation or expiry keeps asking). Its age counts from the payment's
 * creation. Such a payment is never failed by us (decisions §3), so a bank that never answers definitely would
 * leave it pending silently; past `BANK_PENDING_ALERT_SECONDS` the operator is told instead:
 *
 * - a gauge, read from the database when scraped (like the queue gauges), so every process reports the same;
 * - one warning in the log per payment, written by the job that polls the payment when it finds it past the age,
 *   and remembered in the flow state so that it is written once.
 *
 * The in-memory test ({@link isPendingAtBank}) and the query ({@link BankPendingReport}) say the same thing.
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Payment } from '../domain/payment.js';
import type { Database } from '../storage/schema.js';
import { DETAILED_STATUSES, isFinal } from '../domain/detailed-status.js';
import { flowStateOf, toStoredFlowState, withChanges } from './flow-state.js';
import type { PaymentStateStore } from './payment-state-store.js';

const OPEN_STATUSES = DETAILED_STATUSES.filter((status) => !isFinal(status));

export function isPendingAtBank(payment: Payment, now: Date): boolean {
  if (payment.providerPaymentId === null || isFinal(payment.detailedStatus)) return false;
  return payment.detailedStatus === 'PAYMENT_EXECUTION_PENDING' || payment.flowExpiresAt <= now.toISOString();
}

/** Milliseconds a payment has been pending at the bank (counted from its creation); 0 when it is not. */
export function bankPendingAgeMs(payment: Payment, now: Date): number {
  return isPendingAtBank(payment, now) ? Math.max(0, now.getTime() - Date.parse(payment.createdAt)) : 0;
}

/** Reads, for the metrics, how many payments are pending at the bank past the alert age. */
export class BankPendingReport {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly alertAfterSeconds: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * How many payments are pending at the bank past the alert age, and when the oldest pending one was created.
   * One query over open payments only (the `payments_status_created` index skips the final ones).
   */
  async overdue(): Promise<{ overdue: number; oldestCreatedAt: string | null }> {
    const now = this.now();
    const nowIso = now.toISOString();
    const cutoff = new Date(now.getTime() - this.alertAfterSeconds * 1000).toISOString();
    const row = await this.db
      .selectFrom('payments')
      .select([
        sql<string | number>`count(case when created_at <= ${cutoff} then 1 end)`.as('overdue'),
        (eb) => eb.fn.min('created_at').as('oldest'),
      ])
      .where('detailed_status', 'in', OPEN_STATUSES)
      .where('provider_payment_id', 'is not', null)
      .where((eb) => eb.or([eb('detailed_status', '=', 'PAYMENT_EXECUTION_PENDING'), eb('flow_expires_at', '<=', nowIso)]))
      .executeTakeFirst();
    return { overdue: Number(row?.overdue ?? 0), oldestCreatedAt: row?.oldest ?? null };
  }
}

/**
 * Writes the warning for a payment pending at the bank past the alert age, once: the mark in the flow state is
 * written first (under the payment's version), and only the writer that succeeded logs. Returns the payment as
 * it now is (the original on a write conflict), for the caller to go on with.
 */
export async function alertIfPendingTooLong(
  store: PaymentStateStore,
  payment: Payment,
  options: { readonly now: Date; readonly alertAfterSeconds: number; readonly log: FastifyBaseLogger },
): Promise<Payment> {
  const state = flowStateOf(payment);
  const ageMs = bankPendingAgeMs(payment, options.now);
  if (
    state.reconciliation?.bankPendingAlerted === true ||
    !isPendingAtBank(payment, options.now) ||
    ageMs < options.alertAfterSeconds * 1000
  ) {
    return payment;
  }
  const marked = await store.update(payment, {
    flowState: toStoredFlowState(withChanges(state, { reconciliation: { bankPendingAlerted: true } })),
  });
  // Someone else wrote meanwhile: the next poll decides again (the caller's own write will meet the conflict too).
  if (marked.kind === 'conflict') return payment;
  options.log.warn(
    {
      paymentId: payment.id,
      providerId: payment.providerId,
      providerPaymentId: payment.providerPaymentId,
      detailedStatus: payment.detailedStatus,
      createdAt: payment.createdAt,
      pendingSeconds: Math.floor(ageMs / 1000),
      alertAfterSeconds: options.alertAfterSeconds,
    },
    'payment pending at the bank longer than BANK_PENDING_ALERT_SECONDS',
  );
  return marked.payment;
}
