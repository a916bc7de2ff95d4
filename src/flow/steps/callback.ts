/**
 * Our callback URL for the bank's redirect back (TPP-Redirect-URI and TPP-Nok-Redirect-URI). It carries the
 * payment id and a fresh 256-bit secret; only the secret's SHA-256 is kept in the flow state, and the callback
 * consumes it in the same version-guarded write that records the payer's return, so a callback works once, a
 * replay or a forged secret is refused, and the flow link itself never travels to the bank.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FlowRun } from '../run.js';

export interface CallbackUris {
  readonly ok: string;
  readonly nok: string;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function newCallback(run: FlowRun, purpose: 'payment' | 'consent'): CallbackUris {
  const secret = randomBytes(32).toString('base64url');
  run.setState({ callback: { hash: sha256(secret), purpose } });
  const ok = `${run.context.baseUrl}/pay/return/${run.payment.id}/${secret}`;
  return { ok, nok: `${ok}?result=nok` };
}

/** Whether `secret` is the payment's open callback secret (constant-time). */
export function callbackMatches(stored: { readonly hash: string } | undefined, secret: string): boolean {
  if (stored === undefined || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return false;
  const expected = Buffer.from(stored.hash);
  const given = Buffer.from(sha256(secret));
  return expected.length === given.length && timingSafeEqual(expected, given);
}
