/**
 * Console sessions, kept on the server: the cookie carries 256 random bits, the database only their SHA-256, so a
 * copy of the database opens no session. A session ends after `idleSeconds` without a request or `absoluteSeconds`
 * after sign-in, whichever comes first (docs/console.md), and at once when its user is disabled, gets a new
 * password or loses the second factor. A new value is issued whenever the session gains rights (password →
 * signed in), so a value seen before sign-in is worth nothing after it.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sha256Hex } from '../crypto/hashes.js';
import type { ConsoleSessionStage, Database } from '../storage/schema.js';
import type { ConsoleUser, ConsoleUsers } from './accounts.js';

export interface SessionPolicy {
  readonly idleSeconds: number;
  readonly absoluteSeconds: number;
}

export interface SessionOrigin {
  readonly ip: string;
  readonly userAgent: string;
}

export interface ConsoleSession {
  readonly user: ConsoleUser;
  readonly stage: ConsoleSessionStage;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** Seen again within this many seconds, a session's last-seen time is not rewritten (one write a minute, not per request). */
const TOUCH_GRANULARITY_SECONDS = 60;

const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class ConsoleSessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: ConsoleUsers,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Opens a session; returns the cookie value (shown to the browser only). */
  async start(userId: string, stage: ConsoleSessionStage, origin: SessionOrigin): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.db
      .insertInto('console_sessions')
      .values({
        id_hash: sha256Hex(token),
        user_id: userId,
        stage,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + this.policy.absoluteSeconds * 1000).toISOString(),
        ip: origin.ip,
        user_agent: origin.userAgent.slice(0, 300),
      })
      .execute();
    return token;
  }

  /** The live session of a cookie value, or undefined (unknown, idle too long, past its end, user disabled). */
  async find(token: string | undefined): Promise<ConsoleSession | undefined> {
    if (token === undefined || !SESSION_TOKEN.test(token)) return undefined;
    const idHash = sha256Hex(token);
    const row = await this.db.selectFrom('console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
    if (row === undefined) return undefined;
    const now = this.now();
    const idleEnd = new Date(row.last_seen_at).getTime() + this.policy.idleSeconds * 1000;
    const user = await this.users.get(row.user_id);
    // A signed-in session needs an enrolled second factor: one opened before members needed one (or whose
    // authenticator was forgotten since) ends, and the person enrols at their next sign-in.
    const withoutSecondFactor = row.stage === 'signed-in' && user?.secondFactor !== 'enrolled';
    if (
      now.getTime() >= idleEnd ||
      now.toISOString() >= row.expires_at ||
      user === undefined ||
      user.disabledAt !== null ||
      withoutSecondFactor
    ) {
      await this.db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
      return undefined;
    }
    if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_GRANULARITY_SECONDS * 1000) {
      await this.db.updateTable('console_sessions').set({ last_seen_at: now.toISOString() }).where('id_hash', '=', idHash).execute();
    }
    return { user, stage: row.stage, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  /**
   * Moves a session on from one stage to the next (e.g. the second factor passed): the old value ends, a new one is
   * returned. The old one is taken in one statement that holds only while it is still at `from`, so two requests
   * moving the same session at once get one new session between them; the other gets undefined.
   */
  async advance(token: string, from: ConsoleSessionStage, to: ConsoleSessionStage, origin: SessionOrigin): Promise<string | undefined> {
    const taken = await this.db
      .deleteFrom('console_sessions')
      .where('id_hash', '=', sha256Hex(token))
      .where('stage', '=', from)
      .returning('user_id')
      .executeTakeFirst();
    return taken === undefined ? undefined : this.start(taken.user_id, to, origin);
  }

  async end(token: string | undefined): Promise<void> {
    if (token === undefined || !SESSION_TOKEN.test(token)) return;
    await this.db.deleteFrom('console_sessions').where('id_hash', '=', sha256Hex(token)).execute();
  }

  /** Ends every other session of this session's person (their password changed here). */
  async endOthers(token: string): Promise<void> {
    if (!SESSION_TOKEN.test(token)) return;
    const idHash = sha256Hex(token);
    await this.db
      .deleteFrom('console_sessions')
      .where('user_id', '=', (eb) =>
        eb.selectFrom('console_sessions as this_one').select('this_one.user_id').where('this_one.id_hash', '=', idHash),
      )
      .where('id_hash', '!=', idHash)
      .execute();
  }

  /** Sessions past their end, removed by the sign-in page now and then so the table does not grow. */
  async sweep(): Promise<void> {
    const now = this.now();
    const idleCutoff = new Date(now.getTime() - this.policy.idleSeconds * 1000).toISOString();
    await this.db
      .deleteFrom('console_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<=', idleCutoff)]))
      .execute();
  }
}
