/**
 * The payer's entry into a payment's hosted flow: an unguessable link under our base URL (the flow token). The
 * payment resource returns it as `redirectUrl`; the console's Refunds page opens it for the merchant's approver.
 */
import type { Payment } from '../domain/payment.js';

export function redirectUrlOf(baseUrl: string, payment: Pick<Payment, 'flowToken'>): string {
  return `${baseUrl}/pay/${payment.flowToken}`;
}
