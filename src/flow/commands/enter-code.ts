/** Phase 6 (embedded): the payer typed the one-time code. */
import type { Payment } from '../../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine } from '../engine.js';
import { submitCode } from '../steps/payment-consent.js';
import { STOP } from '../steps/step-result.js';

export interface EnterCodeInput {
  readonly otp: string | undefined;
}

/** The longest code taken, whatever the bank says (its own limit, when lower, applies). */
const MAX_CODE_LENGTH = 64;

export function enterCode(engine: FlowEngine, payment: Payment, input: EnterCodeInput, actor: Actor): Promise<ActionOutcome> {
  // Only the payment's code: the consent's redirect status shows the code page too, but takes no code of ours.
  return engine.perform(payment, ['PAYMENT_CONSENT_REDIRECT_PENDING'], actor, async (run) => {
    const trimmed = (input.otp ?? '').trim();
    const maxLength = Math.min(run.state.authorisation?.challenge?.otpMaxLength ?? MAX_CODE_LENGTH, MAX_CODE_LENGTH);
    const format = run.state.authorisation?.challenge?.otpFormat === 'integer' ? /^[0-9]+$/ : /^[\x21-\x7e]+$/;
    if (trimmed === '') return { kind: 'invalid', errors: [{ field: 'otp', message: 'required' }] };
    if (trimmed.length > maxLength || !format.test(trimmed)) return { kind: 'invalid', errors: [{ field: 'otp', message: 'otpFormat' }] };
    // Not a code approach (decoupled, or the bank's own page): nothing to send.
    if (run.state.authorisation?.scaApproach === 'DECOUPLED' || run.state.authorisation?.bankRedirectUrl !== undefined) return STOP;
    return submitCode(run, trimmed);
  });
}
