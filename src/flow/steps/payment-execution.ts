/**
 * Phase 7: the bank executes; we poll its payment status in the `bank-status` job, with backoff, until a final
 * status (decisions §3): settled (and, per bank, accepted for execution) completes; rejected or cancelled fails
 * with the connector's reason; anything else, including timeouts and 5xx, keeps the payment pending.
 */
import type { FlowRun } from '../run.js';
import { failureReason } from '../../domain/detailed-status.js';

export type ExecutionPoll = { readonly kind: 'final' } | { readonly kind: 'pending'; readonly retryAfterSeconds?: number };

export async function pollExecution(run: FlowRun): Promise<ExecutionPoll> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) throw new Error('Execution without a bank payment');
  const status = await run.paymentStatus(bankPayment);
  if (!status.ok) {
    const retryAfterSeconds = 'retryAfterSeconds' in status.error ? (status.error.retryAfterSeconds as number | undefined) : undefined;
    return retryAfterSeconds === undefined ? { kind: 'pending' } : { kind: 'pending', retryAfterSeconds };
  }
  if (status.value.outcome === 'completed') {
    run.enter('PAYMENT_EXECUTION_COMPLETED');
    return { kind: 'final' };
  }
  if (status.value.outcome === 'failed') {
    run.enter('PAYMENT_EXECUTION_FAILED', [failureReason(status.value.failureCode ?? 'BANK_REJECTED')]);
    return { kind: 'final' };
  }
  return { kind: 'pending' };
}
