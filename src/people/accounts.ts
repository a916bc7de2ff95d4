/**
 * The console's people: operators (every client) and members (one client: the same tenancy as the API). Created
 * and changed by `openpis users …` and, by operators, in the console. What protects an account:
 * - the password as an argon2id hash (passwords.ts);
 * - operators' TOTP second factor (second-factor.ts), its secret sealed with the operator key ring;
 * - lock-out: `lockout.attempts` failures in a row (password or code) lock the account for `lockout.seconds`;
 *   while locked nothing is checked, and a success resets the count (docs/console.md).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import { displayTextProblem, normalisedDisplayText } from '../domain/display-text.js';
import type { ConsoleRole, ConsoleUsersTable, Database } from '../storage/schema.js';
import { totpSecretContext } from '../storage/stored-secrets.js';
import { decoyPasswordHash, hashPassword, passwordMatches, passwordProblem } from './passwords.js';
import { acceptedTotpStep, newTotpSecret, totpUri } from './second-factor.js';

export interface LockoutPolicy {
  /** Failures in a row that lock the account. */
  readonly attempts: number;
  /** How long a lock lasts. */
  readonly seconds: number;
}

export type SecondFactorState = 'not-required' | 'not-enrolled' | 'enrolled';

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
  | { readonly outcome: 'refused'; readonly problem: string };

export type CredentialCheck =
  | { readonly outcome: 'accepted'; readonly user: ConsoleUser }
  | { readonly outcome: 'refused'; readonly user: ConsoleUser | undefined; readonly nowLocked: boolean }
  | { readonly outcome: 'locked'; readonly user: ConsoleUser }
  | { readonly outcome: 'disabled'; readonly user: ConsoleUser };

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
    secondFactor: row.role !== 'operator' ? 'not-required' : row.totp_confirmed_at === null ? 'not-enrolled' : 'enrolled',
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
    const row = await this.db.selectFrom('console_users').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
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
    const row = await this.db.selectFrom('console_users').select('password_hash').where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw new ConsoleUserNotFoundError(id);
    if (!(await passwordMatches(row.password_hash, current))) {
      const nowLocked = await this.countFailure(id);
      if (nowLocked) await this.endSessions(id);
      return { outcome: 'wrong-password', nowLocked };
    }
    const problem = passwordProblem(next) ?? (next === current ? 'the new password must differ from the current one' : undefined);
    if (problem !== undefined) return { outcome: 'refused', problem };
    await this.update(id, { password_hash: await hashPassword(next), failed_attempts: 0, locked_until: null });
    return { outcome: 'changed' };
  }

  /** Forgets an operator's authenticator (a lost phone): they enrol a new one at their next sign-in. */
  async resetSecondFactor(id: string): Promise<ConsoleUser> {
    const user = await this.update(id, { totp_secret_sealed: null, totp_confirmed_at: null, totp_last_step: null });
    await this.endSessions(id);
    return user;
  }

  async unlock(id: string): Promise<ConsoleUser> {
    return this.update(id, { failed_attempts: 0, locked_until: null });
  }

  private lockedNow(row: Selectable<ConsoleUsersTable>): boolean {
    return row.locked_until !== null && row.locked_until > this.now().toISOString();
  }

  /** Counts a failure; locks the account when it reaches the limit. True when this failure locked it. */
  private async countFailure(id: string): Promise<boolean> {
    const row = await this.db
      .updateTable('console_users')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', eb.val(1)) }))
      .where('id', '=', id)
      .returning(['failed_attempts'])
      .executeTakeFirst();
    if (row === undefined || Number(row.failed_attempts) < this.lockout.attempts) return false;
    const until = new Date(this.now().getTime() + this.lockout.seconds * 1000).toISOString();
    await this.db.updateTable('console_users').set({ failed_attempts: 0, locked_until: until }).where('id', '=', id).execute();
    return true;
  }

  private async countSuccess(id: string, changes: UserChanges = {}): Promise<ConsoleUser> {
    return this.update(id, { failed_attempts: 0, locked_until: null, ...changes });
  }

  /** The first step of signing in. Unknown emails cost an argon2 check too, so timing tells nothing. */
  async checkPassword(email: string, password: string): Promise<CredentialCheck> {
    const row = await this.db.selectFrom('console_users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (row === undefined) {
      await passwordMatches(await decoyPasswordHash(), password);
      return { outcome: 'refused', user: undefined, nowLocked: false };
    }
    const user = userFromRow(row);
    if (row.disabled_at !== null) return { outcome: 'disabled', user };
    if (this.lockedNow(row)) return { outcome: 'locked', user };
    if (!(await passwordMatches(row.password_hash, password))) {
      const nowLocked = await this.countFailure(row.id);
      return { outcome: 'refused', user: (await this.get(row.id)) ?? user, nowLocked };
    }
    // An operator's password alone signs nobody in: the second step resets the count once the code is right too.
    if (row.role === 'operator' && row.totp_confirmed_at !== null) return { outcome: 'accepted', user };
    return { outcome: 'accepted', user: await this.countSuccess(row.id, { last_sign_in_at: this.now().toISOString() }) };
  }

  /** The second step: the code of the operator's authenticator (counts toward the same lock-out). */
  async checkSecondFactor(userId: string, code: string): Promise<CredentialCheck> {
    return this.checkCode(userId, code, 'sign-in');
  }

  /**
   * A code of the operator's authenticator, at sign-in (enrolled: a code newer than the last one used) or to confirm
   * enrolment (the offered secret); a wrong code counts toward the lock-out like a wrong password.
   */
  private async checkCode(userId: string, code: string, purpose: 'sign-in' | 'enrolment'): Promise<CredentialCheck> {
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (row === undefined) throw new ConsoleUserNotFoundError(userId);
    const user = userFromRow(row);
    if (row.disabled_at !== null) return { outcome: 'disabled', user };
    if (this.lockedNow(row)) return { outcome: 'locked', user };
    const usable = row.totp_secret_sealed !== null && (purpose === 'enrolment' || row.totp_confirmed_at !== null);
    const lastStep = purpose === 'sign-in' && row.totp_last_step !== null ? Number(row.totp_last_step) : null;
    const step =
      !usable || row.totp_secret_sealed === null
        ? undefined
        : acceptedTotpStep(this.secrets.open(row.totp_secret_sealed, totpContext(userId)), code.replace(/\s/g, ''), this.now(), lastStep);
    if (step === undefined) {
      const nowLocked = await this.countFailure(userId);
      return { outcome: 'refused', user: (await this.get(userId)) ?? user, nowLocked };
    }
    const at = this.now().toISOString();
    return {
      outcome: 'accepted',
      user: await this.countSuccess(userId, { totp_last_step: step, last_sign_in_at: at, ...(purpose === 'enrolment' ? { totp_confirmed_at: at } : {}) }),
    };
  }

  /**
   * The authenticator an operator is asked to enrol: a secret made now (sealed, unconfirmed) or the one offered
   * before. Its URI is shown as a QR code and as text.
   */
  async secondFactorEnrolment(userId: string): Promise<{ readonly secret: string; readonly uri: string }> {
    const row = await this.db.selectFrom('console_users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (row === undefined) throw new ConsoleUserNotFoundError(userId);
    if (row.totp_confirmed_at !== null) throw new ConsoleUserError(['the second factor is enrolled already']);
    let secret: string;
    if (row.totp_secret_sealed === null) {
      secret = newTotpSecret();
      await this.update(userId, { totp_secret_sealed: this.secrets.seal(secret, totpContext(userId)) });
    } else {
      secret = this.secrets.open(row.totp_secret_sealed, totpContext(userId));
    }
    return { secret, uri: totpUri(secret, row.email) };
  }

  /** Confirms enrolment with a code from the new authenticator; a wrong code counts toward the lock-out. */
  async confirmSecondFactor(userId: string, code: string): Promise<CredentialCheck> {
    return this.checkCode(userId, code, 'enrolment');
  }
}
