/**
 * Our callback URL for the bank's redirect back (Berlin Group: TPP-Redirect-URI and TPP-Nok-Redirect-URI). It
 * carries the payment id and a fresh 256-bit secret; only the secret's SHA-256 is kept in the flow state, and the
 * callback consumes it in the same version-guarded write that records the payer's return, so a callback works
 * once, a replay or a forged secret is refused, and the flow link itself never travels to the bank.
 *
 * Banks that accept only redirect URIs registered in advance send the payer to our one fixed return URL instead;
 * the `state` they carry through, `<paymentId>.<secret>`, names the payment and holds the same secret.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReturnAddress } from '../../connectors/index.js';
import type { FlowRun } from '../run.js';

/** The fixed return path (the `registeredUri` of every return address). */
export const REGISTERED_RETURN_PATH = '/pay/return';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** The `state` binding a return to the payment: its id and the callback secret. */
export function returnState(paymentId: string, secret: string): string {
  return `${paymentId}.${secret}`;
}

/** The payment id and the secret of a `state` we made (undefined for anything else). */
export function parseReturnState(state: string): { readonly paymentId: string; readonly secret: string } | undefined {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/.exec(state);
  return match?.[1] === undefined || match[2] === undefined ? undefined : { paymentId: match[1], secret: match[2] };
}

function addressOf(run: FlowRun, secret: string): ReturnAddress {
  const uri = `${run.context.baseUrl}/pay/return/${run.payment.id}/${secret}`;
  return {
    uri,
    nokUri: `${uri}?result=nok`,
    registeredUri: `${run.context.baseUrl}${REGISTERED_RETURN_PATH}`,
    state: returnState(run.payment.id, secret),
  };
}

/** A new callback for `purpose`, replacing any open one: its secret stays in the run's memory, its hash in the state. */
export function newCallback(run: FlowRun, purpose: 'payment' | 'consent'): ReturnAddress {
  const secret = randomBytes(32).toString('base64url');
  run.callbackSecret = secret;
  run.setState({ page: { callback: { hash: sha256(secret), purpose } } });
  return addressOf(run, secret);
}

/** The callback this run made for `purpose` (so a later call gives the bank the same address), else a new one. */
export function callbackOfRun(run: FlowRun, purpose: 'payment' | 'consent'): ReturnAddress {
  const secret = run.callbackSecret;
  const stored = run.state.page?.callback;
  if (secret !== undefined && stored?.purpose === purpose && callbackMatches(stored, secret)) return addressOf(run, secret);
  return newCallback(run, purpose);
}

/** Whether `secret` is the payment's open callback secret (constant-time). */
export function callbackMatches(stored: { readonly hash: string } | undefined, secret: string): boolean {
  if (stored === undefined || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return false;
  const expected = Buffer.from(stored.hash);
  const given = Buffer.from(sha256(secret));
  return expected.length === given.length && timingSafeEqual(expected, given);
}
