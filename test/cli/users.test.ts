/**
 * `openpis users …`: accounts made and changed from the command line, the password from standard input or made
 * and printed once (never an argument), and an audit entry for every command.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { ConsoleUsers } from '../../src/people/accounts.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { loadConfig } from '../../src/config/config.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { CLI_ARGS } from '../helpers/cli.js';

const [sqlite] = await testDatabaseKinds();

describe('openpis users', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let clientId: string;
  const cli = (args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [...CLI_ARGS, ...args],
        {
          env: {
            ...process.env,
            DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.path}` : database.config.url,
            LOG_LEVEL: 'silent',
            SECRET_KEYS: TEST_SECRET_KEYS,
          },
        },
        (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
      );
      child.stdin?.end(stdin ?? '');
    });
  const users = (): ConsoleUsers =>
    new ConsoleUsers(handle.db, new SecretBox(loadConfig({ SECRET_KEYS: TEST_SECRET_KEYS }).secretKeys), { attempts: 5, seconds: 900 });

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    database = await sqlite.create();
    handle = openDatabase(database.config);
    await migrateToLatest(handle.db as unknown as Kysely<unknown>);
    clientId = (
      await new ClientService(handle.db, new SecretBox(loadConfig({ SECRET_KEYS: TEST_SECRET_KEYS }).secretKeys)).create({ name: 'Acme' })
    ).clientId;
  });
  after(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('creates an operator with a password read from standard input, stored as an argon2id hash', async () => {
    const created = await cli(
      ['users', 'create', '--email', 'Ops@Example.com', '--name', 'Ola Operator', '--role', 'operator', '--password-stdin'],
      'a long enough passphrase\n',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /operator .* ops@example\.com/);
    assert.doesNotMatch(created.stdout, /passphrase|Password/);
    const row = await handle.db.selectFrom('console_users').selectAll().where('email', '=', 'ops@example.com').executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal((await users().checkPassword('ops@example.com', 'a long enough passphrase')).outcome, 'accepted');
  });

  it('makes and prints a password once when none is given; refuses what is wrong with every problem named', async () => {
    const created = await cli([
      'users',
      'create',
      '--email',
      'help@acme.example',
      '--name',
      'Sam Support',
      '--role',
      'member',
      '--client',
      clientId,
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const printed = JSON.parse(created.stdout) as { password: string; role: string; clientId: string };
    assert.equal(printed.role, 'member');
    assert.equal(printed.clientId, clientId);
    assert.equal((await users().checkPassword('help@acme.example', printed.password)).outcome, 'accepted');
    const member = await cli([
      'users',
      'create',
      '--email',
      'desk@acme.example',
      '--name',
      'Dee Desk',
      '--role',
      'member',
      '--client',
      clientId,
    ]);
    assert.match(member.stdout, /2FA not enrolled yet/);
    assert.match(
      member.stdout,
      /At the first sign-in the console asks them to set up an authenticator app/,
      'members enrol a second factor too',
    );
    const listed = await cli(['users', 'list']);
    assert.doesNotMatch(listed.stdout, new RegExp(printed.password));

    const refused = await cli(
      ['users', 'create', '--email', 'not-an-email', '--name', 'X', '--role', 'member', '--password-stdin'],
      'short\n',
    );
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /email must be an email address, the password must have at least 12 characters, a member belongs to one client/,
    );
    const duplicate = await cli(['users', 'create', '--email', 'help@acme.example', '--name', 'Again', '--role', 'operator']);
    assert.match(duplicate.stderr, /exists already/);
  });

  it('disables, enables, unlocks, resets the password and the second factor, each audited', async () => {
    assert.match((await cli(['users', 'disable', 'help@acme.example'])).stdout, /disabled/);
    assert.equal((await users().checkPassword('help@acme.example', 'whatever it is now')).outcome, 'disabled');
    assert.match((await cli(['users', 'enable', 'help@acme.example'])).stdout, /active/);
    const reset = await cli(['users', 'reset-password', 'help@acme.example', '--password-stdin'], 'another long passphrase\n');
    assert.equal(reset.code, 0, reset.stderr);
    assert.equal((await users().checkPassword('help@acme.example', 'another long passphrase')).outcome, 'accepted');
    assert.equal((await cli(['users', 'unlock', 'help@acme.example'])).code, 0);
    assert.equal((await cli(['users', 'reset-second-factor', 'ops@example.com'])).code, 0);
    assert.match((await cli(['users', 'disable', 'nobody@example.com'])).stderr, /No console user nobody@example.com/);
    const entries = await handle.db.selectFrom('audit_log').selectAll().orderBy('at').execute();
    assert.deepEqual(
      entries.map((entry) => `${entry.action} ${entry.target}`),
      [
        'user.created ops@example.com',
        'user.created help@acme.example',
        'user.created desk@acme.example',
        'user.disabled help@acme.example',
        'user.enabled help@acme.example',
        'user.password-reset help@acme.example',
        'user.unlocked help@acme.example',
        'user.second-factor-reset ops@example.com',
      ],
    );
    assert.ok(entries.every((entry) => entry.actor.startsWith('cli:') && entry.actor_role === 'cli'));
  });

  it('audits the client commands too', async () => {
    assert.equal((await cli(['clients', 'rotate-secret', clientId])).code, 0);
    assert.equal((await cli(['clients', 'disable', clientId])).code, 0);
    const entries = await handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('action', 'like', 'client.%')
      .orderBy('at')
      .execute();
    assert.deepEqual(
      entries.map((entry) => entry.action),
      ['client.secret-rotated', 'client.disabled'],
    );
    assert.ok(entries.every((entry) => entry.actor.startsWith('cli:') && entry.target === clientId));
    assert.ok(
      entries.every((entry) => !(entry.details ?? '').includes('ops_')),
      'no secret in the log',
    );
  });
});
