/**
 * Our UK Open Banking signing key: loaded from the operator's PKCS#8 PEM (registered with the banks under its
 * `kid`), or made at start for the sandbox banks, which are told its public half. Every JOSE step goes through jose.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exportJWK, generateKeyPair, importPKCS8, type JSONWebKeySet } from 'jose';
import type { SigningKeys } from './jose.js';

const PS256 = 'PS256';

/** The operator's registered key (OB_SIGNING_KEY_FILE and OB_SIGNING_KEY_ID). */
export async function signingKeysFromPem(pem: string, kid: string): Promise<SigningKeys> {
  try {
    return { privateKey: await importPKCS8(pem, PS256, { extractable: true }), kid };
  } catch (error) {
    throw new Error(
      `OB_SIGNING_KEY_FILE is not a PKCS#8 PEM RSA key usable for PS256 (${error instanceof Error ? error.message : 'unreadable'})`,
      { cause: error },
    );
  }
}

let processKeys: Promise<SigningKeys> | undefined;

/**
 * A key for this process only: good for the sandbox banks, which learn its public half at start. Made once per
 * process (an RSA key takes a noticeable time to make, and every app built in the process can use the same one).
 */
export function throwAwaySigningKeys(): Promise<SigningKeys> {
  processKeys ??= generateKeyPair(PS256, { extractable: true, modulusLength: 2048 }).then(({ privateKey }) => ({
    privateKey,
    kid: `openpis-${randomUUID()}`,
  }));
  return processKeys;
}

/** The public half as a JWK set, as a bank's client registration takes it. */
export async function publicKeySet(keys: SigningKeys): Promise<JSONWebKeySet> {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = await exportJWK(keys.privateKey);
  return { keys: [{ ...publicJwk, kid: keys.kid, alg: PS256, use: 'sig' }] };
}

/** Where the operator's key is (OB_SIGNING_KEY_FILE and OB_SIGNING_KEY_ID); none: only the sandbox banks are used. */
export interface ConfiguredSigningKey {
  readonly keyFile: string;
  readonly keyId: string;
}

/** The operator's key when configured, else one made for this process (the sandbox banks are told it). */
export async function loadSigningKeys(configured: ConfiguredSigningKey | undefined): Promise<SigningKeys> {
  if (configured === undefined) return throwAwaySigningKeys();
  return signingKeysFromPem(readFileSync(configured.keyFile, 'utf8'), configured.keyId);
}
