/**
 * The step table: for each detailed status, the step of the flow that handles it and how the engine treats a payment
 * resting there. It is the map a newcomer reads first (docs/state-machine.md, "The step table"): the transition table
 * (src/domain/transitions.ts) says where a status may go, this one says who moves it. Nothing here changes a status;
 * the steps do, through `FlowRun.enter`, which checks every change against the transition table.
 *
 * Kinds of row:
 * - `automatic`: the engine goes on from here by itself (`advance` runs `run`), in the payer's request or a job; the
 *   payer, should they see it (a bank error stopped the run), gets the review page to continue;
 * - `passing`: entered and left within one run (the processing of a payer's input or choice); never rested in;
 * - `payer`: waits for the payer on one of `pages` (our pages, or the bank's behind the at-bank page);
 * - `bank`: waits for the bank's answer (the payer's return from the bank, execution); the bank-status job asks the
 *   bank (`FlowEngine.reconcileStep`), or `resume` goes on without asking about the payment (no payment at the bank
 *   yet: the consent's own steps);
 * - `final`: the flow is over.
 *
 * The rows are typed by status (`Record<DetailedStatus, …>`), so a status added without a row does not compile, and
 * test/flow/step-table.test.ts checks the rows against the transition table.
 */
import { DETAILED_STATUSES, type DetailedStatus } from '../domain/detailed-status.js';
import type { FlowRun } from './run.js';
import { checkFollowupData } from './steps/followup-data.js';
import { resumePaymentConsent } from './steps/payment-consent.js';
import { registerPayment } from './steps/payment-registration.js';
import { processSelection } from './steps/provider-selection.js';
import { checkAccountSelection, checkSenderAccount, processConsent, requestConsent, retrieveAccounts } from './steps/sender-account.js';
import { checkSenderAuthorization } from './steps/sender-authorization.js';
import type { StepResult } from './steps/step-result.js';

/** A step's work on a run at the row's status. */
export type StepHandler = (run: FlowRun) => StepResult | Promise<StepResult>;

/** The modules of src/flow/steps/ (one per phase, or per part of one). */
export type StepName =
  | 'provider-selection'
  | 'followup-data'
  | 'sender-authorization'
  | 'sender-account'
  | 'payment-registration'
  | 'payment-consent'
  | 'payment-execution';

/** The payer's pages (src/hosted/<page>/step.ts) a status is shown on; the hosted steps read their statuses here. */
export type PayerPageName =
  | 'bank-selection'
  | 'followup-data'
  | 'sender-login'
  | 'account-selection'
  | 'sca-method'
  | 'at-bank'
  | 'one-time-code'
  | 'decoupled'
  | 'review'
  | 'outcome';

export type StepRow =
  | {
      readonly kind: 'automatic';
      readonly step: StepName;
      readonly run: StepHandler;
      readonly pages: readonly PayerPageName[];
      /** Run by the bank-status job at once, without asking the bank about the payment (the step reads the consent). */
      readonly resume?: StepHandler;
    }
  | { readonly kind: 'passing'; readonly step: StepName; readonly run?: StepHandler }
  | { readonly kind: 'payer'; readonly step: StepName; readonly pages: readonly PayerPageName[] }
  | { readonly kind: 'bank'; readonly step: StepName; readonly resume?: StepHandler; readonly pages: readonly PayerPageName[] }
  | { readonly kind: 'final'; readonly step: StepName; readonly pages: readonly PayerPageName[] };

const automatic = (step: StepName, run: StepHandler, pages: readonly PayerPageName[] = ['review']): StepRow => ({
  kind: 'automatic',
  step,
  run,
  pages,
});
const passing = (step: StepName, run?: StepHandler): StepRow =>
  run === undefined ? { kind: 'passing', step } : { kind: 'passing', step, run };
const payer = (step: StepName, pages: readonly PayerPageName[]): StepRow => ({ kind: 'payer', step, pages });
const final = (step: StepName): StepRow => ({ kind: 'final', step, pages: ['outcome'] });

export const STEP_TABLE: Readonly<Record<DetailedStatus, StepRow>> = {
  // Phase 1: provider selection (hosted mode)
  PROVIDER_SELECTION_REDIRECT_PENDING: payer('provider-selection', ['bank-selection']),
  PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING: passing('provider-selection', processSelection),

  // Phase 2: follow-up data collection
  FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING: automatic('followup-data', checkFollowupData),
  FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING: payer('followup-data', ['followup-data']),
  FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING: passing('followup-data'),
  FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED: final('followup-data'),

  // Phase 3: sender authorisation
  SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING: automatic('sender-authorization', checkSenderAuthorization),
  SENDER_AUTHORIZATION_REDIRECT_PENDING: payer('sender-authorization', ['sender-login']),
  SENDER_AUTHORIZATION_REDIRECT_FAILED: final('sender-authorization'),
  SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING: passing('sender-authorization'),
  SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED: final('sender-authorization'),

  // Phase 4: sender account
  SENDER_ACCOUNT_REQUIRED_CHECK_PENDING: automatic('sender-account', checkSenderAccount),
  SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING: automatic('sender-account', requestConsent),
  SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING: payer('sender-account', ['at-bank', 'one-time-code']),
  SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED: final('sender-account'),
  SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING: {
    kind: 'bank',
    step: 'sender-account',
    resume: processConsent,
    pages: [],
  },
  SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED: final('sender-account'),
  // Reads the consent's accounts: a list lost in a bank error is simply asked for again.
  SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING: {
    kind: 'automatic',
    step: 'sender-account',
    run: retrieveAccounts,
    pages: ['review'],
    resume: retrieveAccounts,
  },
  SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED: final('sender-account'),
  SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING: automatic('sender-account', checkAccountSelection),
  SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED: final('sender-account'),
  SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING: payer('sender-account', ['account-selection']),
  SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED: final('sender-account'),
  SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING: passing('sender-account'),
  SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED: final('sender-account'),

  // Phase 5: payment registration
  PAYMENT_REGISTRATION_PENDING: automatic('payment-registration', registerPayment),
  PAYMENT_REGISTRATION_FAILED: final('payment-registration'),

  // Phase 6: payment consent. Its check is automatic, and also the login page's status when the password of an
  // earlier request is gone (`FlowEngine.awaitsLogin`).
  PAYMENT_CONSENT_REQUIRED_CHECK_PENDING: automatic('payment-consent', resumePaymentConsent, ['sender-login', 'review']),
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING: passing('payment-consent'),
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED: final('payment-consent'),
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING: payer('payment-consent', ['sca-method']),
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING: passing('payment-consent'),
  PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED: final('payment-consent'),
  // The bank's page (at-bank), our code form (embedded) or the bank's app (decoupled, polled by the bank-status job).
  PAYMENT_CONSENT_REDIRECT_PENDING: payer('payment-consent', ['decoupled', 'at-bank', 'one-time-code']),
  PAYMENT_CONSENT_REDIRECT_FAILED: final('payment-consent'),
  PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING: { kind: 'bank', step: 'payment-consent', pages: [] },
  PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED: final('payment-consent'),

  // Phase 7: execution, polled at the bank until final (the payer sees the outcome page meanwhile).
  PAYMENT_EXECUTION_PENDING: { kind: 'bank', step: 'payment-execution', pages: ['outcome'] },
  PAYMENT_EXECUTION_FAILED: final('payment-execution'),
  PAYMENT_EXECUTION_COMPLETED: final('payment-execution'),
};

export function stepRowOf(status: DetailedStatus): StepRow {
  return STEP_TABLE[status];
}

/** The statuses of rows of one kind, in the order of the detailed statuses. */
function statusesOfKind(kind: StepRow['kind']): readonly DetailedStatus[] {
  return DETAILED_STATUSES.filter((status) => STEP_TABLE[status].kind === kind);
}

/** Statuses the engine continues from by itself ("Continue" on the review page goes on from them). */
export const AUTOMATIC_STATUSES: readonly DetailedStatus[] = statusesOfKind('automatic');

export function isAutomatic(status: DetailedStatus): boolean {
  return STEP_TABLE[status].kind === 'automatic';
}

/**
 * Whether a payment resting at this status waits for the bank (a `bank` row: the processing of the payer's return,
 * execution): its bank-status job asks the bank, or resumes the row's step, until the payment moves on.
 */
export function waitsForBank(status: DetailedStatus): boolean {
  return STEP_TABLE[status].kind === 'bank';
}

/** What `advance` runs at a status (automatic and passing rows); undefined: the run stops there. */
export function advanceHandlerOf(status: DetailedStatus): StepHandler | undefined {
  const row = STEP_TABLE[status];
  return row.kind === 'automatic' || row.kind === 'passing' ? row.run : undefined;
}

/** What the bank-status job resumes at a status without asking the bank about the payment (see `bank` rows). */
export function resumeHandlerOf(status: DetailedStatus): StepHandler | undefined {
  const row = STEP_TABLE[status];
  if (row.kind === 'bank') return row.resume;
  return row.kind === 'automatic' ? row.resume : undefined;
}

/** The statuses a payer page is shown in (its step may further narrow it, `PayerStep.shows`). */
export function statusesShownOn(page: PayerPageName): readonly DetailedStatus[] {
  return DETAILED_STATUSES.filter((status) => {
    const row = STEP_TABLE[status];
    return row.kind !== 'passing' && row.pages.includes(page);
  });
}

/**
 * Whether an open bank answer at this status may be the one to the start of the authorisation with the payer's
 * password or login id: the statuses of the login page, and those the engine goes on from by itself.
 */
export function loginMayBeOpenAt(status: DetailedStatus): boolean {
  const row = STEP_TABLE[status];
  return row.kind === 'automatic' || (row.kind === 'payer' && row.pages.includes('sender-login'));
}
