/**
 * The payment's detailed statuses (interface spec, "States and transitions") and their top-level status.
 * The top-level status is always derived from the detailed one, never stored beside it.
 */

export const DETAILED_STATUSES = [
  // Phase 1: provider selection (hosted mode only)
  'PROVIDER_SELECTION_REDIRECT_PENDING',
  'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING',
  // Phase 2: follow-up data collection
  'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
  'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
  'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING',
  'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED',
  // Phase 3: sender authorisation
  'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
  'SENDER_AUTHORIZATION_REDIRECT_PENDING',
  'SENDER_AUTHORIZATION_REDIRECT_FAILED',
  'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
  'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED',
  // Phase 4: sender account
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING',
  'SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED',
  'SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING',
  'SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED',
  'SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED',
  'SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING',
  'SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED',
  'SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING',
  'SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED',
  // Phase 5: payment registration
  'PAYMENT_REGISTRATION_PENDING',
  'PAYMENT_REGISTRATION_FAILED',
  // Phase 6: payment consent
  'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING',
  'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED',
  'PAYMENT_CONSENT_REDIRECT_PENDING',
  'PAYMENT_CONSENT_REDIRECT_FAILED',
  'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
  'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
  // Phase 7: payment execution
  'PAYMENT_EXECUTION_PENDING',
  'PAYMENT_EXECUTION_FAILED',
  'PAYMENT_EXECUTION_COMPLETED',
] as const;

export type DetailedStatus = (typeof DETAILED_STATUSES)[number];

/**
 * What each detailed status means, in a sentence for people (the console's timeline shows it beside the name). The
 * names are the contract; these sentences may change between versions.
 */
export const DETAILED_STATUS_MEANINGS: Readonly<Record<DetailedStatus, string>> = {
  PROVIDER_SELECTION_REDIRECT_PENDING: 'The payer is being sent to the hosted bank selection screen.',
  PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING: 'The payer chose a bank; the selection is processed.',
  FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING: 'Checking whether the bank needs data the request did not carry.',
  FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING: 'The payer is asked for the missing data.',
  FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING: 'The submitted data is processed.',
  FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED: 'The submitted data could not be processed.',
  SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING: 'Checking whether the payer must log in at the bank before any payment call.',
  SENDER_AUTHORIZATION_REDIRECT_PENDING: 'The payer is sent to the bank to log in.',
  SENDER_AUTHORIZATION_REDIRECT_FAILED: 'The redirect to the bank could not be started.',
  SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING: 'The payer came back from logging in at the bank; the result is processed.',
  SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED: "The bank's answer could not be processed or was negative.",
  SENDER_ACCOUNT_REQUIRED_CHECK_PENDING: 'Checking whether the sender account must be resolved.',
  SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING: 'Checking whether account information consent is needed.',
  SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING: 'The payer is sent to the bank to grant account information consent.',
  SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED: 'The consent redirect could not be started.',
  SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING: 'The payer came back from the bank; the consent is processed.',
  SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED: 'The consent was refused or could not be processed.',
  SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING: 'The account list is being read with the consent.',
  SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED: 'The account list could not be read.',
  SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING: 'Checking whether the payer must choose among several accounts.',
  SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED: 'No sending account could be settled on (for example no eligible account).',
  SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING: 'The payer is asked to choose the sending account.',
  SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED: 'The account selection page could not be shown.',
  SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING: 'The chosen account is processed.',
  SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED: 'The chosen account could not be processed.',
  PAYMENT_REGISTRATION_PENDING: 'The payment is being registered with the bank.',
  PAYMENT_REGISTRATION_FAILED: "The bank did not register the payment (or the payer's flow expired before it did).",
  PAYMENT_CONSENT_REQUIRED_CHECK_PENDING: "Checking what the bank needs for the payer's approval.",
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING:
    'Checking whether the payer must choose an authentication method.',
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED:
    'Whether the payer must choose an authentication method could not be checked.',
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING: 'The payer is asked to choose an authentication method.',
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING: 'The chosen method is processed.',
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED: 'The chosen method could not be processed.',
  PAYMENT_CONSENT_REDIRECT_PENDING: 'The payer reviews and authorises the payment at the bank (or on our one-time code page).',
  PAYMENT_CONSENT_REDIRECT_FAILED: 'The authorisation could not be started.',
  PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING: 'The payer came back from the bank; the authorisation is processed.',
  PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED: 'The payer or the bank did not authorise the payment.',
  PAYMENT_EXECUTION_PENDING: 'Authorised and submitted; we poll the bank until a final status.',
  PAYMENT_EXECUTION_FAILED: 'The bank rejected or could not settle the payment.',
  PAYMENT_EXECUTION_COMPLETED: 'Completed: the bank processed the payment.',
};

/**
 * Top-level status. `UNKNOWN` is reserved by the spec and never produced by us (decisions §1);
 * clients must treat any status they do not know as not final.
 */
export type PaymentStatus = 'PENDING' | 'COMPLETED' | 'FAILED' | 'UNKNOWN';

const DETAILED_STATUS_SET: ReadonlySet<string> = new Set(DETAILED_STATUSES);

export function isDetailedStatus(value: string): value is DetailedStatus {
  return DETAILED_STATUS_SET.has(value);
}

/** The spec's naming rule: `*_PENDING` → PENDING, `*_FAILED` → FAILED, `PAYMENT_EXECUTION_COMPLETED` → COMPLETED. */
export function topLevelStatus(detailed: DetailedStatus): Exclude<PaymentStatus, 'UNKNOWN'> {
  if (detailed === 'PAYMENT_EXECUTION_COMPLETED') return 'COMPLETED';
  if (detailed.endsWith('_FAILED')) return 'FAILED';
  return 'PENDING';
}

/** Final statuses: nothing moves a payment out of them. */
export function isFinal(detailed: DetailedStatus): boolean {
  return topLevelStatus(detailed) !== 'PENDING';
}

/** Phase number 1–7 of a detailed status, as numbered in the spec. */
export function phaseOf(detailed: DetailedStatus): 1 | 2 | 3 | 4 | 5 | 6 | 7 {
  if (detailed.startsWith('PROVIDER_SELECTION_')) return 1;
  if (detailed.startsWith('FOLLOWUP_DATA_COLLECTION_')) return 2;
  if (detailed.startsWith('SENDER_AUTHORIZATION_')) return 3;
  if (detailed.startsWith('SENDER_ACCOUNT_')) return 4;
  if (detailed.startsWith('PAYMENT_REGISTRATION_')) return 5;
  if (detailed.startsWith('PAYMENT_CONSENT_')) return 6;
  return 7;
}

/** Codes of `failureReasons[].code` (decisions §3). */
export const FAILURE_CODES = [
  'EXPIRED',
  'PSU_CANCELLED',
  'PSU_AUTHENTICATION_FAILED',
  'SCA_FAILED',
  'INSUFFICIENT_FUNDS',
  'BANK_REJECTED',
  'BANK_UNAVAILABLE',
  'INVALID_SENDER_DATA',
  'CONSENT_REJECTED',
  'REMITTANCE_TOO_LONG',
  'INTERNAL_ERROR',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

export interface FailureReason {
  readonly code: FailureCode;
  /** For people; may change between versions. */
  readonly message: string;
}

/** People-readable text of each failure code (the code is the contract; the text may change). */
export const FAILURE_MESSAGES: Readonly<Record<FailureCode, string>> = {
  EXPIRED: 'The payer did not finish in time',
  PSU_CANCELLED: 'The payer cancelled the payment',
  PSU_AUTHENTICATION_FAILED: 'The payer could not be authenticated at the bank',
  SCA_FAILED: 'Strong customer authentication failed',
  INSUFFICIENT_FUNDS: 'The bank rejected the payment for lack of funds',
  BANK_REJECTED: 'The bank rejected the payment',
  BANK_UNAVAILABLE: 'The bank could not be reached',
  INVALID_SENDER_DATA: "The sender's data was not accepted",
  CONSENT_REJECTED: 'The account information consent was not granted',
  REMITTANCE_TOO_LONG: 'The remittance information is too long for the bank',
  INTERNAL_ERROR: 'An internal error occurred',
};

export function failureReason(code: FailureCode): FailureReason {
  return { code, message: FAILURE_MESSAGES[code] };
}
