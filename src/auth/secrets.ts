/**
 * Random credentials and their hashes. Client secrets and access tokens are 256-bit random values, so a plain
 * SHA-256 is a sufficient one-way hash (a slow password hash protects low-entropy secrets, which these are
 * not); comparisons of secrets are constant-time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export const generateClientSecret = (): string => randomToken('ops_');
export const generateAccessToken = (): string => randomToken('opt_');
/** Standard Webhooks secret: `whsec_` + base64 of the key bytes (one implementation, in src/webhooks). */
export { generateWebhookSecret } from '../webhooks/signature.js';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time check of a presented secret against a stored SHA-256 hex hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(sha256Hex(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presentedHash.length === stored.length && timingSafeEqual(presentedHash, stored);
}
