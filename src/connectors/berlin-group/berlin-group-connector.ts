/**
 * The Berlin Group NextGenPSD2 (1.3.x) connector. It follows the links the bank returns (`_links`) and uses the
 * standard's paths only where the bank gave no link for a resource it must have (status, authorisations), since
 * those paths are fixed by the standard. See src/connectors/contract.ts for the contract.
 *
 * The core operations map onto the standard's calls: `registerPayment` is the payment initiation,
 * `startAuthorisation` the start of an authorisation sub-resource, `completeAuthorisation` the read of its SCA
 * status (the standard brings nothing back with the payer's browser that we need). The embedded steps, account
 * information and bulk payments (the `bulk-payments` service, whose later calls are the single payment's on its own
 * paths) are capabilities, present when the bank's settings offer them.
 */
import type { ScaApproach } from '../../domain/reference-data.js';
import type { FailureCode } from '../../domain/detailed-status.js';
import type {
  AccountInformation,
  AuthorisationResult,
  AuthorisationStepInput,
  BankAccount,
  BankConnector,
  BankProfile,
  BankReference,
  BulkPayments,
  CallContext,
  CancelPaymentResult,
  CompleteAuthorisationInput,
  ConsentStatus,
  CreateConsentInput,
  CreateConsentResult,
  EmbeddedAuthentication,
  NextScaStep,
  PayerDetails,
  PaymentOrder,
  PaymentStatusInput,
  PaymentStatusResult,
  PaymentTransactionState,
  PsuCredentials,
  RegisterBulkPaymentInput,
  RegisterPaymentInput,
  RegistrationResult,
  ReturnAddress,
  ScaStatus,
  StartAuthorisationInput,
} from '../contract.js';
import { BankProtocolError, BankUnavailableError, isConnectorError } from '../errors.js';
import type { BankResponse, BerlinGroupHttpClient } from './http-client.js';
import {
  authorisationIdFromLinks,
  debtorAccountOf,
  linksOf,
  ownerNamesOf,
  nextScaStep,
  scaApproachOf,
  toBankAccount,
  toBankMessages,
  toChallenge,
  toScaMethod,
  type OwnerNameReading,
} from './mapping.js';
import { payerFields } from '../payer-details.js';
import { berlinGroupProfile, offersEmbeddedSteps } from './profile.js';
import {
  authorisationReference,
  consentReference,
  decodeAuthorisation,
  decodeConsent,
  decodePayment,
  decodeResource,
  paymentReference,
  type AuthorisationReference,
  type BankLinks,
  type ConsentReference,
  type PaymentReference,
  type ResourceReference,
} from './references.js';
import {
  buildAccountListConsentBody,
  buildBulkPaymentInitiationBody,
  buildPaymentInitiationBody,
  choosePaymentProduct,
  type ChosenProduct,
  notificationHeaders,
  notificationSupportOf,
  scaPreferenceHeaders,
  tomorrowIsoDate,
} from './request-builders.js';
import type { BerlinGroupSettings } from './settings.js';
import { failureCodeOfMessage, mapConsentStatus, mapScaStatus, mapTransactionStatus, paymentOutcome } from './status-maps.js';
import {
  check,
  type AuthorisationResponse,
  type BulkPaymentInitiationJson,
  type PaymentInitiationJson,
  type PaymentInitiationStatusResponse200,
} from './wire-types.js';

/** The ASPSP-defined link of the sandbox banks to the page standing in for the payer's banking app (decoupled). */
const DECOUPLED_APP_LINK = 'sandboxDecoupledApp';

const PAYMENT_SERVICE = 'payments';
/** The standard's service of several payments authorised once; its paths are the single payment's otherwise. */
const BULK_PAYMENT_SERVICE = 'bulk-payments';

/** Statuses of a payment the bank has authorised: its debtor account is then fixed (and may be told). */
const AUTHORISED_STATES: ReadonlySet<PaymentTransactionState> = new Set(['accepted', 'accepted-for-execution', 'settled']);

/** A payment status as either source answers it (the status endpoint, or the payment resource). */
type StatusAnswer = Pick<PaymentInitiationStatusResponse200, 'transactionStatus' | 'fundsAvailable' | 'psuMessage' | 'tppMessages'>;

/** Compiled TypeBox checkers share this shape. */
interface Checker<T> {
  Check(value: unknown): value is T;
  Errors(value: unknown): Iterable<{ instancePath: string; message: string }>;
}

export class BerlinGroupConnector implements BankConnector {
  readonly standard = 'berlin-group' as const;
  readonly profile: BankProfile;
  /** Present when the bank offers the embedded or decoupled approach (their steps use the same links). */
  readonly embedded: EmbeddedAuthentication | undefined;
  /** Present when the bank's settings say `accountInformation: true`. */
  readonly accountInformation: AccountInformation | undefined;
  /** Present when the bank's settings say `bulkPayments: true`. */
  readonly bulkPayments: BulkPayments | undefined;

  constructor(
    private readonly settings: BerlinGroupSettings,
    private readonly http: BerlinGroupHttpClient,
    private readonly now: () => Date,
  ) {
    this.profile = berlinGroupProfile(settings);
    this.embedded = offersEmbeddedSteps(settings)
      ? {
          updatePsuAuthentication: (input) => this.updatePsuAuthentication(input),
          selectScaMethod: (input) => this.selectScaMethod(input),
          authoriseTransaction: (input) => this.authoriseTransaction(input),
          findAuthorisation: (input) => this.findAuthorisation(input),
        }
      : undefined;
    this.accountInformation = settings.accountInformation
      ? {
          createConsent: (input) => this.createConsent(input),
          startConsentAuthorisation: (input) =>
            this.startResourceAuthorisation('startConsentAuthorisation', decodeConsent('startConsentAuthorisation', input.consent), input),
          completeConsentAuthorisation: (input) =>
            this.readAuthorisation('getScaStatus', decodeConsent('getScaStatus', input.consent), input.authorisation, input),
          getConsentStatus: (input) => this.getConsentStatus(input),
          listAccounts: (input) => this.listAccounts(input),
        }
      : undefined;
    this.bulkPayments = settings.bulkPayments === true ? { registerBulkPayment: (input) => this.registerBulkPayment(input) } : undefined;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Payment initiation and authorisation
  // -------------------------------------------------------------------------------------------------------------

  async registerPayment(input: RegisterPaymentInput): Promise<RegistrationResult> {
    const chosen = this.productFor(input.payment);
    if (this.settings.requiresDebtorAccount && input.payment.debtor === undefined) {
      throw new TypeError('The bank requires the debtor account in the payment initiation');
    }
    return this.initiate(input, PAYMENT_SERVICE, chosen.product, buildPaymentInitiationBody(input.payment));
  }

  /**
   * The payments as one bulk (`POST /v1/bulk-payments/{payment-product}`), initiated exactly as a single payment (the
   * same headers, signature, return address and notification address); the reference names the bulk service, so
   * every later call on it goes to `/v1/bulk-payments/…`.
   */
  private async registerBulkPayment(input: RegisterBulkPaymentInput): Promise<RegistrationResult> {
    // The body checks that the payments share one debtor, currency, scheme and instant preference, so one product.
    const body = buildBulkPaymentInitiationBody(input.payments);
    const [first] = input.payments;
    if (first === undefined) throw new TypeError('A bulk payment needs two or more payments');
    return this.initiate(input, BULK_PAYMENT_SERVICE, this.productFor(first).product, body);
  }

  private productFor(payment: PaymentOrder): ChosenProduct {
    const chosen = choosePaymentProduct(this.settings.products, payment.scheme, payment.instantPreferred);
    if (chosen === undefined) {
      throw new TypeError(`The bank has no payment product for the ${payment.scheme} scheme`);
    }
    return chosen;
  }

  /** The payment initiation of either service: the call, and what its answer says about the authorisation. */
  private async initiate(
    input: Omit<RegisterPaymentInput, 'payment'>,
    paymentService: typeof PAYMENT_SERVICE | typeof BULK_PAYMENT_SERVICE,
    paymentProduct: string,
    body: PaymentInitiationJson | BulkPaymentInitiationJson,
  ): Promise<RegistrationResult> {
    const operation = 'initiatePayment';
    const approach = this.profile.scaApproach;
    requireReturnAddress(approach, input.returnAddress);
    const response = await this.http.send({
      operation,
      method: 'POST',
      url: this.http.standardUrl(`v1/${paymentService}/${encodeURIComponent(paymentProduct)}`),
      context: input.context,
      headers: {
        ...this.redirectHeaders(approach, input.returnAddress),
        ...this.notificationHeaders(input.notificationUri),
        'PSU-ID': input.psuId,
      },
      body,
    });
    const answer = this.parse(operation, response, check.paymentInitiationResponse201);
    const links = linksOf(answer._links);
    const payment: PaymentReference = {
      kind: 'payment',
      paymentId: answer.paymentId,
      paymentService,
      paymentProduct,
      links,
    };
    const transactionStatus = mapTransactionStatus(answer.transactionStatus);
    const scaStatus = answer.scaStatus === undefined ? undefined : mapScaStatus(answer.scaStatus);
    const scaMethods = (answer.scaMethods ?? []).map(toScaMethod);
    const chosenScaMethod = answer.chosenScaMethod === undefined ? undefined : toScaMethod(answer.chosenScaMethod);
    const challenge = toChallenge(answer.challengeData);
    const next =
      this.withApprovalUrl(
        operation,
        links,
        nextScaStep({
          links,
          scaStatus,
          scaMethods,
          chosenScaMethod,
          challenge,
          resolveRedirect: (href) => this.http.resolveBrowserLink(operation, href),
        }),
      ) ?? this.stepFromTransactionStatus(transactionStatus.state);
    // An authorisation exists already when the bank tells its status link or id (implicit start).
    const authorisationId = authorisationIdFromLinks(links);
    const authorisation =
      links['scaStatus'] !== undefined || authorisationId !== undefined
        ? authorisationReference({ authorisationId, links: authorisationLinks(links) })
        : undefined;
    return {
      payment: paymentReference(payment),
      providerPaymentId: answer.paymentId,
      transactionStatus,
      scaApproach: scaApproachOf(response.headers['aspsp-sca-approach'], next, approach),
      authorisation,
      scaStatus,
      scaMethods,
      chosenScaMethod,
      challenge,
      psuMessage: answer.psuMessage,
      bankMessages: toBankMessages(answer.tppMessages),
      next,
      ...this.notificationSupport(input.notificationUri, response),
    };
  }

  startAuthorisation(input: StartAuthorisationInput): Promise<AuthorisationResult> {
    const operation = 'startPaymentAuthorisation';
    return this.startResourceAuthorisation(operation, decodePayment(operation, input.payment), input, input.notificationUri);
  }

  /**
   * The standard brings nothing back with the payer's browser that the authorisation needs (the `nok` flag is the
   * engine's, from the address it chose): the authorisation's state is its SCA status, read from the bank.
   */
  completeAuthorisation(input: CompleteAuthorisationInput): Promise<AuthorisationResult> {
    const operation = 'getScaStatus';
    return this.readAuthorisation(operation, decodePayment(operation, input.payment), input.authorisation, input);
  }

  private updatePsuAuthentication(input: AuthorisationStepInput & { readonly psu: PsuCredentials }): Promise<AuthorisationResult> {
    const operation = 'updatePsuAuthentication';
    if (input.psu.password === undefined || input.psu.password === '') {
      throw new TypeError('updatePsuAuthentication needs the PSU password');
    }
    return this.updateAuthorisation(
      operation,
      input,
      'updatePsuAuthentication',
      { psuData: { password: input.psu.password } },
      {
        'PSU-ID': input.psu.id,
      },
    );
  }

  private selectScaMethod(input: AuthorisationStepInput & { readonly methodId: string }): Promise<AuthorisationResult> {
    return this.updateAuthorisation('selectScaMethod', input, 'selectAuthenticationMethod', {
      authenticationMethodId: input.methodId,
    });
  }

  private authoriseTransaction(input: AuthorisationStepInput & { readonly scaAuthenticationData: string }): Promise<AuthorisationResult> {
    return this.updateAuthorisation('authoriseTransaction', input, 'authoriseTransaction', {
      scaAuthenticationData: input.scaAuthenticationData,
    });
  }

  /**
   * The payment's authorisations (`GET …/{payment-product}/{paymentId}/authorisations`), the last one read with its
   * SCA status. The list gives ids only, so the authorisation is addressed by the standard's paths from then on. At
   * an embedded bank an authorisation past the password waits for the code (or a method choice, which the status
   * cannot offer: the methods came with the answer we lost, so the step is left to the caller as `wait`).
   */
  private async findAuthorisation(input: {
    readonly context: CallContext;
    readonly resource: BankReference;
  }): Promise<AuthorisationResult | undefined> {
    const operation = 'getPaymentAuthorisations';
    const payment = decodePayment(operation, input.resource);
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.http.standardUrl(`${resourcePath(payment)}/authorisations`),
      context: input.context,
    });
    const { authorisationIds } = this.parse(operation, response, check.authorisations);
    const latest = authorisationIds.at(-1);
    if (latest === undefined) return undefined;
    const found = await this.readAuthorisation(
      'getScaStatus',
      payment,
      authorisationReference({ authorisationId: latest, links: {} }),
      input,
    );
    const awaitsCode = found.scaStatus.state === 'sca-method-selected' && this.profile.scaApproach === 'EMBEDDED';
    return awaitsCode ? { ...found, next: { kind: 'authorise-transaction' } } : found;
  }

  /** Reads an authorisation's SCA status and says what it means (after the payer's return, while polling). */
  private async readAuthorisation(
    operation: string,
    resource: ResourceReference,
    reference: BankReference,
    input: { readonly context: CallContext; readonly returned?: CompleteAuthorisationInput['returned'] },
  ): Promise<AuthorisationResult> {
    const authorisation = decodeAuthorisation(operation, reference);
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.authorisationUrl(operation, resource, authorisation, 'scaStatus'),
      context: input.context,
    });
    const answer = this.parse(operation, response, check.scaStatusResponse);
    const scaStatus = mapScaStatus(answer.scaStatus);
    const next = this.stepAfterStatus(operation, scaStatus, { ...authorisation.links, ...authorisationLinks(linksOf(answer._links)) });
    // The payer came back through our "not OK" address: a failed authorisation is the payer's cancellation.
    const cancelledByPayer = input.returned?.data.nok === true && next.kind === 'failed';
    return {
      authorisation: reference,
      scaStatus,
      scaApproach: undefined,
      scaMethods: [],
      chosenScaMethod: undefined,
      challenge: undefined,
      psuMessage: answer.psuMessage,
      ...(cancelledByPayer ? { failureCode: 'PSU_CANCELLED' as const } : {}),
      next,
    };
  }

  /** What an SCA status read means, with the authorisation's links for the step still open. */
  private stepAfterStatus(operation: string, scaStatus: ScaStatus, links: BankLinks): NextScaStep {
    switch (scaStatus.state) {
      case 'finalised':
      case 'exempted':
        return { kind: 'authorised' };
      case 'failed':
        return { kind: 'failed' };
      default:
        if (links['authoriseTransaction'] !== undefined) return { kind: 'authorise-transaction' };
        if (links['updatePsuAuthentication'] !== undefined && (scaStatus.state === 'received' || scaStatus.state === 'psu-identified')) {
          return { kind: 'authenticate' };
        }
        return this.withApprovalUrl(operation, links, { kind: 'wait' });
    }
  }

  /**
   * The status endpoint first. When it fails indeterminately, the standard's other source before giving up: the
   * payment resource (`GET …/{paymentId}`) carries `transactionStatus` too, so a bank whose status endpoint is down
   * does not leave a settled payment pending for ever.
   *
   * Once the bank has authorised the payment (and it has not failed), the payer's account unless the caller knows it
   * already: the payment resource's `debtorAccount` (read for it, unless it was the status's source), with the owners'
   * names of the status answer (1.3.12) or the resource's `debtorName`. Before the authorisation the debtor account
   * may still change (the payer chooses at the bank), so it is not told.
   */
  async getPaymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const operation = 'getPaymentStatus';
    const payment = decodePayment(operation, input.payment);
    let answer: StatusAnswer;
    /** The payment resource, when it was the status's source. */
    let resource: unknown;
    try {
      const response = await this.http.send({
        operation,
        method: 'GET',
        url: this.linkOr(operation, payment.links['status'], `${paymentPath(payment)}/status`),
        context: input.context,
      });
      answer = this.parse(operation, response, check.paymentInitiationStatusResponse200);
    } catch (error) {
      const fromResource = await this.statusFromPaymentResource(input.context, payment, error);
      if (fromResource === undefined) throw error;
      answer = fromResource.status;
      resource = fromResource.resource;
    }
    const transactionStatus = mapTransactionStatus(answer.transactionStatus);
    const outcome = paymentOutcome(transactionStatus, this.settings);
    const bankMessages = toBankMessages(answer.tppMessages);
    let failureCode: FailureCode | undefined;
    let failureReasonStated = false;
    if (outcome === 'failed') {
      const fromMessages = bankMessages.map((message) => failureCodeOfMessage(message)).find((code) => code !== undefined);
      failureReasonStated = fromMessages !== undefined;
      failureCode =
        fromMessages ??
        (answer.fundsAvailable === false
          ? 'INSUFFICIENT_FUNDS'
          : transactionStatus.state === 'cancelled'
            ? 'PSU_CANCELLED'
            : 'BANK_REJECTED');
    }
    const payerTold = outcome !== 'failed' && AUTHORISED_STATES.has(transactionStatus.state) && input.payerKnown !== true;
    return {
      transactionStatus,
      outcome,
      failureCode,
      failureReasonStated,
      fundsAvailable: answer.fundsAvailable,
      psuMessage: answer.psuMessage,
      bankMessages,
      ...(payerTold ? await this.payerOf(input.context, payment, ownerNamesOf(answer), resource) : {}),
    };
  }

  /**
   * The payer's account of an authorised payment, from the payment resource (`resource` when already read). A
   * resource that cannot be read now leaves the payer untold, with the reason: the next status read asks again.
   */
  private async payerOf(
    context: CallContext,
    payment: PaymentReference,
    owners: OwnerNameReading,
    resource: unknown,
  ): Promise<{ payer?: PayerDetails; payerIgnored?: string }> {
    if (resource === undefined) {
      const operation = 'getPaymentInformation';
      try {
        const response = await this.http.send({
          operation,
          method: 'GET',
          url: this.linkOr(operation, payment.links['self'], paymentPath(payment)),
          context,
        });
        resource = this.parse(operation, response, check.paymentInitiationWithStatusResponse);
      } catch (error) {
        if (!isConnectorError(error)) throw error;
        return { payerIgnored: `the payment resource could not be read: ${error.message}` };
      }
    }
    return payerFields(debtorAccountOf(resource, owners));
  }

  /**
   * The payment's status from the payment resource, after the status endpoint failed with `statusError`. Asked only
   * when that failure leaves the status open (5xx, timeout, connection, a broken answer); not after a refusal
   * (definite) nor a 429 (the bank asked us to slow down). Undefined when the resource cannot tell either (it
   * failed too, or carries no `transactionStatus`, which the standard allows): the caller keeps the first error,
   * so the outcome stays indeterminate and is never turned into a refusal.
   */
  private async statusFromPaymentResource(
    context: CallContext,
    payment: PaymentReference,
    statusError: unknown,
  ): Promise<{ readonly status: StatusAnswer; readonly resource: unknown } | undefined> {
    const indeterminate =
      statusError instanceof BankProtocolError || (statusError instanceof BankUnavailableError && statusError.reason !== 'rate-limited');
    if (!indeterminate) return undefined;
    const operation = 'getPaymentInformation';
    try {
      const response = await this.http.send({
        operation,
        method: 'GET',
        url: this.linkOr(operation, payment.links['self'], paymentPath(payment)),
        context,
      });
      const answer = this.parse(operation, response, check.paymentInitiationWithStatusResponse);
      if (answer.transactionStatus === undefined) return undefined;
      return {
        status: {
          transactionStatus: answer.transactionStatus,
          ...(answer.tppMessages === undefined ? {} : { tppMessages: answer.tppMessages }),
        },
        resource: answer,
      };
    } catch (error) {
      if (isConnectorError(error)) return undefined;
      throw error;
    }
  }

  async cancelPayment(input: { readonly context: CallContext; readonly payment: BankReference }): Promise<CancelPaymentResult> {
    const operation = 'cancelPayment';
    const payment = decodePayment(operation, input.payment);
    const response = await this.http.send({
      operation,
      method: 'DELETE',
      url: this.linkOr(operation, payment.links['self'], paymentPath(payment)),
      context: input.context,
    });
    if (response.status === 204 || response.json === undefined) {
      return { cancelled: true, authorisationRequired: false, transactionStatus: undefined };
    }
    const answer = this.parse(operation, response, check.paymentInitiationCancelResponse202);
    const transactionStatus = mapTransactionStatus(answer.transactionStatus);
    const cancelled = transactionStatus.state === 'cancelled';
    return { cancelled, authorisationRequired: !cancelled, transactionStatus };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Account information
  // -------------------------------------------------------------------------------------------------------------

  private async createConsent(input: CreateConsentInput): Promise<CreateConsentResult> {
    const operation = 'createConsent';
    const approach = this.profile.scaApproach;
    requireReturnAddress(approach, input.returnAddress);
    const response = await this.http.send({
      operation,
      method: 'POST',
      url: this.http.standardUrl('v1/consents'),
      context: input.context,
      headers: { ...this.redirectHeaders(approach, input.returnAddress), 'PSU-ID': input.psuId },
      body: buildAccountListConsentBody(input.validUntil ?? tomorrowIsoDate(this.now())),
    });
    const answer = this.parse(operation, response, check.consentsResponse201);
    const links = linksOf(answer._links);
    const consentStatus = mapConsentStatus(answer.consentStatus);
    const scaStatus = answer.scaStatus === undefined ? undefined : mapScaStatus(answer.scaStatus);
    const scaMethods = (answer.scaMethods ?? []).map(toScaMethod);
    const chosenScaMethod = answer.chosenScaMethod === undefined ? undefined : toScaMethod(answer.chosenScaMethod);
    const challenge = toChallenge(answer.challengeData);
    const next: NextScaStep =
      this.withApprovalUrl(
        operation,
        links,
        nextScaStep({
          links,
          scaStatus,
          scaMethods,
          chosenScaMethod,
          challenge,
          resolveRedirect: (href) => this.http.resolveBrowserLink(operation, href),
        }),
      ) ??
      (consentStatus.state === 'valid'
        ? { kind: 'authorised' }
        : consentStatus.state === 'rejected'
          ? { kind: 'failed' }
          : { kind: 'start-authorisation', needs: 'nothing' });
    const authorisationId = authorisationIdFromLinks(links);
    const consent: ConsentReference = { kind: 'consent', consentId: answer.consentId, links };
    return {
      consent: consentReference(consent),
      consentStatus,
      scaApproach: scaApproachOf(response.headers['aspsp-sca-approach'], next, approach),
      authorisation:
        links['scaStatus'] !== undefined || authorisationId !== undefined
          ? authorisationReference({ authorisationId, links: authorisationLinks(links) })
          : undefined,
      scaStatus,
      scaMethods,
      chosenScaMethod,
      challenge,
      psuMessage: answer.psuMessage,
      next,
    };
  }

  private async getConsentStatus(input: { readonly context: CallContext; readonly consent: BankReference }): Promise<ConsentStatus> {
    const operation = 'getConsentStatus';
    const consent = decodeConsent(operation, input.consent);
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.linkOr(operation, consent.links['status'], `v1/consents/${encodeURIComponent(consent.consentId)}/status`),
      context: input.context,
    });
    return mapConsentStatus(this.parse(operation, response, check.consentStatusResponse200).consentStatus);
  }

  private async listAccounts(input: { readonly context: CallContext; readonly consent: BankReference }): Promise<readonly BankAccount[]> {
    const operation = 'listAccounts';
    const consent = decodeConsent(operation, input.consent);
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.http.standardUrl('v1/accounts'),
      context: input.context,
      headers: { 'Consent-ID': consent.consentId },
    });
    return this.parse(operation, response, check.accountList).accounts.map(toBankAccount);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Shared steps
  // -------------------------------------------------------------------------------------------------------------

  private async startResourceAuthorisation(
    operation: string,
    resource: ResourceReference,
    input: { readonly context: CallContext; readonly psu?: PsuCredentials; readonly returnAddress?: ReturnAddress },
    notificationUri?: string,
  ): Promise<AuthorisationResult> {
    const { psu } = input;
    const approach = this.profile.scaApproach;
    const withPassword = psu?.password !== undefined && psu.password !== '';
    // The bank's own start link, the one matching what we send first; the standard's path when it gave none.
    const preferred = withPassword
      ? ['startAuthorisationWithPsuAuthentication', 'startAuthorisationWithPsuIdentification', 'startAuthorisation']
      : ['startAuthorisationWithPsuIdentification', 'startAuthorisation', 'startAuthorisationWithPsuAuthentication'];
    const href = [...preferred, 'startAuthorisationWithAuthenticationMethodSelection', 'startAuthorisationWithTransactionAuthorisation']
      .map((relation) => resource.links[relation])
      .find((link) => link !== undefined);
    const response = await this.http.send({
      operation,
      method: 'POST',
      url: this.linkOr(operation, href, `${resourcePath(resource)}/authorisations`),
      context: input.context,
      headers: { ...this.redirectHeaders(approach, input.returnAddress), ...this.notificationHeaders(notificationUri), 'PSU-ID': psu?.id },
      body: withPassword ? { psuData: { password: psu.password } } : {},
    });
    return {
      ...this.authorisationResult(operation, response, undefined, approach),
      ...this.notificationSupport(notificationUri, response),
    };
  }

  private async updateAuthorisation(
    operation: string,
    input: AuthorisationStepInput,
    relation: 'updatePsuAuthentication' | 'selectAuthenticationMethod' | 'authoriseTransaction',
    body: unknown,
    headers: Readonly<Record<string, string | undefined>> = {},
  ): Promise<AuthorisationResult> {
    const resource = decodeResource(operation, input.resource);
    const authorisation = decodeAuthorisation(operation, input.authorisation);
    const response = await this.http.send({
      operation,
      method: 'PUT',
      url: this.authorisationUrl(operation, resource, authorisation, relation),
      context: input.context,
      headers,
      body,
    });
    return this.authorisationResult(operation, response, authorisation, this.profile.scaApproach);
  }

  private authorisationResult(
    operation: string,
    response: BankResponse,
    previous: AuthorisationReference | undefined,
    approach: ScaApproach,
  ): AuthorisationResult {
    const answer: AuthorisationResponse = this.parse(operation, response, check.authorisationResponse);
    const links = linksOf(answer._links);
    const authorisationId = answer.authorisationId ?? authorisationIdFromLinks(links) ?? previous?.authorisationId;
    if (authorisationId === undefined && links['scaStatus'] === undefined && previous === undefined) {
      throw new BankProtocolError(operation, 'the answer names no authorisation (no authorisationId, no scaStatus link)', response.status);
    }
    const scaStatus = mapScaStatus(answer.scaStatus);
    const scaMethods = (answer.scaMethods ?? []).map(toScaMethod);
    const chosenScaMethod = answer.chosenScaMethod === undefined ? undefined : toScaMethod(answer.chosenScaMethod);
    const challenge = toChallenge(answer.challengeData);
    const next: NextScaStep = this.withApprovalUrl(
      operation,
      links,
      nextScaStep({
        links,
        scaStatus,
        scaMethods,
        chosenScaMethod,
        challenge,
        resolveRedirect: (href) => this.http.resolveBrowserLink(operation, href),
      }) ?? { kind: 'wait' },
    );
    return {
      // Step links are replaced by the answer's; the status link survives answers that do not repeat it.
      authorisation: authorisationReference({
        authorisationId,
        links: { ...pick(previous?.links, 'scaStatus'), ...authorisationLinks(links) },
      }),
      scaStatus,
      scaApproach: scaApproachOf(response.headers['aspsp-sca-approach'], next, approach),
      scaMethods,
      chosenScaMethod,
      challenge,
      psuMessage: answer.psuMessage,
      next,
    };
  }

  /** A waiting step gets the page where the payer approves, when the bank links one (the sandbox banks' app). */
  private withApprovalUrl<T extends NextScaStep | undefined>(operation: string, links: BankLinks, next: T): T {
    const appLink = links[DECOUPLED_APP_LINK];
    if (next?.kind !== 'wait' || appLink === undefined) return next;
    return { kind: 'wait', approvalUrl: this.http.resolveBrowserLink(operation, appLink) } as T;
  }

  /**
   * The URL of an authorisation step: the link of that relation, else the authorisation's status link (in the
   * standard every step of an authorisation is the same resource), else the standard path from the ids.
   */
  private authorisationUrl(operation: string, resource: ResourceReference, authorisation: AuthorisationReference, relation: string): URL {
    const href = authorisation.links[relation] ?? authorisation.links['scaStatus'];
    if (href !== undefined) return this.http.resolveApiLink(operation, href);
    if (authorisation.authorisationId === undefined) {
      throw new BankProtocolError(operation, `no ${relation} link and no authorisation id to address the authorisation`);
    }
    return this.http.standardUrl(`${resourcePath(resource)}/authorisations/${encodeURIComponent(authorisation.authorisationId)}`);
  }

  private linkOr(operation: string, href: string | undefined, standardPath: string): URL {
    return href === undefined ? this.http.standardUrl(standardPath) : this.http.resolveApiLink(operation, href);
  }

  /** The standard's approach preference and, for the redirect approach, our addresses for the payer's return. */
  private redirectHeaders(approach: ScaApproach, returnAddress: ReturnAddress | undefined): Record<string, string | undefined> {
    return {
      ...scaPreferenceHeaders(approach),
      'TPP-Redirect-URI': returnAddress?.uri,
      'TPP-Nok-Redirect-URI': returnAddress?.nokUri,
    };
  }

  /** The standard's notification headers, for a bank whose settings say it offers notifications. */
  private notificationHeaders(notificationUri: string | undefined): Record<string, string> {
    return this.settings.statusNotifications === true ? notificationHeaders(notificationUri) : {};
  }

  /** The bank's `ASPSP-Notification-Support` answer to an address we gave (nothing when we gave none). */
  private notificationSupport(notificationUri: string | undefined, response: BankResponse): { notifications?: boolean } {
    if (this.settings.statusNotifications !== true || notificationUri === undefined) return {};
    const support = notificationSupportOf(response.headers['aspsp-notification-support']);
    return support === undefined ? {} : { notifications: support };
  }

  private stepFromTransactionStatus(state: string): NextScaStep {
    // No SCA link at all: either the bank exempted SCA (already accepted) or wants the standard's explicit start.
    switch (state) {
      case 'rejected':
      case 'cancelled':
        return { kind: 'failed' };
      case 'accepted':
      case 'accepted-for-execution':
      case 'settled':
        return { kind: 'authorised' };
      default:
        return { kind: 'start-authorisation', needs: 'nothing' };
    }
  }

  private parse<T>(operation: string, response: BankResponse, checker: Checker<T>): T {
    if (response.json === undefined) {
      throw new BankProtocolError(operation, 'the answer has no body', response.status);
    }
    if (!checker.Check(response.json)) {
      // Paths and messages of the schema only: never values from the body.
      const problems = [...checker.Errors(response.json)].slice(0, 3).map((error) => `${error.instancePath || '/'} ${error.message}`);
      throw new BankProtocolError(operation, `the answer does not match the standard: ${problems.join('; ')}`, response.status);
    }
    return response.json;
  }
}

/** The links an authorisation keeps: its own steps and status (not the payment's `self`/`status`). */
function authorisationLinks(links: BankLinks): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [relation, href] of Object.entries(links)) {
    if (relation !== 'self' && relation !== 'status' && !relation.startsWith('start')) kept[relation] = href;
  }
  return kept;
}

function requireReturnAddress(approach: ScaApproach, returnAddress: ReturnAddress | undefined): void {
  if (approach === 'REDIRECT' && returnAddress === undefined) {
    throw new TypeError('The redirect SCA approach needs a returnAddress');
  }
}

function pick(links: BankLinks | undefined, relation: string): Record<string, string> {
  const href = links?.[relation];
  return href === undefined ? {} : { [relation]: href };
}

function paymentPath(payment: PaymentReference): string {
  return `v1/${encodeURIComponent(payment.paymentService)}/${encodeURIComponent(payment.paymentProduct)}/${encodeURIComponent(payment.paymentId)}`;
}

function resourcePath(resource: ResourceReference): string {
  return resource.kind === 'payment' ? paymentPath(resource) : `v1/consents/${encodeURIComponent(resource.consentId)}`;
}
