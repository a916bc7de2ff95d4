/**
 * The UK Open Banking sandbox banks (GB, scheme DOMESTIC, GBP): one issuer each, with its own look. Kept here until
 * the provider catalogue lists them (issue 9); the slugs are the path segment under `/sandbox-bank/uk/`.
 */
export type UkAuthorisationFlow = 'redirect' | 'decoupled';

export interface UkSandboxBank {
  readonly slug: string;
  readonly name: string;
  readonly countryCode: 'GB';
  readonly currency: 'GBP';
  readonly brandColor: string;
  /** How the payer authorises: the FAPI hybrid flow through `/authorize`, or CIBA with the sandbox bank app. */
  readonly flow: UkAuthorisationFlow;
  /**
   * Whether the payer picks the debtor account among all their accounts at this bank (asked when they hold
   * several); otherwise the bank pays from the payer's main (first) account.
   */
  readonly accountChoice: boolean;
}

export const UK_SANDBOX_BANKS: readonly UkSandboxBank[] = [
  {
    slug: 'albion',
    name: 'Albion Bank',
    countryCode: 'GB',
    currency: 'GBP',
    brandColor: '#7a1f3d',
    flow: 'redirect',
    accountChoice: false,
  },
  {
    slug: 'pennine',
    name: 'Pennine Building Society',
    countryCode: 'GB',
    currency: 'GBP',
    brandColor: '#1d5c4d',
    flow: 'decoupled',
    accountChoice: false,
  },
  {
    slug: 'severn',
    name: 'Severn Savings',
    countryCode: 'GB',
    currency: 'GBP',
    brandColor: '#78350f',
    flow: 'redirect',
    accountChoice: true,
  },
];

export function ukSandboxBanks(): ReadonlyMap<string, UkSandboxBank> {
  return new Map(UK_SANDBOX_BANKS.map((bank) => [bank.slug, bank]));
}
