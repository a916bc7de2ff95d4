/**
 * Builds the standard's request bodies and preference headers from our types. Pure functions: unit-tested one by
 * one, and validated against the standard's OpenAPI definition in the tests.
 */
import type { PaymentSchemeName, ScaApproach } from '../../domain/reference-data.js';
import type { BerlinGroupSettings } from './settings.js';
import { creditorIbanOf, type PaymentOrder, type PostalAddress } from '../contract.js';
import type {
  AccountReference,
  Address,
  BulkPaymentInitiationJson,
  Consents,
  PaymentInitiationBulkElementJson,
  PaymentInitiationJson,
} from './wire-types.js';

/** The standard's `amountValue`: up to 14 digits, optional dot with up to 3 decimals; we never send negatives. */
const AMOUNT_VALUE = /^[0-9]{1,14}(\.[0-9]{1,3})?$/;

export interface ChosenProduct {
  readonly product: string;
  readonly instant: boolean;
}

/**
 * Picks the payment product: the scheme's instant product when the client prefers instant and the bank has one,
 * otherwise the scheme's standard product. A bank that lists only an instant product for the scheme gets that one
 * even for a standard preference (the payment still reaches the creditor; the catalogue lists standard products
 * for every scheme a bank supports, so this is a fallback for operator catalogues). Returns `undefined` when the
 * bank has no product for the scheme at all.
 */
export function choosePaymentProduct(
  products: BerlinGroupSettings['products'],
  scheme: PaymentSchemeName,
  instantPreferred: boolean,
): ChosenProduct | undefined {
  const standard = products[scheme];
  const instant = scheme === 'SEPA' ? products.SEPA_INSTANT : products.DOMESTIC_INSTANT;
  if (instantPreferred && instant !== undefined) return { product: instant, instant: true };
  if (standard !== undefined) return { product: standard, instant: false };
  if (instant !== undefined) return { product: instant, instant: true };
  return undefined;
}

/** Our address → the standard's `address` (`city` is `townName` there). */
export function toBerlinGroupAddress(address: PostalAddress): Address {
  return {
    streetName: address.streetName,
    buildingNumber: address.buildingNumber,
    townName: address.city,
    postCode: address.postCode,
    country: address.country,
  };
}

/**
 * `paymentInitiation_json` for a single payment. The amount string is copied as it is (validated, never parsed
 * into a number), so "0.10" reaches the bank as "0.10".
 * @throws TypeError when the amount is not a decimal string the standard accepts (a caller bug, not a bank error).
 */
export function buildPaymentInitiationBody(payment: PaymentOrder): PaymentInitiationJson {
  const body: PaymentInitiationJson = buildPaymentElement(payment);
  if (payment.debtor !== undefined) body.debtorAccount = toAccountReference(payment.debtor);
  return body;
}

/**
 * `bulkPaymentInitiation_json`: the payments in order, from their one debtor account. `batchBookingPreferred` is
 * false: each payment is booked on its own, so each recipient sees it on their statement (a batch booking would show
 * the payer one sum, and leaves the recipients' entries to the bank).
 * @throws TypeError when the payments cannot form one bulk: fewer than two, not one debtor account, currency or
 * scheme (a caller bug, not a bank error); or an amount as {@link buildPaymentInitiationBody}.
 */
export function buildBulkPaymentInitiationBody(payments: readonly PaymentOrder[]): BulkPaymentInitiationJson {
  const [first] = payments;
  if (first === undefined || payments.length < 2) {
    throw new TypeError(`A bulk payment needs two or more payments; got ${payments.length}`);
  }
  const { debtor } = first;
  if (debtor === undefined) throw new TypeError('A bulk payment needs the debtor account of its payments');
  for (const [index, payment] of payments.entries()) {
    if (payment.debtor?.iban !== debtor.iban || payment.debtor.currency !== debtor.currency) {
      throw new TypeError(`The payments of a bulk must share one debtor account; payment ${index} does not`);
    }
    if (payment.currency !== first.currency) {
      throw new TypeError(`The payments of a bulk must share one currency; payment ${index} is in ${payment.currency}`);
    }
    if (payment.scheme !== first.scheme || payment.instantPreferred !== first.instantPreferred) {
      throw new TypeError(`The payments of a bulk must share one scheme and instant preference; payment ${index} does not`);
    }
  }
  return {
    batchBookingPreferred: false,
    // The account the payments' currency is taken from, when the caller did not name the account's own.
    debtorAccount: toAccountReference({ iban: debtor.iban, currency: debtor.currency ?? first.currency }),
    payments: payments.map(buildPaymentElement),
  };
}

/** One payment without its debtor: a bulk's element, and the part of a single payment all payments share. */
function buildPaymentElement(payment: PaymentOrder): PaymentInitiationBulkElementJson {
  if (!AMOUNT_VALUE.test(payment.amount)) {
    throw new TypeError(`Payment amount must be a decimal string such as "12.30"; got ${JSON.stringify(payment.amount)}`);
  }
  const element: PaymentInitiationBulkElementJson = {
    endToEndIdentification: payment.endToEndId,
    instructedAmount: { currency: payment.currency, amount: payment.amount },
    creditorAccount: { iban: creditorIbanOf(payment.creditor) },
    creditorName: payment.creditor.name,
  };
  if (payment.creditor.address !== undefined) element.creditorAddress = toBerlinGroupAddress(payment.creditor.address);
  if (payment.remittanceInformation !== undefined && payment.remittanceInformation !== '') {
    element.remittanceInformationUnstructured = payment.remittanceInformation;
  }
  return element;
}

function toAccountReference(debtor: NonNullable<PaymentOrder['debtor']>): AccountReference {
  return debtor.currency === undefined ? { iban: debtor.iban } : { iban: debtor.iban, currency: debtor.currency };
}

/**
 * A one-off consent to read the list of available accounts: all we need to let the PSU pick the sender account.
 * `combinedServiceIndicator` stays false: many banks reject combined sessions, and the payment does not reuse the
 * consent.
 */
export function buildAccountListConsentBody(validUntil: string): Consents {
  return {
    access: { availableAccounts: 'allAccounts' },
    recurringIndicator: false,
    validUntil,
    frequencyPerDay: 1,
    combinedServiceIndicator: false,
  };
}

/** The ISO date of the day after `now` in UTC (the default validity of our one-off consents). */
export function tomorrowIsoDate(now: Date): string {
  return new Date(now.getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * The standard's preference headers for the approach we want: `TPP-Redirect-Preferred: true` for redirect;
 * `false` for embedded and decoupled, with `TPP-Decoupled-Preferred` telling those two apart.
 */
export function scaPreferenceHeaders(approach: ScaApproach): Record<string, string> {
  switch (approach) {
    case 'REDIRECT':
      return { 'TPP-Redirect-Preferred': 'true' };
    case 'EMBEDDED':
      return { 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': 'false' };
    case 'DECOUPLED':
      return { 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': 'true' };
  }
}

/** What we ask the bank to notify: every SCA status change, every transaction status change, and the last one. */
export const NOTIFICATION_CONTENT_PREFERRED = 'status=SCA,PROCESS,LAST';

/**
 * The standard's "lean push" headers: our per-payment address for the bank's status notifications and what we would
 * like to hear. None without an address.
 */
export function notificationHeaders(notificationUri: string | undefined): Record<string, string> {
  if (notificationUri === undefined) return {};
  return { 'TPP-Notification-URI': notificationUri, 'TPP-Notification-Content-Preferred': NOTIFICATION_CONTENT_PREFERRED };
}

/** The bank's `ASPSP-Notification-Support` answer: true or false, undefined when absent or not a boolean. */
export function notificationSupportOf(header: string | undefined): boolean | undefined {
  const value = header?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}
