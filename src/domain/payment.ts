/** The payment as the service keeps it, and its status records. */
import type { DetailedStatus, FailureReason } from './detailed-status.js';
import type { Environment, PaymentSchemeName } from './reference-data.js';

/** An account number of the API's requests: IBANs only (interface spec). */
export interface AccountNumber {
  readonly type: 'IBAN';
  readonly value: string;
}

/**
 * A UK account by sort code and account number. Only a refund to a payer whose UK bank told the account that way has
 * one (docs/api-decisions.md, "Refunds"): a GB IBAN cannot be made from it without the banks' directory.
 */
export interface SortCodeAccountNumber {
  readonly type: 'SORT_CODE_ACCOUNT_NUMBER';
  /** The sort code's 6 digits then the account number's 8: the UK standard's `Identification`. */
  readonly value: string;
  /** A building society's roll number (the UK standard's `SecondaryIdentification`), when the payer's bank gave one. */
  readonly rollNumber?: string;
}

/** The account a payment is paid to: an IBAN, or (a refund to a UK payer only) a sort code and account number. */
export type RecipientAccountNumber = AccountNumber | SortCodeAccountNumber;

/** The sort code and the account number of a {@link SortCodeAccountNumber}'s 14 digits. */
export function splitSortCodeAccountNumber(value: string): { readonly sortCode: string; readonly accountNumber: string } {
  if (!/^\d{14}$/.test(value)) throw new TypeError('A sort code and account number is 14 digits');
  return { sortCode: value.slice(0, 6), accountNumber: value.slice(6) };
}

/** The account a refund pays the payer to: the payer's account as the bank told it. */
export function recipientAccountOfPayer(account: PayerAccountNumber): RecipientAccountNumber {
  if (account.type === 'IBAN') return { type: 'IBAN', value: account.value };
  return {
    type: 'SORT_CODE_ACCOUNT_NUMBER',
    value: `${account.sortCode}${account.accountNumber}`,
    ...(account.rollNumber === undefined ? {} : { rollNumber: account.rollNumber }),
  };
}

/** A postal address as the API takes it (ISO 3166 alpha-2 country). */
export interface PostalAddress {
  readonly country: string;
  readonly city: string;
  readonly streetName: string;
  readonly buildingNumber: string;
  readonly postCode: string;
}

/** The sender as stored: never the payer's credentials (decisions §7). */
export interface SenderDetails {
  readonly account?: { readonly number: AccountNumber; readonly currency: string };
  readonly address?: PostalAddress;
}

/**
 * The account the payer paid from, as the bank identifies it: an IBAN (Berlin Group, and UK banks that name one), or
 * a UK sort code and account number (with the building society's roll number where the bank gives one).
 */
export type PayerAccountNumber =
  | { readonly type: 'IBAN'; readonly value: string }
  | {
      readonly type: 'SORT_CODE_ACCOUNT_NUMBER';
      /** Six digits. */
      readonly sortCode: string;
      /** Eight digits. */
      readonly accountNumber: string;
      /** A building society's roll number (the standard's `SecondaryIdentification`), when the bank gives one. */
      readonly rollNumber?: string;
    };

/**
 * The payer's account and its holder's name, as the bank told them once the payer authorised the payment (UK: the
 * refund account of `ReadRefundAccount`; Berlin Group: the payment's debtor account and its owner's name). Nothing
 * the payer typed on our pages alone, and never the payer's credentials.
 */
export interface PayerDetails {
  readonly account: PayerAccountNumber;
  /** The account holder's name, when the bank gives it. */
  readonly name?: string;
}

export interface Recipient {
  readonly account: { readonly number: RecipientAccountNumber };
  readonly name: string;
  /** Required by the API for a payment; absent on a refund, whose recipient is the payer (the bank gives no address). */
  readonly address?: PostalAddress;
}

/** A recipient the API took in a request (a payment's or a payment link's): by IBAN. */
export interface IbanRecipient extends Recipient {
  readonly account: { readonly number: AccountNumber };
}

export interface Remittance {
  readonly type: 'UNSTRUCTURED';
  /** As it will be sent to the bank (already cut to the bank's limit when truncation was allowed). */
  readonly value: string;
  readonly truncate: boolean;
}

export interface Payment {
  readonly id: string;
  readonly clientId: string;
  readonly environment: Environment;
  readonly endToEndId: string;
  readonly mode: 'custom' | 'hosted';
  /** The bank: set at creation in custom mode, when the payer chooses in hosted mode. */
  readonly providerId: string | null;
  /** Hosted-mode bank selection preferences (`provider.preferences`). */
  readonly providerPreferences: { readonly countryCodes?: { readonly list?: readonly string[]; readonly default?: string } } | null;
  readonly paymentScheme: PaymentSchemeName;
  readonly schemeMode: 'INSTANT' | 'STANDARD' | null;
  readonly feePaidBy: string | null;
  /** Exact decimal string, e.g. "10.50". */
  readonly amount: string;
  readonly currency: string;
  readonly sender: SenderDetails | null;
  readonly recipient: Recipient;
  readonly remittance: Remittance;
  readonly redirectUri: string;
  readonly webhookUrl: string | null;
  readonly psuIpAddress: string;
  readonly psuUserAgent: string;
  /** Language of the payer's pages (from `Accept-Language`), or null for the default. */
  readonly locale: string | null;
  readonly flowToken: string;
  readonly providerPaymentId: string | null;
  readonly detailedStatus: DetailedStatus;
  readonly failureReasons: readonly FailureReason[] | null;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly flowExpiresAt: string;
  /** The flow engine's state between the payer's steps (bank references, offered methods, accounts). No secrets. */
  readonly flowState: Readonly<Record<string, unknown>> | null;
  /** The failed payment this one retries with another bank (docs/api-decisions.md, "Paying with another bank"). */
  readonly retryOf: string | null;
  /** Whether the payer's outcome page may offer another bank after a failure another bank could avoid. */
  readonly retryAllowed: boolean;
  /** The completed payment this one refunds (docs/api-decisions.md, "Refunds"); null on every other payment. */
  readonly refundOf: string | null;
  /** The payer's account once the bank told it (docs/api-decisions.md, "The payer's account"); null before. */
  readonly payer: PayerDetails | null;
  /** The payment link a payer started this payment from (docs/api-decisions.md, "Payment links"), else null. */
  readonly paymentLinkId: string | null;
  /**
   * A refund approved together with others in one bank authorisation (docs/api-decisions.md, "Many refunds, one
   * approval"): the refund whose flow carries the bulk at the bank (its own id on that leader); null outside a bulk.
   */
  readonly bulkLeaderId: string | null;
}

export interface StatusRecord {
  readonly id: string;
  readonly paymentId: string;
  readonly sequence: number;
  readonly detailedStatus: DetailedStatus;
  readonly failureReasons: readonly FailureReason[] | null;
  readonly createdAt: string;
}

/** A refund whose statuses follow another's: it is in a bulk it does not lead (its flow never acts on its own). */
export function followsBulkLeader(payment: Pick<Payment, 'id' | 'bulkLeaderId'>): boolean {
  return payment.bulkLeaderId !== null && payment.bulkLeaderId !== payment.id;
}

/** The refund whose flow carries a bulk payment at the bank for itself and its followers. */
export function leadsBulk(payment: Pick<Payment, 'id' | 'bulkLeaderId'>): boolean {
  return payment.bulkLeaderId === payment.id;
}
