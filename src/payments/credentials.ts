/**
 * The payer's credentials in the creation request (`sender.credentials`), decisions §7: held in memory for the bank
 * call that needs them, within the creation request, never stored. So credentials are accepted only where that
 * call can be made: with `provider.id` (in hosted mode the bank is not known yet, and nothing may keep them until
 * it is), and a password only with its login id (no bank takes a password without it). What is accepted is used:
 * the payer is not asked for it again (docs/api-decisions.md, "Payer credentials").
 */
import { pick } from './validation.js';

/** The credential rules a creation body breaks, as `<field path> <rule>` (never the values). */
export function credentialViolations(body: unknown): string[] {
  const credentials = pick(body, 'sender', 'credentials');
  if (credentials === undefined) return [];
  const violations: string[] = [];
  if (pick(body, 'provider', 'id') === undefined) violations.push('sender.credentials must only be sent with provider.id');
  if (pick(credentials, 'password') !== undefined && pick(credentials, 'id') === undefined) {
    violations.push('sender.credentials.id must be sent with sender.credentials.password');
  }
  return violations;
}
