/**
 * The console's people: operators (every client) and members (one client: the same tenancy as the API). Created
 * and changed by `openpis users …` and, by operators, in the console. What protects an account:
 * - the password as an argon2id hash (passwords.ts);
 * - a TOTP second factor (second-factor.ts) for everyone, operators and members alike (members see payers' names
 *   and account numbers too), its secret sealed with the operator key ring;
 * - lock-out: `lockout.attempts` failures in a row (password or code) lock the account for `lockout.seconds`;
 *   while locked nothing is checked, and a success resets the count. Every check claims its attempt first, in one
 *   atomic update, so concurrent guesses get no more checks than sequential ones (docs/console.md).
 */
import { randomUUID } from 'node:crypto';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import { displayTextProblem, normalisedDisplayText } from '../domain/display-text.js';
import type { ConsoleRole, ConsoleUsersTable, Database } from '../storage/schema.js';
import { totpSecretContext } from '../crypto/sealing-contexts.js';
import { decoyPasswordHash, hashPassword, passwordMatches, passwordProblem } from './passwords.js';
import { acceptedTotpStep, newTotpSecret, totpUri } from './second-factor.js';

export interface LockoutPolicy {
  /** Failures in a row that lock the account. */
  readonly attempts: number;
  /** How long a lock lasts. */
  readonly seconds: number;
}

/** Every console account signs in with a second factor: enrolled, or to be enrolled at the next sign-in. */
export type SecondFactorState = 'not-enrolled' | 'enrolled';

export interface ConsoleUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: ConsoleRole;
  /** A member's client; null for operators. */
  readonly clientId: string | null;
  readonly secondFactor: SecondFactorState;
  readonly lockedUntil: string | null;
  readonly disabledAt: string | null;
  readonly lastSignInAt: string | null;
  readonly createdAt: string;
}

export class ConsoleUserError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join(', '));
    this.name = 'ConsoleUserError';
  }
}

export class ConsoleUserNotFoundError extends Error {
  constructor(reference: string) {
    super(`No console user ${reference}`);
    this.name = 'ConsoleUserNotFoundError';
  }
}

/** The answer to a password or code: never says which of email and password was wrong. */
/** How a person's change of their own password ended. */
export type OwnPasswordChange =
  | { readonly outcome: 'changed' }
  | { readonly outcome: 'wrong-password'; readonly nowLocked: boolean }
  /** The account was locked (or disabled) before this attempt: nothing was checked, and its sessions ended. */
  | { readonly outcome: 'locked' }
  | { readonly outcome: 'refused'; readonly problem: string };

export type CredentialCheck =
  | { readonly outcome: 'accepted'; readonly user: ConsoleUser }
  | { readonly outcome: 'refused'; readonly user: ConsoleUser | undefined; readonly nowLocked: boolean }
  | { readonly outcome: 'locked'; readonly user: ConsoleUser }
  | { readonly outcome: 'disabled'; readonly user: ConsoleUser };

/** The account row claimed for one check of a secret, and the lock the claim set (when it reached the limit). */
interface ClaimedCheck {
  readonly kind: 'claimed';
  readonly row: Selectable<ConsoleUsersTable>;
  readonly locking: string | null;
}

type AttemptClaim = ClaimedCheck | { readonly kind: 'locked' | 'disabled'; readonly user: ConsoleUser };

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;
const MAX_NAME_LENGTH = 120;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function userFromRow(row: Selectable<ConsoleUsersTable>): ConsoleUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    clientId: row.client_id,
    secondFactor: row.totp_confirmed_at === null ? 'not-enrolled' : 'enrolled',
    lockedUntil: row.locked_until,
    disabledAt: row.disabled_at,
    lastSignInAt: row.last_sign_in_at,
    createdAt: row.created_at,
  };
}

type UserChanges = Omit<Updateable<ConsoleUsersTable>, 'id' | 'created_at'>;

const totpContext = totpSecretContext;

export interface NewConsoleUser {
  readonly email: string;
  readonly name: string;
  readonly role: ConsoleRole;
  /** Required for a member, refused for an operator. */
  readonly clientId?: string | undefined;
  readonly password: string;
}

export class ConsoleUsers {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly lockout: LockoutPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: NewConsoleUser): Promise<ConsoleUser> {
    const email = normaliseEmail(input.email);
    const name = normalisedDisplayText(input.name.trim());
    const problems: string[] = [];
    if (!EMAIL.test(email)) problems.push('email must be an email address');
    const nameProblem = displayTextProblem(name, MAX_NAME_LENGTH);
    if (nameProblem !== undefined) problems.push(`name ${nameProblem}`);
    const passwordIssue = passwordProblem(input.password);
    if (passwordIssue !== undefined) problems.push(passwordIssue);
    if (input.role === 'member' && input.clientId === undefined) problems.push('a member belongs to one client: give its client id');
    if (input.role === 'operator' && input.clientId !== undefined) problems.push('an operator sees every client: give no client id');
    if (input.clientId !== undefined) {
      const client = await this.db.selectFrom('clients').select('id').where('id', '=', input.clientId).executeTakeFirst();
      if (client === undefined) problems.push(`no client with id ${input.clientId}`);
    }
    if ((await this.db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined) {
      problems.push(`a console user with email ${email} exists already`);
    }
    if (problems.length > 0) throw new ConsoleUserError(problems);
    const at = this.now().toISOString();
    const row = {
      id: randomUUID(),
      email,
      name,
      role: input.role,
      client_id: input.clientId ?? null,
      password_hash: await hashPassword(input.password),
      totp_secret_sealed: null,
      totp_confirmed_at: null,
      totp_last_step: null,
      failed_attempts: 0,
      locked_until: null,
      disabled_at: null,
      last_sign_in_at: null,
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('console_users').values(row).execute();
    return userFromRow(row);
  }

  async list(filter: { readonly clientId?: string } = {}): Promise<ConsoleUser[]> {
    let query = this.db.selectFrom('console_users').selectAll();
    if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
    return (await query.orderBy('role', 'desc').orderBy('email').execute()).map(userFromRow);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('console_users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async get(id: string): Promise<ConsoleUser | undefined> {
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : userFromRow(row);
  }

  /** A user by id or email (the CLI takes either). */
  async find(reference: string): Promise<ConsoleUser> {
    const row = await this.db
      .selectFrom('console_users')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', reference), eb('email', '=', normaliseEmail(reference))]))
      .executeTakeFirst();
    if (row === undefined) throw new ConsoleUserNotFoundError(reference);
    return userFromRow(row);
  }

  private async update(id: string, changes: UserChanges): Promise<ConsoleUser> {
    const updated = await this.db
      .updateTable('console_users')
      .set({ ...changes, updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new ConsoleUserNotFoundError(id);
    const user = await this.get(id);
    if (user === undefined) throw new ConsoleUserNotFoundError(id);
    return user;
  }

  private async endSessions(userId: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
  }

  /** Disables the account and ends its sessions at once. */
  async disable(id: string): Promise<ConsoleUser> {
    const user = await this.update(id, { disabled_at: this.now().toISOString() });
    await this.endSessions(id);
    return user;
  }

  async enable(id: string): Promise<ConsoleUser> {
    return this.update(id, { disabled_at: null, failed_attempts: 0, locked_until: null });
  }

  /** A new password (checked like a new account's); lifts a lock and ends every session of the account. */
  async resetPassword(id: string, password: string): Promise<ConsoleUser> {
    const problem = passwordProblem(password);
    if (problem !== undefined) throw new ConsoleUserError([problem]);
    const user = await this.update(id, { password_hash: await hashPassword(password), failed_attempts: 0, locked_until: null });
    await this.endSessions(id);
    return user;
  }

  /**
   * A person's own new password, given with their current one. A wrong current password counts toward the lock-out
   * as at sign-in (someone else at an unattended session cannot try passwords without end), and the failure that
   * locks the account ends its sessions. Ending the person's other sessions is the caller's (it knows this one).
   */
  async changeOwnPassword(id: string, current: string, next: string): Promise<OwnPasswordChange> {
    const claim = await this.claimCheck(id);
    if (claim.kind !== 'claimed') {
      // Locked (or disabled) meanwhile: the current password is not checked, and the sessions end.
      await this.endSessions(id);
      return { outcome: 'locked' };
    }
    const { row } = claim;
    if (!(await passwordMatches(row.password_hash, current))) {
      const nowLocked = claim.locking !== null;
      if (nowLocked) await this.endSessions(id);
      return { outcome: 'wrong-password', nowLocked };
    }
    const problem = passwordProblem(next) ?? (next === current ? 'the new password must differ from the current one' : undefined);
    if (problem !== undefined) {
      await this.giveBack(id, claim);
      return { outcome: 'refused', problem };
    }
    // Only over the password just checked: a change made meanwhile elsewhere is not overwritten.
    const changed = await this.succeeded(id, { password_hash: await hashPassword(next) }, (eb) =>
      eb('password_hash', '=', row.password_hash),
    );
    return changed === undefined ? { outcome: 'wrong-password', nowLocked: false } : { outcome: 'changed' };
  }

  /** Forgets a person's authenticator (a lost phone): they enrol a new one at their next sign-in. */
  async resetSecondFactor(id: string): Promise<ConsoleUser> {
    const user = await this.update(id, { totp_secret_sealed: null, totp_confirmed_at: null, totp_last_step: null });
    await this.endSessions(id);
    return user;
  }

  async unlock(id: string): Promise<ConsoleUser> {
    return this.update(id, { failed_attempts: 0, locked_until: null });
  }

  /**
   * Claims one check of a secret (a password or a code) for the account, in one atomic update: counted as a failure
   * before the check, and locking the account when the count reaches the limit. Only an account neither disabled
   * nor locked can be claimed, so however many guesses arrive at once, at most `lockout.attempts` are checked per
   * lock window; the rest find it locked and are never checked. A lock that has run out starts the count again.
   * Answers the claimed row (as it is now), or why nothing was claimed.
   */
  private async claimCheck(id: string): Promise<AttemptClaim> {
    const now = this.now();
    const at = now.toISOString();
    const until = new Date(now.getTime() + this.lockout.seconds * 1000).toISOString();
    const count = sql<number>`CASE WHEN locked_until IS NOT NULL AND locked_until <= ${at} THEN 1 ELSE failed_attempts + 1 END`;
    const claimed = await this.db
      .updateTable('console_users')
      .set({
        failed_attempts: count,
        locked_until: sql<string | null>`CASE WHEN ${count} >= ${this.lockout.attempts} THEN ${until} ELSE NULL END`,
        updated_at: at,
      })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
      .returningAll()
      .executeTakeFirst();
    if (claimed !== undefined) return { kind: 'claimed', row: claimed, locking: claimed.locked_until };
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw new ConsoleUserNotFoundError(id);
    return { kind: row.disabled_at !== null ? 'disabled' : 'locked', user: userFromRow(row) };
  }

  /**
   * Gives a claimed check back: the secret was right but signs nobody in yet (the password before the second
   * factor). The count goes back down by one and the lock this claim set, if any, is lifted.
   */
  private async giveBack(id: string, claim: ClaimedCheck): Promise<ConsoleUser> {
    await this.db
      .updateTable('console_users')
      .set({
        failed_attempts: sql<number>`CASE WHEN failed_attempts > 0 THEN failed_attempts - 1 ELSE 0 END`,
        ...(claim.locking === null
          ? {}
          : { locked_until: sql<string | null>`CASE WHEN locked_until = ${claim.locking} THEN NULL ELSE locked_until END` }),
      })
      .where('id', '=', id)
      .execute();
    return (await this.get(id)) ?? userFromRow(claim.row);
  }

  /** A claimed check that failed: counted already; says whether this very attempt locked the account. */
  private failed(claim: ClaimedCheck): { readonly outcome: 'refused'; readonly user: ConsoleUser; readonly nowLocked: boolean } {
    return { outcome: 'refused', user: userFromRow(claim.row), nowLocked: claim.locking !== null };
  }

  /**
   * A claimed check that passed and signs the person in: the count and any lock are reset, with `changes`, in one
   * update that also holds `unchanged` (the row read with the claim): a secret changed meanwhile (a second-factor
   * reset, a replayed code's step) makes it fail, and then the attempt stays counted as a failure.
   */
  private async succeeded(
    id: string,
    changes: UserChanges,
    unchanged: (eb: ExpressionBuilder<Database, 'console_users'>) => Expression<SqlBool>,
  ): Promise<ConsoleUser | undefined> {
    const updated = await this.db
      .updateTable('console_users')
      .set({ ...changes, failed_attempts: 0, locked_until: null, updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .where(unchanged)
      .executeTakeFirst();
    return updated.numUpdatedRows === 0n ? undefined : this.get(id);
  }

  /** The first step of signing in. Unknown emails cost an argon2 check too, so timing tells nothing. */
  async checkPassword(email: string, password: string): Promise<CredentialCheck> {
    const found = await this.db.selectFrom('console_users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (found === undefined) {
      await passwordMatches(await decoyPasswordHash(), password);
      return { outcome: 'refused', user: undefined, nowLocked: false };
    }
    const claim = await this.claimCheck(found.id);
    if (claim.kind !== 'claimed') return { outcome: claim.kind, user: claim.user };
    if (!(await passwordMatches(claim.row.password_hash, password))) return this.failed(claim);
    // The password alone signs nobody in: the second factor (or its enrolment) follows, and its right code resets
    // the count. Until then this attempt is not held against the person.
    return { outcome: 'accepted', user: await this.giveBack(found.id, claim) };
  }

  /** The second step: the code of the person's authenticator (counts toward the same lock-out). */
  async checkSecondFactor(userId: string, code: string): Promise<CredentialCheck> {
    return this.checkCode(userId, code, 'sign-in');
  }

  /**
   * A code of the person's authenticator, at sign-in (enrolled: a code newer than the last one used) or to confirm
   * enrolment (the offered secret); a wrong code counts toward the lock-out like a wrong password. A code is taken
   * once: the step is stored by an update that holds only while the stored step is older, so the same code sent
   * twice at once signs in once.
   */
  private async checkCode(userId: string, code: string, purpose: 'sign-in' | 'enrolment'): Promise<CredentialCheck> {
    const claim = await this.claimCheck(userId);
    if (claim.kind !== 'claimed') return { outcome: claim.kind, user: claim.user };
    const { row } = claim;
    const sealed = row.totp_secret_sealed;
    const usable = sealed !== null && (purpose === 'enrolment' ? row.totp_confirmed_at === null : row.totp_confirmed_at !== null);
    const lastStep = purpose === 'sign-in' && row.totp_last_step !== null ? Number(row.totp_last_step) : null;
    const step =
      !usable || sealed === null
        ? undefined
        : acceptedTotpStep(this.secrets.open(sealed, totpContext(userId)), code.replace(/\s/g, ''), this.now(), lastStep);
    if (step === undefined) return this.failed(claim);
    const at = this.now().toISOString();
    const user = await this.succeeded(
      userId,
      { totp_last_step: step, last_sign_in_at: at, ...(purpose === 'enrolment' ? { totp_confirmed_at: at } : {}) },
      (eb) =>
        eb.and([
          eb('totp_secret_sealed', '=', sealed),
          purpose === 'enrolment' ? eb('totp_confirmed_at', 'is', null) : eb('totp_confirmed_at', 'is not', null),
          eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]),
        ]),
    );
    return user === undefined ? this.failed(claim) : { outcome: 'accepted', user };
  }

  /**
   * The authenticator a person is asked to enrol: a secret made now (sealed, unconfirmed) or the one offered
   * before. Its URI is shown as a QR code and as text.
   */
  async secondFactorEnrolment(userId: string): Promise<{ readonly secret: string; readonly uri: string }> {
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (row === undefined) throw new ConsoleUserNotFoundError(userId);
    if (row.totp_confirmed_at !== null) throw new ConsoleUserError(['the second factor is enrolled already']);
    let sealed = row.totp_secret_sealed;
    if (sealed === null) {
      // Stored only while none is: of pages opened at once, each shows the one secret kept, not one of its own.
      await this.db
        .updateTable('console_users')
        .set({ totp_secret_sealed: this.secrets.seal(newTotpSecret(), totpContext(userId)), updated_at: this.now().toISOString() })
        .where('id', '=', userId)
        .where('totp_secret_sealed', 'is', null)
        .execute();
      const kept = await this.db.selectFrom('console_users').select('totp_secret_sealed').where('id', '=', userId).executeTakeFirst();
      sealed = kept?.totp_secret_sealed ?? null;
      if (sealed === null) throw new ConsoleUserError(['the second factor was reset meanwhile: sign in again']);
    }
    const secret = this.secrets.open(sealed, totpContext(userId));
    return { secret, uri: totpUri(secret, row.email) };
  }

  /** Confirms enrolment with a code from the new authenticator; a wrong code counts toward the lock-out. */
  async confirmSecondFactor(userId: string, code: string): Promise<CredentialCheck> {
    return this.checkCode(userId, code, 'enrolment');
  }
}
