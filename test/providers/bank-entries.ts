/** Catalogue entries the banks tests add: a Berlin Group bank at the sandbox bank, made fresh for each use. */
import { randomUUID } from 'node:crypto';

export function berlinGroupEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: randomUUID(),
    name: 'Nordlicht Testbank',
    countryCode: 'DE',
    environment: 'sandbox',
    brandColor: '#224466',
    monogram: 'NLT',
    paymentSchemes: ['SEPA'],
    currencies: ['EUR'],
    instantPayments: false,
    remittanceMaxLength: 140,
    connector: {
      standard: 'berlin-group',
      baseUrl: '{SANDBOX_BANK_URL}/rheinland',
      scaApproaches: ['REDIRECT'],
      products: { SEPA: 'sepa-credit-transfers' },
      acceptedForExecutionIsCompleted: false,
      requiresDebtorAccount: false,
      accountInformation: false,
      requiresSenderAuthorization: false,
      timeoutMs: 10000,
    },
    ...overrides,
  };
}
