/**
 * Expiry (decisions §3): a flow not finished by `flowExpiresAt` fails with EXPIRED at the step it waited in
 * (`failureStatusFrom`). From phase 7 on, the outcome is the bank's and expiry does nothing. When the bank already
 * holds the payment, the bank is asked first: a payment it may execute is never failed (see reconciliation).
 */
import { isFinal, phaseOf } from '../../domain/detailed-status.js';
import { failureReason } from '../../domain/detailed-status.js';
import type { FlowRun } from '../run.js';
import { failureStatusFrom } from '../../domain/transitions.js';
import { reconcile } from './reconciliation.js';

export type ExpiryOutcome = 'nothing-to-do' | 'expired' | 'moved' | 'try-later';

export async function expire(run: FlowRun): Promise<ExpiryOutcome> {
  if (isFinal(run.status) || phaseOf(run.status) === 7) return 'nothing-to-do';
  if (run.state.bank?.payment !== undefined) {
    const outcome = await reconcile(run, { expiring: true });
    return outcome === 'moved' ? 'moved' : 'try-later';
  }
  const to = failureStatusFrom(run.status);
  if (to === undefined) return 'nothing-to-do';
  run.enter(to, [failureReason('EXPIRED')]);
  return 'expired';
}
