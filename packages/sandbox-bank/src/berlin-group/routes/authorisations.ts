/**
 * The authorisation sub-resources, of payments and consents alike: start one, list them, read the SCA status and
 * update the PSU data (identification, password, SCA method, one-time code).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationName } from '../../shared/faults.js';
import { header } from '../../shared/plumbing.js';
import type { SandboxBankDefinition } from '../banks.js';
import { admit, requireBank, type BankContext } from '../context.js';
import { Xs2aError } from '../errors.js';
import { isFinalScaStatus, type Authorisation, type PaymentService, type Resource } from '../state.js';
import { checkAuthorisationBody, type AuthorisationBody } from '../xs2a-bodies.js';
import { subscribeToNotifications } from './payments.js';
import { afterAuthentication, methodSelectedAnswer, startDecoupled } from '../sca-answers.js';
import {
  authorisationPath,
  credentialsError,
  findAuthorisation,
  findConsent,
  findPayment,
  identifyFromHeader,
  link,
  parseBody,
  PAYMENT_SERVICES,
  psuOf,
  requireService,
  resourcePath,
  sendJson,
} from '../xs2a-support.js';

/** Path parameters of the authorisation routes, shared by payments and consents. */
interface AuthorisationParams {
  slug: string;
  authorisationId: string;
  product?: string;
  paymentId?: string;
  consentId?: string;
}
type AuthorisationRequest = FastifyRequest<{ Params: AuthorisationParams }>;

/** How the routes of one parent kind find their parent: checked (`find`) or as it is, for fault matching (`peek`). */
interface ParentLookup {
  readonly find: (bank: SandboxBankDefinition, params: AuthorisationParams) => Resource;
  readonly peek: (params: AuthorisationParams) => Resource | undefined;
  /** The payment service of the parents (fault rules may name one); none for consents. */
  readonly paymentService?: PaymentService;
}

type Handler = (
  context: BankContext,
  request: AuthorisationRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  parents: ParentLookup,
) => Promise<FastifyReply>;

export function registerAuthorisationRoutes(app: FastifyInstance, context: BankContext): void {
  for (const service of PAYMENT_SERVICES) {
    registerFor(app, context, `/:slug/v1/${service}/:product/:paymentId`, {
      find: (bank, params) => findPayment(context, bank, service, params.product ?? '', params.paymentId ?? ''),
      peek: (params) => context.state.peekPayment(params.paymentId ?? ''),
      paymentService: service,
    });
  }
  registerFor(app, context, '/:slug/v1/consents/:consentId', {
    find: (bank, params) => findConsent(context, bank, params.consentId ?? ''),
    peek: (params) => context.state.peekConsent(params.consentId ?? ''),
  });
}

function registerFor(app: FastifyInstance, context: BankContext, base: string, parents: ParentLookup): void {
  /** Every route admits the call (request id, signature, faults) before its handler runs. */
  const route =
    (operation: OperationName, handler: Handler) =>
    async (request: AuthorisationRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const bank = requireBank(context, request.params.slug);
      if (parents.paymentService !== undefined) requireService(bank, parents.paymentService);
      const psuId = psuOf(request, parents.peek(request.params));
      if (!(await admit(context, request, reply, bank, operation, psuId, parents.paymentService))) return reply;
      return handler(context, request, reply, bank, parents);
    };
  app.post<{ Params: AuthorisationParams }>(`${base}/authorisations`, route('startAuthorisation', startAuthorisation));
  app.get<{ Params: AuthorisationParams }>(`${base}/authorisations`, route('getAuthorisations', listAuthorisations));
  app.get<{ Params: AuthorisationParams }>(`${base}/authorisations/:authorisationId`, route('getScaStatus', getScaStatus));
  app.put<{ Params: AuthorisationParams }>(`${base}/authorisations/:authorisationId`, route('updateAuthorisation', updateAuthorisation));
}

async function listAuthorisations(
  _context: BankContext,
  request: AuthorisationRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  parents: ParentLookup,
): Promise<FastifyReply> {
  return sendJson(reply, 200, { authorisationIds: [...parents.find(bank, request.params).authorisationIds] });
}

async function getScaStatus(
  context: BankContext,
  request: AuthorisationRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  parents: ParentLookup,
): Promise<FastifyReply> {
  const authorisation = findAuthorisation(context, parents.find(bank, request.params), request.params.authorisationId);
  return sendJson(reply, 200, { scaStatus: authorisation.scaStatus });
}

// ---- start ------------------------------------------------------------------------------------------------------

async function startAuthorisation(
  context: BankContext,
  request: AuthorisationRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  parents: ParentLookup,
): Promise<FastifyReply> {
  const resource = parents.find(bank, request.params);
  if (!context.state.isOpen(resource))
    throw new Xs2aError('STATUS_INVALID', `The ${resource.kind} does not allow additional authorisation`);
  const body = parseBody(checkAuthorisationBody, request.body);
  if (body.authenticationMethodId !== undefined || body.scaAuthenticationData !== undefined || body.confirmationCode !== undefined) {
    throw new Xs2aError('SERVICE_INVALID', 'Start the authorisation first, then select the method or authorise the transaction');
  }
  const start = { context, request, bank, resource, password: body.psuData?.password };
  const answer =
    resource.approach === 'REDIRECT'
      ? startRedirect(start)
      : resource.approach === 'DECOUPLED'
        ? startDecoupledAuthorisation(start)
        : startEmbedded(start);
  // The standard lets the start of a payment's authorisation name the notification address too.
  const notification = resource.kind === 'payment' ? subscribeToNotifications(context, request, bank, resource) : {};
  return sendJson(reply, 201, answer, { 'ASPSP-SCA-Approach': resource.approach, ...notification });
}

interface StartCall {
  readonly context: BankContext;
  readonly request: FastifyRequest;
  readonly bank: SandboxBankDefinition;
  readonly resource: Resource;
  readonly password: string | undefined;
}

function startRedirect({ context, request, bank, resource, password }: StartCall): Record<string, unknown> {
  if (password !== undefined) throw new Xs2aError('SERVICE_INVALID', 'PSU credentials are entered at the bank in the redirect approach');
  // In the redirect approach an unknown PSU-ID is no error: the payer logs in at the bank anyway.
  const psuId = header(request, 'PSU-ID');
  if (psuId !== undefined) context.state.notePsuIdHint(resource, psuId);
  const authorisation = context.state.createAuthorisation(resource);
  return {
    scaStatus: authorisation.scaStatus,
    authorisationId: authorisation.id,
    _links: {
      scaRedirect: link(context, bank, `/sca/${authorisation.pageToken}`),
      scaStatus: link(context, bank, authorisationPath(resource, authorisation.id)),
    },
  };
}

function startDecoupledAuthorisation({ context, request, bank, resource, password }: StartCall): Record<string, unknown> {
  if (password !== undefined) throw new Xs2aError('SERVICE_INVALID', 'No password is sent in the decoupled approach');
  identifyFromHeader(context, request, resource);
  if (resource.payerId === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-ID header is required for the decoupled approach');
  const authorisation = context.state.createAuthorisation(resource);
  return { authorisationId: authorisation.id, ...startDecoupled(context, bank, resource, authorisation) };
}

function startEmbedded({ context, request, bank, resource, password }: StartCall): Record<string, unknown> {
  if (password === undefined) {
    identifyFromHeader(context, request, resource);
    const authorisation = context.state.createAuthorisation(resource);
    const scaLink = link(context, bank, authorisationPath(resource, authorisation.id));
    return {
      scaStatus: authorisation.scaStatus,
      authorisationId: authorisation.id,
      _links: { updatePsuAuthentication: scaLink, scaStatus: scaLink },
    };
  }
  checkEmbeddedPassword(context, request, resource, password);
  const authorisation = context.state.createAuthorisation(resource);
  return { authorisationId: authorisation.id, ...afterAuthentication(context, bank, resource, authorisation) };
}

/** The embedded login: the password of the payer the PSU-ID (or the resource) names. */
function checkEmbeddedPassword(context: BankContext, request: FastifyRequest, resource: Resource, password: string): void {
  const psuId = header(request, 'PSU-ID') ?? resource.payerId ?? resource.psuId;
  if (psuId === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-ID header is required with PSU credentials');
  const check = context.state.checkPassword(resource, psuId, password);
  if (check !== 'ok') throw credentialsError(check, 'password');
}

// ---- update -----------------------------------------------------------------------------------------------------

interface UpdateCall {
  readonly context: BankContext;
  readonly request: FastifyRequest;
  readonly bank: SandboxBankDefinition;
  readonly resource: Resource;
  readonly authorisation: Authorisation;
  readonly body: AuthorisationBody;
}

async function updateAuthorisation(
  context: BankContext,
  request: AuthorisationRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  parents: ParentLookup,
): Promise<FastifyReply> {
  const resource = parents.find(bank, request.params);
  const authorisation = findAuthorisation(context, resource, request.params.authorisationId);
  const body = parseBody(checkAuthorisationBody, request.body);
  if (authorisation.scaStatus === 'failed')
    throw new Xs2aError('SCA_INVALID', 'The authorisation has failed; start a new one if the resource allows it');
  if (isFinalScaStatus(authorisation.scaStatus) || !context.state.isOpen(resource)) {
    throw new Xs2aError('STATUS_INVALID', 'The authorisation is already final');
  }
  if (body.confirmationCode !== undefined) throw new Xs2aError('SERVICE_INVALID', 'Authorisation confirmation is not used by this bank');
  const call: UpdateCall = { context, request, bank, resource, authorisation, body };
  const answer =
    body.psuData?.password !== undefined
      ? updatePassword(call, body.psuData.password)
      : body.authenticationMethodId !== undefined
        ? updateScaMethod(call, body.authenticationMethodId)
        : body.scaAuthenticationData !== undefined
          ? updateOneTimeCode(call, body.scaAuthenticationData)
          : updatePsuIdentification(call);
  return sendJson(reply, 200, answer, { 'ASPSP-SCA-Approach': authorisation.approach });
}

function updatePassword({ context, request, bank, resource, authorisation }: UpdateCall, password: string): Record<string, unknown> {
  if (authorisation.approach !== 'EMBEDDED')
    throw new Xs2aError('SERVICE_INVALID', 'PSU credentials are not sent through the API in this approach');
  if (authorisation.scaStatus !== 'received' && authorisation.scaStatus !== 'psuIdentified') {
    throw new Xs2aError('SERVICE_INVALID', 'The payer is already authenticated');
  }
  checkEmbeddedPassword(context, request, resource, password);
  return afterAuthentication(context, bank, resource, authorisation);
}

function updateScaMethod({ context, bank, resource, authorisation }: UpdateCall, methodId: string): Record<string, unknown> {
  if (authorisation.approach === 'REDIRECT')
    throw new Xs2aError('SERVICE_INVALID', 'The payer selects the SCA method at the bank in the redirect approach');
  if (authorisation.scaStatus !== 'psuAuthenticated' && authorisation.scaStatus !== 'scaMethodSelected') {
    throw new Xs2aError('SERVICE_INVALID', 'Authenticate the payer before selecting an SCA method');
  }
  const method = context.state.scaMethods(resource).find((candidate) => candidate.authenticationMethodId === methodId);
  if (method === undefined) throw new Xs2aError('SCA_METHOD_UNKNOWN', "authenticationMethodId is not one of the payer's SCA methods");
  context.state.selectScaMethod(authorisation, method.authenticationMethodId);
  return methodSelectedAnswer(context, bank, resource, authorisation, method);
}

function updateOneTimeCode({ context, bank, resource, authorisation }: UpdateCall, code: string): Record<string, unknown> {
  if (authorisation.approach !== 'EMBEDDED' || authorisation.scaStatus !== 'scaMethodSelected') {
    throw new Xs2aError('SERVICE_INVALID', 'No one-time code is expected in this state');
  }
  const scaLink = link(context, bank, authorisationPath(resource, authorisation.id));
  const check = context.state.checkCode(authorisation, resource, code);
  if (check === 'scaFailed')
    return { scaStatus: 'failed', psuMessage: 'Strong customer authentication failed.', _links: { scaStatus: scaLink } };
  if (check !== 'ok') throw credentialsError(check, 'one-time code');
  context.state.completeAuthorisation(authorisation, resource, 'finalised');
  return { scaStatus: 'finalised', _links: { scaStatus: scaLink, status: link(context, bank, `${resourcePath(resource)}/status`) } };
}

/** An empty body updates the PSU identification (PSU-ID header), as the decoupled approach needs. */
function updatePsuIdentification({ context, request, bank, resource, authorisation }: UpdateCall): Record<string, unknown> {
  if (header(request, 'PSU-ID') === undefined)
    throw new Xs2aError('FORMAT_ERROR', 'Nothing to update: send PSU-ID, psuData, authenticationMethodId or scaAuthenticationData');
  identifyFromHeader(context, request, resource);
  if (authorisation.approach === 'DECOUPLED') return startDecoupled(context, bank, resource, authorisation);
  context.state.markIdentified(authorisation);
  const scaLink = link(context, bank, authorisationPath(resource, authorisation.id));
  return { scaStatus: 'psuIdentified', _links: { updatePsuAuthentication: scaLink, scaStatus: scaLink } };
}
