/**
 * What every connector checks of the payer's account a bank tells (contract: `PaymentStatusResult.payer`): the bank
 * is input from outside, so an account is taken only in a shape a refund could be paid to, and a name only as plain
 * text of the standard's length. A reading says what was found, or why what the bank sent was left out; the reasons
 * name fields and rules, never the values (they travel into logs).
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { PayerAccountNumber, PayerDetails } from './contract.js';

/** What a connector read of the payer's account in one answer. */
export type PayerReading =
  | { readonly kind: 'found'; readonly payer: PayerDetails; readonly nameIgnored?: string }
  /** The answer carries no account (the bank did not say). */
  | { readonly kind: 'absent' }
  /** The answer carries account data that is not the standard's shape: left out, with the reason for the log. */
  | { readonly kind: 'malformed'; readonly reason: string };

export const ABSENT: PayerReading = { kind: 'absent' };

/** Control characters (C0, DEL, C1) and the line and paragraph separators: never part of a name. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** An IBAN the bank sent, in electronic form, or undefined when it is not a valid IBAN. */
export function ibanOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 42) return undefined;
  const electronic = electronicFormatIBAN(value);
  return electronic !== null && electronic !== undefined && isValidIBAN(electronic) ? electronic : undefined;
}

/** A UK sort code and account number (the standard's 14 digits, sort code first). */
export function sortCodeAccountNumberOf(identification: unknown, secondary: unknown): PayerAccountNumber | undefined {
  if (typeof identification !== 'string' || !/^\d{14}$/.test(identification)) return undefined;
  const rollNumber = typeof secondary === 'string' && /^[\x21-\x7e]{1,34}$/.test(secondary) ? secondary : undefined;
  return {
    type: 'SORT_CODE_ACCOUNT_NUMBER',
    sortCode: identification.slice(0, 6),
    accountNumber: identification.slice(6),
    ...(rollNumber === undefined ? {} : { rollNumber }),
  };
}

/** A holder's name: text of 1 to `maxLength` characters, trimmed, without control characters; else undefined. */
export function holderNameOf(value: unknown, maxLength: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  if (name === '' || name.length > maxLength || CONTROL.test(name)) return undefined;
  return name;
}

/** The reading of an account that was found, with its name when there is one. */
export function found(account: PayerAccountNumber, name: string | undefined, nameIgnored?: string): PayerReading {
  return {
    kind: 'found',
    payer: { account, ...(name === undefined ? {} : { name }) },
    ...(nameIgnored === undefined ? {} : { nameIgnored }),
  };
}

/** The `payer` and `payerIgnored` fields of a status result, from a reading. */
export function payerFields(reading: PayerReading): { payer?: PayerDetails; payerIgnored?: string } {
  switch (reading.kind) {
    case 'found':
      return { payer: reading.payer, ...(reading.nameIgnored === undefined ? {} : { payerIgnored: reading.nameIgnored }) };
    case 'malformed':
      return { payerIgnored: reading.reason };
    case 'absent':
      return {};
  }
}
