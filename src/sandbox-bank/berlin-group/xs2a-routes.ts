/**
 * The XS2A API of every sandbox bank (Berlin Group NextGenPSD2 1.3.11): payment initiation with its authorisation
 * sub-resources, and the account-information subset needed to find a payer's accounts (consents, account list).
 * Paths, headers, bodies, links and message codes follow the standard's OpenAPI file and Implementation Guidelines.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidIBAN } from 'ibantools';
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { ScaApproach } from '../../providers/catalogue.js';
import { productCurrency, type SandboxBankDefinition } from './banks.js';
import { admit, bankUrl, booleanHeader, header, requireBank, type BankContext } from './context.js';
import { Xs2aError } from './errors.js';
import type { OperationName } from '../shared/faults.js';
import type { PayerAccount, ScaMethod } from '../shared/fixtures.js';
import { fromMinor, toMinor } from '../shared/money.js';
import {
  isFinalScaStatus,
  isoDate,
  type AccountReference,
  type Authorisation,
  type Consent,
  type ConsentAccess,
  type Payment,
  type Resource,
} from './state.js';

const AccountReferenceSchema = Type.Object({
  iban: Type.String({ minLength: 1, maxLength: 34 }),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
});

const PaymentBodySchema = Type.Object({
  endToEndIdentification: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  debtorAccount: Type.Optional(AccountReferenceSchema),
  instructedAmount: Type.Object({
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    amount: Type.String({ pattern: '^[0-9]{1,14}(\\.[0-9]{1,3})?$' }),
  }),
  creditorAccount: AccountReferenceSchema,
  creditorAgent: Type.Optional(Type.String({ pattern: '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$' })),
  creditorName: Type.String({ minLength: 1, maxLength: 70 }),
  creditorAddress: Type.Optional(
    Type.Object({
      streetName: Type.Optional(Type.String({ maxLength: 70 })),
      buildingNumber: Type.Optional(Type.String({ maxLength: 16 })),
      townName: Type.Optional(Type.String({ maxLength: 35 })),
      postCode: Type.Optional(Type.String({ maxLength: 16 })),
      country: Type.String({ pattern: '^[A-Z]{2}$' }),
    }),
  ),
  remittanceInformationUnstructured: Type.Optional(Type.String({ maxLength: 140 })),
});

const AvailableSchema = Type.Optional(Type.Union([Type.Literal('allAccounts'), Type.Literal('allAccountsWithOwnerName')]));
const ConsentBodySchema = Type.Object({
  access: Type.Object({
    accounts: Type.Optional(Type.Array(AccountReferenceSchema, { maxItems: 50 })),
    balances: Type.Optional(Type.Array(AccountReferenceSchema, { maxItems: 50 })),
    transactions: Type.Optional(Type.Array(AccountReferenceSchema, { maxItems: 50 })),
    availableAccounts: AvailableSchema,
    availableAccountsWithBalance: AvailableSchema,
    allPsd2: AvailableSchema,
  }),
  recurringIndicator: Type.Boolean(),
  validUntil: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  frequencyPerDay: Type.Integer({ minimum: 1 }),
  combinedServiceIndicator: Type.Boolean(),
});

/** The forms an authorisation request body can take (start and update). */
const AuthorisationBodySchema = Type.Object({
  psuData: Type.Optional(
    Type.Object({ password: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) }),
  ),
  authenticationMethodId: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  scaAuthenticationData: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  confirmationCode: Type.Optional(Type.String()),
});
type AuthorisationBody = Static<typeof AuthorisationBodySchema>;

const checkPaymentBody = Compile(PaymentBodySchema);
const checkConsentBody = Compile(ConsentBodySchema);
const checkAuthorisationBody = Compile(AuthorisationBodySchema);

/** Payment products of the standard; anything else a bank does not list is unknown to it. */
const PRODUCT_PATTERN = /^[a-z0-9.-]{1,64}$/;

interface PaymentParams {
  slug: string;
  product: string;
  paymentId: string;
}
/** Path parameters of the authorisation routes, shared by payments and consents. */
interface AuthorisationParams {
  slug: string;
  authorisationId: string;
  product?: string;
  paymentId?: string;
  consentId?: string;
}

type Href = { href: string };
type Links = Record<string, Href>;

export function registerXs2aRoutes(app: FastifyInstance, context: BankContext): void {
  const { state } = context;

  // ---- helpers -------------------------------------------------------------------------------------------------

  const link = (bank: SandboxBankDefinition, path: string): Href => ({ href: bankUrl(context, bank, path) });
  const resourcePath = (resource: Resource): string =>
    resource.kind === 'payment' ? `/v1/payments/${resource.product}/${resource.id}` : `/v1/consents/${resource.id}`;
  const authorisationPath = (resource: Resource, authorisationId: string): string =>
    `${resourcePath(resource)}/authorisations/${authorisationId}`;

  const sendJson = (reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply => {
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    return reply.code(status).type('application/json').send(body);
  };

  const parseBody = <T>(check: { Check(value: unknown): value is T; Errors(value: unknown): Array<{ instancePath: string; message: string }> }, body: unknown): T => {
    const value = body ?? {};
    if (check.Check(value)) return value;
    const first = check.Errors(value)[0];
    const path = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') ?? '';
    throw new Xs2aError('FORMAT_ERROR', `${path || 'body'} ${first?.message ?? 'is invalid'}`, path === '' ? {} : { path });
  };

  const redirectUri = (request: FastifyRequest, name: string): string | undefined => {
    const value = header(request, name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.toString();
    } catch {
      // falls through to the format error
    }
    throw new Xs2aError('FORMAT_ERROR', `${name} must be an absolute http(s) URI`);
  };

  const chooseApproach = (request: FastifyRequest, bank: SandboxBankDefinition): ScaApproach => {
    const redirectPreferred = booleanHeader(request, 'TPP-Redirect-Preferred');
    const decoupledPreferred = booleanHeader(request, 'TPP-Decoupled-Preferred');
    const offers = (approach: ScaApproach): boolean => bank.approaches.includes(approach);
    if (decoupledPreferred === true && offers('DECOUPLED')) return 'DECOUPLED';
    if (redirectPreferred === true && offers('REDIRECT')) return 'REDIRECT';
    if (redirectPreferred === false) {
      const other = bank.approaches.find((approach) => approach !== 'REDIRECT');
      if (other !== undefined) return other;
    }
    const first = bank.approaches[0];
    if (first === undefined) throw new Xs2aError('SERVICE_INVALID', 'The bank offers no SCA approach');
    return first;
  };

  const requirePsuIp = (request: FastifyRequest): void => {
    const ip = header(request, 'PSU-IP-Address');
    if (ip === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-IP-Address header is missing');
    if (!/^[0-9.]{7,15}$|^[0-9a-fA-F:.]{2,45}$/.test(ip)) throw new Xs2aError('FORMAT_ERROR', 'PSU-IP-Address is not an IP address');
  };

  const checkProduct = (bank: SandboxBankDefinition, product: string): void => {
    if (!PRODUCT_PATTERN.test(product) || !bank.products.has(product)) {
      throw new Xs2aError('PRODUCT_UNKNOWN', `Payment product ${product.slice(0, 64)} is not offered by ${bank.name}`);
    }
  };

  const findPayment = (bank: SandboxBankDefinition, product: string, paymentId: string): Payment => {
    checkProduct(bank, product);
    const payment = state.payment(paymentId);
    if (payment === undefined || payment.bank !== bank.slug || payment.product !== product) {
      throw new Xs2aError('RESOURCE_UNKNOWN', 'Unknown paymentId');
    }
    return payment;
  };

  const findConsent = (bank: SandboxBankDefinition, consentId: string): Consent => {
    const consent = state.consent(consentId);
    if (consent === undefined || consent.bank !== bank.slug) throw new Xs2aError('CONSENT_UNKNOWN', 'Unknown consentId', { status: 403 });
    return consent;
  };

  const findAuthorisation = (resource: Resource, authorisationId: string): Authorisation => {
    const authorisation = resource.authorisationIds.includes(authorisationId) ? state.authorisations.get(authorisationId) : undefined;
    if (authorisation === undefined) throw new Xs2aError('RESOURCE_UNKNOWN', 'Unknown authorisationId');
    return authorisation;
  };

  /** The test payer a call is about: the resource's payer, else the PSU-ID header (for fault rules). */
  const psuOf = (request: FastifyRequest, resource?: Resource): string | undefined =>
    resource?.payerId ?? resource?.psuId ?? header(request, 'PSU-ID');

  const peekPayment = (paymentId: string): Payment | undefined => state.payments.get(paymentId);
  const peekConsent = (consentId: string): Consent | undefined => state.consents.get(consentId);

  const identifyFromHeader = (request: FastifyRequest, resource: Resource): void => {
    const psuId = header(request, 'PSU-ID');
    if (psuId === undefined) return;
    if (!state.identify(resource, psuId)) throw new Xs2aError('PSU_CREDENTIALS_INVALID', 'PSU-ID cannot be matched by the bank');
  };

  const decoupledAppUrl = (bank: SandboxBankDefinition, authorisation: Authorisation): string =>
    bankUrl(context, bank, `/decoupled/${authorisation.pageToken}`);

  const methodObject = (method: ScaMethod) => ({
    authenticationType: method.authenticationType,
    authenticationMethodId: method.authenticationMethodId,
    name: method.name,
  });

  const challenge = (method: ScaMethod) => ({
    otpMaxLength: 6,
    otpFormat: 'integer' as const,
    additionalInformation: `Enter the code sent via ${method.name}.`,
  });

  /**
   * After the payer is authenticated (embedded) or identified (decoupled): the next step depends on the payer's
   * SCA methods. Returns the fields of the answer.
   */
  const afterAuthentication = (bank: SandboxBankDefinition, resource: Resource, authorisation: Authorisation): Record<string, unknown> => {
    const scaLink = link(bank, authorisationPath(resource, authorisation.id));
    if (resource.kind === 'payment') {
      const problem = state.resolveDebtor(resource, true);
      if (problem !== undefined) {
        state.failResource(resource, problem, authorisation);
        return { scaStatus: 'failed', psuMessage: problem.text, _links: { scaStatus: scaLink } };
      }
    } else if (resource.grantedAccountIds.length === 0) {
      resource.grantedAccountIds = state.consentAccounts(resource).map((account) => account.resourceId);
    }
    const methods = state.scaMethods(resource);
    const [only] = methods;
    if (only === undefined) {
      state.completeAuthorisation(authorisation, resource, 'exempted');
      return { scaStatus: 'exempted', _links: { scaStatus: scaLink, status: link(bank, `${resourcePath(resource)}/status`) } };
    }
    if (methods.length === 1) {
      authorisation.chosenMethodId = only.authenticationMethodId;
      authorisation.scaStatus = 'scaMethodSelected';
      return {
        scaStatus: 'scaMethodSelected',
        chosenScaMethod: methodObject(only),
        challengeData: challenge(only),
        _links: { authoriseTransaction: scaLink, scaStatus: scaLink },
      };
    }
    authorisation.scaStatus = 'psuAuthenticated';
    return {
      scaStatus: 'psuAuthenticated',
      scaMethods: methods.map(methodObject),
      _links: { selectAuthenticationMethod: scaLink, scaStatus: scaLink },
    };
  };

  /** Starts the decoupled SCA: the payer confirms in the bank's app (a sandbox page). */
  const startDecoupled = (bank: SandboxBankDefinition, resource: Resource, authorisation: Authorisation): Record<string, unknown> => {
    const scaLink = link(bank, authorisationPath(resource, authorisation.id));
    if (resource.kind === 'payment') {
      const problem = state.resolveDebtor(resource, false);
      if (problem !== undefined) {
        state.failResource(resource, problem, authorisation);
        return { scaStatus: 'failed', psuMessage: problem.text, _links: { scaStatus: scaLink } };
      }
    }
    if (state.scaMethods(resource).length === 0) {
      if (resource.kind === 'payment' && resource.debtorIban === undefined) state.resolveDebtor(resource, true);
      state.completeAuthorisation(authorisation, resource, 'exempted');
      return { scaStatus: 'exempted', _links: { scaStatus: scaLink } };
    }
    authorisation.scaStatus = 'started';
    const appUrl = decoupledAppUrl(bank, authorisation);
    return {
      scaStatus: 'started',
      psuMessage: `Please confirm in your ${bank.name} app. (Sandbox: the app is simulated at ${appUrl})`,
      _links: { scaStatus: scaLink, sandboxDecoupledApp: { href: appUrl } },
    };
  };

  /** The initial links of a freshly created payment or consent, per SCA approach. */
  const initiationLinks = (
    request: FastifyRequest,
    bank: SandboxBankDefinition,
    resource: Resource,
  ): { links: Links; authorisation: Authorisation | undefined } => {
    const self = link(bank, resourcePath(resource));
    const status = link(bank, `${resourcePath(resource)}/status`);
    const start = link(bank, `${resourcePath(resource)}/authorisations`);
    switch (resource.approach) {
      case 'REDIRECT': {
        if (booleanHeader(request, 'TPP-Explicit-Authorisation-Preferred') === true) {
          return { links: { startAuthorisation: start, self, status }, authorisation: undefined };
        }
        const authorisation = state.createAuthorisation(resource);
        return {
          links: {
            scaRedirect: link(bank, `/sca/${authorisation.pageToken}`),
            self,
            status,
            scaStatus: link(bank, authorisationPath(resource, authorisation.id)),
          },
          authorisation,
        };
      }
      case 'EMBEDDED':
        return { links: { startAuthorisationWithPsuAuthentication: start, self, status }, authorisation: undefined };
      case 'DECOUPLED':
        return {
          links:
            resource.payerId === undefined
              ? { startAuthorisationWithPsuIdentification: start, self, status }
              : { startAuthorisation: start, self, status },
          authorisation: undefined,
        };
    }
  };

  const accountReference = (value: { iban: string; currency?: string | undefined }, path: string): AccountReference => {
    const iban = value.iban.replace(/\s+/g, '').toUpperCase();
    if (!isValidIBAN(iban)) throw new Xs2aError('FORMAT_ERROR', `${path}.iban is not a valid IBAN`, { path: `${path}.iban` });
    return value.currency === undefined ? { iban } : { iban, currency: value.currency };
  };

  // ---- payment initiation --------------------------------------------------------------------------------------

  app.post<{ Params: Pick<PaymentParams, 'slug' | 'product'> }>('/:slug/v1/payments/:product', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'initiatePayment', psuOf(request)))) return reply;
    checkProduct(bank, request.params.product);
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      return reply.code(415).send();
    }
    requirePsuIp(request);
    const body = parseBody(checkPaymentBody, request.body);
    const currency = body.instructedAmount.currency;
    const expectedCurrency = productCurrency(request.params.product);
    if ((expectedCurrency !== undefined && currency !== expectedCurrency) || !bank.currencies.includes(currency)) {
      throw new Xs2aError('FORMAT_ERROR', `instructedAmount.currency ${currency} is not possible for ${request.params.product}`, { path: 'instructedAmount.currency' });
    }
    const amountMinor = toMinor(body.instructedAmount.amount, currency);
    if (amountMinor === undefined || amountMinor <= 0n) {
      throw new Xs2aError('FORMAT_ERROR', 'instructedAmount.amount must be positive with at most the currency\'s decimals', { path: 'instructedAmount.amount' });
    }
    const debtorAccount = body.debtorAccount === undefined ? undefined : accountReference(body.debtorAccount, 'debtorAccount');
    if (debtorAccount === undefined && bank.requiresDebtorAccount) {
      throw new Xs2aError('FORMAT_ERROR', 'debtorAccount is required by this bank', { path: 'debtorAccount' });
    }
    const creditorAccount = accountReference(body.creditorAccount, 'creditorAccount');
    const remittance = body.remittanceInformationUnstructured;
    if (remittance !== undefined && remittance.length > bank.remittanceMaxLength) {
      throw new Xs2aError('FORMAT_ERROR', `remittanceInformationUnstructured is longer than ${bank.remittanceMaxLength} characters`, { path: 'remittanceInformationUnstructured' });
    }
    const approach = chooseApproach(request, bank);
    const okUri = redirectUri(request, 'TPP-Redirect-URI');
    const nokUri = redirectUri(request, 'TPP-Nok-Redirect-URI');
    if (approach === 'REDIRECT' && okUri === undefined) {
      throw new Xs2aError('FORMAT_ERROR', 'TPP-Redirect-URI is required for the redirect SCA approach');
    }
    const psuId = header(request, 'PSU-ID');
    if (psuId !== undefined && approach !== 'REDIRECT' && state.payer(psuId) === undefined) {
      throw new Xs2aError('PSU_CREDENTIALS_INVALID', 'PSU-ID cannot be matched by the bank');
    }
    if (psuId !== undefined && state.payer(psuId) !== undefined && !state.payer(psuId)?.accounts.some((account) => account.currency === currency)) {
      throw new Xs2aError('PRODUCT_INVALID', `The payer has no account for ${request.params.product} in ${currency}`);
    }
    const payment = state.addPayment({
      bank: bank.slug,
      product: request.params.product,
      data: {
        instructedAmount: { currency, amount: fromMinor(amountMinor, currency) },
        amountMinor,
        debtorAccount,
        creditorAccount,
        creditorName: body.creditorName,
        creditorAddress: body.creditorAddress,
        creditorAgent: body.creditorAgent,
        remittanceInformationUnstructured: remittance,
        endToEndIdentification: body.endToEndIdentification,
      },
      approach,
      redirectUri: okUri,
      nokRedirectUri: nokUri,
      psuId,
    });
    if (psuId !== undefined && approach !== 'REDIRECT') state.identify(payment, psuId);
    const { links } = initiationLinks(request, bank, payment);
    const location = bankUrl(context, bank, resourcePath(payment));
    return sendJson(
      reply,
      201,
      { transactionStatus: payment.status, paymentId: payment.id, _links: links },
      { Location: location, 'ASPSP-SCA-Approach': approach },
    );
  });

  app.get<{ Params: PaymentParams }>('/:slug/v1/payments/:product/:paymentId', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'getPayment', psuOf(request, peekPayment(request.params.paymentId))))) return reply;
    const payment = findPayment(bank, request.params.product, request.params.paymentId);
    const { data } = payment;
    const debtorIban = payment.debtorIban;
    return sendJson(reply, 200, {
      ...(data.endToEndIdentification === undefined ? {} : { endToEndIdentification: data.endToEndIdentification }),
      ...(debtorIban === undefined ? {} : { debtorAccount: { iban: debtorIban, ...(data.debtorAccount?.currency === undefined ? {} : { currency: data.debtorAccount.currency }) } }),
      instructedAmount: data.instructedAmount,
      creditorAccount: data.creditorAccount,
      ...(data.creditorAgent === undefined ? {} : { creditorAgent: data.creditorAgent }),
      creditorName: data.creditorName,
      ...(data.creditorAddress === undefined ? {} : { creditorAddress: data.creditorAddress }),
      ...(data.remittanceInformationUnstructured === undefined ? {} : { remittanceInformationUnstructured: data.remittanceInformationUnstructured }),
      transactionStatus: payment.status,
    });
  });

  app.get<{ Params: PaymentParams }>('/:slug/v1/payments/:product/:paymentId/status', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'getPaymentStatus', psuOf(request, peekPayment(request.params.paymentId))))) return reply;
    const payment = findPayment(bank, request.params.product, request.params.paymentId);
    const body: Record<string, unknown> = { transactionStatus: payment.status };
    if (payment.status === 'ACTC') body['fundsAvailable'] = payment.debtorIban !== undefined && (state.balance(payment.debtorIban) ?? 0n) >= payment.data.amountMinor;
    if (payment.reason !== undefined && (payment.status === 'RJCT' || payment.status === 'CANC')) {
      body['psuMessage'] = payment.reason.text;
      body['tppMessages'] = [{ category: 'ERROR', code: payment.reason.code, text: payment.reason.text }];
    }
    return sendJson(reply, 200, body);
  });

  app.delete<{ Params: PaymentParams }>('/:slug/v1/payments/:product/:paymentId', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'cancelPayment', psuOf(request, peekPayment(request.params.paymentId))))) return reply;
    const payment = findPayment(bank, request.params.product, request.params.paymentId);
    if (!state.cancelPayment(payment)) {
      throw new Xs2aError('CANCELLATION_INVALID', `A payment in status ${payment.status} can no longer be cancelled`);
    }
    return reply.code(204).send();
  });

  // ---- authorisation sub-resources (payments and consents alike) ------------------------------------------------

  const startAuthorisation = async (request: FastifyRequest, reply: FastifyReply, bank: SandboxBankDefinition, resource: Resource): Promise<FastifyReply> => {
    if (!state.isOpen(resource)) throw new Xs2aError('STATUS_INVALID', `The ${resource.kind} does not allow additional authorisation`);
    const body: AuthorisationBody = parseBody(checkAuthorisationBody, request.body);
    if (body.authenticationMethodId !== undefined || body.scaAuthenticationData !== undefined || body.confirmationCode !== undefined) {
      throw new Xs2aError('SERVICE_INVALID', 'Start the authorisation first, then select the method or authorise the transaction');
    }
    const headers = { 'ASPSP-SCA-Approach': resource.approach };
    const password = body.psuData?.password;
    if (resource.approach === 'REDIRECT') {
      if (password !== undefined) throw new Xs2aError('SERVICE_INVALID', 'PSU credentials are entered at the bank in the redirect approach');
      identifyFromHeaderLenient(request, resource);
      const authorisation = state.createAuthorisation(resource);
      const scaLink = link(bank, authorisationPath(resource, authorisation.id));
      return sendJson(reply, 201, {
        scaStatus: authorisation.scaStatus,
        authorisationId: authorisation.id,
        _links: { scaRedirect: link(bank, `/sca/${authorisation.pageToken}`), scaStatus: scaLink },
      }, headers);
    }
    if (resource.approach === 'DECOUPLED') {
      if (password !== undefined) throw new Xs2aError('SERVICE_INVALID', 'No password is sent in the decoupled approach');
      identifyFromHeader(request, resource);
      if (resource.payerId === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-ID header is required for the decoupled approach');
      const authorisation = state.createAuthorisation(resource);
      return sendJson(reply, 201, { authorisationId: authorisation.id, ...startDecoupled(bank, resource, authorisation) }, headers);
    }
    // EMBEDDED
    if (password === undefined) {
      identifyFromHeader(request, resource);
      const authorisation = state.createAuthorisation(resource);
      const scaLink = link(bank, authorisationPath(resource, authorisation.id));
      return sendJson(reply, 201, {
        scaStatus: authorisation.scaStatus,
        authorisationId: authorisation.id,
        _links: { updatePsuAuthentication: scaLink, scaStatus: scaLink },
      }, headers);
    }
    const psuId = header(request, 'PSU-ID') ?? resource.payerId ?? resource.psuId;
    if (psuId === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-ID header is required with PSU credentials');
    const check = state.checkPassword(resource, psuId, password);
    if (check !== 'ok') throw credentialsError(check, 'password');
    const authorisation = state.createAuthorisation(resource);
    return sendJson(reply, 201, { authorisationId: authorisation.id, ...afterAuthentication(bank, resource, authorisation) }, headers);
  };

  /** In the redirect approach an unknown PSU-ID is no error: the payer logs in at the bank anyway. */
  const identifyFromHeaderLenient = (request: FastifyRequest, resource: Resource): void => {
    const psuId = header(request, 'PSU-ID');
    if (psuId !== undefined && resource.psuId === undefined) resource.psuId = psuId;
  };

  const updateAuthorisation = async (
    request: FastifyRequest,
    reply: FastifyReply,
    bank: SandboxBankDefinition,
    resource: Resource,
    authorisation: Authorisation,
  ): Promise<FastifyReply> => {
    const body: AuthorisationBody = parseBody(checkAuthorisationBody, request.body);
    if (authorisation.scaStatus === 'failed') throw new Xs2aError('SCA_INVALID', 'The authorisation has failed; start a new one if the resource allows it');
    if (isFinalScaStatus(authorisation.scaStatus) || !state.isOpen(resource)) {
      throw new Xs2aError('STATUS_INVALID', 'The authorisation is already final');
    }
    const headers = { 'ASPSP-SCA-Approach': authorisation.approach };
    const scaLink = link(bank, authorisationPath(resource, authorisation.id));
    const password = body.psuData?.password;
    if (body.confirmationCode !== undefined) throw new Xs2aError('SERVICE_INVALID', 'Authorisation confirmation is not used by this bank');

    if (password !== undefined) {
      if (authorisation.approach !== 'EMBEDDED') throw new Xs2aError('SERVICE_INVALID', 'PSU credentials are not sent through the API in this approach');
      if (authorisation.scaStatus !== 'received' && authorisation.scaStatus !== 'psuIdentified') {
        throw new Xs2aError('SERVICE_INVALID', 'The payer is already authenticated');
      }
      const psuId = header(request, 'PSU-ID') ?? resource.payerId ?? resource.psuId;
      if (psuId === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-ID header is required with PSU credentials');
      const check = state.checkPassword(resource, psuId, password);
      if (check !== 'ok') throw credentialsError(check, 'password');
      return sendJson(reply, 200, afterAuthentication(bank, resource, authorisation), headers);
    }

    if (body.authenticationMethodId !== undefined) {
      if (authorisation.approach === 'REDIRECT') throw new Xs2aError('SERVICE_INVALID', 'The payer selects the SCA method at the bank in the redirect approach');
      if (authorisation.scaStatus !== 'psuAuthenticated' && authorisation.scaStatus !== 'scaMethodSelected') {
        throw new Xs2aError('SERVICE_INVALID', 'Authenticate the payer before selecting an SCA method');
      }
      const method = state.scaMethods(resource).find((candidate) => candidate.authenticationMethodId === body.authenticationMethodId);
      if (method === undefined) throw new Xs2aError('SCA_METHOD_UNKNOWN', 'authenticationMethodId is not one of the payer\'s SCA methods');
      authorisation.chosenMethodId = method.authenticationMethodId;
      authorisation.scaStatus = 'scaMethodSelected';
      return sendJson(reply, 200, {
        scaStatus: 'scaMethodSelected',
        chosenScaMethod: methodObject(method),
        challengeData: challenge(method),
        _links: { authoriseTransaction: scaLink, scaStatus: scaLink },
      }, headers);
    }

    if (body.scaAuthenticationData !== undefined) {
      if (authorisation.approach !== 'EMBEDDED' || authorisation.scaStatus !== 'scaMethodSelected') {
        throw new Xs2aError('SERVICE_INVALID', 'No one-time code is expected in this state');
      }
      const check = state.checkCode(authorisation, resource, body.scaAuthenticationData);
      if (check === 'scaFailed') {
        return sendJson(reply, 200, { scaStatus: 'failed', psuMessage: 'Strong customer authentication failed.', _links: { scaStatus: scaLink } }, headers);
      }
      if (check !== 'ok') throw credentialsError(check, 'one-time code');
      state.completeAuthorisation(authorisation, resource, 'finalised');
      return sendJson(reply, 200, {
        scaStatus: 'finalised',
        _links: { scaStatus: scaLink, status: link(bank, `${resourcePath(resource)}/status`) },
      }, headers);
    }

    // An empty body updates the PSU identification (PSU-ID header), as the decoupled approach needs.
    if (header(request, 'PSU-ID') === undefined) throw new Xs2aError('FORMAT_ERROR', 'Nothing to update: send PSU-ID, psuData, authenticationMethodId or scaAuthenticationData');
    identifyFromHeader(request, resource);
    if (authorisation.approach === 'DECOUPLED') return sendJson(reply, 200, startDecoupled(bank, resource, authorisation), headers);
    authorisation.scaStatus = 'psuIdentified';
    return sendJson(reply, 200, { scaStatus: 'psuIdentified', _links: { updatePsuAuthentication: scaLink, scaStatus: scaLink } }, headers);
  };

  type P = AuthorisationParams;
  const registerAuthorisationRoutes = (
    base: string,
    find: (bank: SandboxBankDefinition, params: P) => Resource,
    peek: (params: P) => Resource | undefined,
  ): void => {
    const guard = async (request: FastifyRequest<{ Params: P }>, reply: FastifyReply, operation: OperationName) => {
      const bank = requireBank(context, request.params.slug);
      const admitted = await admit(context, request, reply, bank, operation, psuOf(request, peek(request.params)));
      return { bank, admitted };
    };
    app.post<{ Params: P }>(`${base}/authorisations`, async (request, reply) => {
      const { bank, admitted } = await guard(request, reply, 'startAuthorisation');
      if (!admitted) return reply;
      return startAuthorisation(request, reply, bank, find(bank, request.params));
    });
    app.get<{ Params: P }>(`${base}/authorisations`, async (request, reply) => {
      const { bank, admitted } = await guard(request, reply, 'getAuthorisations');
      if (!admitted) return reply;
      return sendJson(reply, 200, { authorisationIds: [...find(bank, request.params).authorisationIds] });
    });
    app.get<{ Params: P }>(`${base}/authorisations/:authorisationId`, async (request, reply) => {
      const { bank, admitted } = await guard(request, reply, 'getScaStatus');
      if (!admitted) return reply;
      const authorisation = findAuthorisation(find(bank, request.params), request.params.authorisationId);
      return sendJson(reply, 200, { scaStatus: authorisation.scaStatus });
    });
    app.put<{ Params: P }>(`${base}/authorisations/:authorisationId`, async (request, reply) => {
      const { bank, admitted } = await guard(request, reply, 'updateAuthorisation');
      if (!admitted) return reply;
      const resource = find(bank, request.params);
      return updateAuthorisation(request, reply, bank, resource, findAuthorisation(resource, request.params.authorisationId));
    });
  };

  registerAuthorisationRoutes(
    '/:slug/v1/payments/:product/:paymentId',
    (bank, params) => findPayment(bank, params.product ?? '', params.paymentId ?? ''),
    (params) => peekPayment(params.paymentId ?? ''),
  );
  registerAuthorisationRoutes(
    '/:slug/v1/consents/:consentId',
    (bank, params) => findConsent(bank, params.consentId ?? ''),
    (params) => peekConsent(params.consentId ?? ''),
  );

  // ---- account information ---------------------------------------------------------------------------------------

  const requireAis = (bank: SandboxBankDefinition): void => {
    if (!bank.accountInformation) throw new Xs2aError('SERVICE_INVALID', `${bank.name} offers no account information service`);
  };

  app.post<{ Params: { slug: string } }>('/:slug/v1/consents', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'createConsent', psuOf(request)))) return reply;
    requireAis(bank);
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return reply.code(415).send();
    const body = parseBody(checkConsentBody, request.body);
    const refs = (list: ReadonlyArray<{ iban: string; currency?: string }> | undefined, path: string) =>
      (list ?? []).map((reference, index) => accountReference(reference, `access.${path}[${index}]`));
    const access: ConsentAccess = {
      availableAccounts: body.access.availableAccounts,
      availableAccountsWithBalance: body.access.availableAccountsWithBalance,
      allPsd2: body.access.allPsd2,
      accounts: refs(body.access.accounts, 'accounts'),
      balances: refs(body.access.balances, 'balances'),
      transactions: refs(body.access.transactions, 'transactions'),
    };
    const asksSomething =
      access.availableAccounts !== undefined ||
      access.availableAccountsWithBalance !== undefined ||
      access.allPsd2 !== undefined ||
      body.access.accounts !== undefined ||
      body.access.balances !== undefined ||
      body.access.transactions !== undefined;
    if (!asksSomething) throw new Xs2aError('FORMAT_ERROR', 'access must ask for accounts, balances, transactions or available accounts', { path: 'access' });
    if (Number.isNaN(Date.parse(body.validUntil)) || body.validUntil < isoDate(state.now())) {
      throw new Xs2aError('FORMAT_ERROR', 'validUntil must be a date not in the past', { path: 'validUntil' });
    }
    const approach = chooseApproach(request, bank);
    const okUri = redirectUri(request, 'TPP-Redirect-URI');
    const nokUri = redirectUri(request, 'TPP-Nok-Redirect-URI');
    if (approach === 'REDIRECT' && okUri === undefined) {
      throw new Xs2aError('FORMAT_ERROR', 'TPP-Redirect-URI is required for the redirect SCA approach');
    }
    const psuId = header(request, 'PSU-ID');
    if (psuId !== undefined && approach !== 'REDIRECT' && state.payer(psuId) === undefined) {
      throw new Xs2aError('PSU_CREDENTIALS_INVALID', 'PSU-ID cannot be matched by the bank');
    }
    const consent = state.addConsent({
      bank: bank.slug,
      access,
      recurringIndicator: body.recurringIndicator,
      validUntil: body.validUntil,
      frequencyPerDay: body.frequencyPerDay,
      combinedServiceIndicator: body.combinedServiceIndicator,
      approach,
      redirectUri: okUri,
      nokRedirectUri: nokUri,
      psuId,
    });
    if (psuId !== undefined && approach !== 'REDIRECT') state.identify(consent, psuId);
    const { links } = initiationLinks(request, bank, consent);
    return sendJson(
      reply,
      201,
      { consentStatus: consent.status, consentId: consent.id, _links: links },
      { Location: bankUrl(context, bank, resourcePath(consent)), 'ASPSP-SCA-Approach': approach },
    );
  });

  const consentAccessBody = (consent: Consent): Record<string, unknown> => {
    const access: Record<string, unknown> = {};
    const { access: asked } = consent;
    if (asked.availableAccounts !== undefined) access['availableAccounts'] = asked.availableAccounts;
    if (asked.availableAccountsWithBalance !== undefined) access['availableAccountsWithBalance'] = asked.availableAccountsWithBalance;
    if (asked.allPsd2 !== undefined) access['allPsd2'] = asked.allPsd2;
    for (const key of ['accounts', 'balances', 'transactions'] as const) {
      if (asked[key].length > 0) access[key] = asked[key].map((reference) => ({ ...reference }));
    }
    return access;
  };

  app.get<{ Params: { slug: string; consentId: string } }>('/:slug/v1/consents/:consentId', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'getConsent', psuOf(request, peekConsent(request.params.consentId))))) return reply;
    const consent = findConsent(bank, request.params.consentId);
    const links: Links = { self: link(bank, resourcePath(consent)), status: link(bank, `${resourcePath(consent)}/status`) };
    if (consent.status === 'valid') links['account'] = link(bank, '/v1/accounts');
    return sendJson(reply, 200, {
      access: consentAccessBody(consent),
      recurringIndicator: consent.recurringIndicator,
      validUntil: consent.validUntil,
      frequencyPerDay: consent.frequencyPerDay,
      lastActionDate: consent.lastActionDate,
      consentStatus: consent.status,
      _links: links,
    });
  });

  app.get<{ Params: { slug: string; consentId: string } }>('/:slug/v1/consents/:consentId/status', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'getConsentStatus', psuOf(request, peekConsent(request.params.consentId))))) return reply;
    return sendJson(reply, 200, { consentStatus: findConsent(bank, request.params.consentId).status });
  });

  app.delete<{ Params: { slug: string; consentId: string } }>('/:slug/v1/consents/:consentId', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    if (!(await admit(context, request, reply, bank, 'deleteConsent', psuOf(request, peekConsent(request.params.consentId))))) return reply;
    const consent = findConsent(bank, request.params.consentId);
    state.failResource(consent, { code: 'CONSENT_INVALID', text: 'Terminated by the TPP.' });
    consent.status = 'terminatedByTpp';
    consent.lastActionDate = isoDate(state.now());
    return reply.code(204).send();
  });

  app.get<{ Params: { slug: string }; Querystring: { withBalance?: string } }>('/:slug/v1/accounts', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    const consentId = header(request, 'Consent-ID');
    if (!(await admit(context, request, reply, bank, 'getAccounts', psuOf(request, consentId === undefined ? undefined : peekConsent(consentId))))) return reply;
    requireAis(bank);
    if (consentId === undefined) throw new Xs2aError('FORMAT_ERROR', 'Consent-ID header is missing');
    const withBalanceRaw = request.query.withBalance;
    if (withBalanceRaw !== undefined && withBalanceRaw !== 'true' && withBalanceRaw !== 'false') {
      throw new Xs2aError('FORMAT_ERROR', 'withBalance must be true or false');
    }
    const consent = state.consent(consentId);
    if (consent === undefined || consent.bank !== bank.slug) throw new Xs2aError('CONSENT_UNKNOWN', 'Consent-ID cannot be matched by the bank');
    if (consent.status === 'expired') throw new Xs2aError('CONSENT_EXPIRED', 'The consent has expired');
    if (consent.status !== 'valid') throw new Xs2aError('CONSENT_INVALID', `The consent is ${consent.status}`);
    const withBalance = withBalanceRaw === 'true';
    const { access } = consent;
    if (withBalance && access.availableAccountsWithBalance === undefined && access.allPsd2 === undefined && access.balances.length === 0) {
      throw new Xs2aError('CONSENT_INVALID', 'The consent does not cover balances');
    }
    state.refreshAll();
    const payer = state.payer(consent.payerId);
    const withOwnerName = [access.availableAccounts, access.availableAccountsWithBalance, access.allPsd2].includes('allAccountsWithOwnerName');
    const accounts = (payer?.accounts ?? [])
      .filter((account) => consent.grantedAccountIds.includes(account.resourceId))
      .map((account: PayerAccount) => ({
        resourceId: account.resourceId,
        iban: account.iban,
        currency: account.currency,
        name: account.name,
        product: account.product,
        cashAccountType: 'CACC',
        status: 'enabled',
        usage: 'PRIV',
        ...(withOwnerName && payer !== undefined ? { ownerName: payer.name } : {}),
        ...(withBalance
          ? {
              balances: [
                {
                  balanceAmount: { currency: account.currency, amount: fromMinor(state.balance(account.iban) ?? 0n, account.currency) },
                  balanceType: 'interimAvailable',
                  referenceDate: isoDate(state.now()),
                },
              ],
            }
          : {}),
      }));
    consent.lastActionDate = isoDate(state.now());
    return sendJson(reply, 200, { accounts });
  });
}

function credentialsError(check: 'wrong' | 'locked', what: string): Xs2aError {
  return check === 'locked'
    ? new Xs2aError('PSU_CREDENTIALS_INVALID', `Wrong ${what}; no attempts left, the authorisation has failed`)
    : new Xs2aError('PSU_CREDENTIALS_INVALID', `Wrong ${what}`);
}
