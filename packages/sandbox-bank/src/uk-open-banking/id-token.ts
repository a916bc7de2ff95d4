/** The id_tokens the UK sandbox banks issue (front channel of the hybrid flow, token endpoint, CIBA). */
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { UkSandboxBank } from './banks.js';
import { bankKey, issuer, type UkContext } from './context.js';

/** OIDC's `c_hash`/`s_hash` for PS256: the left half of the SHA-256 digest, base64url. */
export function halfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/** PS256 by the bank; subject and `openbanking_intent_id` are the consent id, audience the client. */
export async function issueIdToken(
  context: UkContext,
  bank: UkSandboxBank,
  clientId: string,
  consentId: string,
  extra: { nonce: string | undefined; code?: string; state?: string | undefined; authReqId?: string | undefined },
): Promise<string> {
  const key = await bankKey(context, bank);
  const now = Math.floor(context.state.now().getTime() / 1000);
  const claims: JWTPayload = {
    openbanking_intent_id: consentId,
    acr: 'urn:openbanking:psd2:sca',
    auth_time: now,
    ...(extra.nonce === undefined ? {} : { nonce: extra.nonce }),
    ...(extra.code === undefined ? {} : { c_hash: halfHash(extra.code) }),
    ...(extra.state === undefined ? {} : { s_hash: halfHash(extra.state) }),
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'PS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(issuer(context, bank))
    .setSubject(consentId)
    .setAudience(clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .setJti(randomUUID())
    .sign(key.privateKey);
}
