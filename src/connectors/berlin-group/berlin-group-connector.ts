/**
 * The Berlin Group NextGenPSD2 (1.3.x) connector. It follows the links the bank returns (`_links`) and uses the
 * standard's paths only where the bank gave no link for a resource it must have (status, authorisations), since
 * those paths are fixed by the standard. See src/connectors/connector.ts for the contract.
 */
import type { ScaApproach } from '../../domain/reference-data.js';
import type { ConnectorSettings } from '../settings.js';
import {
  paymentOutcome,
  type AuthorisationResult,
  type AuthorisationStepInput,
  type BankAccount,
  type BankAuthorisationRef,
  type BankConnector,
  type BankConsentRef,
  type BankLinks,
  type BankPaymentRef,
  type BankResourceRef,
  type CallContext,
  type CancelPaymentResult,
  type ConsentStatus,
  type CreateConsentInput,
  type CreateConsentResult,
  type InitiatePaymentInput,
  type InitiatePaymentResult,
  type NextScaStep,
  type PaymentStatusResult,
  type PsuCredentials,
  type ScaStatus,
  type StartAuthorisationInput,
} from '../connector.js';
import { BankProtocolError, BankUnavailableError, isConnectorError } from '../errors.js';
import type { FailureCode } from '../../domain/detailed-status.js';
import type { BankResponse, BerlinGroupHttpClient } from './http-client.js';
import {
  authorisationIdFromLinks,
  linksOf,
  nextScaStep,
  scaApproachOf,
  toBankAccount,
  toBankMessages,
  toChallenge,
  toScaMethod,
} from './mapping.js';
import {
  buildAccountListConsentBody,
  buildPaymentInitiationBody,
  choosePaymentProduct,
  scaPreferenceHeaders,
  tomorrowIsoDate,
} from './request-builders.js';
import {
  failureCodeOfMessage,
  mapConsentStatus,
  mapScaStatus,
  mapTransactionStatus,
} from './status-maps.js';
import { check, type AuthorisationResponse, type PaymentInitiationStatusResponse200 } from './wire-types.js';

const PAYMENT_SERVICE = 'payments';

/** A payment status as either source answers it (the status endpoint, or the payment resource). */
type StatusAnswer = Pick<PaymentInitiationStatusResponse200, 'transactionStatus' | 'fundsAvailable' | 'psuMessage' | 'tppMessages'>;

/** Compiled TypeBox checkers share this shape. */
interface Checker<T> {
  Check(value: unknown): value is T;
  Errors(value: unknown): Iterable<{ instancePath: string; message: string }>;
}

export class BerlinGroupConnector implements BankConnector {
  readonly standard = 'berlin-group' as const;

  constructor(
    readonly settings: ConnectorSettings,
    private readonly http: BerlinGroupHttpClient,
    private readonly now: () => Date,
  ) {}

  // -------------------------------------------------------------------------------------------------------------
  // Payment initiation
  // -------------------------------------------------------------------------------------------------------------

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentResult> {
    const operation = 'initiatePayment';
    const chosen = choosePaymentProduct(this.settings.products, input.payment.scheme, input.payment.instantPreferred);
    if (chosen === undefined) {
      throw new TypeError(`The bank has no payment product for the ${input.payment.scheme} scheme`);
    }
    if (this.settings.requiresDebtorAccount && input.payment.debtor === undefined) {
      throw new TypeError('The bank requires the debtor account in the payment initiation');
    }
    const approach = this.approach(input.scaApproach);
    requireRedirectUri(approach, input.redirectUri);
    const body = buildPaymentInitiationBody(input.payment);
    const response = await this.http.send({
      operation,
      method: 'POST',
      url: this.http.standardUrl(`v1/${PAYMENT_SERVICE}/${encodeURIComponent(chosen.product)}`),
      context: input.context,
      headers: {
        ...this.redirectHeaders(approach, input.redirectUri, input.nokRedirectUri),
        'PSU-ID': input.psuId,
      },
      body,
    });
    const answer = this.parse(operation, response, check.paymentInitiationResponse201);
    const links = linksOf(answer._links);
    const payment: BankPaymentRef = {
      kind: 'payment',
      paymentId: answer.paymentId,
      paymentService: PAYMENT_SERVICE,
      paymentProduct: chosen.product,
      links,
    };
    const transactionStatus = mapTransactionStatus(answer.transactionStatus);
    const scaStatus = answer.scaStatus === undefined ? undefined : mapScaStatus(answer.scaStatus);
    const scaMethods = (answer.scaMethods ?? []).map(toScaMethod);
    const chosenScaMethod = answer.chosenScaMethod === undefined ? undefined : toScaMethod(answer.chosenScaMethod);
    const challenge = toChallenge(answer.challengeData);
    const next =
      nextScaStep({
        links,
        scaStatus,
        scaMethods,
        chosenScaMethod,
        challenge,
        resolveRedirect: (href) => this.http.resolveBrowserLink(operation, href),
      }) ?? this.stepFromTransactionStatus(transactionStatus.state);
    // An authorisation exists already when the bank tells its status link or id (implicit start).
    const authorisationId = authorisationIdFromLinks(links);
    const authorisation: BankAuthorisationRef | undefined =
      links['scaStatus'] !== undefined || authorisationId !== undefined
        ? { authorisationId, links: authorisationLinks(links) }
        : undefined;
    return {
      payment,
      transactionStatus,
      paymentProduct: chosen.product,
      instant: chosen.instant,
      scaApproach: scaApproachOf(response.headers['aspsp-sca-approach'], next, approach),
      authorisation,
      scaStatus,
      scaMethods,
      chosenScaMethod,
      challenge,
      psuMessage: answer.psuMessage,
      bankMessages: toBankMessages(answer.tppMessages),
      next,
    };
  }

  startPaymentAuthorisation(input: StartAuthorisationInput<BankPaymentRef>): Promise<AuthorisationResult> {
    return this.startAuthorisation('startPaymentAuthorisation', input);
  }

  startConsentAuthorisation(input: StartAuthorisationInput<BankConsentRef>): Promise<AuthorisationResult> {
    return this.startAuthorisation('startConsentAuthorisation', input);
  }

  async updatePsuAuthentication(
    input: AuthorisationStepInput & { readonly psu: PsuCredentials },
  ): Promise<AuthorisationResult> {
    const operation = 'updatePsuAuthentication';
    if (input.psu.password === undefined || input.psu.password === '') {
      throw new TypeError('updatePsuAuthentication needs the PSU password');
    }
    return this.updateAuthorisation(operation, input, 'updatePsuAuthentication', { psuData: { password: input.psu.password } }, {
      'PSU-ID': input.psu.id,
    });
  }

  selectScaMethod(input: AuthorisationStepInput & { readonly methodId: string }): Promise<AuthorisationResult> {
    return this.updateAuthorisation('selectScaMethod', input, 'selectAuthenticationMethod', {
      authenticationMethodId: input.methodId,
    });
  }

  authoriseTransaction(
    input: AuthorisationStepInput & { readonly scaAuthenticationData: string },
  ): Promise<AuthorisationResult> {
    return this.updateAuthorisation('authoriseTransaction', input, 'authoriseTransaction', {
      scaAuthenticationData: input.scaAuthenticationData,
    });
  }

  async getScaStatus(input: AuthorisationStepInput): Promise<{ scaStatus: ScaStatus; psuMessage: string | undefined }> {
    const operation = 'getScaStatus';
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.authorisationUrl(operation, input.resource, input.authorisation, 'scaStatus'),
      context: input.context,
    });
    const answer = this.parse(operation, response, check.scaStatusResponse);
    return { scaStatus: mapScaStatus(answer.scaStatus), psuMessage: answer.psuMessage };
  }

  /**
   * The status endpoint first. When it fails indeterminately, the standard's other source before giving up: the
   * payment resource (`GET …/{paymentId}`) carries `transactionStatus` too, so a bank whose status endpoint is down
   * does not leave a settled payment pending for ever.
   */
  async getPaymentStatus(input: { context: CallContext; payment: BankPaymentRef }): Promise<PaymentStatusResult> {
    const operation = 'getPaymentStatus';
    let answer: StatusAnswer;
    try {
      const response = await this.http.send({
        operation,
        method: 'GET',
        url: this.linkOr(operation, input.payment.links['status'], `${paymentPath(input.payment)}/status`),
        context: input.context,
      });
      answer = this.parse(operation, response, check.paymentInitiationStatusResponse200);
    } catch (error) {
      const fromResource = await this.statusFromPaymentResource(input, error);
      if (fromResource === undefined) throw error;
      answer = fromResource;
    }
    const transactionStatus = mapTransactionStatus(answer.transactionStatus);
    const outcome = paymentOutcome(transactionStatus, this.settings);
    const bankMessages = toBankMessages(answer.tppMessages);
    let failureCode: FailureCode | undefined;
    if (outcome === 'failed') {
      const fromMessages = bankMessages.map((message) => failureCodeOfMessage(message)).find((code) => code !== undefined);
      failureCode =
        fromMessages ??
        (answer.fundsAvailable === false
          ? 'INSUFFICIENT_FUNDS'
          : transactionStatus.state === 'cancelled'
            ? 'PSU_CANCELLED'
            : 'BANK_REJECTED');
    }
    return {
      transactionStatus,
      outcome,
      failureCode,
      fundsAvailable: answer.fundsAvailable,
      psuMessage: answer.psuMessage,
      bankMessages,
    };
  }

  /**
   * The payment's status from the payment resource, after the status endpoint failed with `statusError`. Asked only
   * when that failure leaves the status open (5xx, timeout, connection, a broken answer); not after a refusal
   * (definite) nor a 429 (the bank asked us to slow down). Undefined when the resource cannot tell either (it
   * failed too, or carries no `transactionStatus`, which the standard allows): the caller keeps the first error,
   * so the outcome stays indeterminate and is never turned into a refusal.
   */
  private async statusFromPaymentResource(
    input: { context: CallContext; payment: BankPaymentRef },
    statusError: unknown,
  ): Promise<StatusAnswer | undefined> {
    const indeterminate =
      statusError instanceof BankProtocolError || (statusError instanceof BankUnavailableError && statusError.reason !== 'rate-limited');
    if (!indeterminate) return undefined;
    const operation = 'getPaymentInformation';
    try {
      const response = await this.http.send({
        operation,
        method: 'GET',
        url: this.linkOr(operation, input.payment.links['self'], paymentPath(input.payment)),
        context: input.context,
      });
      const answer = this.parse(operation, response, check.paymentInitiationWithStatusResponse);
      if (answer.transactionStatus === undefined) return undefined;
      return {
        transactionStatus: answer.transactionStatus,
        ...(answer.tppMessages === undefined ? {} : { tppMessages: answer.tppMessages }),
      };
    } catch (error) {
      if (isConnectorError(error)) return undefined;
      throw error;
    }
  }

  async cancelPayment(input: { context: CallContext; payment: BankPaymentRef }): Promise<CancelPaymentResult> {
    const operation = 'cancelPayment';
    const response = await this.http.send({
      operation,
      method: 'DELETE',
      url: this.linkOr(operation, input.payment.links['self'], paymentPath(input.payment)),
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

  async createConsent(input: CreateConsentInput): Promise<CreateConsentResult> {
    const operation = 'createConsent';
    const approach = this.approach(input.scaApproach);
    requireRedirectUri(approach, input.redirectUri);
    const response = await this.http.send({
      operation,
      method: 'POST',
      url: this.http.standardUrl('v1/consents'),
      context: input.context,
      headers: { ...this.redirectHeaders(approach, input.redirectUri, input.nokRedirectUri), 'PSU-ID': input.psuId },
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
      nextScaStep({
        links,
        scaStatus,
        scaMethods,
        chosenScaMethod,
        challenge,
        resolveRedirect: (href) => this.http.resolveBrowserLink(operation, href),
      }) ??
      (consentStatus.state === 'valid'
        ? { kind: 'authorised' }
        : consentStatus.state === 'rejected'
          ? { kind: 'failed' }
          : { kind: 'start-authorisation', needs: 'nothing' });
    const authorisationId = authorisationIdFromLinks(links);
    return {
      consent: { kind: 'consent', consentId: answer.consentId, links },
      consentStatus,
      scaApproach: scaApproachOf(response.headers['aspsp-sca-approach'], next, approach),
      authorisation:
        links['scaStatus'] !== undefined || authorisationId !== undefined
          ? { authorisationId, links: authorisationLinks(links) }
          : undefined,
      scaStatus,
      scaMethods,
      chosenScaMethod,
      challenge,
      psuMessage: answer.psuMessage,
      next,
    };
  }

  async getConsentStatus(input: { context: CallContext; consent: BankConsentRef }): Promise<ConsentStatus> {
    const operation = 'getConsentStatus';
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.linkOr(operation, input.consent.links['status'], `v1/consents/${encodeURIComponent(input.consent.consentId)}/status`),
      context: input.context,
    });
    return mapConsentStatus(this.parse(operation, response, check.consentStatusResponse200).consentStatus);
  }

  async listAccounts(input: { context: CallContext; consent: BankConsentRef }): Promise<readonly BankAccount[]> {
    const operation = 'listAccounts';
    const response = await this.http.send({
      operation,
      method: 'GET',
      url: this.http.standardUrl('v1/accounts'),
      context: input.context,
      headers: { 'Consent-ID': input.consent.consentId },
    });
    return this.parse(operation, response, check.accountList).accounts.map(toBankAccount);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Shared steps
  // -------------------------------------------------------------------------------------------------------------

  private async startAuthorisation(
    operation: string,
    input: StartAuthorisationInput<BankResourceRef>,
  ): Promise<AuthorisationResult> {
    const { resource, psu } = input;
    const approach = this.approach(input.scaApproach);
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
      headers: { ...this.redirectHeaders(approach, input.redirectUri, input.nokRedirectUri), 'PSU-ID': psu?.id },
      body: withPassword ? { psuData: { password: psu.password } } : {},
    });
    return this.authorisationResult(operation, response, undefined, approach);
  }

  private async updateAuthorisation(
    operation: string,
    input: AuthorisationStepInput,
    relation: 'updatePsuAuthentication' | 'selectAuthenticationMethod' | 'authoriseTransaction',
    body: unknown,
    headers: Readonly<Record<string, string | undefined>> = {},
  ): Promise<AuthorisationResult> {
    const response = await this.http.send({
      operation,
      method: 'PUT',
      url: this.authorisationUrl(operation, input.resource, input.authorisation, relation),
      context: input.context,
      headers,
      body,
    });
    return this.authorisationResult(operation, response, input.authorisation, this.approach(undefined));
  }

  private authorisationResult(
    operation: string,
    response: BankResponse,
    previous: BankAuthorisationRef | undefined,
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
    const next: NextScaStep = nextScaStep({
      links,
      scaStatus,
      scaMethods,
      chosenScaMethod,
      challenge,
      resolveRedirect: (href) => this.http.resolveBrowserLink(operation, href),
    }) ?? { kind: 'wait' };
    return {
      // Step links are replaced by the answer's; the status link survives answers that do not repeat it.
      authorisation: { authorisationId, links: { ...pick(previous?.links, 'scaStatus'), ...authorisationLinks(links) } },
      scaStatus,
      scaApproach: scaApproachOf(response.headers['aspsp-sca-approach'], next, approach),
      scaMethods,
      chosenScaMethod,
      challenge,
      psuMessage: answer.psuMessage,
      next,
    };
  }

  /**
   * The URL of an authorisation step: the link of that relation, else the authorisation's status link (in the
   * standard every step of an authorisation is the same resource), else the standard path from the ids.
   */
  private authorisationUrl(
    operation: string,
    resource: BankResourceRef,
    authorisation: BankAuthorisationRef,
    relation: string,
  ): URL {
    const href = authorisation.links[relation] ?? authorisation.links['scaStatus'];
    if (href !== undefined) return this.http.resolveApiLink(operation, href);
    if (authorisation.authorisationId === undefined) {
      throw new BankProtocolError(operation, `no ${relation} link and no authorisation id to address the authorisation`);
    }
    return this.http.standardUrl(
      `${resourcePath(resource)}/authorisations/${encodeURIComponent(authorisation.authorisationId)}`,
    );
  }

  private linkOr(operation: string, href: string | undefined, standardPath: string): URL {
    return href === undefined ? this.http.standardUrl(standardPath) : this.http.resolveApiLink(operation, href);
  }

  private approach(requested: ScaApproach | undefined): ScaApproach {
    // The catalogue schema guarantees at least one approach.
    return requested ?? this.settings.scaApproaches[0] ?? 'REDIRECT';
  }

  private redirectHeaders(
    approach: ScaApproach,
    redirectUri: string | undefined,
    nokRedirectUri: string | undefined,
  ): Record<string, string | undefined> {
    return {
      ...scaPreferenceHeaders(approach),
      'TPP-Redirect-URI': redirectUri,
      'TPP-Nok-Redirect-URI': nokRedirectUri,
    };
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
      const problems = [...checker.Errors(response.json)]
        .slice(0, 3)
        .map((error) => `${error.instancePath || '/'} ${error.message}`);
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

function requireRedirectUri(approach: ScaApproach, redirectUri: string | undefined): void {
  if (approach === 'REDIRECT' && redirectUri === undefined) {
    throw new TypeError('The redirect SCA approach needs a redirectUri');
  }
}

function pick(links: BankLinks | undefined, relation: string): Record<string, string> {
  const href = links?.[relation];
  return href === undefined ? {} : { [relation]: href };
}

function paymentPath(payment: BankPaymentRef): string {
  return `v1/${encodeURIComponent(payment.paymentService)}/${encodeURIComponent(payment.paymentProduct)}/${encodeURIComponent(payment.paymentId)}`;
}

function resourcePath(resource: BankResourceRef): string {
  return resource.kind === 'payment' ? paymentPath(resource) : `v1/consents/${encodeURIComponent(resource.consentId)}`;
}
