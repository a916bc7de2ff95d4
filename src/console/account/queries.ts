/**
 * The signed-in person's own password: changed with the current one (src/people/accounts.ts). A wrong current
 * password counts toward the lock-out; a change ends the person's other sessions (not this one). Each outcome is
 * audited here, so the page only says what happened.
 */
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';

export type PasswordChange =
  | { readonly outcome: 'changed' }
  /** The current password was wrong; the account may have locked with it (its sessions ended). */
  | { readonly outcome: 'wrong-password'; readonly nowLocked: boolean }
  /** Locked by other attempts meanwhile (this one was not checked): the account's sessions have ended. */
  | { readonly outcome: 'locked' }
  | { readonly outcome: 'refused'; readonly problem: string };

export async function changeOwnPassword(
  services: ConsoleServices,
  viewer: Viewer,
  sessionToken: string | undefined,
  current: string,
  next: string,
): Promise<PasswordChange> {
  const { audit, users, sessions } = services;
  const about = { clientId: viewer.user.clientId, target: viewer.user.email };
  const result = await users.changeOwnPassword(viewer.user.id, current, next);
  switch (result.outcome) {
    case 'wrong-password':
      await audit.record(viewer.actor, { action: 'user.password-change-failed', ...about });
      if (result.nowLocked) await audit.record(viewer.actor, { action: 'account.locked', ...about });
      return { outcome: 'wrong-password', nowLocked: result.nowLocked };
    case 'locked':
      return { outcome: 'locked' };
    case 'refused':
      return { outcome: 'refused', problem: result.problem };
    case 'changed':
      if (sessionToken !== undefined) await sessions.endOthers(sessionToken);
      await audit.record(viewer.actor, { action: 'user.password-changed', ...about });
      return { outcome: 'changed' };
  }
}
