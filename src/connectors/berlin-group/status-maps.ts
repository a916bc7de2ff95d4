/**
 * The Berlin Group status and message codes, mapped to our unions (src/connectors/connector.ts). Every code of
 * the standard's enumerations is listed, so a code missing here is really unknown: it maps to `unknown`, which
 * callers treat as still pending. A payment is never failed on a code we do not understand.
 */
import type { FailureCode } from '../../domain/detailed-status.js';
import type {
  ConsentState,
  PaymentOutcome,
  ConsentStatus,
  PaymentTransactionState,
  PaymentTransactionStatus,
  ScaState,
  ScaStatus,
} from '../contract.js';
import type { BankMessage } from '../errors.js';

/** `components/schemas/transactionStatus` (ISO 20022 ExternalPaymentTransactionStatus1Code subset). */
export const TRANSACTION_STATUS_MAP: Readonly<Record<string, PaymentTransactionState>> = {
  /** AcceptedSettlementCompleted on the creditor's account. */
  ACCC: 'settled',
  /** AcceptedCustomerProfile. */
  ACCP: 'accepted',
  /** AcceptedSettlementCompleted on the debtor's account. */
  ACSC: 'settled',
  /** AcceptedSettlementInProcess: accepted for execution. */
  ACSP: 'accepted-for-execution',
  /** AcceptedTechnicalValidation: authenticated and validated. */
  ACTC: 'accepted',
  /** AcceptedWithChange: accepted for execution with a change (date, remittance). */
  ACWC: 'accepted-for-execution',
  /** AcceptedWithoutPosting: accepted, not yet posted to the creditor's account. */
  ACWP: 'accepted-for-execution',
  /** Received. */
  RCVD: 'received',
  /** Pending: further checks follow. */
  PDNG: 'pending',
  /** Rejected (also when the PSU did not complete SCA in time). */
  RJCT: 'rejected',
  /** Cancelled before execution. */
  CANC: 'cancelled',
  /** AcceptedFundsChecked. */
  ACFC: 'accepted',
  /** PartiallyAcceptedTechnical: some of several authorisations done. */
  PATC: 'pending',
  /**
   * PartiallyAccepted: bulk payments only (some of the bulk's payments were accepted, others rejected). Kept pending,
   * never completed nor failed: the standard gives no status per payment of a bulk, so we cannot tell which refunds
   * went out. A bulk the bank leaves at PART stays pending and the operator hears of it through the alert on payments
   * pending too long.
   */
  PART: 'pending',
};

/** `components/schemas/scaStatus`. */
export const SCA_STATUS_MAP: Readonly<Record<string, ScaState>> = {
  received: 'received',
  psuIdentified: 'psu-identified',
  psuAuthenticated: 'psu-authenticated',
  scaMethodSelected: 'sca-method-selected',
  started: 'started',
  unconfirmed: 'unconfirmed',
  finalised: 'finalised',
  failed: 'failed',
  exempted: 'exempted',
};

/** `components/schemas/consentStatus`. */
export const CONSENT_STATUS_MAP: Readonly<Record<string, ConsentState>> = {
  received: 'received',
  rejected: 'rejected',
  valid: 'valid',
  revokedByPsu: 'revoked',
  expired: 'expired',
  terminatedByTpp: 'terminated',
  partiallyAuthorised: 'partially-authorised',
};

function lookup<T extends string>(map: Readonly<Record<string, T>>, code: string): T | 'unknown' {
  // `Object.hasOwn` so that a code such as `constructor` or `__proto__` cannot hit the prototype.
  return Object.hasOwn(map, code) ? (map[code] as T) : 'unknown';
}

export function mapTransactionStatus(code: string): PaymentTransactionStatus {
  return { state: lookup(TRANSACTION_STATUS_MAP, code), code };
}

export function mapScaStatus(code: string): ScaStatus {
  return { state: lookup(SCA_STATUS_MAP, code), code };
}

export function mapConsentStatus(code: string): ConsentStatus {
  return { state: lookup(CONSENT_STATUS_MAP, code), code };
}

/**
 * The standard's message codes (Implementation Guidelines, section on error codes) that mean something specific
 * to us; every other code of a refusal gives `BANK_REJECTED`.
 */
export const TPP_MESSAGE_CODE_MAP: Readonly<Record<string, FailureCode>> = {
  /** The PSU's login id or password is wrong. */
  PSU_CREDENTIALS_INVALID: 'PSU_AUTHENTICATION_FAILED',
  /** The corporate id is wrong (a login credential too). */
  CORPORATE_ID_INVALID: 'PSU_AUTHENTICATION_FAILED',
  /** The one-time code (or other SCA data) is wrong. */
  SCA_INVALID: 'SCA_FAILED',
  /** The chosen SCA method is not one of the PSU's. */
  SCA_METHOD_UNKNOWN: 'SCA_FAILED',
  /** Payment rejected for lack of funds (status messages and 4xx alike). */
  FUNDS_NOT_AVAILABLE: 'INSUFFICIENT_FUNDS',
  /** The payment or authorisation resource expired (the PSU did not finish in time). */
  RESOURCE_EXPIRED: 'EXPIRED',
  /** The consent expired. */
  CONSENT_EXPIRED: 'EXPIRED',
  /** The consent is not valid for the request (not authorised, or for other accounts). */
  CONSENT_INVALID: 'CONSENT_REJECTED',
  /** The consent is unknown to the bank. */
  CONSENT_UNKNOWN: 'CONSENT_REJECTED',
};

/** Format codes that point at the sender's account when their `path` names the debtor account. */
const SENDER_DATA_FORMAT_CODES = new Set(['FORMAT_ERROR', 'PARAMETER_NOT_CONSISTENT', 'PARAMETER_NOT_SUPPORTED']);

/**
 * Per-operation meanings that differ from {@link TPP_MESSAGE_CODE_MAP}. The Implementation Guidelines use
 * `PSU_CREDENTIALS_INVALID` for "a password resp. OTP was not correct", so on the one-time-code call it means a
 * failed SCA, not a wrong login.
 */
export const OPERATION_MESSAGE_CODE_MAP: Readonly<Record<string, Readonly<Record<string, FailureCode>>>> = {
  authoriseTransaction: { PSU_CREDENTIALS_INVALID: 'SCA_FAILED' },
};

/** The failure code one message means, or `undefined` when it means nothing specific. */
export function failureCodeOfMessage(message: BankMessage, operation?: string): FailureCode | undefined {
  const special = operation === undefined ? undefined : OPERATION_MESSAGE_CODE_MAP[operation];
  if (special !== undefined && Object.hasOwn(special, message.code)) return special[message.code];
  if (Object.hasOwn(TPP_MESSAGE_CODE_MAP, message.code)) return TPP_MESSAGE_CODE_MAP[message.code];
  if (SENDER_DATA_FORMAT_CODES.has(message.code) && message.path !== undefined && /^debtor/i.test(message.path)) {
    return 'INVALID_SENDER_DATA';
  }
  return undefined;
}

/**
 * The failure code of a refusal: the first message with a specific meaning wins (banks list the decisive error
 * first); without one, `BANK_REJECTED`.
 */
export function failureCodeOfMessages(messages: readonly BankMessage[], operation?: string): FailureCode {
  for (const message of messages) {
    const code = failureCodeOfMessage(message, operation);
    if (code !== undefined) return code;
  }
  return 'BANK_REJECTED';
}

/**
 * Decides the payment outcome from the bank's status: settled is always completed; accepted-for-execution is
 * completed only for banks whose catalogue entry says `acceptedForExecutionIsCompleted`; rejected and cancelled
 * are failed; everything else (including unknown codes) is still pending.
 */
export function paymentOutcome(
  status: PaymentTransactionStatus,
  settings: { readonly acceptedForExecutionIsCompleted: boolean },
): PaymentOutcome {
  switch (status.state) {
    case 'settled':
      return 'completed';
    case 'accepted-for-execution':
      return settings.acceptedForExecutionIsCompleted ? 'completed' : 'pending';
    case 'rejected':
    case 'cancelled':
      return 'failed';
    default:
      return 'pending';
  }
}
