/** Phase 1 (hosted mode): the payer chose a bank on the bank list. */
import type { Payment } from '../../domain/payment.js';
import type { Bank } from '../../providers/catalogue.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { statusesShownOn } from '../step-table.js';
import { selectBank } from '../steps/provider-selection.js';

export interface ChooseBankInput {
  /** The bank's catalogue id as posted; one of the banks offered for this payment (`FlowEngine.banksFor`). */
  readonly providerId: string | undefined;
}

export interface ChooseBankOutcome {
  readonly outcome: ActionOutcome;
  /** The bank taken, when the choice was recorded (the page remembers it for the client's next payment). */
  readonly chosen: Bank | undefined;
}

export async function chooseBank(engine: FlowEngine, payment: Payment, input: ChooseBankInput, actor: Actor): Promise<ChooseBankOutcome> {
  let chosen: Bank | undefined;
  const outcome = await engine.perform(payment, statusesShownOn('bank-selection'), actor, async (run) => {
    const bank = engine.banksFor(run.payment).find((candidate) => candidate.id === input.providerId);
    if (bank === undefined) return { kind: 'invalid', errors: [{ field: 'providerId', message: 'chooseOne' }] };
    chosen = bank;
    return selectBank(run, bank);
  });
  // A bank that asks for an account-information consent first: our page says "you will log in twice" before the
  // payer leaves for the bank's first login.
  const shown: ActionOutcome =
    outcome.kind === 'redirect' && engine.twoLoginsAhead(outcome.payment) ? { kind: 'next', payment: outcome.payment } : outcome;
  return { outcome: shown, chosen };
}
