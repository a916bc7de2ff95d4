/** "Choose another bank": back to the bank list, recorded as a status change like any other. */
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { returnToBankSelection } from '../steps/provider-selection.js';
import { STOP } from '../steps/step-result.js';

/** Only while the engine allows it (`FlowEngine.canGoBack`: hosted mode, phases 1 to 4, no bank holds the payment). */
export function goBack(engine: FlowEngine, payment: Payment, actor: Actor): Promise<ActionOutcome> {
  if (!engine.canGoBack(payment)) return Promise.resolve({ kind: 'next', payment });
  return engine.perform(payment, [payment.detailedStatus], actor, async (run) =>
    engine.canGoBack(run.payment) ? returnToBankSelection(run) : STOP,
  );
}
