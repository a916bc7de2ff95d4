/** Valid payment creation requests for tests, to be varied one field at a time. */
import { randomUUID } from 'node:crypto';

/** IBANs with valid checksums. */
export const IBANS = {
  DE: 'DE89370400440532013000',
  FR: 'FR1420041010050500013M02606',
  GB: 'GB29NWBK60161331926819',
  PL: 'PL61109010140000071219812874',
  LT: 'LT121000011101001000',
} as const;

export const ADDRESS = { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' };

/** A hosted-mode SEPA payment of 10.50 EUR. */
export function paymentRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paymentScheme: { name: 'SEPA' },
    recipient: { account: { number: { type: 'IBAN', value: IBANS.DE } }, name: 'Acme GmbH', address: ADDRESS },
    amount: 10.5,
    currency: 'EUR',
    remittanceInformation: { type: 'UNSTRUCTURED', value: 'Invoice 2026-001' },
    metadata: {
      redirectUri: 'https://merchant.example/return',
      psuIpAddress: '203.0.113.7',
      psuUserAgent: 'Mozilla/5.0 (test)',
      endToEndId: `e2e-${randomUUID()}`,
    },
    ...overrides,
  };
}

/** A payment of 10.50 GBP to a GB account (Faster Payments) at a UK Open Banking bank. */
export function ukPaymentRequest(providerId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return paymentRequest({
    provider: { id: providerId },
    paymentScheme: { name: 'DOMESTIC' },
    currency: 'GBP',
    recipient: {
      account: { number: { type: 'IBAN', value: IBANS.GB } },
      name: 'Acme Ltd',
      address: { country: 'GB', city: 'London', streetName: 'High Street', buildingNumber: '1', postCode: 'EC1A 1AA' },
    },
    ...overrides,
  });
}

/** The same request with one nested field replaced (`path` with dots) or removed (`value` undefined). */
export function withField(request: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(request);
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1] as string;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}
