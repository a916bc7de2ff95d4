/**
 * `openpis users …`: the console's people from the command line (docs/console.md). A password never travels as an
 * argument (other users of the machine see arguments): `--password-stdin` reads it from the first line of standard
 * input; without it a strong one is made and printed once. Every command is written to the audit log as
 * `cli:<os user>`.
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { ConsoleUsers, ConsoleUser } from '../../people/accounts.js';
import type { AuditLog } from '../../people/audit-log.js';
import type { Store } from '../../runtime.js';
import { cliActor } from '../audit.js';
import { print } from '../output.js';

export function usersCommand(program: Command): Command {
  // Added as a command of its own, not made by `program.command`: it does not take the program's settings
  // (showHelpAfterError), so a mistyped `users` command shows the error without the help, as it always has.
  const users = new Command('users').description('console accounts: operators (every client) and members (one client)');
  program.addCommand(users);

  users
    .command('create')
    .description('create a console account; prints a generated password once unless --password-stdin')
    .requiredOption('--email <email>', 'the sign-in email')
    .requiredOption('--name <name>', 'the name shown in the console and the audit log')
    .addOption(
      new Option('--role <role>', 'operator: every client; member: one client (both sign in with a second factor)')
        .choices(['operator', 'member'])
        .makeOptionMandatory(),
    )
    .option('--client <clientId>', "a member's client")
    .option('--password-stdin', 'read the password from the first line of standard input')
    .option('--json', 'print JSON')
    .action(createUser);

  users
    .command('list')
    .description('list console accounts (never a password or a second-factor secret)')
    .option('--client <clientId>', "only this client's members")
    .option('--json', 'print JSON')
    .action(listUsers);

  const change = (name: string, description: string, action: (reference: string) => Promise<void>): void => {
    users.command(name).description(description).argument('<user>', 'id or email').action(action);
  };
  change('disable', 'disable an account: its sessions end at once', disableUser);
  change('enable', 'enable a disabled account', enableUser);
  change('unlock', 'lift a lock-out now', unlockUser);
  change('reset-second-factor', "forget a person's authenticator: they set up a new one at their next sign-in", resetUserSecondFactor);

  users
    .command('reset-password')
    .description('set a new password (generated and printed once unless --password-stdin); ends the sessions and lifts a lock')
    .argument('<user>', 'id or email')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .action(resetUserPassword);

  return users;
}

async function readPasswordLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new InvalidArgumentError('--password-stdin: standard input was empty');
}

/** The given password (`--password-stdin`) or a new one, and whether it was made here (then it is printed once). */
async function passwordOf(options: { passwordStdin?: boolean }): Promise<{ password: string; generated: boolean }> {
  if (options.passwordStdin === true) return { password: await readPasswordLine(), generated: false };
  return { password: randomBytes(18).toString('base64url'), generated: true };
}

async function withUsers<T>(work: (users: ConsoleUsers, audit: AuditLog, runtime: Store) => Promise<T>): Promise<T> {
  // Imported on demand, like every command's work (src/cli/store.ts): password hashing and the second factor load native code.
  const [{ openStore }, { ConsoleUsers }, { AuditLog }] = await Promise.all([
    import('../../runtime.js'),
    import('../../people/accounts.js'),
    import('../../people/audit-log.js'),
  ]);
  const runtime = await openStore();
  try {
    return await work(
      new ConsoleUsers(runtime.database.db, runtime.secrets, runtime.config.console.lockout),
      new AuditLog(runtime.database.db),
      runtime,
    );
  } finally {
    await runtime.database.close();
  }
}

function describeUser(user: ConsoleUser): string {
  const state =
    user.disabledAt !== null
      ? 'disabled'
      : user.lockedUntil !== null && user.lockedUntil > new Date().toISOString()
        ? `locked until ${user.lockedUntil}`
        : 'active';
  const factor = user.secondFactor === 'enrolled' ? '  2FA enrolled' : '  2FA not enrolled yet';
  return `${user.id}  ${user.role.padEnd(8)} ${state.padEnd(8)}  ${user.email}  "${user.name}"${user.clientId === null ? '' : `  client ${user.clientId}`}${factor}`;
}

export interface CreateUserOptions {
  readonly email: string;
  readonly name: string;
  readonly role: 'operator' | 'member';
  readonly client?: string;
  readonly passwordStdin?: boolean;
  readonly json?: boolean;
}

export async function createUser(options: CreateUserOptions): Promise<void> {
  const { password, generated } = await passwordOf(options);
  const user = await withUsers(async (accounts, audit) => {
    const created = await accounts.create({
      email: options.email,
      name: options.name,
      role: options.role,
      clientId: options.client,
      password,
    });
    await audit.record(cliActor(), {
      action: 'user.created',
      clientId: created.clientId,
      target: created.email,
      details: { role: created.role },
    });
    return created;
  });
  print({ ...user, ...(generated ? { password } : {}) }, options.json === true, () =>
    [
      `Created ${describeUser(user)}`,
      ...(generated ? [`Password (shown only now): ${password}`] : []),
      'At the first sign-in the console asks them to set up an authenticator app (every account signs in with one).',
    ].join('\n'),
  );
}

export async function listUsers(options: { client?: string; json?: boolean }): Promise<void> {
  const list = await withUsers((accounts) => accounts.list(options.client === undefined ? {} : { clientId: options.client }));
  print(list, options.json === true, () => (list.length === 0 ? 'No console accounts.' : list.map(describeUser).join('\n')));
}

/** A change to one account (found by id or email), audited as `action`; prints the account as it is after. */
async function changeUser(
  reference: string,
  action: string,
  work: (accounts: ConsoleUsers, user: ConsoleUser) => Promise<ConsoleUser>,
): Promise<void> {
  const changed = await withUsers(async (accounts, audit) => {
    const user = await accounts.find(reference);
    const result = await work(accounts, user);
    await audit.record(cliActor(), { action, clientId: user.clientId, target: user.email });
    return result;
  });
  process.stdout.write(`${describeUser(changed)}\n`);
}

export function disableUser(reference: string): Promise<void> {
  return changeUser(reference, 'user.disabled', (accounts, user) => accounts.disable(user.id));
}

export function enableUser(reference: string): Promise<void> {
  return changeUser(reference, 'user.enabled', (accounts, user) => accounts.enable(user.id));
}

export function unlockUser(reference: string): Promise<void> {
  return changeUser(reference, 'user.unlocked', (accounts, user) => accounts.unlock(user.id));
}

export function resetUserSecondFactor(reference: string): Promise<void> {
  return changeUser(reference, 'user.second-factor-reset', (accounts, user) => accounts.resetSecondFactor(user.id));
}

export async function resetUserPassword(reference: string, options: { passwordStdin?: boolean }): Promise<void> {
  const { password, generated } = await passwordOf(options);
  const user = await withUsers(async (accounts, audit) => {
    const found = await accounts.find(reference);
    const changed = await accounts.resetPassword(found.id, password);
    await audit.record(cliActor(), { action: 'user.password-reset', clientId: found.clientId, target: found.email });
    return changed;
  });
  process.stdout.write(`${describeUser(user)}\n${generated ? `New password (shown only now): ${password}\n` : 'Password changed.\n'}`);
}
