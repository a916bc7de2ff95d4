/**
 * The bank connector contract: the only way the service talks to a bank.
 *
 * A connector is a stateless adapter for one banking standard (Berlin Group NextGenPSD2 first). It is bound to
 * one bank's {@link ConnectorSettings} (immutable catalogue data) and to the operator's TLS/signing keys, and it
 * keeps nothing between calls: every call receives what it needs (the {@link CallContext} with the request id and
 * the PSU's IP address and user agent, and the references the bank returned earlier) and returns typed results.
 * It never touches the database; the flow engine stores the returned references (plain JSON, no secrets) and
 * passes them back on the next call.
 *
 * Conventions shared by every operation:
 * - Amounts are exact decimal strings (`"0.10"`), never numbers.
 * - Bank status codes are mapped to small unions we understand, and the raw code is kept beside them. Codes a
 *   connector does not know map to `unknown`, which callers treat as *still pending*, never as failed.
 * - Errors are the classes of `./errors.ts` only: `BankRejectedError` (definite refusal, with a `FailureCode`),
 *   `BankUnavailableError` and `BankProtocolError` (indeterminate: the payment must not be marked failed).
 * - PSU credentials are passed through to the bank only: never logged, never put into errors, never kept.
 *
 * The scenarios every connector must pass are in `test/connectors/contract/` (docs/adding-a-connector.md).
 */
import type { FailureCode } from '../domain/detailed-status.js';
import type { PaymentSchemeName, ScaApproach } from '../domain/reference-data.js';
import type { ConnectorSettings } from './settings.js';

export type { ScaApproach } from '../domain/reference-data.js';

// ---------------------------------------------------------------------------------------------------------------
// Call context and references
// ---------------------------------------------------------------------------------------------------------------

/** Per-call data about the request and the PSU, forwarded to the bank as the standard's headers. */
export interface CallContext {
  /**
   * Correlation id sent as the bank's request id (`X-Request-ID`). Should be a UUID (the Berlin Group standard
   * requires one); a connector replaces anything else with a fresh UUID, so callers may pass the id of the
   * inbound API request as it is. Reusing one id for the several bank calls of one inbound request is accepted
   * by banks in practice and keeps logs joinable.
   */
  readonly requestId: string;
  /** The PSU's IP address, when the PSU is present (mandatory for initiation and consent creation). */
  readonly psuIpAddress?: string;
  /** The PSU's browser user agent, when known. */
  readonly psuUserAgent?: string;
}

/**
 * The links a bank returned, by relation name (`scaRedirect`, `scaStatus`, `status`, ...), with the hrefs exactly
 * as the bank sent them (absolute or relative to the bank's host). A connector resolves them at call time against
 * the bank's base URL, so stored references survive a change of host name in configuration.
 */
export type BankLinks = Readonly<Record<string, string>>;

/** A payment held by the bank. Store it with the payment and pass it back on every later call. No secrets. */
export interface BankPaymentRef {
  readonly kind: 'payment';
  /** The bank's id of the payment (`providerPaymentId` of our API). */
  readonly paymentId: string;
  /** The standard's payment service path segment (`payments`). */
  readonly paymentService: string;
  /** The product path segment chosen at initiation (for example `instant-sepa-credit-transfers`). */
  readonly paymentProduct: string;
  /** Links of the initiation response (`self`, `status`, start-authorisation links, ...). */
  readonly links: BankLinks;
}

/** An account information consent held by the bank. Store it and pass it back. No secrets. */
export interface BankConsentRef {
  readonly kind: 'consent';
  /** The bank's consent id (sent as `Consent-ID` when reading accounts). */
  readonly consentId: string;
  /** Links of the consent creation response. */
  readonly links: BankLinks;
}

/** Either resource an authorisation (SCA) can belong to. */
export type BankResourceRef = BankPaymentRef | BankConsentRef;

/**
 * One authorisation (SCA) sub-resource of a payment or consent. The bank may change the links at every step (for
 * example `authoriseTransaction` appears after the password), so every authorisation call returns a new reference:
 * store the latest one.
 */
export interface BankAuthorisationRef {
  /** The bank's authorisation id, when it sent one (banks creating the authorisation implicitly may not). */
  readonly authorisationId: string | undefined;
  /** The latest links of this authorisation (`scaStatus`, `updatePsuAuthentication`, `authoriseTransaction`...). */
  readonly links: BankLinks;
}

// ---------------------------------------------------------------------------------------------------------------
// Mapped statuses
// ---------------------------------------------------------------------------------------------------------------

/** Our view of a bank's payment status (ISO 20022 transaction status for Berlin Group). */
export type PaymentTransactionState =
  /** The bank received the payment; nothing checked or authorised yet (RCVD). */
  | 'received'
  /** Validated and (as far as the bank tells) authorised, not yet handed to execution (ACTC, ACCP, ACFC). */
  | 'accepted'
  /** The bank is still working on it or waits for more authorisations (PDNG, PATC, PART). */
  | 'pending'
  /** Accepted for execution: all checks passed, settlement in progress (ACSP, ACWC, ACWP). */
  | 'accepted-for-execution'
  /** Settled on the debtor's or the creditor's account (ACSC, ACCC). */
  | 'settled'
  /** Rejected by the bank, including an authorisation that failed or expired (RJCT). */
  | 'rejected'
  /** Cancelled before execution (CANC). */
  | 'cancelled'
  /** A code we do not know: treated as still pending, never as failed. */
  | 'unknown';

export interface PaymentTransactionStatus {
  readonly state: PaymentTransactionState;
  /** The bank's code as sent (for example `ACSP`), for history and support. */
  readonly code: string;
}

/** Our view of an authorisation's SCA status. */
export type ScaState =
  /** The authorisation was created; nothing provided yet. */
  | 'received'
  /** The PSU is identified (login id known). */
  | 'psu-identified'
  /** The PSU is authenticated (password accepted). */
  | 'psu-authenticated'
  /** An SCA method was chosen (by the PSU, or implicitly as the only one). */
  | 'sca-method-selected'
  /** The SCA routine runs (for example the one-time code was sent, or the app was notified). */
  | 'started'
  /** SCA done, but the bank awaits a confirmation from us. */
  | 'unconfirmed'
  /** Authorised. Final. */
  | 'finalised'
  /** SCA failed (wrong code, cancelled by the PSU, expired). Final. */
  | 'failed'
  /** No SCA needed; counts as authorised. Final. */
  | 'exempted'
  /** A code we do not know: treated as still pending. */
  | 'unknown';

export interface ScaStatus {
  readonly state: ScaState;
  readonly code: string;
}

/** Our view of an account information consent's status. */
export type ConsentState =
  /** Created, not authorised yet. */
  | 'received'
  /** Authorised: accounts may be read. */
  | 'valid'
  /** Some but not all authorisations of a multi-level SCA are done. */
  | 'partially-authorised'
  /** Refused (for example the authorisation failed). Final. */
  | 'rejected'
  /** Revoked by the PSU at the bank. Final. */
  | 'revoked'
  /** Expired. Final. */
  | 'expired'
  /** Ended by us. Final. */
  | 'terminated'
  /** A code we do not know: treated as still pending. */
  | 'unknown';

export interface ConsentStatus {
  readonly state: ConsentState;
  readonly code: string;
}

/** What a payment status means for the payment's outcome. */
export type PaymentOutcome = 'completed' | 'failed' | 'pending';

/**
 * Decides the payment outcome from the bank's status: settled is always completed; accepted-for-execution is
 * completed only for banks whose catalogue entry says `acceptedForExecutionIsCompleted`; rejected and cancelled
 * are failed; everything else (including unknown codes) is still pending.
 */
export function paymentOutcome(
  status: PaymentTransactionStatus,
  settings: Pick<ConnectorSettings, 'acceptedForExecutionIsCompleted'>,
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

/** What an SCA status means: authorised, failed, or still in progress (unknown codes included). */
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
// SCA steps
// ---------------------------------------------------------------------------------------------------------------

/** One SCA method the bank offers the PSU. */
export interface ScaMethod {
  /** The bank's id of the method, sent back by {@link BankConnector.selectScaMethod}. */
  readonly id: string;
  /** The bank's type, for example `SMS_OTP`, `PUSH_OTP`, `CHIP_OTP` (open list). */
  readonly type: string;
  /** Name to show the PSU (for example "SMS to +49 160 xxx 28"), when the bank gives one. */
  readonly name?: string;
  /** More text for the PSU, when the bank gives one. */
  readonly explanation?: string;
}

/** Data the PSU needs to produce the one-time code (embedded approach). */
export interface ScaChallenge {
  /** Base64 PNG to show the PSU (photo/chip OTP). */
  readonly image?: string;
  /** Strings to show the PSU. */
  readonly data?: readonly string[];
  /** A link to the challenge image. */
  readonly imageLink?: string;
  /** Maximum length of the one-time code. */
  readonly otpMaxLength?: number;
  /** `characters` or `integer`. */
  readonly otpFormat?: string;
  /** Additional text that must be shown to the PSU. */
  readonly additionalInformation?: string;
}

/**
 * What the caller must do next to get the payment (or consent) authorised. Derived by the connector from the
 * links and status the bank returned, so the flow engine never interprets a standard's links itself.
 */
export type NextScaStep =
  /** Send the PSU's browser to `url` (the bank's SCA page); the bank sends it back to our redirect URI. */
  | { readonly kind: 'redirect'; readonly url: string }
  /**
   * Call `startPaymentAuthorisation` / `startConsentAuthorisation`. `needs` tells what the bank wants with it:
   * nothing, the PSU's login id, the PSU's password, or the choice of an SCA method (then `methods` is set).
   */
  | {
      readonly kind: 'start-authorisation';
      readonly needs: 'nothing' | 'psu-identification' | 'psu-authentication' | 'sca-method-selection';
      readonly methods?: readonly ScaMethod[];
    }
  /** Ask the PSU for the password and call `updatePsuAuthentication`. */
  | { readonly kind: 'authenticate' }
  /** Let the PSU choose one of `methods` and call `selectScaMethod`. */
  | { readonly kind: 'select-sca-method'; readonly methods: readonly ScaMethod[] }
  /** Ask the PSU for the one-time code produced with `method` and call `authoriseTransaction`. */
  | { readonly kind: 'authorise-transaction'; readonly method?: ScaMethod; readonly challenge?: ScaChallenge }
  /**
   * Nothing to send: the PSU acts elsewhere (decoupled approach: in the bank's app). Poll `getScaStatus` (or the
   * resource's status) until it is final.
   */
  | { readonly kind: 'wait' }
  /** The authorisation is finalised (or exempted): go on with the payment status. */
  | { readonly kind: 'authorised' }
  /** The authorisation failed. Final: a new attempt needs a new authorisation. */
  | { readonly kind: 'failed' };

/** The result of any step that creates or advances an authorisation. */
export interface AuthorisationResult {
  /** The authorisation to pass to the next call (replaces the previous reference). */
  readonly authorisation: BankAuthorisationRef;
  readonly scaStatus: ScaStatus;
  /** The SCA approach the bank uses, when it says so or the links make it evident. */
  readonly scaApproach: ScaApproach | undefined;
  /** SCA methods offered to the PSU (set when a choice is needed). */
  readonly scaMethods: readonly ScaMethod[];
  /** The SCA method in use (chosen by the PSU or implicitly by the bank). */
  readonly chosenScaMethod: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
  /** Text the bank wants shown to the PSU (for example "Open your banking app"). */
  readonly psuMessage: string | undefined;
  readonly next: NextScaStep;
}

/** The PSU's credentials for embedded SCA. Passed through to the bank only; never logged or kept. */
export interface PsuCredentials {
  /** The PSU's login id at the bank (sent as `PSU-ID`). */
  readonly id?: string;
  /** The PSU's password at the bank (sent in the body of the authorisation call only). */
  readonly password?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Payment initiation
// ---------------------------------------------------------------------------------------------------------------

/** A postal address in our API's shape; a connector maps it to its standard's fields. */
export interface PostalAddress {
  /** ISO 3166 alpha-2. */
  readonly country: string;
  readonly city: string;
  readonly streetName: string;
  readonly buildingNumber: string;
  readonly postCode: string;
}

/** The payment to initiate, as the flow engine knows it. */
export interface PaymentOrder {
  /** The reference sent to the bank as end-to-end identification (≤ 35 SEPA characters; the caller derives it). */
  readonly endToEndId: string;
  /** Exact decimal string with a dot, at most 3 decimals, for example `"0.10"` or `"999999999.99"`. */
  readonly amount: string;
  /** ISO 4217 code. */
  readonly currency: string;
  readonly scheme: PaymentSchemeName;
  /** The client preferred an instant payment (honoured only where the bank has an instant product). */
  readonly instantPreferred: boolean;
  readonly creditor: {
    readonly iban: string;
    readonly name: string;
    readonly address?: PostalAddress;
  };
  /** The sender account, when known (mandatory for banks with `requiresDebtorAccount`). */
  readonly debtor?: {
    readonly iban: string;
    readonly currency?: string;
  };
  /** Unstructured remittance information, already cut to the bank's limit by the caller. */
  readonly remittanceInformation?: string;
}

export interface InitiatePaymentInput {
  readonly context: CallContext;
  readonly payment: PaymentOrder;
  /** The SCA approach we want; defaults to the bank's first in `settings.scaApproaches`. */
  readonly scaApproach?: ScaApproach;
  /** Where the bank sends the PSU back after a successful redirect SCA (our callback URL). */
  readonly redirectUri?: string;
  /** Where the bank sends the PSU back after a failed or cancelled redirect SCA; without it, to `redirectUri`. */
  readonly nokRedirectUri?: string;
  /**
   * The PSU's login id, when known: sent as `PSU-ID`. The password is never part of the initiation call in the
   * Berlin Group standard: pass it to {@link BankConnector.startPaymentAuthorisation} right after (within the same
   * inbound request, decisions §7), or to {@link BankConnector.updatePsuAuthentication}.
   */
  readonly psuId?: string;
}

export interface InitiatePaymentResult {
  /** The bank's payment: store it. */
  readonly payment: BankPaymentRef;
  readonly transactionStatus: PaymentTransactionStatus;
  /** The payment product used (instant or standard, chosen from the bank's settings). */
  readonly paymentProduct: string;
  /** Whether the instant product was used. */
  readonly instant: boolean;
  /** The SCA approach the bank chose, when it says so or the links make it evident. */
  readonly scaApproach: ScaApproach | undefined;
  /** Set when the bank created an authorisation implicitly (its links then hold `scaStatus`). */
  readonly authorisation: BankAuthorisationRef | undefined;
  /** Set when the bank already reports an SCA status (implicit authorisation). */
  readonly scaStatus: ScaStatus | undefined;
  readonly scaMethods: readonly ScaMethod[];
  readonly chosenScaMethod: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
  readonly psuMessage: string | undefined;
  /** Warnings the bank attached to its success answer. */
  readonly bankMessages: readonly { readonly category: string; readonly code: string; readonly text?: string }[];
  /** What to do next: usually `redirect` or `start-authorisation`. */
  readonly next: NextScaStep;
}

export interface StartAuthorisationInput<R extends BankResourceRef> {
  readonly context: CallContext;
  readonly resource: R;
  /**
   * Credentials for embedded/decoupled SCA. With a password the bank is asked to authenticate the PSU in the same
   * call (`startAuthorisationWithPsuAuthentication`); with only the id, to identify the PSU.
   */
  readonly psu?: PsuCredentials;
  /** The approach we want (sent as the standard's preference headers); defaults to the bank's first. */
  readonly scaApproach?: ScaApproach;
  /** As for initiation: where the bank sends the PSU back after redirect SCA. */
  readonly redirectUri?: string;
  readonly nokRedirectUri?: string;
}

export interface AuthorisationStepInput {
  readonly context: CallContext;
  readonly resource: BankResourceRef;
  readonly authorisation: BankAuthorisationRef;
}

export interface PaymentStatusResult {
  readonly transactionStatus: PaymentTransactionStatus;
  /** {@link paymentOutcome} of the status for this bank's settings. */
  readonly outcome: PaymentOutcome;
  /** When the outcome is `failed`: the reason to record (insufficient funds, cancelled, rejected...). */
  readonly failureCode: FailureCode | undefined;
  /** The bank's funds check, when it reports one. */
  readonly fundsAvailable: boolean | undefined;
  readonly psuMessage: string | undefined;
  readonly bankMessages: readonly { readonly category: string; readonly code: string; readonly text?: string }[];
}

export interface CancelPaymentResult {
  /** The bank cancelled the payment (HTTP 204, or a 202 whose status is already CANC). */
  readonly cancelled: boolean;
  /** The bank needs the PSU to authorise the cancellation; not supported by the service yet. */
  readonly authorisationRequired: boolean;
  /** The status the bank reported with a 202, if any. */
  readonly transactionStatus: PaymentTransactionStatus | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Account information (to resolve the sender account)
// ---------------------------------------------------------------------------------------------------------------

export interface CreateConsentInput {
  readonly context: CallContext;
  /** Last day of validity (ISO date); defaults to tomorrow (UTC): we read the account list once. */
  readonly validUntil?: string;
  readonly scaApproach?: ScaApproach;
  readonly redirectUri?: string;
  readonly nokRedirectUri?: string;
  /** The PSU's login id, when known (sent as `PSU-ID`). */
  readonly psuId?: string;
}

export interface CreateConsentResult {
  readonly consent: BankConsentRef;
  readonly consentStatus: ConsentStatus;
  readonly scaApproach: ScaApproach | undefined;
  readonly authorisation: BankAuthorisationRef | undefined;
  readonly scaStatus: ScaStatus | undefined;
  readonly scaMethods: readonly ScaMethod[];
  readonly chosenScaMethod: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
  readonly psuMessage: string | undefined;
  readonly next: NextScaStep;
}

/** One of the PSU's accounts, as far as the bank tells. */
export interface BankAccount {
  /** The bank's id of the account resource, when it has one. */
  readonly resourceId: string | undefined;
  readonly iban: string | undefined;
  readonly bban: string | undefined;
  /** ISO 4217, or `XXX` for a multi-currency account. */
  readonly currency: string;
  /** Account name given by the bank. */
  readonly name: string | undefined;
  /** Name the PSU gave the account. */
  readonly displayName: string | undefined;
  readonly ownerName: string | undefined;
  /** The bank's product name (for example "Girokonto"). */
  readonly product: string | undefined;
  /** ISO 20022 cash account type (for example `CACC`). */
  readonly cashAccountType: string | undefined;
  /** `enabled` unless the bank says `deleted` or `blocked`. */
  readonly status: 'enabled' | 'deleted' | 'blocked';
  readonly usage: string | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The interface
// ---------------------------------------------------------------------------------------------------------------

/**
 * One bank, spoken to through one standard. Obtain it from `createConnector` (src/connectors/index.ts). Every
 * method may throw `BankRejectedError`, `BankUnavailableError` or `BankProtocolError` (see ./errors.ts).
 */
export interface BankConnector {
  /** The standard this connector speaks (the catalogue's `connector.standard`). */
  readonly standard: ConnectorSettings['standard'];
  /** The bank settings it is bound to. */
  readonly settings: ConnectorSettings;

  /**
   * Registers the payment with the bank (phase 5). Chooses the payment product from `settings.products` by scheme
   * and instant preference, sends the SCA approach preference and redirect URIs, and returns the bank's payment
   * reference with the next SCA step. Not idempotent: on an indeterminate error the bank may hold the payment.
   */
  initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentResult>;

  /**
   * Creates the authorisation of a payment (phase 6), following the bank's start-authorisation link. With
   * `psu.password` the PSU is authenticated in the same call (embedded); with `psu.id` only, identified (decoupled).
   * A wrong password throws `BankRejectedError` with `PSU_AUTHENTICATION_FAILED`.
   */
  startPaymentAuthorisation(input: StartAuthorisationInput<BankPaymentRef>): Promise<AuthorisationResult>;

  /** Like {@link startPaymentAuthorisation}, for an account information consent. */
  startConsentAuthorisation(input: StartAuthorisationInput<BankConsentRef>): Promise<AuthorisationResult>;

  /**
   * Sends the PSU's password (and login id, if not sent before) to an existing authorisation (embedded).
   * A wrong password throws `BankRejectedError` with `PSU_AUTHENTICATION_FAILED`.
   */
  updatePsuAuthentication(input: AuthorisationStepInput & { readonly psu: PsuCredentials }): Promise<AuthorisationResult>;

  /** Sends the SCA method the PSU chose (by {@link ScaMethod.id}). */
  selectScaMethod(input: AuthorisationStepInput & { readonly methodId: string }): Promise<AuthorisationResult>;

  /**
   * Sends the one-time code the PSU entered (embedded). A wrong code throws `BankRejectedError` with `SCA_FAILED`
   * (whether the PSU may retry depends on the bank: read `getScaStatus` afterwards).
   */
  authoriseTransaction(
    input: AuthorisationStepInput & { readonly scaAuthenticationData: string },
  ): Promise<AuthorisationResult>;

  /** Reads an authorisation's SCA status (decoupled polling, and after the PSU came back from a redirect). */
  getScaStatus(input: AuthorisationStepInput): Promise<{ readonly scaStatus: ScaStatus; readonly psuMessage: string | undefined }>;

  /**
   * Reads the payment's status (phase 7 polling), mapped, with the outcome for this bank. Safe to retry. Uses every
   * source of the status the standard offers: when the status endpoint fails indeterminately (5xx, timeout), the
   * other one (Berlin Group: the payment resource's `transactionStatus`) before throwing that endpoint's error.
   */
  getPaymentStatus(input: { readonly context: CallContext; readonly payment: BankPaymentRef }): Promise<PaymentStatusResult>;

  /** Asks the bank to cancel a payment not yet executed (for example when the PSU gives up on our pages). */
  cancelPayment(input: { readonly context: CallContext; readonly payment: BankPaymentRef }): Promise<CancelPaymentResult>;

  /** Creates a one-off consent to read the list of the PSU's accounts (phase 4). */
  createConsent(input: CreateConsentInput): Promise<CreateConsentResult>;

  /** Reads a consent's status. */
  getConsentStatus(input: { readonly context: CallContext; readonly consent: BankConsentRef }): Promise<ConsentStatus>;

  /** Reads the PSU's accounts with a valid consent. */
  listAccounts(input: {
    readonly context: CallContext;
    readonly consent: BankConsentRef;
  }): Promise<readonly BankAccount[]>;
}
