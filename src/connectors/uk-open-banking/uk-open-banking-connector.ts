/**
 * The UK Open Banking Read/Write API 4.0 connector, domestic payments only (docs/connectors/uk-open-banking.md).
 *
 * The life of a payment here: a payment *consent* is registered with a client-credentials token; the payer
 * authorises it at the bank (FAPI 1 Advanced hybrid flow) or in the bank's app (CIBA); the connector exchanges
 * the code (or polls the CIBA grant) for the payer's token, optionally checks funds, and only then submits the
 * *payment* with the consent's exact Initiation and Risk. Until that submission nothing can execute, which is why
 * a consent is never reported as more than `received` and cancelling it needs no call.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { FailureCode } from '../../domain/detailed-status.js';
import {
  fromBankReference,
  toBankReference,
  type AuthorisationResult,
  type BankConnector,
  type BankProfile,
  type BankReference,
  type BankReturn,
  type CallContext,
  type CancelPaymentResult,
  type CompleteAuthorisationInput,
  type NextScaStep,
  type PaymentStatusInput,
  type PaymentStatusResult,
  type RegisterPaymentInput,
  type RegistrationResult,
  type ScaStatus,
  type StartAuthorisationInput,
} from '../contract.js';
import { BankProtocolError, BankRejectedError, BankUnavailableError, type BankMessage } from '../errors.js';
import { bankMetadata, type BankMetadata } from './discovery.js';
import { HttpCore, parseErrorBody, parseJsonBody, type ConnectorLogger, type HttpAnswer } from '../http/core.js';
import { parseRetryAfter } from '../transport.js';
import { issuedToken, oauthFormPost, TokenCache, type IssuedToken, type TokenKey } from '../http/oauth2.js';
import {
  clientAssertion,
  detachedSignature,
  signedRequestObject,
  verifyDetachedSignature,
  verifyIdToken,
  type SigningKeys,
} from './jose.js';
import {
  consentTransactionState,
  failureCodeOfReason,
  idempotencyKeyOf,
  initiationOf,
  isObject,
  messagesOfObError,
  outcomeOf,
  paymentTransactionState,
  refundAccountOf,
  type JsonObject,
} from './mapping.js';
import { payerFields } from '../payer-details.js';
import type { UkOpenBankingSettings } from './settings.js';
import { ukOpenBankingProfile } from './profile.js';

export interface UkOpenBankingDependencies {
  /** Carries the transport certificate for mutual TLS (and `tls_client_auth`). */
  readonly dispatcher: Dispatcher;
  readonly logger?: ConnectorLogger;
  readonly now: () => Date;
  /** Our PS256 signing key registered with the bank, for assertions, request objects and message signatures. */
  readonly keys: SigningKeys;
  /**
   * The process's client-credentials tokens (one cache shared by every connector, see `createConnectors`). Without
   * it the connector keeps its tokens for its own life only.
   */
  readonly tokens?: TokenCache;
  /**
   * The SHA-256 fingerprint of the client certificate our calls present (mutual TLS), when there is one: a token the
   * bank issued to one certificate (`tls_client_auth`, certificate-bound tokens) is never reused with another.
   */
  readonly transportCertificateFingerprint?: string;
}

/**
 * `BankConnector` with this standard's literal. The catalogue's settings union (src/connectors/settings.ts) does
 * not list `uk-open-banking` yet — adding it breaks type-checking in files other changes own — so `Standard`
 * cannot name it; once it does, this is exactly `BankConnector`.
 */
export type UkBankConnector = Omit<BankConnector, 'standard'> & { readonly standard: 'uk-open-banking' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
const ACR_SCA = 'urn:openbanking:psd2:sca';

/** What the connector keeps about the payment (stored by the engine, opaque to it). */
interface PaymentRef {
  readonly consentId: string;
  /** Exactly as sent with the consent: the payment submission must repeat them. */
  readonly initiation: JsonObject;
  readonly risk: JsonObject;
  /** Set once the payment was submitted: from then on the payment is the resource to ask. */
  readonly domesticPaymentId?: string;
}

type AuthorisationRef =
  | { readonly kind: 'redirect'; readonly consentId: string; readonly nonce: string; readonly state: string; readonly redirectUri: string }
  | { readonly kind: 'ciba'; readonly consentId: string; readonly authReqId: string };

interface ResourceCall {
  readonly operation: string;
  readonly method: 'GET' | 'POST';
  /** Below the resource base URL, for example `domestic-payment-consents`. */
  readonly path: string;
  readonly token: string;
  readonly context: CallContext;
  readonly body?: JsonObject;
  readonly idempotencyKey?: string;
}

interface ResourceAnswer {
  readonly json: JsonObject;
  readonly response: HttpAnswer;
}

export class UkOpenBankingConnector implements UkBankConnector {
  readonly standard = 'uk-open-banking' as const;
  readonly profile: BankProfile;
  private readonly http: HttpCore;
  private readonly resourceBase: URL;
  private readonly tokens: TokenCache;

  constructor(
    readonly settings: UkOpenBankingSettings,
    private readonly deps: UkOpenBankingDependencies,
  ) {
    this.profile = ukOpenBankingProfile(settings);
    this.tokens = deps.tokens ?? new TokenCache({ now: deps.now });
    this.http = new HttpCore({
      dispatcher: deps.dispatcher,
      timeoutMs: settings.timeoutMs,
      logger: deps.logger,
      bank: new URL(settings.issuer),
    });
    // A trailing slash makes the standard's relative paths resolve below the base path.
    this.resourceBase = new URL(settings.resourceBaseUrl.endsWith('/') ? settings.resourceBaseUrl : `${settings.resourceBaseUrl}/`);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Core
  // -------------------------------------------------------------------------------------------------------------

  async registerPayment(input: RegisterPaymentInput): Promise<RegistrationResult> {
    const operation = 'registerPayment';
    const { initiation, risk } = initiationOf(input.payment);
    const { payment, status } = await this.createConsent(operation, input.context, initiation, risk, input.idempotencyKey);
    const consentId = payment.consentId;
    return {
      payment: toBankReference({ ...payment }),
      providerPaymentId: consentId,
      transactionStatus: { state: consentTransactionState(status), code: status },
      scaApproach: this.profile.scaApproach,
      authorisation: undefined,
      scaStatus: undefined,
      scaMethods: [],
      chosenScaMethod: undefined,
      challenge: undefined,
      psuMessage: undefined,
      bankMessages: [],
      next: { kind: 'start-authorisation', needs: this.settings.authorisation === 'decoupled' ? 'psu-identification' : 'nothing' },
    };
  }

  async startAuthorisation(input: StartAuthorisationInput): Promise<AuthorisationResult> {
    const payment = paymentRefOf(input.payment);
    const metadata = await bankMetadata(this.http, this.settings.issuer);
    if (this.settings.authorisation !== 'decoupled') return this.startRedirect(metadata, payment, input);
    if (input.earlierStartUnanswered !== true) return this.startDecoupled(metadata, payment, input.psu?.id);
    // An earlier backchannel request for this consent may be open at the bank with its auth_req_id lost to us: the
    // profile allows one request per consent (a second is refused while the first is open), and CIBA has no way to
    // find a request's grant without its auth_req_id, so a consent the payer approved through it could never be paid.
    // The payer's approval goes to a new consent of the same payment; the first can never execute (a UK consent is
    // paid only by our submission with a token of its own), so it lapses at the bank. The new consent's
    // idempotency key is new too: the old one would give back the first consent.
    const { payment: renewed } = await this.createConsent(
      'startAuthorisation',
      input.context,
      payment.initiation,
      payment.risk,
      randomUUID(),
    );
    const started = await this.startDecoupled(metadata, renewed, input.psu?.id);
    return { ...started, payment: toBankReference({ ...renewed }), providerPaymentId: renewed.consentId };
  }

  /** POST domestic-payment-consents: a consent awaiting the payer's authorisation (AWAU). */
  private async createConsent(
    operation: string,
    context: CallContext,
    initiation: JsonObject,
    risk: JsonObject,
    idempotencySeed: string,
  ): Promise<{ readonly payment: PaymentRef; readonly status: string }> {
    const { json } = await this.withClientToken(operation, (token) =>
      this.resource({
        operation,
        method: 'POST',
        path: 'domestic-payment-consents',
        token,
        context,
        // The refund account: the bank then names the account the payer paid from in the payment (`Data.Refund`).
        body: { Data: { ReadRefundAccount: 'Yes', Initiation: initiation }, Risk: risk },
        idempotencyKey: idempotencyKeyOf('consent', idempotencySeed, shortHash),
      }),
    );
    const data = dataOf(operation, json);
    const consentId = requiredString(operation, data, 'ConsentId');
    const status = requiredString(operation, data, 'Status');
    return { payment: { consentId, initiation, risk }, status };
  }

  async completeAuthorisation(input: CompleteAuthorisationInput): Promise<AuthorisationResult> {
    const payment = paymentRefOf(input.payment);
    const authorisation = authorisationRefOf(input.authorisation);
    if (authorisation.consentId !== payment.consentId) throw new TypeError('The authorisation belongs to another consent');
    // Submitted already (a repeated return or poll): answering again must never pay twice, nor call the bank.
    if (payment.domesticPaymentId !== undefined) return this.authorisedResult(authorisation, payment);
    if (input.heldSecret !== undefined) {
      // The payer's code from a return whose exchange got no answer (or whose run died): exchanged again, the same code.
      const code = heldCodeOf(input.heldSecret);
      if (code !== undefined) {
        if (authorisation.kind !== 'redirect')
          throw new BankProtocolError('completeAuthorisation', 'a held code for a decoupled authorisation');
        return this.exchangeCode(input.context, payment, authorisation, code, 'again', input.hold);
      }
      // The payer's token from an earlier completion whose funds check or submission got no answer (or whose run
      // died): the code or grant is spent, so the token is the only way on (the submission is idempotent per consent).
      return this.submitHoldingToken(input.context, payment, authorisation, input.heldSecret, 'again');
    }
    if (input.returned !== undefined) {
      if (authorisation.kind !== 'redirect')
        throw new BankProtocolError('completeAuthorisation', 'a browser return for a decoupled authorisation');
      return this.completeFromReturn(input.context, payment, authorisation, input.returned.data, input.returned.expectedState, input.hold);
    }
    return authorisation.kind === 'ciba'
      ? this.pollCiba(input.context, payment, authorisation, input.hold)
      : this.consentProgress(input.context, payment, authorisation);
  }

  /** The payer's account comes with the payment's own answer (`Data.Refund`): `payerKnown` saves no call here. */
  async getPaymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const payment = paymentRefOf(input.payment);
    return this.withClientToken('getPaymentStatus', (token) =>
      payment.domesticPaymentId === undefined
        ? this.consentStatus(input.context, payment.consentId, token)
        : this.submittedPaymentStatus(input.context, payment.domesticPaymentId, token),
    );
  }

  async cancelPayment(input: { readonly context: CallContext; readonly payment: BankReference }): Promise<CancelPaymentResult> {
    const payment = paymentRefOf(input.payment);
    if (payment.domesticPaymentId === undefined) {
      // UK v4 has no DELETE for domestic payment consents, and a consent nobody submitted can never execute:
      // forgetting it is the cancellation. But an authorised consent may have been paid by a completion whose answer
      // was lost (the code or CIBA grant is spent and the consent stays AUTH), so it is never called withdrawn.
      const consent = await this.getPaymentStatus(input);
      // COND: the consent was used for a payment (one whose id we lost): never withdrawn either.
      if (consent.transactionStatus.code === 'AUTH' || consent.transactionStatus.code === 'COND') {
        throw new BankProtocolError(
          'cancelPayment',
          'the consent is authorised: a payment may have been submitted and cannot be withdrawn',
        );
      }
      return { cancelled: true, authorisationRequired: false, transactionStatus: consent.transactionStatus };
    }
    // A submitted domestic payment (Faster Payments) cannot be recalled through the API.
    const status = await this.getPaymentStatus(input);
    return {
      cancelled: status.transactionStatus.state === 'cancelled',
      authorisationRequired: false,
      transactionStatus: status.transactionStatus,
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Authorisation
  // -------------------------------------------------------------------------------------------------------------

  /** FAPI 1 Advanced hybrid flow: a signed request object naming the consent, sent through the payer's browser. */
  private async startRedirect(metadata: BankMetadata, payment: PaymentRef, input: StartAuthorisationInput): Promise<AuthorisationResult> {
    const operation = 'startAuthorisation';
    const returnAddress = input.returnAddress;
    if (returnAddress === undefined) throw new TypeError('A redirect authorisation needs the return address');
    if (metadata.authorizationEndpoint === undefined)
      throw new BankProtocolError(operation, 'the bank publishes no authorization_endpoint');
    const nonce = randomBytes(16).toString('base64url');
    const claims = {
      client_id: this.settings.clientId,
      response_type: 'code id_token',
      scope: 'openid payments',
      redirect_uri: returnAddress.registeredUri,
      state: returnAddress.state,
      nonce,
      ...(this.settings.responseMode === 'form_post' ? { response_mode: 'form_post' } : {}),
      claims: { id_token: this.idTokenClaims(payment.consentId) },
    };
    const request = await signedRequestObject(this.deps.keys, claims, this.settings.clientId, this.settings.issuer, this.deps.now());
    const url = new URL(metadata.authorizationEndpoint);
    // FAPI: the request object is what counts; the query repeats what OAuth requires outside it.
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('response_type', 'code id_token');
    url.searchParams.set('scope', 'openid payments');
    url.searchParams.set('redirect_uri', returnAddress.registeredUri);
    url.searchParams.set('request', request);
    const authorisation: AuthorisationRef = {
      kind: 'redirect',
      consentId: payment.consentId,
      nonce,
      state: returnAddress.state,
      redirectUri: returnAddress.registeredUri,
    };
    return this.pendingResult(authorisation, 'AWAU', { kind: 'redirect', url: url.href });
  }

  /** CIBA (poll mode): the bank notifies the payer's app; we poll the token endpoint until they decide. */
  private async startDecoupled(metadata: BankMetadata, payment: PaymentRef, loginId: string | undefined): Promise<AuthorisationResult> {
    const operation = 'startAuthorisation';
    if (loginId === undefined || loginId === '') throw new TypeError("A decoupled authorisation needs the payer's login id");
    if (metadata.backchannelEndpoint === undefined)
      throw new BankProtocolError(operation, 'the bank publishes no backchannel_authentication_endpoint');
    const request = await signedRequestObject(
      this.deps.keys,
      { scope: 'openid payments', login_hint: loginId, claims: { id_token: this.idTokenClaims(payment.consentId) } },
      this.settings.clientId,
      this.settings.issuer,
      this.deps.now(),
    );
    const { status, body } = await this.oauthPost(operation, metadata.backchannelEndpoint, { request });
    if (status !== 200) throw this.oauthRefusal(operation, status, body, { unknown_user_id: 'PSU_AUTHENTICATION_FAILED' });
    const authReqId = requiredString(operation, body, 'auth_req_id');
    const authorisation: AuthorisationRef = { kind: 'ciba', consentId: payment.consentId, authReqId };
    // Discovery has no field for where the payer approves; the sandbox bank (recognised by its own discovery
    // extension) has its app at `{issuer}/app`, which we show so that testers can find it.
    const approvalUrl = metadata.sandboxResourceBase === undefined ? undefined : `${this.settings.issuer.replace(/\/+$/, '')}/app`;
    return this.pendingResult(authorisation, 'AWAU', approvalUrl === undefined ? { kind: 'wait' } : { kind: 'wait', approvalUrl });
  }

  private idTokenClaims(consentId: string): JsonObject {
    return {
      openbanking_intent_id: { value: consentId, essential: true },
      acr: { essential: true, values: [ACR_SCA] },
    };
  }

  /** The payer's browser came back: check it is this authorisation's answer, then finish as the standard says. */
  private async completeFromReturn(
    context: CallContext,
    payment: PaymentRef,
    authorisation: Extract<AuthorisationRef, { kind: 'redirect' }>,
    data: BankReturn,
    expectedState: string,
    hold: HoldForRetry | undefined,
  ): Promise<AuthorisationResult> {
    const operation = 'completeAuthorisation';
    // form_post answers arrive in the form, fragment answers are posted on by our return page; the query is the
    // last resort (a bank answering in the query despite FAPI).
    const returned = { ...data.query, ...data.form };
    if (returned['state'] === undefined || returned['state'] !== expectedState || expectedState !== authorisation.state) {
      throw new BankProtocolError(operation, 'the state does not belong to this authorisation');
    }
    const error = returned['error'];
    if (error !== undefined) return this.failedResult(authorisation, error, error === 'access_denied' ? 'PSU_CANCELLED' : 'SCA_FAILED');
    const code = returned['code'];
    const idToken = returned['id_token'];
    if (code === undefined || code === '' || idToken === undefined)
      throw new BankProtocolError(operation, 'the return carries no code or id_token');
    const metadata = await bankMetadata(this.http, this.settings.issuer);
    await this.checkIdToken(operation, metadata, idToken, {
      consentId: payment.consentId,
      nonce: authorisation.nonce,
      code,
      state: expectedState,
    });
    // The code comes once, with the payer: held (sealed, committed) before its exchange, so an exchange whose answer
    // is lost is sent again with the same code rather than leaving an authorised consent nobody can pay.
    await hold?.(`${HELD_CODE_PREFIX}${code}`);
    return this.exchangeCode(context, payment, authorisation, code, 'first', hold);
  }

  /**
   * The authorization code grant, then the payment's submission with the payer's token (held before it is used).
   * `again`: the exchange of a held code whose first exchange got no answer.
   */
  private async exchangeCode(
    context: CallContext,
    payment: PaymentRef,
    authorisation: Extract<AuthorisationRef, { kind: 'redirect' }>,
    code: string,
    attempt: 'first' | 'again',
    hold: HoldForRetry | undefined,
  ): Promise<AuthorisationResult> {
    const operation = 'completeAuthorisation';
    const metadata = await bankMetadata(this.http, this.settings.issuer);
    const { status, body } = await this.oauthPost(operation, metadata.tokenEndpoint, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: authorisation.redirectUri,
    });
    if (status !== 200) {
      if (body['error'] === 'invalid_grant') {
        // Sent again, the code we held is spent: the exchange whose answer we lost took it.
        if (attempt === 'again') return this.renewAfterSpentCode(context, payment, authorisation);
        // A used code on the first exchange most likely means an earlier completion exchanged it and may have
        // submitted the payment: indeterminate, never a reason to fail the payment (nor to submit again).
        throw new BankProtocolError(operation, 'the authorisation code was already used or has expired', status);
      }
      throw this.oauthRefusal(operation, status, body, {});
    }
    const accessToken = await this.payerToken(operation, metadata, body, payment.consentId);
    // The code is spent now: the token replaces it before the submission, which a lost answer or a dying process
    // must not leave unrepeatable (the submission is idempotent per consent).
    await hold?.(accessToken);
    return this.submitHoldingToken(context, payment, authorisation, accessToken);
  }

  /**
   * The code we held was spent by the exchange whose answer we lost (or it outlived its few minutes). No token
   * reached us — we hold the token before we use it — so nothing was submitted; and a payment consent cannot be
   * authorised twice (payment initiation API profile, "Consent Re-authentication"). So the payer authorises a new
   * consent of the same payment (the same initiation and risk, a new idempotency key: the old one would give back the
   * first consent), named in the result as the payment's reference. The first consent, authorised, can never execute
   * without our submission. Read first: a consent the bank shows used for a payment (COND) is not replaced (that
   * payment's fate is not ours to guess): indeterminate.
   */
  private async renewAfterSpentCode(
    context: CallContext,
    payment: PaymentRef,
    authorisation: Extract<AuthorisationRef, { kind: 'redirect' }>,
  ): Promise<AuthorisationResult> {
    const operation = 'completeAuthorisation';
    const status = await this.consentStatusCode(operation, context, payment);
    if (status !== 'AUTH' && status !== 'AWAU')
      throw new BankProtocolError(operation, `the authorisation code is spent and the consent is ${status}`);
    const { payment: renewed } = await this.createConsent(operation, context, payment.initiation, payment.risk, randomUUID());
    this.deps.logger?.warn(
      { operation, consentId: payment.consentId, renewedConsentId: renewed.consentId },
      'the authorisation code was spent by an exchange whose answer was lost; the payer authorises a new consent',
    );
    return {
      ...this.pendingResult(authorisation, status, { kind: 'start-authorisation', needs: 'nothing' }),
      payment: toBankReference({ ...renewed }),
      providerPaymentId: renewed.consentId,
      authoriseAgain: true,
    };
  }

  /** Polls the CIBA grant: pending until the payer decides in the app, then the payer's token. */
  private async pollCiba(
    context: CallContext,
    payment: PaymentRef,
    authorisation: Extract<AuthorisationRef, { kind: 'ciba' }>,
    hold: HoldForRetry | undefined,
  ): Promise<AuthorisationResult> {
    const operation = 'completeAuthorisation';
    const metadata = await bankMetadata(this.http, this.settings.issuer);
    // Pending is a 400 at every poll until the payer decides (CIBA §11): expected, not a warning.
    const { status, body } = await this.oauthPost(
      operation,
      metadata.tokenEndpoint,
      { grant_type: CIBA_GRANT, auth_req_id: authorisation.authReqId },
      [400],
    );
    if (status !== 200) {
      switch (body['error']) {
        case 'authorization_pending':
        case 'slow_down':
          return this.pendingResult(authorisation, String(body['error']), { kind: 'wait' });
        case 'access_denied':
          return this.failedResult(authorisation, 'access_denied', 'PSU_CANCELLED');
        case 'expired_token':
          return this.failedResult(authorisation, 'expired_token', 'SCA_FAILED');
        case 'invalid_grant':
          // Redeemed already: an earlier poll got the token and may have submitted the payment.
          throw new BankProtocolError(operation, 'the auth_req_id was already exchanged', status);
        default:
          throw this.oauthRefusal(operation, status, body, {});
      }
    }
    const accessToken = await this.payerToken(operation, metadata, body, payment.consentId);
    // The grant is redeemed now: the token is held before the submission (see `exchangeCode`).
    await hold?.(accessToken);
    return this.submitHoldingToken(context, payment, authorisation, accessToken);
  }

  /** Redirect, without a return: the consent tells how far the payer got, but without a code nothing can be paid. */
  private async consentProgress(context: CallContext, payment: PaymentRef, authorisation: AuthorisationRef): Promise<AuthorisationResult> {
    const operation = 'completeAuthorisation';
    const status = await this.consentStatusCode(operation, context, payment);
    if (status === 'RJCT') return this.failedResult(authorisation, status, 'SCA_FAILED');
    // AUTH: the payer approved, but the code went to a browser that never came back; only that return can pay.
    return this.pendingResult(authorisation, status, { kind: 'wait' }, status === 'AUTH' ? 'unconfirmed' : 'started');
  }

  /** The payment consent's `Status` as the bank reads it now (AWAU, AUTH, RJCT, COND, …). */
  private async consentStatusCode(operation: string, context: CallContext, payment: PaymentRef): Promise<string> {
    const { json } = await this.withClientToken(operation, (token) =>
      this.resource({
        operation,
        method: 'GET',
        path: `domestic-payment-consents/${encodeURIComponent(payment.consentId)}`,
        token,
        context,
      }),
    );
    return requiredString(operation, dataOf(operation, json), 'Status');
  }

  /** The token answer's id_token (when any) must name the consent; the access token is used, never kept. */
  private async payerToken(operation: string, metadata: BankMetadata, body: JsonObject, consentId: string): Promise<string> {
    const accessToken = requiredString(operation, body, 'access_token');
    const idToken = body['id_token'];
    if (typeof idToken === 'string') await this.checkIdToken(operation, metadata, idToken, { consentId });
    return accessToken;
  }

  private async checkIdToken(
    operation: string,
    metadata: BankMetadata,
    idToken: string,
    expected: { readonly consentId: string; readonly nonce?: string; readonly code?: string; readonly state?: string },
  ): Promise<void> {
    try {
      await verifyIdToken(idToken, metadata.keys, {
        ...expected,
        issuer: this.settings.issuer,
        clientId: this.settings.clientId,
        now: this.deps.now(),
      });
    } catch (error) {
      this.deps.logger?.warn({ operation, error: error instanceof Error ? error.message : 'invalid' }, 'id_token refused');
      throw new BankProtocolError(operation, 'the id_token does not verify or does not belong to this authorisation');
    }
  }

  /**
   * `submit`, keeping the payer's token when the bank gives no usable answer (timeout, 5xx, unreachable): the engine
   * holds it sealed and hands it back, and the next completion submits again with the same idempotency key, so a lost
   * answer neither strands the authorised consent nor pays twice. A refusal or a malformed answer still throws.
   * Sent `again`, the submission goes without the funds check: the lost answer may have been the submission's, and
   * the bank then holds the payment and refuses a funds check on the consumed consent (the profile's U009). The
   * check is only a courtesy before submitting; the bank checks funds itself when it executes.
   */
  private async submitHoldingToken(
    context: CallContext,
    payment: PaymentRef,
    authorisation: AuthorisationRef,
    accessToken: string,
    attempt: 'first' | 'again' = 'first',
  ): Promise<AuthorisationResult> {
    try {
      return await this.submit(context, payment, authorisation, accessToken, { checkFunds: attempt === 'first' });
    } catch (error) {
      if (!(error instanceof BankUnavailableError)) throw error;
      this.deps.logger?.warn(
        { operation: error.operation, reason: error.message },
        'no answer after the payer authorised; the token is held for another try',
      );
      return { ...this.pendingResult(authorisation, 'AUTH', { kind: 'wait' }, 'unconfirmed'), heldSecret: accessToken };
    }
  }

  /** With the payer's token: the optional funds check, then the payment, idempotent per consent. */
  private async submit(
    context: CallContext,
    payment: PaymentRef,
    authorisation: AuthorisationRef,
    accessToken: string,
    options: { readonly checkFunds: boolean },
  ): Promise<AuthorisationResult> {
    const consentPath = `domestic-payment-consents/${encodeURIComponent(payment.consentId)}`;
    if (this.settings.fundsConfirmation && options.checkFunds) {
      const { json } = await this.resource({
        operation: 'fundsConfirmation',
        method: 'GET',
        path: `${consentPath}/funds-confirmation`,
        token: accessToken,
        context,
      });
      const result = dataOf('fundsConfirmation', json)['FundsAvailableResult'];
      const available = isObject(result) ? result['FundsAvailable'] : undefined;
      if (typeof available !== 'boolean') throw new BankProtocolError('fundsConfirmation', 'the answer has no FundsAvailable');
      if (!available) return this.failedResult(authorisation, 'FundsAvailable=false', 'INSUFFICIENT_FUNDS');
    }
    const { json } = await this.resource({
      operation: 'submitPayment',
      method: 'POST',
      path: 'domestic-payments',
      token: accessToken,
      context,
      body: { Data: { ConsentId: payment.consentId, Initiation: payment.initiation }, Risk: payment.risk },
      // Derived from the consent: a retried submission (lost answer) gets the same payment back, never a second one.
      idempotencyKey: idempotencyKeyOf('payment', payment.consentId, shortHash),
    });
    const domesticPaymentId = requiredString('submitPayment', dataOf('submitPayment', json), 'DomesticPaymentId');
    return this.authorisedResult(authorisation, { ...payment, domesticPaymentId });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Status
  // -------------------------------------------------------------------------------------------------------------

  private async consentStatus(context: CallContext, consentId: string, token: string): Promise<PaymentStatusResult> {
    const operation = 'getPaymentStatus';
    const { json, response } = await this.resource({
      operation,
      method: 'GET',
      path: `domestic-payment-consents/${encodeURIComponent(consentId)}`,
      token,
      context,
    });
    const data = dataOf(operation, json);
    const code = requiredString(operation, data, 'Status');
    const state = consentTransactionState(code);
    // A rejected consent is an authorisation that failed (refused, or not given in time): nothing was paid.
    return this.statusResult(state, code, state === 'rejected' ? 'SCA_FAILED' : undefined, reasonsOf(data), response);
  }

  /** The payment resource, or its payment-details when the payment resource cannot answer (indeterminate errors). */
  private async submittedPaymentStatus(context: CallContext, paymentId: string, token: string): Promise<PaymentStatusResult> {
    const operation = 'getPaymentStatus';
    const path = `domestic-payments/${encodeURIComponent(paymentId)}`;
    try {
      const { json, response } = await this.resource({ operation, method: 'GET', path, token, context });
      const data = dataOf(operation, json);
      return {
        ...this.paymentStatusResult(requiredString(operation, data, 'Status'), reasonsOf(data), response),
        ...payerFields(refundAccountOf(data)),
      };
    } catch (error) {
      if (!(error instanceof BankUnavailableError) && !(error instanceof BankProtocolError)) throw error;
      this.deps.logger?.warn({ operation, reason: error.message }, 'payment status unavailable; reading payment-details');
      try {
        return await this.paymentDetailsStatus(context, `${path}/payment-details`, token);
      } catch {
        throw error;
      }
    }
  }

  private async paymentDetailsStatus(context: CallContext, path: string, token: string): Promise<PaymentStatusResult> {
    const operation = 'getPaymentDetails';
    const { json, response } = await this.resource({ operation, method: 'GET', path, token, context });
    const statuses = dataOf(operation, json)['PaymentStatus'];
    const latest = Array.isArray(statuses) ? (statuses as unknown[]).filter(isObject).at(-1) : undefined;
    if (latest === undefined) throw new BankProtocolError(operation, 'the answer has no PaymentStatus');
    const detail = isObject(latest['StatusDetail']) ? latest['StatusDetail'] : {};
    const reason = typeof detail['StatusReason'] === 'string' ? [detail['StatusReason']] : [];
    return this.paymentStatusResult(requiredString(operation, latest, 'Status'), reason, response);
  }

  private paymentStatusResult(code: string, reasons: readonly string[], response: HttpAnswer): PaymentStatusResult {
    const state = paymentTransactionState(code);
    const failureCode = state === 'rejected' ? failureCodeOfReason(reasons[0]) : state === 'cancelled' ? 'BANK_REJECTED' : undefined;
    return this.statusResult(state, code, failureCode, reasons, response);
  }

  private statusResult(
    state: PaymentStatusResult['transactionStatus']['state'],
    code: string,
    failureCode: FailureCode | undefined,
    reasons: readonly string[],
    response: HttpAnswer,
  ): PaymentStatusResult {
    const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
    const outcome = outcomeOf(state, this.settings.acceptedForExecutionIsCompleted);
    return {
      transactionStatus: { state, code },
      outcome,
      failureCode: outcome === 'failed' ? failureCode : undefined,
      fundsAvailable: failureCode === 'INSUFFICIENT_FUNDS' ? false : undefined,
      psuMessage: undefined,
      bankMessages: reasons.map((reason): BankMessage => ({ category: 'ERROR', code: reason })),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Results
  // -------------------------------------------------------------------------------------------------------------

  private baseResult(authorisation: AuthorisationRef, scaStatus: ScaStatus, next: NextScaStep): AuthorisationResult {
    return {
      authorisation: toBankReference({ ...authorisation }),
      scaStatus,
      scaApproach: this.profile.scaApproach,
      scaMethods: [],
      chosenScaMethod: undefined,
      challenge: undefined,
      psuMessage: undefined,
      next,
    };
  }

  private pendingResult(
    authorisation: AuthorisationRef,
    code: string,
    next: NextScaStep,
    state: 'started' | 'unconfirmed' = 'started',
  ): AuthorisationResult {
    return this.baseResult(authorisation, { state, code }, next);
  }

  private failedResult(authorisation: AuthorisationRef, code: string, failureCode: FailureCode): AuthorisationResult {
    return { ...this.baseResult(authorisation, { state: 'failed', code }, { kind: 'failed' }), failureCode };
  }

  private authorisedResult(authorisation: AuthorisationRef, payment: PaymentRef): AuthorisationResult {
    return {
      ...this.baseResult(authorisation, { state: 'finalised', code: 'AUTH' }, { kind: 'authorised' }),
      payment: toBankReference({ ...payment }),
      ...(payment.domesticPaymentId === undefined ? {} : { providerPaymentId: payment.domesticPaymentId }),
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // OAuth and the resource API
  // -------------------------------------------------------------------------------------------------------------

  /**
   * Runs `call` with our client-credentials token (`scope=payments`, for consents and status reads): the cached one
   * while it lives, else one fetched (once for all concurrent calls); a 401 drops it and the call is made once more.
   */
  private withClientToken<T>(operation: string, call: (token: string) => Promise<T>): Promise<T> {
    return this.tokens.withToken(this.clientTokenKey(), () => this.fetchClientToken(operation), call);
  }

  private clientTokenKey(): TokenKey {
    return {
      bank: this.settings.issuer,
      scope: 'payments',
      clientId: this.settings.clientId,
      identity: `${this.settings.tokenEndpointAuthMethod}:${this.deps.keys.kid}:${this.deps.transportCertificateFingerprint ?? 'no client certificate'}`,
    };
  }

  private async fetchClientToken(operation: string): Promise<IssuedToken> {
    const metadata = await bankMetadata(this.http, this.settings.issuer);
    const { status, body } = await this.oauthPost(operation, metadata.tokenEndpoint, {
      grant_type: 'client_credentials',
      scope: 'payments',
    });
    if (status !== 200) throw this.oauthRefusal(operation, status, body, {});
    return issuedToken(operation, body);
  }

  /** A form POST to an OAuth endpoint with our client authentication; OAuth error answers come back to the caller. */
  private oauthPost(
    operation: string,
    endpoint: string,
    parameters: Record<string, string>,
    expectedStatuses?: readonly number[],
  ): Promise<{ status: number; body: JsonObject }> {
    return oauthFormPost(this.http, {
      operation,
      endpoint,
      parameters,
      authenticate: async (form) => {
        if (this.settings.tokenEndpointAuthMethod === 'private_key_jwt') {
          form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
          form.set('client_assertion', await clientAssertion(this.deps.keys, this.settings.clientId, endpoint, this.deps.now()));
        } else {
          // tls_client_auth: the dispatcher's client certificate authenticates us; the id says which client.
          form.set('client_id', this.settings.clientId);
        }
      },
      ...(expectedStatuses === undefined ? {} : { expectedStatuses }),
    });
  }

  /**
   * An OAuth endpoint said no. Definite: `invalid_client` and friends mean our registration, keys or settings are
   * wrong — failing the step loudly (a warning naming the bank's error) beats leaving payments pending for ever.
   */
  private oauthRefusal(
    operation: string,
    status: number,
    body: JsonObject,
    failureCodes: Readonly<Record<string, FailureCode>>,
  ): BankRejectedError {
    const error = typeof body['error'] === 'string' ? body['error'] : 'oauth_error';
    if (error === 'invalid_client' || error === 'unauthorized_client' || status === 401 || status === 403) {
      this.deps.logger?.warn(
        { operation, status, error, issuer: this.settings.issuer },
        'the bank refused our client: check clientId, keys and registration',
      );
    }
    return new BankRejectedError(operation, status, failureCodes[error] ?? 'BANK_REJECTED', [{ category: 'ERROR', code: error }]);
  }

  /** One resource API call: the standard's headers, the signature, and the classification of the answer. */
  private async resource(call: ResourceCall): Promise<ResourceAnswer> {
    const bodyText = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${call.token}`,
      // The standard asks for a UUID; a request id of another shape is replaced, never forwarded.
      'x-fapi-interaction-id': UUID.test(call.context.requestId) ? call.context.requestId : randomUUID(),
    };
    if (call.context.psuIpAddress !== undefined) headers['x-fapi-customer-ip-address'] = call.context.psuIpAddress;
    if (call.context.psuUserAgent !== undefined) headers['x-customer-user-agent'] = call.context.psuUserAgent;
    if (call.idempotencyKey !== undefined) headers['x-idempotency-key'] = call.idempotencyKey;
    if (bodyText !== undefined) {
      headers['Content-Type'] = 'application/json';
      if (this.settings.signRequests) {
        headers['x-jws-signature'] = await detachedSignature(this.deps.keys, bodyText, {
          jwsIssuer: this.settings.jwsIssuer,
          trustAnchor: this.settings.trustAnchor,
          now: this.deps.now(),
        });
      }
    }
    const response = await this.http.send({
      operation: call.operation,
      method: call.method,
      url: new URL(call.path, this.resourceBase),
      headers,
      ...(bodyText === undefined ? {} : { body: bodyText }),
    });
    if (response.status >= 400) {
      const json = parseErrorBody(response);
      throw new BankRejectedError(call.operation, response.status, 'BANK_REJECTED', messagesOfObError(json));
    }
    if (response.status < 200 || response.status >= 300)
      throw new BankProtocolError(call.operation, 'unexpected HTTP status', response.status);
    await this.checkResponseSignature(call.operation, response);
    const json = parseJsonBody(call.operation, response);
    if (!isObject(json)) throw new BankProtocolError(call.operation, 'the answer is not a JSON object', response.status);
    return { json, response };
  }

  private async checkResponseSignature(operation: string, response: HttpAnswer): Promise<void> {
    if (!this.settings.verifyResponseSignatures || response.text === '') return;
    const signature = response.headers['x-jws-signature'];
    if (signature === undefined) throw new BankProtocolError(operation, 'the answer is not signed (x-jws-signature)', response.status);
    const metadata = await bankMetadata(this.http, this.settings.issuer);
    try {
      await verifyDetachedSignature(signature, response.text, metadata.keys, {
        trustAnchor: this.settings.bankTrustAnchor,
        now: this.deps.now(),
      });
    } catch {
      throw new BankProtocolError(operation, "the answer's x-jws-signature does not verify", response.status);
    }
  }
}

/** Builds the connector for one UK bank. */
export function createUkOpenBankingConnector(settings: UkOpenBankingSettings, deps: UkOpenBankingDependencies): UkOpenBankingConnector {
  return new UkOpenBankingConnector(settings, deps);
}

/** The settings with `{SANDBOX_BANK_URL}` replaced in the issuer and resource base (the catalogue does this for Berlin Group). */
export function withSandboxBankUrl(settings: UkOpenBankingSettings, sandboxBankUrl: string): UkOpenBankingSettings {
  return {
    ...settings,
    issuer: settings.issuer.replace('{SANDBOX_BANK_URL}', sandboxBankUrl),
    resourceBaseUrl: settings.resourceBaseUrl.replace('{SANDBOX_BANK_URL}', sandboxBankUrl),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

/** What the engine holds for a completion's retry: the payer's code before its exchange, else the payer's token. */
type HoldForRetry = (secret: string) => Promise<void>;

/**
 * How a held code is told from a held token: bearer tokens (RFC 6750 `b64token`) never contain a colon, so a held
 * secret of a version that held tokens only reads as a token.
 */
const HELD_CODE_PREFIX = 'authorization-code:';

function heldCodeOf(held: string): string | undefined {
  return held.startsWith(HELD_CODE_PREFIX) ? held.slice(HELD_CODE_PREFIX.length) : undefined;
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function dataOf(operation: string, json: JsonObject): JsonObject {
  const data = json['Data'];
  if (!isObject(data)) throw new BankProtocolError(operation, 'the answer has no Data object');
  return data;
}

function requiredString(operation: string, object: JsonObject, name: string): string {
  const value = object[name];
  if (typeof value !== 'string' || value === '') throw new BankProtocolError(operation, `the answer has no ${name}`);
  return value;
}

/** `StatusReason[].StatusReasonCode` of a consent or payment. */
function reasonsOf(data: JsonObject): string[] {
  const reasons = data['StatusReason'];
  if (!Array.isArray(reasons)) return [];
  return (reasons as unknown[])
    .filter(isObject)
    .flatMap((reason) => (typeof reason['StatusReasonCode'] === 'string' ? [reason['StatusReasonCode']] : []));
}

function paymentRefOf(reference: BankReference): PaymentRef {
  const data = fromBankReference(reference);
  const { consentId, initiation, risk, domesticPaymentId } = data;
  if (typeof consentId !== 'string' || !isObject(initiation) || !isObject(risk)) throw new TypeError('Not a UK payment reference');
  return { consentId, initiation, risk, ...(typeof domesticPaymentId === 'string' ? { domesticPaymentId } : {}) };
}

function authorisationRefOf(reference: BankReference): AuthorisationRef {
  const data = fromBankReference(reference);
  const consentId = data['consentId'];
  if (typeof consentId !== 'string') throw new TypeError('Not a UK authorisation reference');
  if (data['kind'] === 'ciba' && typeof data['authReqId'] === 'string') return { kind: 'ciba', consentId, authReqId: data['authReqId'] };
  const { nonce, state, redirectUri } = data;
  if (data['kind'] === 'redirect' && typeof nonce === 'string' && typeof state === 'string' && typeof redirectUri === 'string') {
    return { kind: 'redirect', consentId, nonce, state, redirectUri };
  }
  throw new TypeError('Not a UK authorisation reference');
}
