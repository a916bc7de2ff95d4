/**
 * What every new payment's flow starts with, whoever makes the payment (the API's payments, a payer's retry with
 * another bank, a refund, a payment link's payer): a fresh flow token, the first status of its mode, no bank
 * reference, flow state, payer or bulk yet, version 1, and its deadline from `now`.
 */
import { randomBytes } from 'node:crypto';
import type { Payment } from './payment.js';
import { initialStatus } from './transitions.js';

export type FreshFlow = Pick<
  Payment,
  | 'flowToken'
  | 'providerPaymentId'
  | 'detailedStatus'
  | 'failureReasons'
  | 'version'
  | 'createdAt'
  | 'updatedAt'
  | 'flowExpiresAt'
  | 'flowState'
  | 'payer'
  | 'bulkLeaderId'
>;

/** `flowDeadlineSeconds`: how long the payer's flow may take (config `FLOW_DEADLINE_SECONDS`). */
export function freshFlow(mode: Payment['mode'], now: Date, flowDeadlineSeconds: number): FreshFlow {
  const at = now.toISOString();
  return {
    // The payer's link: 256 random bits (only its hash and a sealed copy are stored).
    flowToken: randomBytes(32).toString('base64url'),
    providerPaymentId: null,
    detailedStatus: initialStatus(mode),
    failureReasons: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
    flowExpiresAt: new Date(now.getTime() + flowDeadlineSeconds * 1000).toISOString(),
    flowState: null,
    payer: null,
    // In no bulk of refunds approved together until one is formed at the bank's choice (src/flow/refund-bulks.ts).
    bulkLeaderId: null,
  };
}
