/** Valid payment link creation requests for tests, to be varied one field at a time. */
import { randomUUID } from 'node:crypto';
import { ADDRESS, IBANS } from './payment-requests.js';

/** A single-use SEPA link of 10.50 EUR with a fresh reference. */
export function paymentLinkRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paymentScheme: { name: 'SEPA' },
    recipient: { account: { number: { type: 'IBAN', value: IBANS.DE } }, name: 'Acme GmbH', address: ADDRESS },
    amount: 10.5,
    currency: 'EUR',
    remittanceInformation: { type: 'UNSTRUCTURED', value: 'Invoice 2026-001' },
    metadata: { redirectUri: 'https://merchant.example/return' },
    reference: `link-${randomUUID().slice(0, 18)}`,
    ...overrides,
  };
}
