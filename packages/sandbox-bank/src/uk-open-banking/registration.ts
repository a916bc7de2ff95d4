/**
 * Client registration at the UK sandbox banks: the Open Banking Dynamic Client Registration profile (v3.3/3.4,
 * RFC 7591/7592) — `POST /register` with a JWT signed by the TPP that carries its software statement assertion
 * (SSA), `GET`/`PUT`/`DELETE /register/{ClientId}` with a bearer token — and, outside strict mode, the sandbox's
 * own shortcut of a plain JSON body with the client's keys (docs/sandbox-bank-uk.md, "Client registration").
 *
 * A DCR request is accepted when the SSA verifies against the directory key the sandbox is configured with, the
 * request verifies against the SSA's `software_jwks` with `iss` the SSA's `software_id` and `aud` this bank, and
 * the metadata is what the bank offers. Every JOSE step goes through jose.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { header } from '../shared/plumbing.js';
import { checkClientCertificate, sameDn, subjectDn } from '../shared/strict.js';
import type { UkSandboxBank } from './banks.js';
import { CIBA_GRANT, issuer, requireBank, type UkContext } from './context.js';
import { OAuthError } from './errors.js';
import type { DynamicRegistration, RegisteredClient } from './state.js';

type SlugParams = { slug: string };
type ClientParams = { slug: string; clientId: string };
type Claims = Record<string, unknown>;

/** RFC 7591 3.2.2 error codes, as the DCR OpenAPI file's `RegistrationError` lists them. */
type RegistrationErrorCode =
  'invalid_redirect_uri' | 'invalid_client_metadata' | 'invalid_software_statement' | 'unapproved_software_statement';

function refused(code: RegistrationErrorCode, description: string): OAuthError {
  return new OAuthError(code, description, 400);
}

const PS256 = 'PS256';
const GRANTS_OFFERED = ['client_credentials', 'authorization_code', 'refresh_token', CIBA_GRANT];
const BASE62 = /^[0-9a-zA-Z]{1,22}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function registerClientRegistrationRoutes(app: FastifyInstance, context: UkContext): void {
  app.post<{ Params: SlugParams }>('/:slug/register', (request, reply) => register(context, request, reply));
  app.get<{ Params: ClientParams }>('/:slug/register/:clientId', async (request, reply) => {
    const client = registrationOwner(context, request);
    return reply.header('Cache-Control', 'no-store').send(registrationAnswer(client));
  });
  app.put<{ Params: ClientParams }>('/:slug/register/:clientId', async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    const current = registrationOwner(context, request);
    const client = await dynamicRegistration(context, bank, request, current.clientId);
    context.state.registerClient(client);
    return reply.header('Cache-Control', 'no-store').send(registrationAnswer(client, true));
  });
  app.delete<{ Params: ClientParams }>('/:slug/register/:clientId', async (request, reply) => {
    const client = registrationOwner(context, request);
    context.state.removeClient(client.clientId);
    return reply.code(204).send();
  });
}

async function register(context: UkContext, request: FastifyRequest<{ Params: SlugParams }>, reply: FastifyReply): Promise<FastifyReply> {
  const bank = requireBank(context, request.params.slug);
  const client =
    typeof request.body === 'object' && request.body !== null
      ? plainRegistration(context, request.body as Claims)
      : await dynamicRegistration(context, bank, request, randomUUID());
  context.state.registerClient(client);
  return reply.code(201).header('Cache-Control', 'no-store').send(registrationAnswer(client, true));
}

/** The answer of a registration: the DCR answer (with its access token when just issued), or the plain one. */
function registrationAnswer(client: RegisteredClient, withToken = false): Claims {
  if (client.registration === undefined) {
    return {
      client_id: client.clientId,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: 'private_key_jwt',
      jws_issuer: client.signingIssuer,
      grant_types: ['client_credentials', 'authorization_code', CIBA_GRANT],
    };
  }
  return withToken
    ? { ...client.registration.answer, registration_access_token: client.registration.registrationAccessToken }
    : client.registration.answer;
}

/**
 * The client that owns the registration a GET, PUT or DELETE names: the bearer token is its registration access
 * token or an access token issued to it. An unknown ClientId is 401 and the token is revoked (DCR 3.3).
 */
function registrationOwner(context: UkContext, request: FastifyRequest<{ Params: ClientParams }>): RegisteredClient {
  requireBank(context, request.params.slug);
  const token = /^Bearer\s+(\S+)$/i.exec(header(request, 'authorization') ?? '')?.[1];
  if (token === undefined) throw new OAuthError('invalid_token', 'A bearer token is required (the registration access token)', 401);
  const owner = context.state.clientByRegistrationToken(token) ?? clientOfAccessToken(context, token);
  if (owner === undefined) throw new OAuthError('invalid_token', 'The bearer token is unknown or expired', 401);
  const named = context.state.client(request.params.clientId);
  if (named === undefined) {
    context.state.revokeToken(token);
    throw new OAuthError('invalid_token', 'Unknown ClientId; the token is revoked', 401);
  }
  if (named.clientId !== owner.clientId) throw new OAuthError('access_denied', 'The token belongs to another client', 403);
  return named;
}

function clientOfAccessToken(context: UkContext, value: string): RegisteredClient | undefined {
  const token = context.state.token(value);
  return token === undefined ? undefined : context.state.client(token.clientId);
}

/** The sandbox's shortcut (not in strict mode): a client brings its public keys in plain JSON. */
function plainRegistration(context: UkContext, body: Claims): RegisteredClient {
  if (context.strict !== undefined) {
    throw refused(
      'invalid_client_metadata',
      'This bank registers clients through dynamic client registration only: POST the signed registration request (a JWT carrying the software statement) as application/jwt',
    );
  }
  const jwks = publicKeySet(body['jwks'], () =>
    refused('invalid_client_metadata', 'jwks with at least one public key (with a kid) is required'),
  );
  const clientId = body['client_id'] === undefined ? randomUUID() : body['client_id'];
  if (typeof clientId !== 'string' || !/^[A-Za-z0-9._-]{1,128}$/.test(clientId))
    throw refused('invalid_client_metadata', 'client_id must be 1–128 of A-Z a-z 0-9 . _ -');
  const redirectUris = body['redirect_uris'] ?? [];
  if (!Array.isArray(redirectUris) || !redirectUris.every((uri) => typeof uri === 'string' && URL.canParse(uri))) {
    throw refused('invalid_redirect_uri', 'redirect_uris must be absolute URIs');
  }
  const signingIssuer = body['jws_issuer'] ?? clientId;
  if (typeof signingIssuer !== 'string' || signingIssuer === '') throw refused('invalid_client_metadata', 'jws_issuer must be a string');
  return { clientId, jwks, redirectUris, signingIssuer };
}

/** A JWK set of public keys, each with a `kid`; `problem` otherwise. */
function publicKeySet(value: unknown, problem: () => OAuthError): JSONWebKeySet {
  const keys = typeof value === 'object' && value !== null ? (value as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw problem();
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || 'd' in key || typeof (key as { kid?: unknown }).kid !== 'string') throw problem();
  }
  return { keys };
}

/** A DCR request (the body is the JWT, as `application/jwt`, or a JSON string as the OpenAPI file has it). */
async function dynamicRegistration(
  context: UkContext,
  bank: UkSandboxBank,
  request: FastifyRequest,
  clientId: string,
): Promise<RegisteredClient> {
  const jwt = typeof request.body === 'string' ? request.body.trim() : undefined;
  if (jwt === undefined || jwt === '') throw refused('invalid_client_metadata', 'The body must be the signed registration request (a JWT)');
  let unverified: Claims;
  try {
    unverified = decodeJwt(jwt);
  } catch {
    throw refused('invalid_client_metadata', 'The body is not a JWT');
  }
  const statement = await verifiedSoftwareStatement(context, unverified['software_statement']);
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(jwt, createLocalJWKSet(statement.jwks), {
      algorithms: [PS256],
      issuer: statement.softwareId,
      audience: [bank.slug, issuer(context, bank)],
      requiredClaims: ['iat', 'exp', 'jti'],
      currentDate: context.state.now(),
      clockTolerance: 60,
    }));
  } catch (error) {
    throw refused(
      'invalid_client_metadata',
      `The registration request does not verify against the software statement's keys (iss must be its software_id, aud this bank): ${(error as Error).message}`,
    );
  }
  if (typeof claims.jti !== 'string' || !UUID_V4.test(claims.jti)) throw refused('invalid_client_metadata', 'jti must be a UUID v4');
  const registration = registrationMetadata(context, request, claims, statement);
  const signingIssuer =
    statement.organisationId === undefined ? statement.softwareId : `${statement.organisationId}/${statement.softwareId}`;
  const answer: Claims = {
    // The SSA's claims flattened into the answer (DCR "Data Dictionary"), then the request's, then the bank's.
    ...Object.fromEntries(Object.entries(statement.claims).filter(([name]) => !['iss', 'iat', 'exp', 'jti', 'aud'].includes(name))),
    ...claims,
    aud: bank.slug,
    client_id: clientId,
    client_id_issued_at: Math.floor(context.state.now().getTime() / 1000),
    registration_client_uri: `${issuer(context, bank)}/register/${clientId}`,
  };
  const dynamic: DynamicRegistration = {
    answer,
    registrationAccessToken: randomBytes(32).toString('base64url'),
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    tlsClientAuthSubjectDn: registration.tlsClientAuthSubjectDn,
  };
  return { clientId, jwks: statement.jwks, redirectUris: registration.redirectUris, signingIssuer, registration: dynamic };
}

interface SoftwareStatement {
  readonly claims: Claims;
  readonly softwareId: string;
  readonly organisationId: string | undefined;
  readonly jwks: JSONWebKeySet;
  readonly redirectUris: readonly string[] | undefined;
}

/** The SSA, verified against the directory's key; its software id, keys and redirect URIs. */
async function verifiedSoftwareStatement(context: UkContext, value: unknown): Promise<SoftwareStatement> {
  if (typeof value !== 'string' || value === '') throw refused('invalid_software_statement', 'software_statement is required');
  if (context.directoryKeys === undefined) {
    throw refused(
      'unapproved_software_statement',
      'This bank is configured with no directory key, so it can approve no software statement',
    );
  }
  let claims: Claims;
  try {
    ({ payload: claims } = await jwtVerify(value, context.directoryKeys, {
      algorithms: [PS256],
      currentDate: context.state.now(),
      clockTolerance: 60,
    }));
  } catch (error) {
    throw refused(
      'unapproved_software_statement',
      `The software statement does not verify against the directory's key: ${(error as Error).message}`,
    );
  }
  const softwareId = claims['software_id'];
  if (typeof softwareId !== 'string' || !BASE62.test(softwareId))
    throw refused('invalid_software_statement', 'The software statement has no software_id (Base62, at most 22 characters)');
  const jwks = publicKeySet(claims['software_jwks'], () =>
    refused(
      'invalid_software_statement',
      'The software statement must carry software_jwks (public keys with a kid): this bank fetches no JWKS endpoint',
    ),
  );
  const redirectUris = claims['software_redirect_uris'];
  return {
    claims,
    softwareId,
    organisationId: typeof claims['org_id'] === 'string' ? claims['org_id'] : undefined,
    jwks,
    redirectUris: Array.isArray(redirectUris) ? redirectUris.filter((uri): uri is string => typeof uri === 'string') : undefined,
  };
}

interface RegistrationMetadata {
  readonly redirectUris: readonly string[];
  readonly tokenEndpointAuthMethod: 'private_key_jwt' | 'tls_client_auth';
  readonly tlsClientAuthSubjectDn: string | undefined;
}

/** The request's client metadata against what the bank offers (DCR's data dictionary, the bank's discovery). */
function registrationMetadata(
  context: UkContext,
  request: FastifyRequest,
  claims: Claims,
  statement: SoftwareStatement,
): RegistrationMetadata {
  const strings = (name: string): string[] | undefined => {
    const value = claims[name];
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
  };
  const redirectUris = strings('redirect_uris') ?? statement.redirectUris;
  if (redirectUris === undefined || redirectUris.length === 0) throw refused('invalid_redirect_uri', 'redirect_uris is required');
  for (const uri of redirectUris) {
    if (!URL.canParse(uri) || (context.strict !== undefined && new URL(uri).protocol !== 'https:'))
      throw refused('invalid_redirect_uri', `${uri} is not an absolute ${context.strict === undefined ? '' : 'https '}URI`);
    if (statement.redirectUris !== undefined && !statement.redirectUris.includes(uri))
      throw refused('invalid_redirect_uri', `${uri} is not among the software statement's software_redirect_uris`);
  }
  if (claims['software_id'] !== undefined && claims['software_id'] !== statement.softwareId)
    throw refused('invalid_client_metadata', "software_id differs from the software statement's");
  const method = claims['token_endpoint_auth_method'];
  if (method !== 'private_key_jwt' && method !== 'tls_client_auth')
    throw refused('invalid_client_metadata', 'token_endpoint_auth_method must be private_key_jwt or tls_client_auth');
  const grants = strings('grant_types');
  if (grants === undefined || grants.length === 0 || !grants.every((grant) => GRANTS_OFFERED.includes(grant)))
    throw refused('invalid_client_metadata', `grant_types must be some of ${GRANTS_OFFERED.join(', ')}`);
  const scope = claims['scope'];
  if (typeof scope !== 'string' || !scope.split(' ').includes('payments'))
    throw refused('invalid_client_metadata', 'scope must include payments (the only service this bank offers)');
  if (claims['application_type'] !== undefined && claims['application_type'] !== 'web')
    throw refused('invalid_client_metadata', 'application_type must be web');
  for (const name of ['id_token_signed_response_alg', 'request_object_signing_alg']) {
    if (claims[name] !== PS256) throw refused('invalid_client_metadata', `${name} must be PS256`);
  }
  if (method === 'private_key_jwt' && claims['token_endpoint_auth_signing_alg'] !== PS256)
    throw refused('invalid_client_metadata', 'token_endpoint_auth_signing_alg must be PS256 for private_key_jwt');
  const dn = claims['tls_client_auth_subject_dn'];
  if (method === 'tls_client_auth') {
    if (typeof dn !== 'string' || dn === '') throw refused('invalid_client_metadata', 'tls_client_auth needs tls_client_auth_subject_dn');
    if (context.strict !== undefined) {
      const tls = checkClientCertificate(request, context.strict, context.state.now());
      if (tls.ok && !sameDn(subjectDn(tls.certificate), dn))
        throw refused(
          'invalid_client_metadata',
          `tls_client_auth_subject_dn is not the subject of the TLS client certificate (${subjectDn(tls.certificate)})`,
        );
    }
  }
  return {
    redirectUris,
    tokenEndpointAuthMethod: method,
    tlsClientAuthSubjectDn: method === 'tls_client_auth' ? (dn as string) : undefined,
  };
}
