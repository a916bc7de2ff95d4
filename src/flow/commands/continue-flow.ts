/** "Continue" on the review page (custom mode's first page, or a retry after a bank error). */
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { AUTOMATIC_STATUSES } from '../step-table.js';
import { CONTINUE } from '../steps/step-result.js';

/** From a status the engine goes on from by itself: the engine runs the step table's steps from there. */
export function continueFlow(engine: FlowEngine, payment: Payment, actor: Actor): Promise<ActionOutcome> {
  return engine.perform(payment, AUTOMATIC_STATUSES, actor, async () => CONTINUE);
}
