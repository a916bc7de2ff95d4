/** Phase 2: the payer gave what the bank needs and the request lacked (login id, password, sender IBAN). */
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { statusesShownOn } from '../step-table.js';
import { submitFollowupData, type FollowupForm } from '../steps/followup-data.js';

/** The form's fields as posted; which are required depends on the bank (`FlowEngine.credentialFields`). */
export type FollowupDataInput = FollowupForm;

export function giveFollowupData(engine: FlowEngine, payment: Payment, input: FollowupDataInput, actor: Actor): Promise<ActionOutcome> {
  return engine.perform(payment, statusesShownOn('followup-data'), actor, async (run) => submitFollowupData(run, input));
}
