/** The payer cancels on our page (after its confirmation): the step's own failure with PSU_CANCELLED. */
import { failureReason } from '../../domain/detailed-status.js';
import type { Payment } from '../../domain/payment.js';
import { failureStatusFrom } from '../../domain/transitions.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { cancelHeldPayment } from '../steps/payment-consent.js';
import { STOP } from '../steps/step-result.js';

/** From any open status; a payment the bank holds is withdrawn there first (never failed while it may execute). */
export function cancel(engine: FlowEngine, payment: Payment, actor: Actor): Promise<ActionOutcome> {
  return engine.perform(payment, 'any-open', actor, async (run) => {
    run.setState({ page: { cancelledOnPage: true } });
    if (run.state.bank?.payment !== undefined) return cancelHeldPayment(run);
    const to = failureStatusFrom(run.status);
    if (to !== undefined) run.enter(to, [failureReason('PSU_CANCELLED')]);
    return STOP;
  });
}
