/**
 * What the flow engine keeps in `payments.flow_state` between the payer's steps: the bank's references, what the
 * bank offered (SCA methods, accounts), the single-use callback secret and the page key. Never credentials: login
 * ids and passwords live only in the memory of the request that sends them to the bank (decisions §7). The bank's
 * references are opaque: made by the bank's connector, stored here and handed back to it unread.
 */
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { BankReference, ScaApproach, ScaChallenge, ScaMethod } from '../connectors/index.js';

/** An account the payer may pay from, as shown on the account selection page. */
export interface OfferedAccount {
  readonly iban: string;
  readonly currency: string;
  readonly name?: string;
}

/** The bank calls that can change what the bank holds (the ones recorded before they are sent). */
export const STATE_CHANGING_CALLS = [
  'registerPayment',
  'startAuthorisation',
  'updatePsuAuthentication',
  'selectScaMethod',
  'authoriseTransaction',
  'completeAuthorisation',
  'cancelPayment',
] as const;

export type StateChangingCall = (typeof STATE_CHANGING_CALLS)[number];

export interface OpenBankCall {
  readonly operation: StateChangingCall;
  /** When it was sent (UTC ISO 8601). */
  readonly sentAt: string;
  /**
   * The bank answered, but not usably (a 5xx, a malformed answer): it is done with the request, whatever it did.
   * Unset while no answer came (timeout, connection lost): the bank may still be working on it.
   */
  readonly answered?: boolean;
}

export interface FlowState {
  /** Per-payment random key of the page tokens (CSRF); created on the payer's first visit. */
  readonly pageKey?: string;
  /** While set and in the future, one request (or job) is working on the payment: others wait. */
  readonly leaseUntil?: string;
  /**
   * SHA-256 of the single-use secret in our bank callback URL (and in the `state` of the fixed return URL), and
   * what the callback is for. The secret itself lives only in the memory of the run that made it.
   */
  readonly callback?: { readonly hash: string; readonly purpose: 'payment' | 'consent' };
  /** The hash of the callback secret last used: its replay after the flow ended leads to the outcome page. */
  readonly spentCallbackHash?: string;
  /**
   * Our address for the bank's status notifications (src/flow/steps/notification.ts): the SHA-256 of its secret (what
   * a notification is checked against), the secret sealed with the operator key ring (`notificationSecretContext`, so
   * a later call gives the bank the same address), and the bank's last answer about it (`ASPSP-Notification-Support`).
   */
  readonly notification?: { readonly hash: string; readonly sealed: string; readonly confirmed?: boolean };
  /** The end-to-end id sent to the bank, when it differs from the client's (decisions §2). */
  readonly bankEndToEndId?: string;
  readonly bankPayment?: BankReference;
  /** The payment's authorisation at the bank (the latest reference the connector returned). */
  readonly authorisation?: BankReference;
  readonly scaApproach?: ScaApproach;
  /** The bank's page for the payer (redirect approach), so a payer who comes back to our link can go on. */
  readonly bankRedirectUrl?: string;
  /** SCA methods offered for the payer's choice (embedded). */
  readonly scaMethods?: readonly ScaMethod[];
  readonly chosenScaMethod?: ScaMethod;
  readonly challenge?: ScaChallenge;
  /** Sandbox only: the page standing in for the bank's app in the decoupled approach (the bank's approval URL). */
  readonly decoupledAppUrl?: string;
  readonly consent?: BankReference;
  /** The consent's authorisation at the bank, when the bank made one with the consent. */
  readonly consentAuthorisation?: BankReference;
  readonly accounts?: readonly OfferedAccount[];
  /**
   * A credential the connector asked us to hold for the authorisation under way (`AuthorisationResult.heldSecret`),
   * sealed with the operator key ring (`heldSecretContext`); opened only for the connector call that needs it.
   */
  readonly heldSecret?: string;
  /** Set while the outcome of a bank call is unknown (timeout, 5xx): the bank-status job asks the bank again. */
  readonly reconciling?: boolean;
  /**
   * A call that may change what the bank holds, recorded (and committed, with `reconciling`) before it is sent and
   * cleared with its definite answer (decisions §8, durable steps). Still set after a crash or a lost answer: the
   * bank may have acted on it, so the bank is asked before anything else is decided, and the bank's "nothing
   * happened" is believed only once the bank could no longer be working on it (`sentAt` + the settle window).
   */
  readonly openCall?: OpenBankCall;
  /**
   * The bank's id of the payment (as the client sees it) learnt by a run and committed by one of its durable steps,
   * before the run's own commit writes the column. Left here only by a run that died: its recovery writes it.
   */
  readonly providerPaymentId?: string;
  /** Set once the operator was warned that the bank has held the payment past BANK_PENDING_ALERT_SECONDS. */
  readonly bankPendingAlerted?: boolean;
  /**
   * Logins (user ID or password) the bank refused since the last accepted one, counted against the bank's limit
   * (the bank profile's `loginAttempts`). A count, not a credential.
   */
  readonly failedLogins?: number;
  /** One-time codes the bank refused, counted against the bank profile's `oneTimeCodeAttempts`. */
  readonly failedCodes?: number;
  /** The sender account was typed by the payer or chosen from the bank's list (not sent by the client): a new bank forgets it. */
  readonly senderAccountFromPayer?: boolean;
  /** The bank's SCA status showed that a one-time code lost in a bank error was not taken: the payer types it again. */
  readonly codeNotProcessed?: boolean;
  /**
   * The completed page was shown once (it continued to the shop by itself then): opened again, it waits for the payer.
   * Written by the page, without the lease, like the page key.
   */
  readonly outcomeShown?: boolean;
  /** The payer cancelled on our page (after its confirmation): the console's funnel counts these apart. */
  readonly cancelledOnPage?: boolean;
}

/**
 * The fields written without the lease: the payer's page key (first visit) and the operator's pending alert. Everything
 * else belongs to the lease holder. A holder whose commit finds that only such a write came between keeps them as
 * they are now and commits its own work on top (`FlowEngine.commit`), rather than losing a bank answer it cannot ask
 * for again.
 */
export function withUnleasedFields(state: FlowState, current: FlowState): FlowState {
  return {
    ...state,
    pageKey: current.pageKey ?? state.pageKey,
    outcomeShown: current.outcomeShown ?? state.outcomeShown,
    bankPendingAlerted: current.bankPendingAlerted ?? state.bankPendingAlerted,
  };
}

/** What a held secret is sealed for: it opens for this payment's flow state only. */
export function heldSecretContext(paymentId: string): string {
  return `payments.flow_state.heldSecret:${paymentId}`;
}

/** What the secret of our notification address is sealed for: this payment's flow state only. */
export function notificationSecretContext(paymentId: string): string {
  return `payments.flow_state.notification:${paymentId}`;
}

/** A bank's reference as stored: the connector's own JSON object, read by the connector alone. */
const StoredBankReference = Type.Record(Type.String(), Type.Unknown());

const StoredScaMethod = Type.Object({
  id: Type.String(),
  type: Type.String(),
  name: Type.Optional(Type.String()),
  explanation: Type.Optional(Type.String()),
});

/**
 * The stored shape of {@link FlowState}, checked whenever a row's state is read, so a corrupt or foreign row fails
 * with a clear error naming the payment and the field rather than as a wrong guess later. Every field is optional,
 * as the flow writes them; fields this version does not know are let through untouched (a row of a later version
 * read during a rolling upgrade), which keeps the rows written by earlier versions readable without a migration.
 */
const StoredFlowState = Type.Object({
  pageKey: Type.Optional(Type.String()),
  leaseUntil: Type.Optional(Type.String()),
  callback: Type.Optional(Type.Object({ hash: Type.String(), purpose: Type.Union([Type.Literal('payment'), Type.Literal('consent')]) })),
  spentCallbackHash: Type.Optional(Type.String()),
  notification: Type.Optional(Type.Object({ hash: Type.String(), sealed: Type.String(), confirmed: Type.Optional(Type.Boolean()) })),
  bankEndToEndId: Type.Optional(Type.String()),
  bankPayment: Type.Optional(StoredBankReference),
  authorisation: Type.Optional(StoredBankReference),
  scaApproach: Type.Optional(Type.Union([Type.Literal('REDIRECT'), Type.Literal('EMBEDDED'), Type.Literal('DECOUPLED')])),
  bankRedirectUrl: Type.Optional(Type.String()),
  scaMethods: Type.Optional(Type.Array(StoredScaMethod)),
  chosenScaMethod: Type.Optional(StoredScaMethod),
  challenge: Type.Optional(
    Type.Object({
      image: Type.Optional(Type.String()),
      data: Type.Optional(Type.Array(Type.String())),
      imageLink: Type.Optional(Type.String()),
      otpMaxLength: Type.Optional(Type.Number()),
      otpFormat: Type.Optional(Type.String()),
      additionalInformation: Type.Optional(Type.String()),
    }),
  ),
  decoupledAppUrl: Type.Optional(Type.String()),
  consent: Type.Optional(StoredBankReference),
  consentAuthorisation: Type.Optional(StoredBankReference),
  accounts: Type.Optional(Type.Array(Type.Object({ iban: Type.String(), currency: Type.String(), name: Type.Optional(Type.String()) }))),
  heldSecret: Type.Optional(Type.String()),
  reconciling: Type.Optional(Type.Boolean()),
  openCall: Type.Optional(
    Type.Object({
      operation: Type.Union(STATE_CHANGING_CALLS.map((operation) => Type.Literal(operation))),
      sentAt: Type.String(),
      answered: Type.Optional(Type.Boolean()),
    }),
  ),
  providerPaymentId: Type.Optional(Type.String()),
  bankPendingAlerted: Type.Optional(Type.Boolean()),
  failedLogins: Type.Optional(Type.Integer({ minimum: 0 })),
  failedCodes: Type.Optional(Type.Integer({ minimum: 0 })),
  senderAccountFromPayer: Type.Optional(Type.Boolean()),
  codeNotProcessed: Type.Optional(Type.Boolean()),
  outcomeShown: Type.Optional(Type.Boolean()),
  cancelledOnPage: Type.Optional(Type.Boolean()),
});

const checkFlowState = Compile(StoredFlowState);

/** A payment's stored flow state that is not the flow's JSON: the row was changed by hand, or is not ours. */
export class CorruptFlowStateError extends Error {
  constructor(paymentId: string | undefined, problems: readonly string[]) {
    super(`The flow state of payment ${paymentId ?? '(unknown)'} is not readable: ${problems.join('; ')}`);
    this.name = 'CorruptFlowStateError';
  }
}

/** States already checked (a payment's state object is read many times per request; it is never changed in place). */
const checked = new WeakSet<object>();

/** The flow state of a payment row (our own JSON, checked; an absent state is an empty one). */
export function flowStateOf(payment: { readonly id?: string; readonly flowState: Readonly<Record<string, unknown>> | null }): FlowState {
  const stored = payment.flowState;
  if (stored === null) return {};
  if (checked.has(stored)) return stored;
  if (!checkFlowState.Check(stored)) {
    const problems = [...checkFlowState.Errors(stored)].slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new CorruptFlowStateError(payment.id, problems);
  }
  checked.add(stored);
  // The checked JSON is the flow state: bank references are the connectors' opaque JSON objects (`BankReference`).
  return stored as unknown as FlowState;
}

/** The state as the store's `flowState` change (plain JSON). */
export function toStoredFlowState(state: FlowState): Record<string, unknown> {
  return JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
}
