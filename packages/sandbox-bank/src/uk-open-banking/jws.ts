/**
 * JOSE for the UK sandbox banks, all through `jose`: each bank's PS256 signing key (made as it starts, kept in memory),
 * detached `x-jws-signature` on responses, and the check of the TPP's detached request signature as the
 * read-write-data-api-profile's "Message Signing" section describes it.
 */
import { randomUUID } from 'node:crypto';
import {
  base64url,
  CompactSign,
  createLocalJWKSet,
  exportJWK,
  flattenedVerify,
  generateKeyPair,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { ObError } from './errors.js';

export const OB_IAT = 'http://openbanking.org.uk/iat';
export const OB_ISS = 'http://openbanking.org.uk/iss';
export const OB_TAN = 'http://openbanking.org.uk/tan';
const CRITICAL = [OB_IAT, OB_ISS, OB_TAN] as const;
/** jose's `crit` option: these critical parameters are understood (and must be present). */
const CRITICAL_UNDERSTOOD = { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true };
/** The only header parameters a detached signature may carry (profile, "Process for Verifying a Signature"). */
const ALLOWED_HEADER = new Set(['alg', 'typ', 'cty', 'kid', 'crit', ...CRITICAL]);

export interface BankKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export async function generateBankKey(): Promise<BankKey> {
  const { privateKey, publicKey } = await generateKeyPair('PS256', { modulusLength: 2048 });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'PS256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

const processBankKeys = new Map<string, Promise<BankKey>>();

/**
 * The bank's key for this process: made on first use and kept, so every sandbox started in the process (tests start
 * many) does not pay for RSA key generation again. Each bank still has its own key.
 */
export function bankKeyOf(slug: string): Promise<BankKey> {
  let key = processBankKeys.get(slug);
  if (key === undefined) {
    key = generateBankKey();
    processBankKeys.set(slug, key);
  }
  return key;
}

/** A detached JWS (`header..signature`) over the exact body bytes, signed by the bank. */
export async function signDetached(body: string, key: BankKey, issuer: string, trustAnchor: string, now: Date): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(body))
    .setProtectedHeader({
      alg: 'PS256',
      kid: key.kid,
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: Math.floor(now.getTime() / 1000),
      [OB_ISS]: issuer,
      [OB_TAN]: trustAnchor,
      crit: [...CRITICAL],
    })
    .sign(key.privateKey, { crit: CRITICAL_UNDERSTOOD });
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

export interface DetachedSignatureExpectation {
  /** The TPP's public keys. */
  readonly jwks: JSONWebKeySet;
  /** Value `http://openbanking.org.uk/iss` must have. */
  readonly issuer: string;
  /** Trust anchors accepted in `http://openbanking.org.uk/tan`. */
  readonly trustAnchors: readonly string[];
  readonly now: Date;
}

/** Checks a request's `x-jws-signature` against the raw body; throws the standard's error when it fails. */
export async function verifyDetached(
  signature: string | undefined,
  body: Uint8Array,
  expected: DetachedSignatureExpectation,
): Promise<void> {
  if (signature === undefined) throw new ObError('UK.OBIE.Signature.Missing', 'x-jws-signature is required');
  const parts = signature.split('.');
  if (parts.length !== 3 || parts[1] !== '' || parts[0] === '' || parts[2] === '') {
    throw new ObError('UK.OBIE.Signature.Malformed', 'x-jws-signature must be a detached compact JWS (header..signature)');
  }
  const [encodedHeader = '', , encodedSignature = ''] = parts;
  let header: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(base64url.decode(encodedHeader)));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    header = parsed as Record<string, unknown>;
  } catch {
    throw new ObError('UK.OBIE.Signature.Malformed', 'The JOSE header is not a JSON object');
  }
  for (const name of Object.keys(header)) {
    // `b64` went with v3.1.4: the payload is always base64url-encoded, so the claim must not appear at all.
    if (!ALLOWED_HEADER.has(name)) throw new ObError('UK.OBIE.Signature.Unexpected', `Header parameter ${name} is not allowed`);
  }
  if (header['alg'] !== 'PS256') throw new ObError('UK.OBIE.Signature.InvalidClaim', 'alg must be PS256');
  if (header['typ'] !== undefined && header['typ'] !== 'JOSE') throw new ObError('UK.OBIE.Signature.InvalidClaim', 'typ must be JOSE');
  if (header['cty'] !== undefined && header['cty'] !== 'json' && header['cty'] !== 'application/json') {
    throw new ObError('UK.OBIE.Signature.InvalidClaim', 'cty must be json or application/json');
  }
  for (const name of ['kid', ...CRITICAL, 'crit']) {
    if (header[name] === undefined) throw new ObError('UK.OBIE.Signature.MissingClaim', `${name} is missing`);
  }
  const iat = header[OB_IAT];
  if (typeof iat !== 'number' || !Number.isInteger(iat) || iat > Math.floor(expected.now.getTime() / 1000) + 5) {
    throw new ObError('UK.OBIE.Signature.InvalidClaim', `${OB_IAT} must be a time in the past (seconds)`);
  }
  if (header[OB_ISS] !== expected.issuer) throw new ObError('UK.OBIE.Signature.InvalidClaim', `${OB_ISS} does not name this TPP`);
  if (typeof header[OB_TAN] !== 'string' || !expected.trustAnchors.includes(header[OB_TAN])) {
    throw new ObError('UK.OBIE.Signature.InvalidClaim', `${OB_TAN} is not a trusted anchor`);
  }
  const crit = header['crit'];
  if (!Array.isArray(crit) || crit.length !== CRITICAL.length || !CRITICAL.every((name) => crit.includes(name))) {
    throw new ObError('UK.OBIE.Signature.InvalidClaim', `crit must list exactly ${CRITICAL.join(', ')}`);
  }
  try {
    await flattenedVerify(
      { protected: encodedHeader, payload: base64url.encode(body), signature: encodedSignature },
      createLocalJWKSet(expected.jwks),
      { algorithms: ['PS256'], crit: CRITICAL_UNDERSTOOD },
    );
  } catch {
    throw new ObError('UK.OBIE.Signature.Invalid', 'The signature does not verify with the TPP key named by kid');
  }
}
