/**
 * `openpis banks …` run as processes against a database of their own (one test file per database beside this one):
 * add, update, list, show, disable, enable, replace, secrets; every problem of an entry listed; secrets sealed at rest
 * and never printed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../src/storage/database.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { testDatabaseKind, type TestDatabase, type TestDatabaseKind } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';
import { berlinGroupEntry } from '../providers/bank-entries.js';

const run = promisify(execFile);

/** The built-in catalogue's Rheinland Sandbox Bank. */
const RHEINLAND = '7f7bc6ab-95fd-468a-8fce-7c465d98906d';

export async function describeBankCommands(name: TestDatabaseKind['name']): Promise<void> {
  const kind = await testDatabaseKind(name);
  if (kind === undefined) return;
  describe(`openpis banks [${kind.name}]`, () => {
    let database: TestDatabase;
    let folder: string;
    const env = (): NodeJS.ProcessEnv => ({
      ...process.env,
      DATABASE_URL: database.config.kind === 'sqlite' ? `sqlite:${database.config.path}` : database.config.url,
      LOG_LEVEL: 'silent',
      SECRET_KEYS: TEST_SECRET_KEYS,
    });
    const cli = async (...args: string[]): Promise<string> => (await run(process.execPath, [...CLI_ARGS, ...args], { env: env() })).stdout;
    /** Runs a command that must fail; its standard error. */
    const refused = async (...args: string[]): Promise<string> => {
      try {
        await run(process.execPath, [...CLI_ARGS, ...args], { env: env() });
      } catch (error) {
        const { code, stderr } = error as { code: number; stderr: string };
        assert.equal(code, 1);
        return stderr;
      }
      assert.fail(`openpis ${args.join(' ')} succeeded`);
    };
    /** `openpis … --secrets-stdin` with `input` on standard input. */
    const cliWithInput = async (input: string, ...args: string[]): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = execFile(process.execPath, [...CLI_ARGS, ...args], { env: env() }, (error: Error | null, stdout) =>
          error === null ? resolve(stdout) : reject(error),
        );
        child.stdin?.end(input);
      });
    const file = (fileName: string, value: unknown): string => {
      const path = join(folder, fileName);
      writeFileSync(path, JSON.stringify(value));
      return path;
    };
    const show = async (id: string): Promise<Record<string, unknown>> =>
      JSON.parse(await cli('banks', 'show', id, '--json')) as Record<string, unknown>;

    before(async () => {
      database = await kind.create();
      folder = mkdtempSync(join(tmpdir(), 'openpis-banks-'));
    });
    after(async () => {
      rmSync(folder, { recursive: true, force: true });
      await database.drop();
    });

    it('list shows the imported built-in catalogue, each bank active', async () => {
      const listed = JSON.parse(await cli('banks', 'list', '--json')) as Array<Record<string, unknown>>;
      assert.ok(listed.length >= 10);
      assert.ok(listed.some((bank) => bank.id === RHEINLAND && bank.status === 'active' && bank.source === 'import'));
      assert.match(await cli('banks', 'list'), /^ID\s+NAME\s+COUNTRY\s+ENVIRONMENT\s+STANDARD\s+STATUS\s+SECRETS\n/);
    });

    it('add refuses an entry with every problem listed, each by its field path, and writes nothing', async () => {
      const broken = berlinGroupEntry({ countryCode: 'germany', currencies: [], remittanceMaxLength: 500, colour: 'blue' });
      (broken.connector as Record<string, unknown>).timeoutMs = 5;
      delete (broken.connector as Record<string, unknown>).products;
      const stderr = await refused('banks', 'add', file('broken.json', broken));
      for (const problem of [
        'countryCode',
        'currencies must contain at least 1 element',
        'remittanceMaxLength must not be greater than 140',
        'colour should not exist',
        'connector.timeoutMs must not be less than 100',
        'connector.products should not be empty',
      ]) {
        assert.ok(stderr.includes(problem), `${problem} in ${stderr}`);
      }
      await refused('banks', 'show', String(broken.id));
    });

    it('add refuses an entry that clashes with another bank (a monogram given twice)', async () => {
      const first = berlinGroupEntry({ monogram: 'QQ' });
      await cli('banks', 'add', file('first.json', first));
      const stderr = await refused('banks', 'add', file('second.json', berlinGroupEntry({ monogram: 'QQ', name: 'Other Bank' })));
      assert.match(stderr, /monogram QQ is given twice/);
    });

    it('add with secrets from standard input: sealed at rest, named by show, never printed', async () => {
      const entry = berlinGroupEntry({ monogram: 'SEC', name: 'Secretive Sandbox Bank' });
      const secret = 'client-secret-that-must-not-leak';
      const output = await cliWithInput(
        JSON.stringify({ clientId: 'our-client-id', clientSecret: secret }),
        'banks',
        'add',
        file('secretive.json', entry),
        '--secrets-stdin',
      );
      assert.match(output, /Added bank/);
      const shown = await show(String(entry.id));
      assert.deepEqual(shown.secretNames, ['clientId', 'clientSecret']);
      const everything = `${output}${JSON.stringify(shown)}${await cli('banks', 'list')}${await cli('banks', 'list', '--json')}`;
      assert.ok(!everything.includes(secret));
      const handle = openDatabase(database.config);
      try {
        const row = await handle.db
          .selectFrom('banks')
          .select('secrets_sealed')
          .where('id', '=', String(entry.id))
          .executeTakeFirstOrThrow();
        assert.match(row.secrets_sealed ?? '', /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        assert.ok(!(row.secrets_sealed ?? '').includes(secret));
        assert.ok(!(row.secrets_sealed ?? '').includes('our-client-id'));
      } finally {
        await handle.close();
      }
      await cli('banks', 'secrets', String(entry.id), '--secrets-file', file('secrets.json', { clientId: 'another-id' }));
      assert.deepEqual((await show(String(entry.id))).secretNames, ['clientId']);
      await cli('banks', 'secrets', String(entry.id), '--clear');
      assert.deepEqual((await show(String(entry.id))).secretNames, []);
    });

    it('update changes the entry (an operator change, kept by later imports) and refuses another id', async () => {
      const entry = berlinGroupEntry({ monogram: 'UPD' });
      await cli('banks', 'add', file('update.json', entry));
      await cli('banks', 'update', String(entry.id), file('updated.json', { ...entry, name: 'Nordlicht Renamed' }));
      const shown = await show(String(entry.id));
      assert.equal(shown.name, 'Nordlicht Renamed');
      assert.equal(shown.source, 'operator');
      const stderr = await refused('banks', 'update', String(entry.id), file('other-id.json', berlinGroupEntry({ monogram: 'UPE' })));
      assert.match(stderr, /id must be/);
      // An imported bank changed by the operator stays as the operator left it when the catalogue is imported again.
      const rheinland = (await show(RHEINLAND)).entry as Record<string, unknown>;
      await cli('banks', 'update', RHEINLAND, file('rheinland.json', { ...rheinland, name: 'Rheinland (operator)' }));
      await cli('banks', 'list');
      assert.equal((await show(RHEINLAND)).name, 'Rheinland (operator)');
    });

    it('disable, enable and replace follow the lifecycle, each written to the audit log', async () => {
      const old = berlinGroupEntry({ monogram: 'OLD', name: 'Old Bank' });
      const successor = berlinGroupEntry({ monogram: 'NEW', name: 'New Bank' });
      await cli('banks', 'add', file('old.json', old));
      await cli('banks', 'add', file('new.json', successor));
      await cli('banks', 'disable', String(old.id));
      assert.equal((await show(String(old.id))).status, 'disabled');
      await cli('banks', 'enable', String(old.id));
      assert.equal((await show(String(old.id))).status, 'active');
      assert.match(await refused('banks', 'replace', String(old.id), String(old.id)), /cannot replace itself/);
      await cli('banks', 'replace', String(old.id), String(successor.id));
      const replaced = await show(String(old.id));
      assert.equal(replaced.status, 'deprecated');
      assert.equal(replaced.replacedBy, successor.id);
      assert.match(await cli('banks', 'list'), new RegExp(`replaced by ${String(successor.id)}`));
      // A replaced bank can replace nothing: only an active one can.
      await cli('banks', 'disable', String(successor.id));
      assert.match(await refused('banks', 'replace', RHEINLAND, String(successor.id)), /only an active bank/);
      assert.match(await refused('banks', 'disable', '00000000-0000-4000-8000-000000000000'), /No bank has the id/);
      const handle = openDatabase(database.config);
      try {
        const actions = await handle.db
          .selectFrom('audit_log')
          .select(['action', 'target'])
          .where('target', 'in', [String(old.id), String(successor.id)])
          .execute();
        assert.deepEqual(actions.map((entry) => entry.action).sort(), [
          'bank.added',
          'bank.added',
          'bank.disabled',
          'bank.disabled',
          'bank.enabled',
          'bank.replaced',
        ]);
      } finally {
        await handle.close();
      }
    });
  });
}
