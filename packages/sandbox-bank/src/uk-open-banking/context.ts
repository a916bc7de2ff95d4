/**
 * What every route of the UK sandbox shares: state, banks and their keys, the fault plan, the public URL; and the
 * plumbing common to the calls: issuer URLs, client authentication (`private_key_jwt`), bearer tokens, the fault
 * gate and signed JSON answers.
 */
import { randomUUID, type X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { FaultPlan } from '../shared/faults.js';
import { payerFixtureFault } from '../shared/fixtures.js';
import { applyFault, header, type RequestKeeping } from '../shared/plumbing.js';
import { checkClientCertificate, sameDn, subjectDn, type TrustedCas } from '../shared/strict.js';
import type { UkSandboxBank } from './banks.js';
import { OAuthError, ObError, Unauthenticated } from './errors.js';
import { FROM_BERLIN_GROUP, type UkFaultRule, type UkOperationName } from './faults.js';
import { signDetached, type BankKey } from './jws.js';
import type { AccessToken, RegisteredClient, UkSandboxState } from './state.js';

export interface UkContext extends RequestKeeping {
  readonly state: UkSandboxState;
  readonly banks: ReadonlyMap<string, UkSandboxBank>;
  /** Each bank's signing key, being made: start-up does not wait for RSA key generation, the first use does. */
  readonly keys: ReadonlyMap<string, Promise<BankKey>>;
  readonly faults: FaultPlan<UkFaultRule>;
  /** Public base URL of the UK sandbox (banks live at `{publicUrl}/{slug}`), without a trailing slash. */
  readonly publicUrl: string;
  /** Trust anchors accepted in request signatures' `http://openbanking.org.uk/tan`. */
  readonly trustAnchors: readonly string[];
  /** Strict mode (a live bank's checks): the CAs TLS client certificates must be issued by; undefined: off. */
  readonly strict: TrustedCas | undefined;
  /** The directory's keys software statements must verify against (dynamic client registration); none: no DCR. */
  readonly directoryKeys: ReturnType<typeof createLocalJWKSet> | undefined;
}

export { header };

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
/** The sandbox banks' own trust anchor name in their response signatures. */
export const SANDBOX_TRUST_ANCHOR = 'sandbox.openpis.invalid';

export function issuer(context: UkContext, bank: UkSandboxBank): string {
  return `${context.publicUrl}/${bank.slug}`;
}

export function resourceBase(context: UkContext, bank: UkSandboxBank): string {
  return `${issuer(context, bank)}/open-banking/v4.0/pisp`;
}

/** The bank named in the path, for OAuth endpoints (unknown: 404 with an OAuth error). */
export function requireBank(context: UkContext, slug: string): UkSandboxBank {
  const bank = context.banks.get(slug);
  if (bank === undefined) throw new OAuthError('invalid_request', `No UK sandbox bank "${slug}"`, 400);
  return bank;
}

export async function bankKey(context: UkContext, bank: UkSandboxBank): Promise<BankKey> {
  const key = context.keys.get(bank.slug);
  if (key === undefined) throw new Error(`no key for ${bank.slug}`);
  return key;
}

/**
 * `private_key_jwt` client authentication (RFC 7523 as OIDC Core 9 uses it): a JWT signed PS256 by a key of the
 * registered client, `iss` = `sub` = client id, `aud` the token endpoint (or the issuer), unexpired.
 */
export async function authenticateClient(
  context: UkContext,
  bank: UkSandboxBank,
  request: FastifyRequest,
  form: Record<string, unknown>,
  endpoint: string,
): Promise<RegisteredClient> {
  const assertionType = form['client_assertion_type'];
  const assertion = form['client_assertion'];
  const named = typeof form['client_id'] === 'string' ? context.state.client(form['client_id']) : undefined;
  if (named?.registration?.tokenEndpointAuthMethod === 'tls_client_auth') return mutualTlsClient(context, request, named);
  if (assertionType !== CLIENT_ASSERTION_TYPE || typeof assertion !== 'string') {
    throw new OAuthError('invalid_client', 'Authenticate with private_key_jwt (client_assertion_type and client_assertion)', 401);
  }
  const unverified = decodePayload(assertion);
  const clientId = typeof unverified?.['iss'] === 'string' ? unverified['iss'] : undefined;
  const client = clientId === undefined ? undefined : context.state.client(clientId);
  if (client === undefined) throw new OAuthError('invalid_client', 'Unknown client (register it first)', 401);
  if (client.registration?.tokenEndpointAuthMethod === 'tls_client_auth')
    throw new OAuthError('invalid_client', 'This client is registered for tls_client_auth: send client_id, no assertion', 401);
  if (form['client_id'] !== undefined && form['client_id'] !== client.clientId)
    throw new OAuthError('invalid_client', 'client_id does not match the assertion', 401);
  try {
    const { payload } = await jwtVerify(assertion, createLocalJWKSet(client.jwks), {
      algorithms: ['PS256'],
      issuer: client.clientId,
      subject: client.clientId,
      audience: [endpoint, issuer(context, bank)],
      currentDate: context.state.now(),
      requiredClaims: ['exp', 'jti'],
    });
    void payload;
  } catch (error) {
    throw new OAuthError('invalid_client', `The client assertion does not verify: ${(error as Error).message}`, 401);
  }
  return client;
}

/** `tls_client_auth` (RFC 8705 2.1): the TLS client certificate's subject is the DN the client registered. */
function mutualTlsClient(context: UkContext, request: FastifyRequest, client: RegisteredClient): RegisteredClient {
  const registered = client.registration?.tlsClientAuthSubjectDn ?? '';
  const tls =
    context.strict === undefined ? peerCertificate(request) : checkClientCertificate(request, context.strict, context.state.now());
  if (!tls.ok) throw new OAuthError('invalid_client', `tls_client_auth: ${tls.text}`, 401);
  if (!sameDn(subjectDn(tls.certificate), registered))
    throw new OAuthError('invalid_client', `tls_client_auth: the TLS client certificate is not the registered ${registered}`, 401);
  return client;
}

/** The TLS client certificate, unchecked (outside strict mode). */
function peerCertificate(request: FastifyRequest): { ok: true; certificate: X509Certificate } | { ok: false; text: string } {
  const socket = request.raw.socket as Partial<TLSSocket>;
  const certificate = typeof socket.getPeerX509Certificate === 'function' ? socket.getPeerX509Certificate() : undefined;
  return certificate === undefined ? { ok: false, text: 'no TLS client certificate was presented' } : { ok: true, certificate };
}

/** The payload of a compact JWT without checking it (to find out who claims to have signed it). */
export function decodePayload(jwt: string): Record<string, unknown> | undefined {
  const part = jwt.split('.')[1];
  if (part === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The bearer token of a resource call; 401 without body when absent, unknown or expired. */
export function bearer(context: UkContext, request: FastifyRequest): AccessToken {
  const value = /^Bearer\s+(\S+)$/i.exec(header(request, 'authorization') ?? '')?.[1];
  const token = value === undefined ? undefined : context.state.token(value);
  if (token === undefined) throw new Unauthenticated('missing or invalid access token');
  if (!token.scope.split(' ').includes('payments'))
    throw new ObError('UK.OBIE.Resource.InvalidConsentStatus', 'The token lacks the payments scope', 403);
  return token;
}

/** The interaction id to play back (the TPP's, or a new one). */
export function interactionId(request: FastifyRequest): string {
  return header(request, 'x-fapi-interaction-id') ?? randomUUID();
}

/** Answers with JSON signed by the bank in `x-jws-signature` (the exact bytes sent are the ones signed). */
export async function sendSigned(
  context: UkContext,
  bank: UkSandboxBank,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
): Promise<FastifyReply> {
  const text = JSON.stringify(body);
  const signature = await signDetached(
    text,
    await bankKey(context, bank),
    `openpis-sandbox/${bank.slug}`,
    SANDBOX_TRUST_ANCHOR,
    context.state.now(),
  );
  return reply
    .code(status)
    .header('x-fapi-interaction-id', interactionId(request))
    .header('x-jws-signature', signature)
    .type('application/json; charset=utf-8')
    .send(text);
}

/**
 * Injected faults of a call (plan rules, then the payer's fixture faults carried over from the Berlin Group
 * operations). Returns false when a fault has taken over the answer.
 */
export async function admit(
  context: UkContext,
  request: FastifyRequest,
  reply: FastifyReply,
  bank: UkSandboxBank,
  operation: UkOperationName,
  psuId: string | undefined,
): Promise<boolean> {
  const fault =
    context.faults.take({ bank: bank.slug, operation, psuId }) ??
    payerFixtureFault(context.state.payer(psuId), (bgOperation) => FROM_BERLIN_GROUP[bgOperation].includes(operation));
  return applyFault(fault, { request, reply, keeping: context }, (status) =>
    reply.code(status).header('x-fapi-interaction-id', interactionId(request)).send(),
  );
}
