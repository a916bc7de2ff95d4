/**
 * One-way hashes of high-entropy secrets (client secrets, access tokens, payer link tokens). They are 256-bit
 * random values, so a plain SHA-256 is a sufficient one-way hash (a slow password hash protects low-entropy
 * secrets, which these are not); comparisons of secrets are constant-time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time check of a presented secret against a stored SHA-256 hex hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(sha256Hex(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presentedHash.length === stored.length && timingSafeEqual(presentedHash, stored);
}
