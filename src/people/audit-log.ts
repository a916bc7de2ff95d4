/**
 * The audit log: who did what, when and from where, for every action of an operator or a member in the console
 * and every `openpis users`/`clients` command. Append-only: this module has no update or delete, and the table
 * refuses both (triggers of migration 0008, on SQLite and PostgreSQL). Details never hold a secret or a password.
 */
import { newRecordId } from '../domain/ids.js';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AuditLogTable, Database } from '../storage/schema.js';

export type AuditActorRole = 'operator' | 'member' | 'cli' | 'anonymous';

export interface AuditActor {
  /** The console user's id; null for the command line or a sign-in attempt for an unknown email. */
  readonly id: string | null;
  /** How people read the actor: an email, or `cli:<os user>`. */
  readonly label: string;
  readonly role: AuditActorRole;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

export type AuditDetails = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

export interface AuditEntryInput {
  /** A dotted verb, e.g. `client.secret-rotated`, `webhook.redelivered`, `sign-in.failed`. */
  readonly action: string;
  /** The client the action concerned: a member's log shows only their client's entries. */
  readonly clientId?: string | null;
  /** What was acted on (a payment id, a client id, a user's email). */
  readonly target?: string | null;
  readonly details?: AuditDetails;
}

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly actorId: string | null;
  readonly actor: string;
  readonly actorRole: string;
  readonly clientId: string | null;
  readonly action: string;
  readonly target: string | null;
  readonly details: AuditDetails | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** Where a page of the newest-first log starts: after this entry of the previous page. */
export interface AuditPosition {
  readonly at: string;
  readonly id: string;
}

export interface AuditQuery {
  /** Only entries about this client (a member's view); undefined: every entry (operators). */
  readonly clientId?: string;
  readonly action?: string;
  readonly actor?: string;
  readonly after?: AuditPosition;
  readonly limit: number;
}

/** Longest user agent we keep: enough to tell browsers apart, not a place to store payloads. */
const MAX_USER_AGENT_LENGTH = 300;

function entryFromRow(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actorId: row.actor_id,
    actor: row.actor,
    actorRole: row.actor_role,
    clientId: row.client_id,
    action: row.action,
    target: row.target,
    details: row.details === null ? null : (JSON.parse(row.details) as AuditDetails),
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

export class AuditLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Appends one entry; inside `trx` when the action's own writes must commit with it. */
  async record(actor: AuditActor, entry: AuditEntryInput, trx?: Transaction<Database>): Promise<void> {
    await (trx ?? this.db)
      .insertInto('audit_log')
      .values({
        // Time-ordered: entries of one millisecond list in the order they were recorded (the log orders by time, then id).
        id: newRecordId(),
        at: this.now().toISOString(),
        actor_id: actor.id,
        actor: actor.label,
        actor_role: actor.role,
        client_id: entry.clientId ?? null,
        action: entry.action,
        target: entry.target ?? null,
        details: entry.details === undefined ? null : JSON.stringify(entry.details),
        ip: actor.ip,
        user_agent: actor.userAgent === null ? null : actor.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
      })
      .execute();
  }

  /** A page of the log, newest first. */
  async list(query: AuditQuery): Promise<AuditEntry[]> {
    let select = this.db.selectFrom('audit_log').selectAll();
    if (query.clientId !== undefined) select = select.where('client_id', '=', query.clientId);
    if (query.action !== undefined) select = select.where('action', '=', query.action);
    if (query.actor !== undefined) select = select.where('actor', '=', query.actor);
    const after = query.after;
    if (after !== undefined) {
      select = select.where((eb) => eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]));
    }
    const rows = await select.orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(entryFromRow);
  }
}
