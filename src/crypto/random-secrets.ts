/** Random credentials we issue: 256-bit values, stored only as their hashes (hashes.ts). */
import { randomBytes } from 'node:crypto';

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export const generateClientSecret = (): string => randomToken('ops_');
export const generateAccessToken = (): string => randomToken('opt_');
