/**
 * The UK connector's checks of the bank's id_tokens and `x-jws-signature`s (src/connectors/uk-open-banking/jose.ts),
 * case by case. The id_token cases are the negative (and the few positive) modules of the OpenID conformance suite's
 * `fapi1-advanced-final-client-test-plan` that apply to a client of the hybrid flow and CIBA without encrypted
 * id_tokens; each names the module it follows. The signature cases follow the read-write-data-api-profile's
 * "Message Signing" steps for a TPP verifying a bank's answer.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { base64url, CompactSign, createLocalJWKSet, exportJWK, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import {
  leftHalfHash,
  OB_IAT,
  OB_ISS,
  OB_TAN,
  verifyDetachedSignature,
  verifyIdToken,
  type IdTokenExpectations,
} from '../../../src/connectors/uk-open-banking/jose.js';

const ISSUER = 'https://bank.example/as';
const CLIENT_ID = 'openpis-client';
const CONSENT_ID = 'sdp-1234';
const NONCE = 'n-0S6_WzA2Mj';
const CODE = 'SplxlOBeZQQYbYS6WxSbIA';
const STATE = 'af0ifjsldkj';
const NOW = new Date('2026-03-02T10:00:00Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);
const KID = 'bank-key-1';

/** Node key objects: the same RSA key can sign PS256 and RS256 (the "alternate alg" case needs both). */
const bankKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** The bank's JWKS without `alg` on the key, so that only our own algorithm list stops an RS256 token. */
const bankKeys = createLocalJWKSet({ keys: [{ ...(await exportJWK(bankKey.publicKey)), kid: KID, use: 'sig' }] });

const expected: IdTokenExpectations = {
  issuer: ISSUER,
  clientId: CLIENT_ID,
  consentId: CONSENT_ID,
  now: NOW,
  nonce: NONCE,
  code: CODE,
  state: STATE,
};

/** A front-channel id_token as a conforming bank issues it; `changes` replace claims, `undefined` removes one. */
function claims(changes: Record<string, unknown> = {}): JWTPayload {
  const base: Record<string, unknown> = {
    iss: ISSUER,
    sub: CONSENT_ID,
    aud: CLIENT_ID,
    iat: NOW_SECONDS - 2,
    exp: NOW_SECONDS + 300,
    auth_time: NOW_SECONDS - 10,
    nonce: NONCE,
    openbanking_intent_id: CONSENT_ID,
    acr: 'urn:openbanking:psd2:sca',
    c_hash: leftHalfHash(CODE),
    s_hash: leftHalfHash(STATE),
  };
  const merged: Record<string, unknown> = { ...base, ...changes };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged;
}

function idToken(payload: JWTPayload, options: { alg?: string; key?: KeyObject } = {}): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'PS256', kid: KID, typ: 'JWT' })
    .sign(options.key ?? bankKey.privateKey);
}

async function accepted(token: string, expectations: IdTokenExpectations = expected): Promise<void> {
  await verifyIdToken(token, bankKeys, expectations);
}

async function refused(token: string, expectations: IdTokenExpectations = expected): Promise<void> {
  await assert.rejects(verifyIdToken(token, bankKeys, expectations));
}

describe('UK connector: id_token checks (fapi1-advanced-final-client-test-plan)', () => {
  it('fapi1-advanced-final-client-test (happy path, no at_hash as OB allows): accepted', async () => {
    await accepted(await idToken(claims()));
  });

  it('client-test-valid-aud-as-array: aud [client_id] is accepted', async () => {
    await accepted(await idToken(claims({ aud: [CLIENT_ID] })));
  });

  it('an aud array naming another party as well is accepted only when azp names us (OIDC core 3.1.3.7)', async () => {
    await accepted(await idToken(claims({ aud: [CLIENT_ID, 'another-party'], azp: CLIENT_ID })));
  });

  it('client-test-invalid-secondary-aud: aud [client_id, another] without azp is refused', async () => {
    await refused(await idToken(claims({ aud: [CLIENT_ID, `${CLIENT_ID}1`] })));
  });

  it('an azp naming another party is refused, with or without an aud array', async () => {
    await refused(await idToken(claims({ aud: [CLIENT_ID, 'another-party'], azp: 'another-party' })));
    await refused(await idToken(claims({ azp: 'another-party' })));
  });

  it('client-test-invalid-signature: a token signed by another key is refused', async () => {
    await refused(await idToken(claims(), { key: strangerKey.privateKey }));
    const [header, payload] = (await idToken(claims())).split('.');
    await refused(`${header}.${payload}.${base64url.encode('not the signature')}`);
  });

  it('client-test-invalid-null-alg: an unsecured token (alg none) is refused', async () => {
    await refused(new UnsecuredJWT(claims()).encode());
  });

  it("client-test-invalid-alternate-alg: RS256 with the bank's own key is refused (PS256 only)", async () => {
    await refused(await idToken(claims(), { alg: 'RS256' }));
  });

  it('client-test-invalid-iss and -missing-iss: refused', async () => {
    await refused(await idToken(claims({ iss: 'https://attacker.example/as' })));
    await refused(await idToken(claims({ iss: undefined })));
  });

  it('client-test-invalid-aud and -missing-aud: refused', async () => {
    await refused(await idToken(claims({ aud: 'another-client' })));
    await refused(await idToken(claims({ aud: ['another-client'] })));
    await refused(await idToken(claims({ aud: undefined })));
  });

  it('client-test-invalid-expired-exp and -missing-exp: refused', async () => {
    await refused(await idToken(claims({ iat: NOW_SECONDS - 600, exp: NOW_SECONDS - 300 })));
    await refused(await idToken(claims({ exp: undefined })));
  });

  it('client-test-iat-is-week-in-past, a year-old iat and a missing iat: refused', async () => {
    await refused(await idToken(claims({ iat: NOW_SECONDS - 7 * 86_400 })));
    await refused(await idToken(claims({ iat: NOW_SECONDS - 365 * 86_400, exp: NOW_SECONDS + 300 })));
    await refused(await idToken(claims({ iat: undefined })));
  });

  it('an iat beyond the clock skew in the future is refused; within the skew, accepted', async () => {
    await refused(await idToken(claims({ iat: NOW_SECONDS + 3600, exp: NOW_SECONDS + 3900 })));
    await accepted(await idToken(claims({ iat: NOW_SECONDS + 20 })));
  });

  it('an iat a few minutes old is accepted (the payer took a while to come back)', async () => {
    await accepted(await idToken(claims({ iat: NOW_SECONDS - 120 })));
  });

  it('a missing sub is refused (OIDC core 2: sub is required)', async () => {
    await refused(await idToken(claims({ sub: undefined })));
  });

  it('client-test-invalid-nonce and -missing-nonce: refused', async () => {
    await refused(await idToken(claims({ nonce: 'another-nonce' })));
    await refused(await idToken(claims({ nonce: undefined })));
  });

  it('client-test-invalid-c-hash / -s-hash and missing c_hash / s_hash on the front channel: refused', async () => {
    await refused(await idToken(claims({ c_hash: leftHalfHash('another-code') })));
    await refused(await idToken(claims({ s_hash: leftHalfHash('another-state') })));
    await refused(await idToken(claims({ c_hash: undefined })));
    await refused(await idToken(claims({ s_hash: undefined })));
  });

  it('client-test-invalid-openbanking-intent-id: an id_token for another consent is refused', async () => {
    await refused(await idToken(claims({ openbanking_intent_id: 'sdp-other' })));
  });

  it("the token endpoint's id_token (no nonce, code or state expected) follows the same time and audience rules", async () => {
    const backChannel: IdTokenExpectations = { issuer: ISSUER, clientId: CLIENT_ID, consentId: CONSENT_ID, now: NOW };
    const plain = { nonce: undefined, c_hash: undefined, s_hash: undefined };
    await accepted(await idToken(claims(plain)), backChannel);
    await refused(await idToken(claims({ ...plain, exp: undefined })), backChannel);
    await refused(await idToken(claims({ ...plain, iat: NOW_SECONDS - 7 * 86_400 })), backChannel);
    await refused(await idToken(claims({ ...plain, aud: [CLIENT_ID, 'another-party'] })), backChannel);
  });
});

const BODY = JSON.stringify({
  Data: { ConsentId: CONSENT_ID, Status: 'AWAU' },
  Risk: {},
  Links: { Self: 'https://bank.example/x' },
  Meta: {},
});
const TRUST_ANCHOR = 'openbanking.org.uk';

/** A detached `x-jws-signature` as a bank sends it; `header` replaces or (with undefined) removes parameters. */
async function bankSignature(header: Record<string, unknown> = {}, options: { key?: KeyObject; body?: string } = {}): Promise<string> {
  const merged: Record<string, unknown> = {
    alg: 'PS256',
    kid: KID,
    typ: 'JOSE',
    cty: 'application/json',
    [OB_IAT]: NOW_SECONDS - 1,
    [OB_ISS]: 'bank-org-id',
    [OB_TAN]: TRUST_ANCHOR,
    crit: [OB_IAT, OB_ISS, OB_TAN],
    ...header,
  };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const crit = Object.fromEntries((merged['crit'] as string[]).map((name) => [name, true]));
  const jws = await new CompactSign(new TextEncoder().encode(options.body ?? BODY))
    .setProtectedHeader(merged as { alg: string })
    .sign(options.key ?? bankKey.privateKey, { crit });
  const [encodedHeader, , signature] = jws.split('.');
  return `${encodedHeader}..${signature}`;
}

function verifySignature(signature: string, body = BODY): Promise<void> {
  return verifyDetachedSignature(signature, body, bankKeys, { trustAnchor: TRUST_ANCHOR, now: NOW });
}

describe("UK connector: x-jws-signature checks of the bank's answers", () => {
  it('a fresh signature over the exact body is accepted', async () => {
    await verifySignature(await bankSignature());
  });

  it('a signature whose iat is a year old, or a week old, is refused', async () => {
    await assert.rejects(verifySignature(await bankSignature({ [OB_IAT]: NOW_SECONDS - 365 * 86_400 })));
    await assert.rejects(verifySignature(await bankSignature({ [OB_IAT]: NOW_SECONDS - 7 * 86_400 })));
  });

  it('a signature a minute or two old is accepted (clock skew)', async () => {
    await verifySignature(await bankSignature({ [OB_IAT]: NOW_SECONDS - 90 }));
  });

  it('a signature from the future beyond the skew is refused', async () => {
    await assert.rejects(verifySignature(await bankSignature({ [OB_IAT]: NOW_SECONDS + 3600 })));
  });

  it('an iat that is not a whole number of seconds is refused', async () => {
    await assert.rejects(verifySignature(await bankSignature({ [OB_IAT]: String(NOW_SECONDS) })));
    await assert.rejects(verifySignature(await bankSignature({ [OB_IAT]: NOW_SECONDS - 0.5 })));
  });

  it('another trust anchor, another key, RS256 or another body are refused', async () => {
    await assert.rejects(verifySignature(await bankSignature({ [OB_TAN]: 'attacker.example' })));
    await assert.rejects(verifySignature(await bankSignature({}, { key: strangerKey.privateKey })));
    await assert.rejects(verifySignature(await bankSignature({ alg: 'RS256' })));
    await assert.rejects(verifySignature(await bankSignature(), BODY.replace('AWAU', 'AUTH')));
  });
});
