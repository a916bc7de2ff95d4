/**
 * The bank connector contract: the only way the service talks to a bank, whatever standard the bank speaks.
 *
 * A connector is a stateless adapter for one banking standard, bound to one bank's catalogue settings (which only it
 * reads) and to the operator's keys. It keeps nothing between calls: every call receives what it needs and returns
 * typed results. It never touches the database.
 *
 * **The core** every connector implements follows the life of a payment:
 * 1. {@link BankConnector.registerPayment} — the bank learns of the payment (Berlin Group: the payment initiation;
 *    UK Open Banking: the payment consent);
 * 2. {@link BankConnector.startAuthorisation} — the payer's authorisation begins (a redirect to the bank, an approval
 *    in the bank's app, or the embedded steps on our pages);
 * 3. {@link BankConnector.completeAuthorisation} — whatever the bank sent back (the payer's browser returning to our
 *    callback with a query string or a posted form), or nothing (a poll while the payer approves elsewhere), turned
 *    into the authorisation's state; where the standard needs more calls to finish (UK: exchange the code, submit the
 *    payment) the connector makes them here;
 * 4. {@link BankConnector.getPaymentStatus} and {@link BankConnector.cancelPayment}.
 *
 * **Capabilities** are optional groups of operations a connector declares when its bank offers them; the engine asks
 * for a capability before using it, never for a standard: {@link EmbeddedAuthentication} (credentials, SCA method
 * choice and one-time codes on our pages), {@link AccountInformation} (the payer's accounts, to choose the sender
 * account), {@link BulkPayments} (several payments authorised once), and the flags of {@link BankProfile} (decoupled approval, a funds check before execution).
 *
 * **References** ({@link BankReference}) to the bank's payment, consent or authorisation are opaque: the connector
 * puts in them what it needs later (plain JSON, never a secret or a token), the engine stores them with the payment
 * and hands them back unread. What the engine must show (the bank's payment id) comes beside them.
 *
 * Shared conventions:
 * - Amounts are exact decimal strings (`"0.10"`), never numbers.
 * - Bank status codes are mapped to the small unions below with the raw code kept beside them; a code a connector
 *   does not know maps to `unknown`, which callers treat as *still pending*, never as failed.
 * - Errors are the classes of `./errors.ts` only: `BankRejectedError` (a definite refusal, with a `FailureCode`),
 *   `BankUnavailableError` and `BankProtocolError` (indeterminate: the payment must not be marked failed).
 * - The payer's credentials go to the bank only: never logged, never put into errors or references, never kept.
 *
 * The scenarios every connector must pass are in `test/connectors/contract/` (docs/adding-a-connector.md).
 */
import type { FailureCode } from '../domain/detailed-status.js';
import type { PayerDetails, PostalAddress } from '../domain/payment.js';
import type { PaymentSchemeName, ScaApproach } from '../domain/reference-data.js';
import type { ConnectorSettings, Standard } from './settings.js';

export type { PayerAccountNumber, PayerDetails, PostalAddress } from '../domain/payment.js';
export type { ScaApproach } from '../domain/reference-data.js';

// ---------------------------------------------------------------------------------------------------------------
// Call context and references
// ---------------------------------------------------------------------------------------------------------------

/** Per-call data about the request and the payer, forwarded to the bank as the standard's headers. */
export interface CallContext {
  /**
   * Correlation id of the inbound request or job. Connectors send it where their standard has a request id
   * (Berlin Group `X-Request-ID`, UK `x-fapi-interaction-id`), replaced by a fresh UUID when it is not one.
   */
  readonly requestId: string;
  /** The payer's IP address, when the payer is present. */
  readonly psuIpAddress?: string;
  /** The payer's browser user agent, when known. */
  readonly psuUserAgent?: string;
}

declare const opaqueReference: unique symbol;

/**
 * A bank's reference to a payment, consent or authorisation: opaque to everyone but the connector that made it.
 * Plain JSON (it is stored with the payment), never a secret. Connectors convert with {@link toBankReference} and
 * {@link fromBankReference}.
 */
export type BankReference = { readonly [opaqueReference]: 'BankReference' };

/** Wraps a connector's own reference data (plain JSON, no secrets) as an opaque {@link BankReference}. */
export function toBankReference(data: Readonly<Record<string, unknown>>): BankReference {
  return data as unknown as BankReference;
}

/** Opens a reference this connector made; the connector checks its shape. */
export function fromBankReference(reference: BankReference): Readonly<Record<string, unknown>> {
  return reference;
}

/**
 * Everything the bank sent back with the payer's browser to our callback URL: the query string and, for
 * `response_mode=form_post` answers or fragments our return page posts on, the form. Values as received; the
 * connector validates them. Our own routing parameters are removed first.
 */
export interface BankReturn {
  readonly query: Readonly<Record<string, string>>;
  readonly form: Readonly<Record<string, string>>;
  /** The payer came back through the "not OK" address we gave the bank (standards that have one). */
  readonly nok: boolean;
}

/** Where the bank sends the payer back after a redirect authorisation, and the value that binds the return to it. */
export interface ReturnAddress {
  /** Our callback URL for this payment's successful authorisation (it names the payment and a single-use secret). */
  readonly uri: string;
  /**
   * Our one return URL that never changes (`{BASE_URL}/pay/return`), for standards whose banks only accept redirect
   * URIs registered in advance (OAuth 2.0, UK Open Banking): the return is matched to the payment by `state`.
   */
  readonly registeredUri: string;
  /** Our callback URL after a failed or cancelled authorisation (standards that have one); without it, `uri`. */
  readonly nokUri?: string;
  /**
   * An unguessable single-use value the engine binds to this payment's return: standards that carry a `state`
   * through the authorisation (OAuth 2.0) send it and check it comes back unchanged.
   */
  readonly state: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The bank's profile: what it asks of the payer and the flow
// ---------------------------------------------------------------------------------------------------------------

/**
 * What a bank asks of the payer and of the flow, derived by the connector from its own settings. The engine and the
 * providers list read this, never the settings.
 */
export interface BankProfile {
  /** How the payer authorises the payment: on the bank's pages, on ours (embedded), or in the bank's app. */
  readonly scaApproach: ScaApproach;
  /** The payer's login id at the bank is needed (embedded: to log in; decoupled: to find the payer's app). */
  readonly needsLoginId: boolean;
  /** The payer's password is needed on our pages (embedded). */
  readonly needsPassword: boolean;
  /** The payer must log in at the bank before the payment is registered (phase 3). */
  readonly loginBeforeRegistration: boolean;
  /** The bank needs the sender account in the payment. */
  readonly needsSenderAccount: boolean;
  /** The payer chooses the sender account at the bank (so we never ask for it). */
  readonly senderAccountChosenAtBank: boolean;
  /** Refused logins the bank accepts for one payment; the last one fails it. */
  readonly loginAttempts: number;
  /** Wrong one-time codes the bank accepts for one authorisation. */
  readonly oneTimeCodeAttempts: number;
  /** The bank checks the payer's funds before it takes the payment, so a lack of funds fails before execution. */
  readonly fundsConfirmation: boolean;
  /**
   * How long we wait for one answer of the bank (its catalogue `timeoutMs`). A call whose answer we gave up on may
   * still be worked on by the bank for about as long again, so the flow believes "nothing happened" only after that.
   */
  readonly answerTimeoutMs: number;
  /**
   * The bank pushes status changes to an address we give with the payment (Berlin Group `TPP-Notification-URI`), so
   * the engine hands one over ({@link RegisterPaymentInput.notificationUri}). Unset: the bank is only polled.
   */
  readonly statusNotifications?: boolean;
  /**
   * The connector can pay to a UK sort code and account number ({@link UkCreditorAccount}): a refund to a UK payer
   * known only that way is offered only such banks.
   */
  readonly paysToUkAccounts: boolean;
}

/**
 * What the bank answered about status notifications to the address we gave (Berlin Group
 * `ASPSP-Notification-Support`): `true` it will notify, `false` not for this resource; undefined when it said nothing
 * (a bank without the service, or a call that carried no address).
 */
export type NotificationSupport = boolean | undefined;

/** Refused logins and wrong one-time codes a bank accepts when its settings do not say (the usual limit). */
export const DEFAULT_AUTHENTICATION_ATTEMPTS = 3;

// ---------------------------------------------------------------------------------------------------------------
// Mapped statuses
// ---------------------------------------------------------------------------------------------------------------

/** Our view of a bank's payment status. */
export type PaymentTransactionState =
  /** The bank holds the payment, not authorised (or not yet submitted for execution). */
  | 'received'
  /** Validated and authorised, not yet handed to execution. */
  | 'accepted'
  /** The bank is still working on it or waits for more authorisations. */
  | 'pending'
  /** Accepted for execution: all checks passed, settlement in progress. */
  | 'accepted-for-execution'
  /** Settled on the debtor's or the creditor's account. */
  | 'settled'
  /** Rejected by the bank, including an authorisation that failed or expired. */
  | 'rejected'
  /** Cancelled before execution. */
  | 'cancelled'
  /** A code we do not know: treated as still pending, never as failed. */
  | 'unknown';

export interface PaymentTransactionStatus {
  readonly state: PaymentTransactionState;
  /** The bank's code as sent (for example `ACSP`), for history and support. */
  readonly code: string;
}

/** Our view of an authorisation's state. */
export type ScaState =
  | 'received'
  | 'psu-identified'
  | 'psu-authenticated'
  | 'sca-method-selected'
  /** The authorisation runs (a one-time code was sent, the app was notified, the payer is at the bank's pages). */
  | 'started'
  /** Done at the payer's side, but the bank awaits a confirmation from us. */
  | 'unconfirmed'
  /** Authorised. Final. */
  | 'finalised'
  /** Failed (wrong code, refused or cancelled by the payer, expired). Final. */
  | 'failed'
  /** No authorisation needed; counts as authorised. Final. */
  | 'exempted'
  /** A code we do not know: treated as still pending. */
  | 'unknown';

export interface ScaStatus {
  readonly state: ScaState;
  readonly code: string;
}

/** Our view of an account information consent's status. */
export type ConsentState = 'received' | 'valid' | 'partially-authorised' | 'rejected' | 'revoked' | 'expired' | 'terminated' | 'unknown';

export interface ConsentStatus {
  readonly state: ConsentState;
  readonly code: string;
}

/** What a payment status means for the payment's outcome. */
export type PaymentOutcome = 'completed' | 'failed' | 'pending';

/** What an authorisation state means: authorised, failed, or still in progress (unknown codes included). */
export function scaOutcome(status: ScaStatus): 'authorised' | 'failed' | 'pending' {
  if (status.state === 'finalised' || status.state === 'exempted') return 'authorised';
  if (status.state === 'failed') return 'failed';
  return 'pending';
}

/** What a consent status means: usable, failed, or still in progress (unknown codes included). */
export function consentOutcome(status: ConsentStatus): 'valid' | 'failed' | 'pending' {
  switch (status.state) {
    case 'valid':
      return 'valid';
    case 'rejected':
    case 'revoked':
    case 'expired':
    case 'terminated':
      return 'failed';
    default:
      return 'pending';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Authorisation steps
// ---------------------------------------------------------------------------------------------------------------

/** One SCA method the bank offers the payer (embedded). */
export interface ScaMethod {
  /** The bank's id of the method, sent back by {@link EmbeddedAuthentication.selectScaMethod}. */
  readonly id: string;
  /** The bank's type, for example `SMS_OTP`, `PUSH_OTP`, `CHIP_OTP` (open list). */
  readonly type: string;
  readonly name?: string;
  readonly explanation?: string;
}

/** Data the payer needs to produce the one-time code (embedded). */
export interface ScaChallenge {
  readonly image?: string;
  readonly data?: readonly string[];
  readonly imageLink?: string;
  readonly otpMaxLength?: number;
  /** `characters` or `integer`. */
  readonly otpFormat?: string;
  readonly additionalInformation?: string;
}

/**
 * What must happen next for the payment (or consent) to be authorised. Derived by the connector from what the bank
 * answered, so the engine never interprets a standard's links or grants.
 */
export type NextScaStep =
  /** Send the payer's browser to `url` (the bank's page); the bank sends it back to the {@link ReturnAddress}. */
  | { readonly kind: 'redirect'; readonly url: string }
  /**
   * Call {@link BankConnector.startAuthorisation}. `needs` tells what the bank wants with it: nothing, the payer's
   * login id, the password, or the choice of an SCA method (then `methods` is set).
   */
  | {
      readonly kind: 'start-authorisation';
      readonly needs: 'nothing' | 'psu-identification' | 'psu-authentication' | 'sca-method-selection';
      readonly methods?: readonly ScaMethod[];
    }
  /** Ask the payer for the password and call {@link EmbeddedAuthentication.updatePsuAuthentication}. */
  | { readonly kind: 'authenticate' }
  /** Let the payer choose one of `methods` and call {@link EmbeddedAuthentication.selectScaMethod}. */
  | { readonly kind: 'select-sca-method'; readonly methods: readonly ScaMethod[] }
  /** Ask the payer for the one-time code and call {@link EmbeddedAuthentication.authoriseTransaction}. */
  | { readonly kind: 'authorise-transaction'; readonly method?: ScaMethod; readonly challenge?: ScaChallenge }
  /**
   * The payer acts elsewhere (decoupled: in the bank's app). Call {@link BankConnector.completeAuthorisation}
   * without a return until it is final. `approvalUrl`: where the payer approves, when the bank gives one (a
   * sandbox bank's app page, a bank's deep link).
   */
  | { readonly kind: 'wait'; readonly approvalUrl?: string }
  /** Authorised (or exempted): go on with the payment status. */
  | { readonly kind: 'authorised' }
  /** The authorisation failed. Final: a new attempt needs a new authorisation. */
  | { readonly kind: 'failed' };

/** The result of any call that creates, advances or completes an authorisation. */
export interface AuthorisationResult {
  /** The authorisation to pass to the next call (replaces the previous reference). */
  readonly authorisation: BankReference;
  /**
   * A new reference to the payment, when the step changed what the bank holds (UK: the payment submitted after
   * the consent was authorised). Replaces the stored one.
   */
  readonly payment?: BankReference;
  /** The bank's id of the payment to show the client, when the step gave a new one. */
  readonly providerPaymentId?: string;
  readonly scaStatus: ScaStatus;
  /** The approach the bank uses, when it says so or the answer makes it evident. */
  readonly scaApproach: ScaApproach | undefined;
  /** SCA methods offered to the payer (set when a choice is needed). */
  readonly scaMethods: readonly ScaMethod[];
  readonly chosenScaMethod: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
  /** Text the bank wants shown to the payer. */
  readonly psuMessage: string | undefined;
  /** When `next` is `failed`: why, when the bank says more than "SCA failed" (the payer cancelled, no funds...). */
  readonly failureCode?: FailureCode;
  /**
   * A credential the bank issued for this authorisation that the connector must use again because this step could
   * not finish (UK: the payer's access token, spent code or CIBA grant, when the funds check or the submission got
   * no answer). The engine keeps it sealed with the flow state, never logs it, and hands it back as
   * `CompleteAuthorisationInput.heldSecret`; a result without one drops what was held.
   */
  readonly heldSecret?: string;
  /**
   * The authorisation ended without a payment and can no longer be completed, so the payer must authorise again
   * (UK: the payer's single-use code was spent by an exchange whose answer we lost; no token reached us, so nothing
   * was submitted, and a payment consent cannot be authorised twice). `payment` then names the resource to authorise
   * (a new consent of the same payment) and `next` its start. Completions only.
   */
  readonly authoriseAgain?: boolean;
  readonly next: NextScaStep;
  /** Whether the bank will notify the address given with the start of the authorisation (start only). */
  readonly notifications?: NotificationSupport;
}

/** The payer's credentials (embedded and decoupled). Passed through to the bank only; never logged or kept. */
export interface PsuCredentials {
  /** The payer's login id at the bank. */
  readonly id?: string;
  /** The payer's password at the bank (embedded only). */
  readonly password?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Payment registration, status and cancellation
// ---------------------------------------------------------------------------------------------------------------

/** A UK account by sort code and account number (a refund to a UK payer's account, docs/api-decisions.md "Refunds"). */
export interface UkCreditorAccount {
  /** Six digits. */
  readonly sortCode: string;
  /** Eight digits. */
  readonly accountNumber: string;
  /** A building society's roll number (the UK standard's `SecondaryIdentification`). */
  readonly rollNumber?: string;
}

/**
 * The account paid to: an IBAN (every payment the API takes), or a UK account (only a refund to a UK payer, and only
 * at a bank whose profile says {@link BankProfile.paysToUkAccounts}). Each connector turns it into its standard's
 * account identification.
 */
export type CreditorAccount =
  { readonly iban: string; readonly ukAccount?: undefined } | { readonly iban?: undefined; readonly ukAccount: UkCreditorAccount };

/**
 * The creditor's IBAN, for a connector whose standard pays to IBANs only. A UK account never reaches such a connector
 * (the bank list offers it only banks that pay to one), so one here is our bug.
 */
export function creditorIbanOf(creditor: CreditorAccount): string {
  if (creditor.iban === undefined) throw new Error('This bank pays to IBANs only, not to a UK sort code and account number');
  return creditor.iban;
}

/** The payment to register, as the flow engine knows it. */
export interface PaymentOrder {
  /** The reference sent to the bank as end-to-end identification (≤ 35 SEPA characters; the caller derives it). */
  readonly endToEndId: string;
  /** Exact decimal string with a dot, for example `"0.10"`. */
  readonly amount: string;
  /** ISO 4217 code. */
  readonly currency: string;
  readonly scheme: PaymentSchemeName;
  /** The client preferred an instant payment (honoured only where the bank has an instant product). */
  readonly instantPreferred: boolean;
  readonly creditor: CreditorAccount & {
    readonly name: string;
    readonly address?: PostalAddress;
  };
  /** The sender account, when known (mandatory for banks whose profile says `needsSenderAccount`). */
  readonly debtor?: { readonly iban: string; readonly currency?: string };
  /** Unstructured remittance information, already cut to the bank's limit by the caller. */
  readonly remittanceInformation?: string;
}

export interface RegisterPaymentInput {
  readonly context: CallContext;
  readonly payment: PaymentOrder;
  /** Where the bank sends the payer back (banks whose profile says `REDIRECT`). */
  readonly returnAddress?: ReturnAddress;
  /** The payer's login id, when the bank needs it and it is known (held in memory for this request only). */
  readonly psuId?: string;
  /**
   * A key that stays the same when the registration is retried for the same payment (our payment id), for
   * standards with idempotent creation.
   */
  readonly idempotencyKey: string;
  /**
   * Our per-payment address for the bank's status notifications, on our own domain (given when the profile says
   * `statusNotifications`). A notification only makes us ask the bank again: its content is never taken as the status.
   */
  readonly notificationUri?: string;
}

/**
 * Where the authorisation of a resource just created stands (a payment registered, a consent created): the bank may
 * have created the authorisation with it and already say what comes next.
 */
export interface CreatedResourceAuthorisation {
  /** The approach the bank chose, when it says so. */
  readonly scaApproach: ScaApproach | undefined;
  /** Set when the bank created an authorisation with the resource (Berlin Group implicit authorisation). */
  readonly authorisation: BankReference | undefined;
  readonly scaStatus: ScaStatus | undefined;
  readonly scaMethods: readonly ScaMethod[];
  readonly chosenScaMethod: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
  readonly psuMessage: string | undefined;
  /** What to do next: usually `redirect` or `start-authorisation`. */
  readonly next: NextScaStep;
}

export interface RegistrationResult extends CreatedResourceAuthorisation {
  /** The bank's payment (or payment consent): store it. */
  readonly payment: BankReference;
  /** The bank's id to show the client as `providerPaymentId`. */
  readonly providerPaymentId: string;
  readonly transactionStatus: PaymentTransactionStatus;
  /** Warnings the bank attached to its success answer. */
  readonly bankMessages: readonly BankMessage[];
  /** Whether the bank will notify the {@link RegisterPaymentInput.notificationUri} of status changes. */
  readonly notifications?: NotificationSupport;
}

export interface BankMessage {
  readonly category: string;
  readonly code: string;
  readonly text?: string;
}

export interface StartAuthorisationInput {
  readonly context: CallContext;
  readonly payment: BankReference;
  /** The payer's credentials: the login id where the profile needs it; the password only for embedded banks. */
  readonly psu?: PsuCredentials;
  /** Where the bank sends the payer back (banks whose profile says `REDIRECT`). */
  readonly returnAddress?: ReturnAddress;
  /**
   * An earlier start of this payment's authorisation got no answer, and the bank shows the payment still
   * unauthorised: it may hold an authorisation we never learnt the reference of. A connector whose standard allows
   * one open authorisation per payment and cannot find the earlier one (UK CIBA) starts on a new resource and says so
   * in `AuthorisationResult.payment`; others start as usual.
   */
  readonly earlierStartUnanswered?: boolean;
  /** Our address for the bank's status notifications (as {@link RegisterPaymentInput.notificationUri}). */
  readonly notificationUri?: string;
}

export interface CompleteAuthorisationInput {
  readonly context: CallContext;
  readonly payment: BankReference;
  readonly authorisation: BankReference;
  /**
   * What the payer's browser brought back to our callback, and the state we gave for it; absent when the engine
   * only asks how the authorisation stands (a decoupled approval, after a lost answer, at expiry).
   */
  readonly returned?: { readonly data: BankReturn; readonly expectedState: string };
  /**
   * What the previous completion asked the engine to hold (`AuthorisationResult.heldSecret`), or what this
   * completion held through `hold` before a call whose answer was lost (or before our process died).
   */
  readonly heldSecret?: string;
  /**
   * Keeps `secret` for the next completion of this authorisation, sealed and committed with the flow state before it
   * resolves (the engine's durable step); the connector calls it before a call that spends what it holds, so a lost
   * answer or a process that dies during the call leaves what the retry needs (UK: the payer's single-use code before
   * its exchange, the payer's token — from the code or a CIBA grant — before the payment's submission). Handed back
   * as `heldSecret`; dropped by a result without one. Absent when the caller keeps nothing between calls.
   */
  readonly hold?: (secret: string) => Promise<void>;
}

/** Several payments registered as one resource at the bank (Berlin Group `bulk-payments`), authorised once. */
export interface RegisterBulkPaymentInput extends Omit<RegisterPaymentInput, 'payment'> {
  /** Two or more payments, in order, all with the same `debtor` (required), currency and scheme. */
  readonly payments: readonly PaymentOrder[];
}

/** Bulk payments: one bank resource, and one authorisation, for several payments from one account. */
export interface BulkPayments {
  /**
   * Registers the payments as one bulk payment and says what its authorisation needs next. The result's `payment`
   * reference is used with every core operation (startAuthorisation, completeAuthorisation, getPaymentStatus,
   * cancelPayment) and the embedded capability exactly as a single payment's: the connector keeps in the reference
   * that it is a bulk. The result's `providerPaymentId` is the bulk's id at the bank.
   */
  registerBulkPayment(input: RegisterBulkPaymentInput): Promise<RegistrationResult>;
}

export interface PaymentStatusResult {
  readonly transactionStatus: PaymentTransactionStatus;
  /** What the status means for this bank. */
  readonly outcome: PaymentOutcome;
  /** When the outcome is `failed`: the reason to record (insufficient funds, cancelled, rejected...). */
  readonly failureCode: FailureCode | undefined;
  /**
   * The bank stated the reason (a message whose meaning we know, such as Berlin Group `SCA_INVALID`), rather than it
   * being read off the status code alone. A stated reason is the bank's word and wins over what the flow infers (a
   * payer back through our "not OK" address is taken as cancelling only when the bank does not say otherwise).
   */
  readonly failureReasonStated?: boolean;
  /** The bank's funds check, when it reports one. */
  readonly fundsAvailable: boolean | undefined;
  readonly psuMessage: string | undefined;
  readonly bankMessages: readonly BankMessage[];
  /** Seconds the bank asked us to wait before asking again. */
  readonly retryAfterSeconds?: number;
  /**
   * The account the payer paid from and its holder's name, when this answer tells them: UK, the payment's
   * `Data.Refund` (asked for with `ReadRefundAccount: "Yes"` on the consent); Berlin Group, the authorised payment's
   * debtor account (the payer's choice at the bank, or the one we sent) with the owner's name where the bank gives
   * it. Absent until the bank says so, and whenever the caller said it knows it already ({@link
   * PaymentStatusInput.payerKnown}). Validated by the connector: what does not have the standard's shape is left out.
   */
  readonly payer?: PayerDetails;
  /**
   * Why account data the bank sent was left out of {@link payer} (its shape was not the standard's), for the log.
   * Paths and rules only, never the values.
   */
  readonly payerIgnored?: string;
}

export interface PaymentStatusInput {
  readonly context: CallContext;
  readonly payment: BankReference;
  /**
   * The caller holds the payer's account already: a connector that needs a call of its own to learn it (Berlin
   * Group: the payment resource) skips that call. Absent: not known.
   */
  readonly payerKnown?: boolean;
}

export interface CancelPaymentResult {
  /** Nothing can execute any more: the bank cancelled it, or (UK) the payment was never submitted. */
  readonly cancelled: boolean;
  /** The bank needs the payer to authorise the cancellation; not supported by the service yet. */
  readonly authorisationRequired: boolean;
  /** The status the bank reported, if any. */
  readonly transactionStatus: PaymentTransactionStatus | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Capabilities
// ---------------------------------------------------------------------------------------------------------------

export interface AuthorisationStepInput {
  readonly context: CallContext;
  readonly resource: BankReference;
  readonly authorisation: BankReference;
}

/** Credentials, SCA method choice and one-time codes on our pages (the embedded approach). */
export interface EmbeddedAuthentication {
  /** Sends the payer's password to an authorisation; a wrong one throws `BankRejectedError(PSU_AUTHENTICATION_FAILED)`. */
  updatePsuAuthentication(input: AuthorisationStepInput & { readonly psu: PsuCredentials }): Promise<AuthorisationResult>;
  /** Sends the SCA method the payer chose (by {@link ScaMethod.id}). */
  selectScaMethod(input: AuthorisationStepInput & { readonly methodId: string }): Promise<AuthorisationResult>;
  /** Sends the one-time code; a wrong one throws `BankRejectedError(SCA_FAILED)`. */
  authoriseTransaction(input: AuthorisationStepInput & { readonly scaAuthenticationData: string }): Promise<AuthorisationResult>;
  /**
   * The payment's latest authorisation at the bank, with its SCA status and the step it waits for (Berlin Group:
   * the list of the payment's authorisations, then the SCA status of the last one), to adopt an authorisation whose
   * start got no answer; undefined when the bank holds none.
   */
  findAuthorisation(input: { readonly context: CallContext; readonly resource: BankReference }): Promise<AuthorisationResult | undefined>;
}

/** One of the payer's accounts, as far as the bank tells. */
export interface BankAccount {
  readonly resourceId: string | undefined;
  readonly iban: string | undefined;
  readonly bban: string | undefined;
  /** ISO 4217, or `XXX` for a multi-currency account. */
  readonly currency: string;
  readonly name: string | undefined;
  readonly displayName: string | undefined;
  readonly ownerName: string | undefined;
  readonly product: string | undefined;
  readonly cashAccountType: string | undefined;
  readonly status: 'enabled' | 'deleted' | 'blocked';
  readonly usage: string | undefined;
}

export interface CreateConsentInput {
  readonly context: CallContext;
  /** Last day of validity (ISO date); defaults to tomorrow (UTC): we read the account list once. */
  readonly validUntil?: string;
  readonly returnAddress?: ReturnAddress;
  readonly psuId?: string;
}

export interface CreateConsentResult extends CreatedResourceAuthorisation {
  readonly consent: BankReference;
  readonly consentStatus: ConsentStatus;
}

/** The payer's accounts through an account information consent (to choose the sender account, phase 4). */
export interface AccountInformation {
  createConsent(input: CreateConsentInput): Promise<CreateConsentResult>;
  /** Like {@link BankConnector.startAuthorisation}, for the consent. */
  startConsentAuthorisation(input: {
    readonly context: CallContext;
    readonly consent: BankReference;
    readonly psu?: PsuCredentials;
    readonly returnAddress?: ReturnAddress;
  }): Promise<AuthorisationResult>;
  /** Like {@link BankConnector.completeAuthorisation}, for the consent. */
  completeConsentAuthorisation(input: {
    readonly context: CallContext;
    readonly consent: BankReference;
    readonly authorisation: BankReference;
    readonly returned?: { readonly data: BankReturn; readonly expectedState: string };
  }): Promise<AuthorisationResult>;
  getConsentStatus(input: { readonly context: CallContext; readonly consent: BankReference }): Promise<ConsentStatus>;
  listAccounts(input: { readonly context: CallContext; readonly consent: BankReference }): Promise<readonly BankAccount[]>;
}

/** Each capability's operations, by the name a connector offers it under. */
export interface CapabilityOperations {
  /** Embedded authentication steps, when the bank offers them. */
  readonly embedded: EmbeddedAuthentication;
  /** Account information for the sender account, when the bank offers it. */
  readonly accountInformation: AccountInformation;
  /** Bulk payments (several payments, one authorisation), when the bank offers them. */
  readonly bulkPayments: BulkPayments;
}

/**
 * The capabilities a connector may offer, written once: {@link BankConnector}'s optional members, the metered
 * wrapper (src/observability/metered-connector.ts) and anything else that walks them derive from this list. A new
 * capability adds its operations to {@link CapabilityOperations} and its name here (the compiler insists on both).
 */
export const CONNECTOR_CAPABILITIES = [
  'embedded',
  'accountInformation',
  'bulkPayments',
] as const satisfies readonly (keyof CapabilityOperations)[];

export type CapabilityName = (typeof CONNECTOR_CAPABILITIES)[number];

/** Fails to compile while a capability in {@link CapabilityOperations} is missing from {@link CONNECTOR_CAPABILITIES}. */
type EveryCapabilityListed<Missing extends never> = Missing;
export type ConnectorCapabilities =
  EveryCapabilityListed<Exclude<keyof CapabilityOperations, CapabilityName>> extends never
    ? { readonly [Name in CapabilityName]?: CapabilityOperations[Name] }
    : never;

/** Whether `name` is a capability's name (a property holding a group of bank operations). */
export function isCapabilityName(name: string): name is CapabilityName {
  return (CONNECTOR_CAPABILITIES as readonly string[]).includes(name);
}

// ---------------------------------------------------------------------------------------------------------------
// The interface
// ---------------------------------------------------------------------------------------------------------------

/**
 * One bank, spoken to through one standard. Obtain it from `createConnectors` (src/connectors/index.ts). Every
 * method may throw `BankRejectedError`, `BankUnavailableError` or `BankProtocolError` (see ./errors.ts).
 */
export interface BankConnector extends ConnectorCapabilities {
  /** The standard this connector speaks (the catalogue's `connector.standard`). */
  readonly standard: Standard;
  /** What the bank asks of the payer and the flow. */
  readonly profile: BankProfile;

  /**
   * Registers the payment with the bank (phase 5) and says what the authorisation needs next. Idempotent where the
   * standard is (same `idempotencyKey`); elsewhere an indeterminate error may leave the payment at the bank.
   */
  registerPayment(input: RegisterPaymentInput): Promise<RegistrationResult>;

  /**
   * Starts the payer's authorisation of the payment (phase 6): a redirect to the bank's pages, a request to the
   * payer's app (decoupled), or, with the password, the embedded login. A wrong password throws
   * `BankRejectedError(PSU_AUTHENTICATION_FAILED)`.
   */
  startAuthorisation(input: StartAuthorisationInput): Promise<AuthorisationResult>;

  /**
   * Turns what the bank sent back (or, without a return, the bank's current answer) into the authorisation's
   * state, and makes the calls the standard needs to finish it. Safe to call again: a repeated return or poll gives
   * the same outcome and never submits a payment twice. A return that does not belong to this authorisation (a
   * wrong `state`, a forged token) throws `BankProtocolError`.
   */
  completeAuthorisation(input: CompleteAuthorisationInput): Promise<AuthorisationResult>;

  /**
   * Reads the payment's status, mapped, with the outcome for this bank. Safe to retry; uses every source of the
   * status the standard offers before giving up on an indeterminate error.
   */
  getPaymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult>;

  /** Makes sure a payment not yet executed never will be (the payer gave up, the flow expired). */
  cancelPayment(input: { readonly context: CallContext; readonly payment: BankReference }): Promise<CancelPaymentResult>;
}

/** Settings of one standard, for a connector's constructor. */
export type SettingsOf<S extends Standard> = Extract<ConnectorSettings, { readonly standard: S }>;
