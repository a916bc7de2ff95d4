/**
 * Which banks can take a payment: scheme, currency, the payer's countries and the bank's remittance limit. One rule
 * for both the API at creation (a named bank that cannot take it is refused) and the hosted bank list.
 */
import type { PaymentSchemeName } from '../domain/reference-data.js';
import type { Bank } from './catalogue.js';

/** What of a payment decides which banks can take it. */
export interface PaymentFit {
  readonly scheme: PaymentSchemeName;
  readonly currency: string;
  readonly remittance: { readonly value: string; readonly truncate: boolean };
  /** The countries the payer may choose banks in (`provider.preferences.countryCodes.list`); none: any. */
  readonly countries?: readonly string[];
}

/** Why a bank cannot take this payment (a validation message naming the field), or undefined when it can. */
export function bankMismatch(bank: Bank, payment: PaymentFit): string | undefined {
  if (!bank.paymentSchemes.includes(payment.scheme)) {
    return `provider.id must name a bank that supports the ${payment.scheme} payment scheme (${bank.name} does not)`;
  }
  if (!bank.currencies.includes(payment.currency)) {
    return `provider.id must name a bank that supports payments in ${payment.currency} (${bank.name} does not)`;
  }
  if (payment.remittance.value.length > bank.remittanceMaxLength && !payment.remittance.truncate) {
    return `remittanceInformation.value must be shorter than or equal to ${bank.remittanceMaxLength} characters for ${bank.name} (or set remittanceInformation.preferences.truncate)`;
  }
  return undefined;
}

/** Banks a hosted-mode payer may choose for this payment. */
export function eligibleBanks(banks: readonly Bank[], payment: PaymentFit): Bank[] {
  return banks.filter(
    (bank) =>
      (payment.countries === undefined || payment.countries.includes(bank.countryCode)) && bankMismatch(bank, payment) === undefined,
  );
}
