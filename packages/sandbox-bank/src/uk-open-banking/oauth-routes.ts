/**
 * The authorisation server of each UK sandbox bank: OpenID discovery, JWKS, client registration, the token
 * endpoint (client credentials, authorization code, CIBA poll), `/authorize` (FAPI 1 Advanced hybrid flow with a
 * signed request object) and CIBA's backchannel authentication endpoint.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { UkSandboxBank } from './banks.js';
import {
  admit,
  authenticateClient,
  bankKey,
  CIBA_GRANT,
  decodePayload,
  issuer,
  requireBank,
  resourceBase,
  type UkContext,
} from './context.js';
import { OAuthError } from './errors.js';
import { issueIdToken } from './id-token.js';
import { renderAuthorisationError } from './pages.js';
import { registerClientRegistrationRoutes } from './registration.js';
import { ACCESS_TOKEN_SECONDS, CIBA_EXPIRES_SECONDS, type RegisteredClient } from './state.js';

type Form = Record<string, unknown>;
type SlugParams = { slug: string };

/** How long the payer has on the bank's pages after `/authorize`. */
const PAGE_SESSION_SECONDS = 15 * 60;
/** CIBA poll interval announced to the TPP. */
const CIBA_INTERVAL_SECONDS = 1;

type SlugRequest = FastifyRequest<{ Params: SlugParams }>;
type AuthorizeRequest = FastifyRequest<{ Params: SlugParams; Querystring: Record<string, string | undefined> }>;

export function registerOAuthRoutes(app: FastifyInstance, context: UkContext): void {
  app.get<{ Params: SlugParams }>('/:slug/.well-known/openid-configuration', (request, reply) => discovery(context, request, reply));
  app.get<{ Params: SlugParams }>('/:slug/jwks', (request, reply) => jwks(context, request, reply));
  // Client registration (dynamic client registration and the sandbox's shortcut): registration.ts.
  registerClientRegistrationRoutes(app, context);
  app.post<{ Params: SlugParams }>('/:slug/token', (request, reply) => tokenEndpoint(context, request, reply));
  app.get<{ Params: SlugParams; Querystring: Record<string, string | undefined> }>('/:slug/authorize', (request, reply) =>
    authorize(context, request, reply),
  );
  app.post<{ Params: SlugParams }>('/:slug/backchannel-authentication', (request, reply) =>
    backchannelAuthentication(context, request, reply),
  );
}

async function discovery(context: UkContext, request: SlugRequest, reply: FastifyReply): Promise<FastifyReply> {
  const bank = requireBank(context, request.params.slug);
  const base = issuer(context, bank);
  return reply.send({
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    jwks_uri: `${base}/jwks`,
    registration_endpoint: `${base}/register`,
    ...(bank.flow === 'decoupled'
      ? {
          backchannel_authentication_endpoint: `${base}/backchannel-authentication`,
          backchannel_token_delivery_modes_supported: ['poll'],
          backchannel_authentication_request_signing_alg_values_supported: ['PS256'],
          backchannel_user_code_parameter_supported: false,
        }
      : {}),
    scopes_supported: ['openid', 'payments'],
    response_types_supported: bank.flow === 'redirect' ? ['code id_token'] : [],
    response_modes_supported: ['fragment', 'form_post'],
    grant_types_supported: ['client_credentials', bank.flow === 'redirect' ? 'authorization_code' : CIBA_GRANT],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['PS256'],
    request_object_signing_alg_values_supported: ['PS256'],
    request_parameter_supported: true,
    require_request_uri_registration: false,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['PS256'],
    claims_supported: ['openbanking_intent_id', 'acr', 'sub', 'nonce', 'c_hash', 's_hash'],
    acr_values_supported: ['urn:openbanking:psd2:sca'],
    // Where this bank's payment API lives (not an OIDC field; a convenience for client developers).
    'openpis:resource_base': resourceBase(context, bank),
  });
}

async function jwks(context: UkContext, request: SlugRequest, reply: FastifyReply): Promise<FastifyReply> {
  const bank = requireBank(context, request.params.slug);
  return reply.send({ keys: [(await bankKey(context, bank)).publicJwk] });
}

/** The token endpoint: the client authenticates, then the grant decides what it gets. */
async function tokenEndpoint(context: UkContext, request: SlugRequest, reply: FastifyReply): Promise<FastifyReply> {
  const bank = requireBank(context, request.params.slug);
  const form = asForm(request.body);
  if (!(await admit(context, request, reply, bank, 'token', undefined))) return reply;
  const client = await authenticateClient(context, bank, request, form, `${issuer(context, bank)}/token`);
  void reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  const grant: GrantCall = { context, bank, client, form };
  switch (form['grant_type']) {
    case 'client_credentials':
      return reply.send(clientCredentialsGrant(grant));
    case 'authorization_code':
      return reply.send(await authorizationCodeGrant(grant));
    case CIBA_GRANT:
      return reply.send(await cibaGrant(grant));
    default:
      throw new OAuthError('unsupported_grant_type', 'grant_type must be client_credentials, authorization_code or the CIBA grant');
  }
}

interface GrantCall {
  readonly context: UkContext;
  readonly bank: UkSandboxBank;
  readonly client: RegisteredClient;
  readonly form: Form;
}

function clientCredentialsGrant({ context, client, form }: GrantCall): Record<string, unknown> {
  const { state } = context;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a repeated or odd field becomes text that fails the scope check below
  const scopes = String(form['scope'] ?? 'payments')
    .split(' ')
    .filter((scope) => scope !== '');
  if (!scopes.every((scope) => scope === 'payments' || scope === 'openid'))
    throw new OAuthError('invalid_scope', 'Only the payments scope is offered');
  const token = state.issueToken({ clientId: client.clientId, scope: 'payments', grant: 'client_credentials', consentId: undefined });
  return { access_token: token.token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: token.scope };
}

async function authorizationCodeGrant({ context, bank, client, form }: GrantCall): Promise<Record<string, unknown>> {
  const { state } = context;
  const code = typeof form['code'] === 'string' ? state.takeCode(form['code']) : undefined;
  if (code === undefined || code.clientId !== client.clientId)
    throw new OAuthError('invalid_grant', 'Unknown, used or expired authorization code');
  if (form['redirect_uri'] !== code.redirectUri)
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
  const token = state.issueToken({
    clientId: client.clientId,
    scope: 'openid payments',
    grant: 'authorization_code',
    consentId: code.consentId,
  });
  const idToken = await issueIdToken(context, bank, client.clientId, code.consentId, { nonce: code.nonce });
  return { access_token: token.token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: token.scope, id_token: idToken };
}

async function cibaGrant({ context, bank, client, form }: GrantCall): Promise<Record<string, unknown>> {
  const { state } = context;
  const session = typeof form['auth_req_id'] === 'string' ? state.sessionByAuthReqId(form['auth_req_id']) : undefined;
  if (session === undefined || session.clientId !== client.clientId || session.bank !== bank.slug)
    throw new OAuthError('invalid_grant', 'Unknown auth_req_id');
  if (session.outcome === 'denied') throw new OAuthError('access_denied', 'The payer denied the request');
  if (session.outcome === undefined) {
    if (session.expiresAt <= state.now()) throw new OAuthError('expired_token', 'The auth_req_id has expired');
    throw new OAuthError('authorization_pending', 'The payer has not decided yet');
  }
  if (session.code === 'redeemed') throw new OAuthError('invalid_grant', 'The auth_req_id was already exchanged');
  state.redeemCibaSession(session);
  const token = state.issueToken({ clientId: client.clientId, scope: 'openid payments', grant: 'ciba', consentId: session.consentId });
  const idToken = await issueIdToken(context, bank, client.clientId, session.consentId, { nonce: undefined, authReqId: session.authReqId });
  return { access_token: token.token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: token.scope, id_token: idToken };
}

async function authorize(context: UkContext, request: AuthorizeRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = context.banks.get(request.params.slug);
  if (bank === undefined || bank.flow !== 'redirect')
    return renderAuthorisationError(reply, bank, 'This bank has no redirect authorisation.');
  const query = request.query;
  const client = query['client_id'] === undefined ? undefined : state.client(query['client_id']);
  if (client === undefined) return renderAuthorisationError(reply, bank, 'Unknown client_id.');
  if (typeof query['request'] !== 'string') return renderAuthorisationError(reply, bank, 'A signed request object (request) is required.');
  let claims: JWTPayload;
  try {
    claims = await verifyRequestObject(context, bank, client, query['request']);
  } catch (error) {
    return renderAuthorisationError(reply, bank, `The request object is not acceptable: ${(error as Error).message}`);
  }
  // FAPI: the request object's parameters are the ones that count; the query must not contradict them.
  const redirectUri = typeof claims['redirect_uri'] === 'string' ? claims['redirect_uri'] : undefined;
  if (redirectUri === undefined || !redirectAllowed(client, redirectUri))
    return renderAuthorisationError(reply, bank, 'redirect_uri is missing or not registered.');
  if (query['redirect_uri'] !== undefined && query['redirect_uri'] !== redirectUri)
    return renderAuthorisationError(reply, bank, 'redirect_uri differs from the request object.');
  const stateValue = typeof claims['state'] === 'string' ? claims['state'] : undefined;
  const responseMode = claims['response_mode'] === 'form_post' ? 'form_post' : 'fragment';
  const fail = (error: string, description: string): FastifyReply => {
    const parameters = new URLSearchParams({
      error,
      error_description: description,
      ...(stateValue === undefined ? {} : { state: stateValue }),
    });
    return reply.code(303).header('Location', `${redirectUri}#${parameters.toString()}`).send();
  };
  if (claims['response_type'] !== 'code id_token') return fail('unsupported_response_type', 'response_type must be "code id_token"');
  if (typeof claims['nonce'] !== 'string' || claims['nonce'] === '') return fail('invalid_request', 'nonce is required');
  if (
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scope claim that is not a string becomes text without `openid` and is refused
    !String(claims['scope'] ?? '')
      .split(' ')
      .includes('openid')
  )
    return fail('invalid_scope', 'scope must include openid');
  const consentId = intentId(claims);
  const consent = consentId === undefined ? undefined : state.consent(consentId);
  if (consent === undefined || consent.bank !== bank.slug || consent.clientId !== client.clientId)
    return fail('invalid_request', 'openbanking_intent_id names no consent of this client');
  if (consent.status !== 'AWAU') return fail('invalid_request', `The consent is ${consent.status}, not awaiting authorisation`);
  const session = state.openSession({
    bank: bank.slug,
    consentId: consent.id,
    clientId: client.clientId,
    kind: 'redirect',
    redirectUri,
    state: stateValue,
    nonce: claims['nonce'],
    responseMode,
    hintedPayerId: undefined,
    expiresInSeconds: PAGE_SESSION_SECONDS,
  });
  return reply
    .code(303)
    .header('Location', `${issuer(context, bank)}/pay/${session.pageToken}`)
    .send();
}

async function backchannelAuthentication(context: UkContext, request: SlugRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = requireBank(context, request.params.slug);
  if (bank.flow !== 'decoupled') throw new OAuthError('invalid_request', 'This bank does not offer CIBA');
  const form = asForm(request.body);
  if (!(await admit(context, request, reply, bank, 'backchannelAuthentication', undefined))) return reply;
  const client = await authenticateClient(context, bank, request, form, `${issuer(context, bank)}/backchannel-authentication`);
  if (typeof form['request'] !== 'string') throw new OAuthError('invalid_request', 'A signed request object (request) is required');
  let claims: JWTPayload;
  try {
    claims = await verifyRequestObject(context, bank, client, form['request']);
  } catch (error) {
    throw new OAuthError('invalid_request', `The request object is not acceptable: ${(error as Error).message}`);
  }
  const consentId = intentId(claims);
  const consent = consentId === undefined ? undefined : state.consent(consentId);
  if (consent === undefined || consent.bank !== bank.slug || consent.clientId !== client.clientId)
    throw new OAuthError('invalid_request', 'openbanking_intent_id names no consent of this client');
  if (consent.status !== 'AWAU') throw new OAuthError('invalid_request', `The consent is ${consent.status}, not awaiting authorisation`);
  if (state.hasOpenCibaRequest(consent.id))
    throw new OAuthError('invalid_request', 'A backchannel request for this consent is already open');
  const payerId = hintedPayer(claims);
  if (payerId === undefined) throw new OAuthError('invalid_request', 'login_hint or login_hint_token (sub) must name the payer');
  if (state.payer(payerId) === undefined) throw new OAuthError('unknown_user_id', 'No such payer at this bank');
  const session = state.openSession({
    bank: bank.slug,
    consentId: consent.id,
    clientId: client.clientId,
    kind: 'ciba',
    redirectUri: undefined,
    state: undefined,
    nonce: undefined,
    responseMode: 'fragment',
    hintedPayerId: payerId,
    expiresInSeconds: CIBA_EXPIRES_SECONDS,
  });
  return reply
    .code(200)
    .header('Cache-Control', 'no-store')
    .send({ auth_req_id: session.authReqId, expires_in: CIBA_EXPIRES_SECONDS, interval: CIBA_INTERVAL_SECONDS });
}

/** The signed request object: PS256 by the client's key, iss the client, aud this issuer, nbf and exp at most an hour apart. */
async function verifyRequestObject(context: UkContext, bank: UkSandboxBank, client: RegisteredClient, jwt: string): Promise<JWTPayload> {
  const { payload } = await jwtVerify(jwt, createLocalJWKSet(client.jwks), {
    algorithms: ['PS256'],
    issuer: client.clientId,
    audience: issuer(context, bank),
    currentDate: context.state.now(),
    requiredClaims: ['exp', 'nbf'],
  });
  // FAPI 1 Advanced (5.2.2-13): a request object lives at most 60 minutes from its nbf.
  if (typeof payload.exp === 'number' && typeof payload.nbf === 'number' && payload.exp - payload.nbf > 3600)
    throw new Error('exp is more than 60 minutes after nbf');
  if (payload['client_id'] !== undefined && payload['client_id'] !== client.clientId) throw new Error('client_id does not match');
  return payload;
}

/** The consent id of a request object: the `claims` request (OB's way), or a top-level claim. */
function intentId(claims: JWTPayload): string | undefined {
  const requested = claims['claims'];
  if (typeof requested === 'object' && requested !== null) {
    for (const where of ['id_token', 'userinfo'] as const) {
      const entry = (requested as Record<string, unknown>)[where];
      const intent = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['openbanking_intent_id'] : undefined;
      const value = typeof intent === 'object' && intent !== null ? (intent as Record<string, unknown>)['value'] : undefined;
      if (typeof value === 'string') return value;
    }
  }
  for (const name of ['openbanking_intent_id', 'openbanking-intent-id']) {
    if (typeof claims[name] === 'string') return claims[name];
  }
  return undefined;
}

/** The payer a CIBA request names: `login_hint`, or the `sub` of an (unsigned) `login_hint_token`. */
function hintedPayer(claims: JWTPayload): string | undefined {
  if (typeof claims['login_hint'] === 'string' && claims['login_hint'] !== '') return claims['login_hint'];
  if (typeof claims['login_hint_token'] === 'string') {
    const sub = decodePayload(claims['login_hint_token'])?.['sub'];
    if (typeof sub === 'string' && sub !== '') return sub;
  }
  return undefined;
}

function asForm(body: unknown): Form {
  return typeof body === 'object' && body !== null ? (body as Form) : {};
}

function redirectAllowed(client: RegisteredClient, uri: string): boolean {
  if (client.redirectUris.length > 0) return client.redirectUris.includes(uri);
  try {
    const url = new URL(uri);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === '';
  } catch {
    return false;
  }
}
