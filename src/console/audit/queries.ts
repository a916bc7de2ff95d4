/** The audit log's reads for its page: one page of entries, newest first, and where the next page starts. */
import type { AuditLog, AuditPosition } from '../../people/audit-log.js';

export const AUDIT_PAGE_SIZE = 100;

export interface AuditFilters {
  /** A member's client; undefined for operators (every entry). */
  readonly clientScope: string | undefined;
  readonly action: string | undefined;
  readonly actor: string | undefined;
  readonly after: AuditPosition | undefined;
}

export type AuditEntries = Awaited<ReturnType<AuditLog['list']>>;

/** The position a page's link carries (opaque to people: base64url of `at|id`). */
export function decodeAfter(text: string | undefined): AuditPosition | undefined {
  if (text === undefined || !/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [at, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  return at === undefined || id === undefined || extra !== undefined ? undefined : { at, id };
}

export function encodeAfter(position: AuditPosition): string {
  return Buffer.from(`${position.at}|${position.id}`).toString('base64url');
}

/** One page of entries, and the last one shown when there are more. */
export async function auditPage(
  audit: AuditLog,
  filters: AuditFilters,
): Promise<{ entries: AuditEntries; more: AuditPosition | undefined }> {
  const { clientScope, action, actor, after } = filters;
  const entries = await audit.list({
    ...(clientScope === undefined ? {} : { clientId: clientScope }),
    ...(action === undefined || action === '' ? {} : { action }),
    ...(actor === undefined || actor === '' ? {} : { actor: actor.toLowerCase() }),
    ...(after === undefined ? {} : { after }),
    limit: AUDIT_PAGE_SIZE + 1,
  });
  const shown = entries.slice(0, AUDIT_PAGE_SIZE);
  const last = shown.at(-1);
  return { entries: shown, more: entries.length > AUDIT_PAGE_SIZE && last !== undefined ? { at: last.at, id: last.id } : undefined };
}
