/** Phase 4: the payer chose the sending account among the eligible ones the bank listed. */
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { statusesShownOn } from '../step-table.js';
import { selectAccount } from '../steps/sender-account.js';

export interface ChooseAccountInput {
  /** The IBAN as posted; one of the accounts offered (the flow state's). */
  readonly iban: string | undefined;
}

export function chooseAccount(engine: FlowEngine, payment: Payment, input: ChooseAccountInput, actor: Actor): Promise<ActionOutcome> {
  return engine.perform(payment, statusesShownOn('account-selection'), actor, async (run) => {
    const account = (run.state.senderAccount?.accounts ?? []).find((candidate) => candidate.iban === input.iban);
    if (account === undefined) return { kind: 'invalid', errors: [{ field: 'accountIban', message: 'chooseOne' }] };
    return selectAccount(run, account);
  });
}
