/**
 * Every JOSE operation of the UK connector, through `jose` only: client assertions, request objects, detached
 * message signatures (both ways) and id_token checks. The OIDC `c_hash`/`s_hash` are plain SHA-256 digests
 * (node:crypto), not JOSE.
 */
import { createHash, randomUUID, type KeyObject } from 'node:crypto';
import { base64url, CompactSign, type createLocalJWKSet, flattenedVerify, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/** The bank's public keys, as jose's local JWKS resolver over its fetched `jwks_uri`. */
export type BankKeys = ReturnType<typeof createLocalJWKSet>;

export const PS256 = 'PS256';

/** The profile's three protected header parameters of a message signature, all critical. */
export const OB_IAT = 'http://openbanking.org.uk/iat';
export const OB_ISS = 'http://openbanking.org.uk/iss';
export const OB_TAN = 'http://openbanking.org.uk/tan';
const OB_CRIT = [OB_IAT, OB_ISS, OB_TAN];
const CRIT_ALLOWED = Object.fromEntries(OB_CRIT.map((name) => [name, true]));

/** Our signing key (PS256) and its `kid` as registered with the bank. */
export interface SigningKeys {
  readonly privateKey: CryptoKey | KeyObject;
  readonly kid: string;
}

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** A `private_key_jwt` client assertion (RFC 7523): `iss` = `sub` = our client id, `aud` the endpoint. */
export async function clientAssertion(keys: SigningKeys, clientId: string, audience: string, now: Date): Promise<string> {
  const iat = seconds(now);
  return new SignJWT({})
    .setProtectedHeader({ alg: PS256, kid: keys.kid })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 60)
    .setJti(randomUUID())
    .sign(keys.privateKey);
}

/** A signed request object (authorize or CIBA): `iss` us, `aud` the issuer, `nbf`, and `exp` within FAPI's 60 minutes. */
export async function signedRequestObject(
  keys: SigningKeys,
  claims: JWTPayload,
  clientId: string,
  issuer: string,
  now: Date,
): Promise<string> {
  const nbf = seconds(now);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: PS256, kid: keys.kid, typ: 'oauth-authz-req+jwt' })
    .setIssuer(clientId)
    .setAudience(issuer)
    .setIssuedAt(nbf)
    .setNotBefore(nbf)
    .setExpirationTime(nbf + 30 * 60)
    .setJti(randomUUID())
    .sign(keys.privateKey);
}

/** The `x-jws-signature` of a body: a detached compact JWS with the profile's header claims (Message Signing). */
export async function detachedSignature(
  keys: SigningKeys,
  body: string,
  claims: { readonly jwsIssuer: string; readonly trustAnchor: string; readonly now: Date },
): Promise<string> {
  const header = {
    alg: PS256,
    kid: keys.kid,
    typ: 'JOSE',
    cty: 'application/json',
    [OB_IAT]: seconds(claims.now) - 1,
    [OB_ISS]: claims.jwsIssuer,
    [OB_TAN]: claims.trustAnchor,
    crit: OB_CRIT,
  };
  const jws = await new CompactSign(new TextEncoder().encode(body))
    .setProtectedHeader(header)
    .sign(keys.privateKey, { crit: CRIT_ALLOWED });
  const [protectedHeader, , signature] = jws.split('.');
  return `${protectedHeader}..${signature}`;
}

/**
 * How far the bank's clock may be from ours, in seconds, and how old an id_token or a message signature may be when
 * it reaches us. An id_token is issued as the payer is sent back (front channel) or as we exchange the code or poll
 * CIBA (token endpoint), and a signature as the bank answers: each is seconds old when we check it. Five minutes
 * leaves room for a slow payer's browser and a skewed clock, while an old token or signature replayed is refused.
 */
export const CLOCK_SKEW_SECONDS = 60;
export const MAX_AGE_SECONDS = 5 * 60;

/**
 * Checks the bank's detached signature over the exact body text against its JWKS. Throws (any error) when it does
 * not verify; the caller turns that into a protocol error.
 */
export async function verifyDetachedSignature(
  signature: string,
  body: string,
  keys: BankKeys,
  expected: { readonly trustAnchor: string | undefined; readonly now: Date },
): Promise<void> {
  const parts = signature.split('.');
  if (parts.length !== 3 || parts[1] !== '') throw new Error('not a detached compact JWS');
  const { protectedHeader } = await flattenedVerify(
    { protected: parts[0] ?? '', payload: base64url.encode(body), signature: parts[2] ?? '' },
    keys,
    { algorithms: [PS256], crit: CRIT_ALLOWED },
  );
  // The profile's iat is a NumericDate in whole seconds. jose checks `crit` names are present, not their values, and
  // has no age option for a JWS that is not a JWT: the bound is ours, the same as the id_token's.
  const iat = protectedHeader?.[OB_IAT];
  if (typeof iat !== 'number' || !Number.isInteger(iat)) throw new Error('the signature iat is missing or not a time in seconds');
  const age = seconds(expected.now) - iat;
  if (age < -CLOCK_SKEW_SECONDS) throw new Error('the signature iat is in the future');
  if (age > MAX_AGE_SECONDS + CLOCK_SKEW_SECONDS) throw new Error('the signature iat is too old');
  if (typeof protectedHeader?.[OB_ISS] !== 'string') throw new Error('the signature has no issuer');
  if (expected.trustAnchor !== undefined && protectedHeader?.[OB_TAN] !== expected.trustAnchor)
    throw new Error('the signature names another trust anchor');
}

export interface IdTokenExpectations {
  readonly issuer: string;
  readonly clientId: string;
  readonly consentId: string;
  readonly now: Date;
  readonly nonce?: string;
  /** Front channel: the code and state the id_token must hash (`c_hash`, `s_hash`). */
  readonly code?: string;
  readonly state?: string;
}

/** OIDC Core 2: the claims every id_token carries. */
const ID_TOKEN_REQUIRED_CLAIMS = ['iss', 'sub', 'aud', 'exp', 'iat'];

/**
 * Verifies an id_token of the bank as OIDC Core 3.1.3.7 and 3.3.2.12 ask: PS256 signature by the bank's key, iss,
 * aud (and azp), exp, iat within {@link MAX_AGE_SECONDS}, nonce, the intent id, c_hash and s_hash. Throws otherwise.
 */
export async function verifyIdToken(idToken: string, keys: BankKeys, expected: IdTokenExpectations): Promise<JWTPayload> {
  const { payload } = await jwtVerify(idToken, keys, {
    algorithms: [PS256],
    issuer: expected.issuer,
    audience: expected.clientId,
    requiredClaims: ID_TOKEN_REQUIRED_CLAIMS,
    currentDate: expected.now,
    clockTolerance: CLOCK_SKEW_SECONDS,
    // Also refuses an iat in the future beyond the tolerance.
    maxTokenAge: MAX_AGE_SECONDS,
  });
  // jose accepts an aud array that merely contains us. OIDC: with more than one audience, azp must be present, and
  // when present it must be our client id — otherwise the token was issued to another party that listed us.
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (audiences.length > 1 && payload['azp'] === undefined) throw new Error('several audiences and no azp');
  if (payload['azp'] !== undefined && payload['azp'] !== expected.clientId) throw new Error('azp names another party');
  if (payload['openbanking_intent_id'] !== expected.consentId) throw new Error('openbanking_intent_id names another consent');
  if (expected.nonce !== undefined && payload['nonce'] !== expected.nonce) throw new Error('nonce differs');
  if (expected.code !== undefined && payload['c_hash'] !== leftHalfHash(expected.code)) throw new Error('c_hash differs');
  if (expected.state !== undefined && payload['s_hash'] !== leftHalfHash(expected.state)) throw new Error('s_hash differs');
  return payload;
}

/** OIDC's `c_hash`/`s_hash` for PS256: the left half of the SHA-256 of the ASCII value, base64url. */
export function leftHalfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
