/**
 * What the flow engine keeps in `payments.flow_state` between the payer's steps: the bank's references, what the
 * bank offered (SCA methods, accounts), the single-use callback secret and the page key. Never credentials: login
 * ids and passwords live only in the memory of the request that sends them to the bank (decisions §7). The bank's
 * references are opaque: made by the bank's connector, stored here and handed back to it unread.
 *
 * In memory it is grouped by concern (`FlowState`: the page, the payment at the bank, its authorisation, the sender
 * account, reconciliation), each group checked on read; in the database it stays the flat JSON every earlier version
 * wrote (`StoredFlowState`), converted on read (`flowStateOf`) and write (`toStoredFlowState`).
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  fromBankReference,
  toBankReference,
  type BankReference,
  type ScaApproach,
  type ScaChallenge,
  type ScaMethod,
} from '../connectors/index.js';

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

/**
 * The payer's session on our pages and the bank's way back to them. The page key and `outcomeShown` are written by
 * the pages (`FlowEngine.updatePage`) without the lease; the callback by the steps that send the payer to the bank
 * (src/flow/steps/callback.ts) and the engine's processing of the return; `cancelledOnPage` by the cancel command.
 */
export interface PageState {
  /** Per-payment random key of the page tokens (CSRF); created on the payer's first visit. */
  readonly key?: string;
  /**
   * SHA-256 of the single-use secret in our bank callback URL (and in the `state` of the fixed return URL), and
   * what the callback is for. The secret itself lives only in the memory of the run that made it.
   */
  readonly callback?: { readonly hash: string; readonly purpose: 'payment' | 'consent' };
  /** The hash of the callback secret last used: its replay after the flow ended leads to the outcome page. */
  readonly spentCallbackHash?: string;
  /** The completed page was shown once (it continued to the shop by itself then): opened again, it waits for the payer. */
  readonly outcomeShown?: boolean;
  /** The payer cancelled on our page (after its confirmation): the console's funnel counts these apart. */
  readonly cancelledOnPage?: boolean;
}

/**
 * The payment at the bank: what the registration (src/flow/steps/payment-registration.ts) left there, replaced by
 * an authorisation step that changes what the bank holds (`keepAuthorisationReferences`), and our address for the
 * bank's status notifications (src/flow/steps/notification.ts). Written under the lease.
 */
export interface BankPaymentState {
  /** The bank's reference of the payment (opaque: made by the connector, handed back to it unread). */
  readonly payment?: BankReference;
  /** The end-to-end id sent to the bank, when it differs from the client's (decisions §2). */
  readonly endToEndId?: string;
  /**
   * The bank's id of the payment (as the client sees it) learnt by a run and committed by one of its durable steps,
   * before the run's own commit writes the column. Left here only by a run that died: its recovery writes it.
   */
  readonly providerPaymentId?: string;
  /**
   * Our address for the bank's status notifications: the SHA-256 of its secret (what a notification is checked
   * against), the secret sealed with the operator key ring (`notificationSecretContext`, so a later call gives the
   * bank the same address), and the bank's last answer about it (`ASPSP-Notification-Support`).
   */
  readonly notification?: { readonly hash: string; readonly sealed: string; readonly confirmed?: boolean };
}

/**
 * The payer's authorisation at the bank (SCA): its reference, the approach, what the bank offered and asked (methods,
 * challenge, its page for the payer), what the connector asked us to hold, and the refusals counted against the
 * bank's limits. Written under the lease by phases 3 and 6 (sender-authorization.ts, payment-consent.ts, login.ts)
 * and by reconciliation; the bank's page is also the one of the account-information consent (sender-account.ts).
 */
export interface AuthorisationState {
  /** The payment's authorisation at the bank (the latest reference the connector returned). */
  readonly reference?: BankReference;
  readonly scaApproach?: ScaApproach;
  /** The bank's page for the payer (redirect approach), so a payer who comes back to our link can go on. */
  readonly bankRedirectUrl?: string;
  /** SCA methods offered for the payer's choice (embedded). */
  readonly scaMethods?: readonly ScaMethod[];
  readonly chosenScaMethod?: ScaMethod;
  readonly challenge?: ScaChallenge;
  /** Sandbox only: the page standing in for the bank's app in the decoupled approach (the bank's approval URL). */
  readonly decoupledAppUrl?: string;
  /**
   * A credential the connector asked us to hold for the authorisation under way (`AuthorisationResult.heldSecret`),
   * sealed with the operator key ring (`heldSecretContext`); opened only for the connector call that needs it.
   */
  readonly heldSecret?: string;
  /**
   * Logins (user ID or password) the bank refused since the last accepted one, counted against the bank's limit
   * (the bank profile's `loginAttempts`). A count, not a credential.
   */
  readonly failedLogins?: number;
  /** One-time codes the bank refused, counted against the bank profile's `oneTimeCodeAttempts`. */
  readonly failedCodes?: number;
  /** The bank's SCA status showed that a one-time code lost in a bank error was not taken: the payer types it again. */
  readonly codeNotProcessed?: boolean;
}

/**
 * Phase 4, the sender account (src/flow/steps/sender-account.ts): the account-information consent at the bank and
 * the accounts it listed; and whether the sender account came from the payer (typed on the follow-up form, or chosen
 * from the bank's list) rather than from the client. Written under the lease.
 */
export interface SenderAccountState {
  /** The account-information consent at the bank. */
  readonly consent?: BankReference;
  /** The consent's authorisation at the bank, when the bank made one with the consent. */
  readonly consentAuthorisation?: BankReference;
  readonly accounts?: readonly OfferedAccount[];
  /** The sender account was typed by the payer or chosen from the bank's list (not sent by the client): a new bank forgets it. */
  readonly fromPayer?: boolean;
}

/**
 * What settling with the bank needs: a bank answer still open and the call it belongs to (written by `FlowRun.send`
 * and the steps that settle it, under the lease), and the operator's alert of a payment pending too long at the bank
 * (src/flow/bank-pending.ts, without the lease).
 */
export interface ReconciliationState {
  /** Set while the outcome of a bank call is unknown (timeout, 5xx): the bank-status job asks the bank again. */
  readonly reconciling?: boolean;
  /**
   * A call that may change what the bank holds, recorded (and committed, with `reconciling`) before it is sent and
   * cleared with its definite answer (decisions §8, durable steps). Still set after a crash or a lost answer: the
   * bank may have acted on it, so the bank is asked before anything else is decided, and the bank's "nothing
   * happened" is believed only once the bank could no longer be working on it (`sentAt` + the settle window).
   */
  readonly openCall?: OpenBankCall;
  /** Set once the operator was warned that the bank has held the payment past BANK_PENDING_ALERT_SECONDS. */
  readonly bankPendingAlerted?: boolean;
}

/**
 * The flow state as the engine works with it, one typed sub-record per concern; a group with nothing in it is absent.
 * Stored flat (`toStoredFlowState`, `flowStateOf`): see {@link StoredFlowState} for why.
 */
export interface FlowState {
  /** While set and in the future, one request (or job) is working on the payment: others wait (`FlowEngine.act`). */
  readonly leaseUntil?: string;
  readonly page?: PageState;
  readonly bank?: BankPaymentState;
  readonly authorisation?: AuthorisationState;
  readonly senderAccount?: SenderAccountState;
  readonly reconciliation?: ReconciliationState;
  /**
   * Stored fields this version does not know (a row written by a later version, read during a rolling upgrade), kept
   * as they were read so that this version's write gives them back.
   */
  readonly unknownFields?: Readonly<Record<string, unknown>>;
}

/** The sub-records of {@link FlowState}. */
export type FlowStateGroups = Pick<FlowState, 'page' | 'bank' | 'authorisation' | 'senderAccount' | 'reconciliation'>;

/**
 * A change of the flow state: the fields named are set (`undefined` removes one), the others kept, group by group
 * (`withChanges`).
 */
export type FlowStateChanges = { readonly leaseUntil?: string | undefined } & {
  readonly [Group in keyof FlowStateGroups]?: Partial<NonNullable<FlowStateGroups[Group]>>;
};

/** A group's fields without those removed; undefined when none is left (an empty group is absent). */
function compact<Group extends object>(group: Group): Group | undefined {
  const present = Object.entries(group).filter(([, value]) => value !== undefined);
  return present.length === 0 ? undefined : (Object.fromEntries(present) as Group);
}

/** A group with a change applied (every field of a group is optional, so any part of one is one). */
function merged<Group extends object>(group: Group | undefined, change: Partial<Group> | undefined): Group | undefined {
  return change === undefined ? group : compact<Group>({ ...group, ...change } as Group);
}

/** The state with `changes` applied, as a new object (a state is never changed in place); untouched groups are kept as they are. */
export function withChanges(state: FlowState, changes: FlowStateChanges): FlowState {
  return (
    compact<FlowState>({
      ...state,
      ...('leaseUntil' in changes ? { leaseUntil: changes.leaseUntil } : {}),
      page: merged(state.page, changes.page),
      bank: merged(state.bank, changes.bank),
      authorisation: merged(state.authorisation, changes.authorisation),
      senderAccount: merged(state.senderAccount, changes.senderAccount),
      reconciliation: merged(state.reconciliation, changes.reconciliation),
    }) ?? {}
  );
}

/**
 * The fields written without the lease: the payer's page key (first visit), that the outcome was shown, and the
 * operator's pending alert. Everything else belongs to the lease holder. A holder whose commit finds that only such a
 * write came between keeps them as they are now and commits its own work on top (`FlowEngine.commit`), rather than
 * losing a bank answer it cannot ask for again.
 */
export function withUnleasedFields(state: FlowState, current: FlowState): FlowState {
  return withChanges(state, {
    page: {
      key: current.page?.key ?? state.page?.key,
      outcomeShown: current.page?.outcomeShown ?? state.page?.outcomeShown,
    },
    reconciliation: {
      bankPendingAlerted: current.reconciliation?.bankPendingAlerted ?? state.reconciliation?.bankPendingAlerted,
    },
  });
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
 * The stored shape of {@link FlowState}: one flat JSON object, as every earlier version wrote it. It stays flat so that
 * rows written by earlier versions, and by an earlier version running beside this one during a rolling upgrade, read
 * and write both ways without a migration; the groups exist only in memory (`flowStateOf` groups, `toStoredFlowState`
 * flattens). It is checked whenever a row's state is read, so a corrupt or foreign row fails with a clear error
 * naming the payment and the field rather than as a wrong guess later. Every field is optional, as the flow writes
 * them; fields this version does not know are let through untouched (`FlowState.unknownFields`).
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
  scaMethods: Type.Optional(Type.Immutable(Type.Array(StoredScaMethod))),
  chosenScaMethod: Type.Optional(StoredScaMethod),
  challenge: Type.Optional(
    Type.Object({
      image: Type.Optional(Type.String()),
      data: Type.Optional(Type.Immutable(Type.Array(Type.String()))),
      imageLink: Type.Optional(Type.String()),
      otpMaxLength: Type.Optional(Type.Number()),
      otpFormat: Type.Optional(Type.String()),
      additionalInformation: Type.Optional(Type.String()),
    }),
  ),
  decoupledAppUrl: Type.Optional(Type.String()),
  consent: Type.Optional(StoredBankReference),
  consentAuthorisation: Type.Optional(StoredBankReference),
  accounts: Type.Optional(
    Type.Immutable(Type.Array(Type.Object({ iban: Type.String(), currency: Type.String(), name: Type.Optional(Type.String()) }))),
  ),
  heldSecret: Type.Optional(Type.String()),
  reconciling: Type.Optional(Type.Boolean()),
  openCall: Type.Optional(
    Type.Object({
      operation: Type.Enum(STATE_CHANGING_CALLS),
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

type StoredFlowStateJson = Static<typeof StoredFlowState>;
type StoredField = keyof StoredFlowStateJson;

/** The stored fields this version knows, in the order written (the others are kept as `unknownFields`). */
export const STORED_FLOW_STATE_FIELDS: readonly string[] = Object.keys(StoredFlowState.properties);
const KNOWN_STORED_FIELDS: ReadonlySet<string> = new Set(STORED_FLOW_STATE_FIELDS);

/** The flow state of checked stored JSON: each flat field into its group. */
function grouped(stored: StoredFlowStateJson & Readonly<Record<string, unknown>>): FlowState {
  const reference = (data: Readonly<Record<string, unknown>> | undefined): BankReference | undefined =>
    data === undefined ? undefined : toBankReference(data);
  const unknownFields = Object.fromEntries(Object.entries(stored).filter(([field]) => !KNOWN_STORED_FIELDS.has(field)));
  const state: FlowState = {
    leaseUntil: stored.leaseUntil,
    page: compact<PageState>({
      key: stored.pageKey,
      callback: stored.callback,
      spentCallbackHash: stored.spentCallbackHash,
      outcomeShown: stored.outcomeShown,
      cancelledOnPage: stored.cancelledOnPage,
    }),
    bank: compact<BankPaymentState>({
      payment: reference(stored.bankPayment),
      endToEndId: stored.bankEndToEndId,
      providerPaymentId: stored.providerPaymentId,
      notification: stored.notification,
    }),
    authorisation: compact<AuthorisationState>({
      reference: reference(stored.authorisation),
      scaApproach: stored.scaApproach,
      bankRedirectUrl: stored.bankRedirectUrl,
      scaMethods: stored.scaMethods,
      chosenScaMethod: stored.chosenScaMethod,
      challenge: stored.challenge,
      decoupledAppUrl: stored.decoupledAppUrl,
      heldSecret: stored.heldSecret,
      failedLogins: stored.failedLogins,
      failedCodes: stored.failedCodes,
      codeNotProcessed: stored.codeNotProcessed,
    }),
    senderAccount: compact<SenderAccountState>({
      consent: reference(stored.consent),
      consentAuthorisation: reference(stored.consentAuthorisation),
      accounts: stored.accounts,
      fromPayer: stored.senderAccountFromPayer,
    }),
    reconciliation: compact<ReconciliationState>({
      reconciling: stored.reconciling,
      openCall: stored.openCall,
      bankPendingAlerted: stored.bankPendingAlerted,
    }),
    unknownFields: Object.keys(unknownFields).length === 0 ? undefined : unknownFields,
  };
  return compact(state) ?? {};
}

/** Flow states already read, by the stored JSON they were read from (a payment's state is read many times per request). */
const read = new WeakMap<object, FlowState>();

/** The flow state of a payment row (our own JSON, checked and grouped; an absent state is an empty one). */
export function flowStateOf(payment: { readonly id?: string; readonly flowState: Readonly<Record<string, unknown>> | null }): FlowState {
  const stored = payment.flowState;
  if (stored === null) return {};
  const known = read.get(stored);
  if (known !== undefined) return known;
  if (!checkFlowState.Check(stored)) {
    const problems = [...checkFlowState.Errors(stored)].slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new CorruptFlowStateError(payment.id, problems);
  }
  const state = grouped(stored);
  read.set(stored, state);
  return state;
}

/**
 * The state as the store's `flowState` change: the flat stored JSON, its fields in the order of
 * {@link StoredFlowState} and then the unknown ones, so an unchanged state is written as the same bytes. A group
 * adds no field of its own, and fields without a value are left out.
 */
export function toStoredFlowState(state: FlowState): Record<string, unknown> {
  const { page, bank, authorisation, senderAccount, reconciliation } = state;
  const reference = (value: BankReference | undefined): Readonly<Record<string, unknown>> | undefined =>
    value === undefined ? undefined : fromBankReference(value);
  // Every stored field named (the type says so), in the order of the stored schema (the test holds them equal).
  const stored: { readonly [Field in StoredField]: StoredFlowStateJson[Field] | undefined } = {
    pageKey: page?.key,
    leaseUntil: state.leaseUntil,
    callback: page?.callback,
    spentCallbackHash: page?.spentCallbackHash,
    notification: bank?.notification,
    bankEndToEndId: bank?.endToEndId,
    bankPayment: reference(bank?.payment),
    authorisation: reference(authorisation?.reference),
    scaApproach: authorisation?.scaApproach,
    bankRedirectUrl: authorisation?.bankRedirectUrl,
    scaMethods: authorisation?.scaMethods,
    chosenScaMethod: authorisation?.chosenScaMethod,
    challenge: authorisation?.challenge,
    decoupledAppUrl: authorisation?.decoupledAppUrl,
    consent: reference(senderAccount?.consent),
    consentAuthorisation: reference(senderAccount?.consentAuthorisation),
    accounts: senderAccount?.accounts,
    heldSecret: authorisation?.heldSecret,
    reconciling: reconciliation?.reconciling,
    openCall: reconciliation?.openCall,
    providerPaymentId: bank?.providerPaymentId,
    bankPendingAlerted: reconciliation?.bankPendingAlerted,
    failedLogins: authorisation?.failedLogins,
    failedCodes: authorisation?.failedCodes,
    senderAccountFromPayer: senderAccount?.fromPayer,
    codeNotProcessed: authorisation?.codeNotProcessed,
    outcomeShown: page?.outcomeShown,
    cancelledOnPage: page?.cancelledOnPage,
  };
  // Through JSON: plain data, without the fields that have no value.
  return JSON.parse(JSON.stringify({ ...stored, ...state.unknownFields })) as Record<string, unknown>;
}
