/**
 * Where a payment's status may go: the one transition table (decisions §3). A status changes only through
 * `assertTransition`, which the payment state store calls for every change it writes. The flow of each phase
 * and the reasoning behind every edge are in docs/state-machine.md.
 *
 * Rules the table encodes:
 * - forward only: phase by phase, and inside a phase CHECK → REDIRECT → CALLBACK_PROCESSING; the one exception is
 *   going back to bank selection before the bank holds the payment (`BACK_TO_BANK_SELECTION`);
 * - a `*_REQUIRED_CHECK_PENDING` may skip its phase (to the next phase's check) when the phase is not needed;
 * - a step that waits for the payer fails at its own `_FAILED` state (expiry, cancel); steps without one fail at
 *   `PAYMENT_REGISTRATION_FAILED` before the bank holds the payment, and at the phase's nearest `_FAILED` after;
 * - final statuses (top-level FAILED or COMPLETED) have no way out.
 */
import { DETAILED_STATUSES, isFinal, phaseOf, type DetailedStatus } from './detailed-status.js';
import { assertMove, canMove, IllegalTransitionError, type Lifecycle } from './lifecycle.js';

export { IllegalTransitionError };

const FORWARD: Readonly<Record<DetailedStatus, readonly DetailedStatus[]>> = {
  // Phase 1: provider selection (hosted mode)
  PROVIDER_SELECTION_REDIRECT_PENDING: ['PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING', 'PAYMENT_REGISTRATION_FAILED'],
  PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING: ['FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING', 'PAYMENT_REGISTRATION_FAILED'],

  // Phase 2: follow-up data collection (login id, password, sender IBAN the request lacked)
  FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING: [
    'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING',
    'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
    'PAYMENT_REGISTRATION_FAILED',
  ],
  FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING: ['FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING', 'PAYMENT_REGISTRATION_FAILED'],
  FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING: [
    'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
    'FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED',
  ],
  FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED: [],

  // Phase 3: sender authorisation (the payer logs in at the bank before any payment call)
  SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING: [
    'SENDER_AUTHORIZATION_REDIRECT_PENDING',
    // Credentials already in hand (creation request or phase 2 form): nothing to ask the payer.
    'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING',
    'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
    'PAYMENT_REGISTRATION_FAILED',
  ],
  SENDER_AUTHORIZATION_REDIRECT_PENDING: ['SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING', 'SENDER_AUTHORIZATION_REDIRECT_FAILED'],
  SENDER_AUTHORIZATION_REDIRECT_FAILED: [],
  SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING: [
    'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
    'SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED',
  ],
  SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED: [],

  // Phase 4: sender account (consent → account list → selection)
  SENDER_ACCOUNT_REQUIRED_CHECK_PENDING: [
    'SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING',
    'PAYMENT_REGISTRATION_PENDING',
    'PAYMENT_REGISTRATION_FAILED',
  ],
  SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING: [
    'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING',
    // A consent already granted (e.g. during sender authorisation): read the accounts straight away.
    'SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING',
    'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED',
  ],
  SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING: [
    'SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING',
    'SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED',
  ],
  SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED: [],
  SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING: [
    'SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING',
    'SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED',
  ],
  SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED: [],
  SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING: ['SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING', 'SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED'],
  SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED: [],
  SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING: [
    'SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING',
    // Exactly one eligible account: picked without asking.
    'PAYMENT_REGISTRATION_PENDING',
    'SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED',
  ],
  SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED: [],
  SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING: [
    'SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING',
    'SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED',
  ],
  SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED: [],
  SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING: [
    'PAYMENT_REGISTRATION_PENDING',
    'SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED',
  ],
  SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED: [],

  // Phase 5: payment registration at the bank
  PAYMENT_REGISTRATION_PENDING: ['PAYMENT_CONSENT_REQUIRED_CHECK_PENDING', 'PAYMENT_REGISTRATION_FAILED'],
  PAYMENT_REGISTRATION_FAILED: [],

  // Phase 6: payment consent (the payer authorises the payment)
  PAYMENT_CONSENT_REQUIRED_CHECK_PENDING: [
    'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING',
    'PAYMENT_CONSENT_REDIRECT_PENDING',
    // SCA exempted by the bank: straight to execution.
    'PAYMENT_EXECUTION_PENDING',
    'PAYMENT_CONSENT_REDIRECT_FAILED',
  ],
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING: [
    'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING',
    // One method only: the bank chose it; go on to the authorisation itself.
    'PAYMENT_CONSENT_REDIRECT_PENDING',
    'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED',
  ],
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED: [],
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING: [
    'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING',
    // The payer cancelled or let the method choice expire: that step has no REDIRECT_FAILED of its own.
    'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED',
  ],
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING: [
    'PAYMENT_CONSENT_REDIRECT_PENDING',
    'PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED',
  ],
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED: [],
  PAYMENT_CONSENT_REDIRECT_PENDING: ['PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING', 'PAYMENT_CONSENT_REDIRECT_FAILED'],
  PAYMENT_CONSENT_REDIRECT_FAILED: [],
  PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING: ['PAYMENT_EXECUTION_PENDING', 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED'],
  PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED: [],

  // Phase 7: execution (polled at the bank until final)
  PAYMENT_EXECUTION_PENDING: ['PAYMENT_EXECUTION_COMPLETED', 'PAYMENT_EXECUTION_FAILED'],
  PAYMENT_EXECUTION_FAILED: [],
  PAYMENT_EXECUTION_COMPLETED: [],
};

/**
 * The one way back: a hosted-mode payer who changes their mind returns to the bank list. Allowed by the table from
 * every open status of phases 1 to 4 and from PAYMENT_REGISTRATION_PENDING (the registration not yet done: where a
 * bank that could not be reached leaves the payment); the engine allows it only while no bank holds the payment
 * (docs/state-machine.md, "Going back").
 */
export const BACK_TO_BANK_SELECTION: DetailedStatus = 'PROVIDER_SELECTION_REDIRECT_PENDING';

/** Whether the table lets a payment go back to the bank list from `from`. */
export function mayGoBackFrom(from: DetailedStatus): boolean {
  return !isFinal(from) && (phaseOf(from) <= 4 || from === 'PAYMENT_REGISTRATION_PENDING') && from !== BACK_TO_BANK_SELECTION;
}

export const TRANSITIONS: Readonly<Record<DetailedStatus, readonly DetailedStatus[]>> = Object.fromEntries(
  DETAILED_STATUSES.map((from) => [from, mayGoBackFrom(from) ? [...FORWARD[from], BACK_TO_BANK_SELECTION] : FORWARD[from]]),
) as Record<DetailedStatus, readonly DetailedStatus[]>;

/** A payment's lifecycle: its detailed statuses and the table above. */
export const PAYMENT_LIFECYCLE: Lifecycle<DetailedStatus> = {
  subjectType: 'payment',
  statuses: DETAILED_STATUSES,
  transitions: TRANSITIONS,
};

export function canTransition(from: DetailedStatus, to: DetailedStatus): boolean {
  return canMove(PAYMENT_LIFECYCLE, from, to);
}

export function assertTransition(from: DetailedStatus, to: DetailedStatus): void {
  assertMove(PAYMENT_LIFECYCLE, from, to);
}

/** Hosted mode starts at bank selection; custom mode at the follow-up data check (decisions §3). */
export function initialStatus(mode: 'custom' | 'hosted'): DetailedStatus {
  return mode === 'hosted' ? 'PROVIDER_SELECTION_REDIRECT_PENDING' : 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING';
}

/**
 * Where a payment that waited too long (or whose payer gave up) fails, from the status it waited in:
 * its step's own `_FAILED` status if the table allows one, otherwise the failure the table allows.
 */
export function failureStatusFrom(from: DetailedStatus): DetailedStatus | undefined {
  const failures = TRANSITIONS[from].filter((to) => to.endsWith('_FAILED'));
  const ownStep = from.replace(/_PENDING$/, '_FAILED');
  return failures.find((to) => to === ownStep) ?? failures[0];
}
