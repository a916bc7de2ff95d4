/** The audit log as the CLI writes it: every operator action, as `cli:<os user>` (docs/console.md). */
import { userInfo } from 'node:os';
import type { Kysely } from 'kysely';
import type { AuditActor, AuditEntryInput } from '../people/audit-log.js';
import type { Database } from '../storage/schema.js';

/** The person at the command line, as the audit log names them. */
export function cliActor(): AuditActor {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // No user name on this system: the entry still says it came from the command line.
  }
  return { id: null, label: `cli:${name}`, role: 'cli', ip: null, userAgent: null };
}

/** Writes a command's action to the audit log as `cli:<os user>` (every operator action is audited, docs/console.md). */
export async function recordCliAction(db: Kysely<Database>, entry: AuditEntryInput): Promise<void> {
  const { AuditLog } = await import('../people/audit-log.js');
  await new AuditLog(db).record(cliActor(), entry);
}
