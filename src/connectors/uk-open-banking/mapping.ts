/**
 * Pure mappings of the UK connector: our payment order to the v4 Initiation and Risk, the creditor's account to the
 * standard's account identification, the bank's consent and payment statuses to ours, and OBErrorResponse1 to
 * bank messages. No I/O here, so each is unit-tested on its own.
 */
import { electronicFormatIBAN, extractIBAN, isValidIBAN } from 'ibantools';
import type { FailureCode } from '../../domain/detailed-status.js';
import type { BankMessage } from '../errors.js';
import type { CreditorAccount, PaymentOrder, PaymentOutcome, PaymentTransactionState, PaymentTransactionStatus } from '../contract.js';
import { ABSENT, found, holderNameOf, ibanOf, sortCodeAccountNumberOf, type PayerReading } from '../payer-details.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface AccountIdentification {
  readonly SchemeName: 'UK.OBIE.SortCodeAccountNumber' | 'UK.OBIE.IBAN';
  readonly Identification: string;
  readonly Name: string;
  /** A building society's roll number (`Max34Text`), when the account has one. */
  readonly SecondaryIdentification?: string;
}

/**
 * The creditor account as a UK bank wants it. A UK account goes as it is: its sort code and account number (14
 * digits) with its roll number, if any, as `SecondaryIdentification`. A GB IBAN becomes sort code (IBAN characters
 * 9–14) and account number (15–22), since Faster Payments route on those; any other IBAN stays an IBAN. A malformed
 * account is the caller's mistake (the API validates IBANs first; a UK account comes from a bank's answer checked
 * when it was read), hence a `TypeError`.
 */
export function creditorAccountOf(account: CreditorAccount, name: string): AccountIdentification {
  if (account.ukAccount !== undefined) {
    const { sortCode, accountNumber, rollNumber } = account.ukAccount;
    if (!/^\d{6}$/.test(sortCode) || !/^\d{8}$/.test(accountNumber)) {
      throw new TypeError('The creditor sort code and account number are not 6 and 8 digits');
    }
    return {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: `${sortCode}${accountNumber}`,
      Name: name,
      ...(rollNumber === undefined ? {} : { SecondaryIdentification: rollNumber }),
    };
  }
  const electronic = electronicFormatIBAN(account.iban) ?? '';
  if (!isValidIBAN(electronic)) throw new TypeError('The creditor IBAN is not valid');
  if (extractIBAN(electronic).countryCode === 'GB') {
    return { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: electronic.slice(8, 22), Name: name };
  }
  return { SchemeName: 'UK.OBIE.IBAN', Identification: electronic, Name: name };
}

/** Risk's payment context: a payment the payer makes to a merchant or third party through us. */
export const PAYMENT_CONTEXT_CODE = 'TransferToThirdParty';

/** The v4 `Data.Initiation` and `Risk` of a domestic payment consent; the payment repeats both exactly. */
export function initiationOf(order: PaymentOrder): { readonly initiation: JsonObject; readonly risk: JsonObject } {
  // UK domestic payments are sterling only; the engine routes only GBP payments to GB banks.
  if (order.currency !== 'GBP') throw new TypeError('UK domestic payments are in GBP only');
  if (!/^\d{1,13}\.\d{1,5}$|^\d{1,13}$/.test(order.amount)) throw new TypeError('The amount is not an exact decimal string');
  const initiation: JsonObject = {
    // The order has one reference; it identifies both the instruction and the end-to-end chain (each ≤ 35).
    InstructionIdentification: order.endToEndId,
    EndToEndIdentification: order.endToEndId,
    ...(order.scheme === 'DOMESTIC' ? { LocalInstrument: 'UK.OBIE.FPS' } : {}),
    InstructedAmount: { Amount: order.amount, Currency: order.currency },
    CreditorAccount: creditorAccountOf(order.creditor, order.creditor.name),
    ...(order.remittanceInformation === undefined || order.remittanceInformation === ''
      ? {}
      : { RemittanceInformation: { Unstructured: [order.remittanceInformation.slice(0, 140)] } }),
  };
  return { initiation, risk: { PaymentContextCode: PAYMENT_CONTEXT_CODE } };
}

// ---------------------------------------------------------------------------------------------------------------
// The payer's account
// ---------------------------------------------------------------------------------------------------------------

/** `Data.Refund.Account.Name` is `Max350Text` (OBWriteDomesticResponse5). */
const REFUND_ACCOUNT_NAME_MAX = 350;

/**
 * The payer's account from a domestic payment's `Data.Refund` (OBWriteDomesticResponse5, present when the consent
 * asked `ReadRefundAccount: "Yes"`): `Account` with `SchemeName`, `Identification`, `Name` and the optional
 * `SecondaryIdentification`. A sort code and account number (14 digits) or an IBAN is taken; the standard's other
 * schemes (a card number, a wallet, a Paym mobile number, a BBAN) identify nothing a refund could be paid to here, so
 * they are left out with the reason, as is anything not of the standard's shape. A missing or malformed `Name`
 * (mandatory in the standard) leaves the account without a name, and says so.
 */
export function refundAccountOf(data: JsonObject): PayerReading {
  const refund = data['Refund'];
  if (refund === undefined) return ABSENT;
  if (!isObject(refund) || !isObject(refund['Account'])) return { kind: 'malformed', reason: 'Data.Refund has no Account object' };
  const account = refund['Account'];
  const scheme = account['SchemeName'];
  let number;
  if (scheme === 'UK.OBIE.SortCodeAccountNumber') {
    number = sortCodeAccountNumberOf(account['Identification'], account['SecondaryIdentification']);
    if (number === undefined) {
      return { kind: 'malformed', reason: 'Data.Refund.Account.Identification is not a sort code and account number of 14 digits' };
    }
  } else if (scheme === 'UK.OBIE.IBAN') {
    const iban = ibanOf(account['Identification']);
    if (iban === undefined) return { kind: 'malformed', reason: 'Data.Refund.Account.Identification is not a valid IBAN' };
    number = { type: 'IBAN' as const, value: iban };
  } else {
    return {
      kind: 'malformed',
      reason:
        typeof scheme === 'string' && /^[A-Za-z0-9.]{1,40}$/.test(scheme)
          ? `Data.Refund.Account.SchemeName ${scheme} is not a sort code and account number or an IBAN`
          : 'Data.Refund.Account.SchemeName is missing or not a scheme name',
    };
  }
  const name = holderNameOf(account['Name'], REFUND_ACCOUNT_NAME_MAX);
  return found(
    number,
    name,
    name === undefined ? `Data.Refund.Account.Name is missing or not text of 1 to ${REFUND_ACCOUNT_NAME_MAX} characters` : undefined,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Statuses
// ---------------------------------------------------------------------------------------------------------------

/** A submitted payment's status (`/domestic-payments/{id}` or its `/payment-details`). */
export function paymentTransactionState(code: string): PaymentTransactionState {
  switch (code) {
    case 'RCVD':
    case 'PDNG':
      return 'pending';
    case 'ACSP':
    case 'ACWC':
    case 'ACWP':
    case 'ACTC':
    case 'ACCP':
      return 'accepted-for-execution';
    case 'ACSC':
    case 'ACCC':
      return 'settled';
    case 'RJCT':
      return 'rejected';
    case 'CANC':
      return 'cancelled';
    default:
      return 'unknown';
  }
}

/**
 * A consent's status as the status of a payment that was never submitted: nothing can execute, so at best the
 * bank "holds" it (`received`). Never `accepted`, which the engine would read as authorised.
 */
export function consentTransactionState(code: string): PaymentTransactionState {
  switch (code) {
    case 'AWAU':
    case 'AUTH':
    case 'COND':
      return 'received';
    case 'RJCT':
      return 'rejected';
    default:
      return 'unknown';
  }
}

export function outcomeOf(state: PaymentTransactionState, acceptedForExecutionIsCompleted: boolean): PaymentOutcome {
  if (state === 'settled') return 'completed';
  if (state === 'accepted-for-execution' && acceptedForExecutionIsCompleted) return 'completed';
  if (state === 'rejected' || state === 'cancelled') return 'failed';
  return 'pending';
}

/** Why a rejected payment failed: AM04 (ISO 20022 "insufficient funds") or a generic refusal. */
export function failureCodeOfReason(reasonCode: string | undefined): FailureCode {
  return reasonCode === 'AM04' ? 'INSUFFICIENT_FUNDS' : 'BANK_REJECTED';
}

export function statusOf(state: PaymentTransactionState, code: string): PaymentTransactionStatus {
  return { state, code };
}

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

/**
 * The codes and paths of an OBErrorResponse1. The free-text `Message` is left out: banks echo submitted values
 * (names, account numbers) in it, and these messages travel into logs.
 */
export function messagesOfObError(json: unknown): BankMessage[] {
  if (!isObject(json) || !Array.isArray(json['Errors'])) return [];
  const messages: BankMessage[] = [];
  for (const error of json['Errors'] as unknown[]) {
    if (!isObject(error) || typeof error['ErrorCode'] !== 'string') continue;
    const path = typeof error['Path'] === 'string' ? error['Path'] : undefined;
    messages.push({ category: 'ERROR', code: error['ErrorCode'], ...(path === undefined ? {} : { path }) });
  }
  return messages;
}

/** A derived idempotency key of at most 40 characters (the profile's limit), stable for the same seed. */
export function idempotencyKeyOf(purpose: 'consent' | 'payment', seed: string, hash: (value: string) => string): string {
  return `${purpose === 'consent' ? 'c' : 'p'}-${hash(`${purpose}:${seed}`)}`.slice(0, 40);
}
