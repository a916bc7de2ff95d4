/** Random credentials, and (from src/crypto) the hashes they are stored as. */
import { randomBytes } from 'node:crypto';

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export const generateClientSecret = (): string => randomToken('ops_');
export const generateAccessToken = (): string => randomToken('opt_');
/** Standard Webhooks secret: `whsec_` + base64 of the key bytes (one implementation, in src/webhooks). */
export { generateWebhookSecret } from '../webhooks/signature.js';

export { secretMatches, sha256Hex } from '../crypto/hashes.js';
