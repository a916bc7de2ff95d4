/** Phase 6 (embedded): the payer chose one of the bank's SCA methods. */
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { statusesShownOn } from '../step-table.js';
import { chooseScaMethod } from '../steps/payment-consent.js';

export interface ChooseMethodInput {
  /** The method's id as posted; one of the methods the bank offered (the flow state's). */
  readonly methodId: string | undefined;
}

export function chooseMethod(engine: FlowEngine, payment: Payment, input: ChooseMethodInput, actor: Actor): Promise<ActionOutcome> {
  return engine.perform(payment, statusesShownOn('sca-method'), actor, async (run) => {
    const method = (run.state.authorisation?.scaMethods ?? []).find((candidate) => candidate.id === input.methodId);
    if (method === undefined) return { kind: 'invalid', errors: [{ field: 'methodId', message: 'chooseOne' }] };
    return chooseScaMethod(run, method);
  });
}
