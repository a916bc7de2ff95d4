/**
 * A payment link: a payment waiting for its payer. The client describes the payment (amount, recipient, remittance,
 * return and webhook addresses) without the payer; whoever opens the link's URL and continues starts a payment of
 * it in hosted mode (docs/api-decisions.md, "Payment links"). A link has a lifecycle of its own: ACTIVE until it is
 * paid (single use), expires or is deactivated, each of those final.
 */
import type { Lifecycle } from './lifecycle.js';
import type { Environment, PaymentSchemeName } from './reference-data.js';
import type { IbanRecipient } from './payment.js';

export const PAYMENT_LINK_STATUSES = ['ACTIVE', 'PAID', 'EXPIRED', 'DEACTIVATED'] as const;

export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

export const PAYMENT_LINK_LIFECYCLE: Lifecycle<PaymentLinkStatus> = {
  subjectType: 'payment_link',
  statuses: PAYMENT_LINK_STATUSES,
  transitions: {
    ACTIVE: ['PAID', 'EXPIRED', 'DEACTIVATED'],
    PAID: [],
    EXPIRED: [],
    DEACTIVATED: [],
  },
};

export function isPaymentLinkStatus(value: string): value is PaymentLinkStatus {
  return (PAYMENT_LINK_STATUSES as readonly string[]).includes(value);
}

/** The longest `reference` a link takes: its payments' end-to-end ids (`<reference>-<n>`) must fit in 64 characters. */
export const PAYMENT_LINK_REFERENCE_MAX_LENGTH = 48;

/** A link lives 24 hours unless the client says otherwise, and at most 90 days. */
export const PAYMENT_LINK_DEFAULT_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const PAYMENT_LINK_MAX_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

export interface PaymentLink {
  readonly id: string;
  readonly clientId: string;
  readonly environment: Environment;
  /** The public, unguessable part of the link's URL (128 random bits, base64url). */
  readonly slug: string;
  readonly reference: string;
  readonly reusable: boolean;
  readonly status: PaymentLinkStatus;
  /** Exact decimal string. */
  readonly amount: string;
  readonly currency: string;
  readonly paymentScheme: PaymentSchemeName;
  readonly schemeMode: 'INSTANT' | 'STANDARD' | null;
  readonly feePaidBy: string | null;
  readonly recipient: IbanRecipient;
  readonly remittance: { readonly type: 'UNSTRUCTURED'; readonly value: string; readonly truncate: boolean };
  readonly redirectUri: string;
  readonly webhookUrl: string | null;
  /** The bank the client chose for the link's payments: they then skip the bank list. */
  readonly providerId: string | null;
  readonly providerPreferences: { readonly countryCodes?: { readonly list?: readonly string[]; readonly default?: string } } | null;
  /**
   * A single-use link's payment in progress, if any: while it is open no second payment of the link starts; a failed
   * one frees the link (docs/api-decisions.md, "Payment links").
   */
  readonly openPaymentId: string | null;
  /** How many payments the link started: the last number of their end-to-end ids. */
  readonly paymentCount: number;
  /** The payment that paid a single-use link. */
  readonly paidByPaymentId: string | null;
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Bumped by every status change: the sequence of the link's events. */
  readonly version: number;
}

/** The end-to-end id of the link's `n`th payment: `<reference>-<n>` (at most 48 + 1 + 15 characters). */
export function linkPaymentEndToEndId(reference: string, n: number): string {
  return `${reference}-${String(n)}`;
}
