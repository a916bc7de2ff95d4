/**
 * `openpis banks register` and `openpis banks check` as an operator runs them against a strict sandbox bank: a UK
 * bank added with `openpis banks add`, its registration kept among its sealed secrets, one line per check, JSON with --json, exit status 1 on a failure
 * and a plain message for a bank that does not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runOpenpis } from '../helpers/cli.js';
import { startStrictWorld, UK_BANK, BERLIN_GROUP_BANK, type StrictWorld } from './strict-world.js';

describe('openpis banks register and banks check', () => {
  let world: StrictWorld;

  before(async () => {
    world = await startStrictWorld();
  });
  after(async () => {
    await world?.close();
  });

  /** `openpis banks <args…>` with `env`. */
  const openpis = (env: Record<string, string>, ...args: string[]) => runOpenpis(env, 'banks', ...args);

  it('registers a UK bank added with banks add, checks it (every line passes, exit 0), and deletes the registration', async () => {
    const added = await openpis(world.env, 'add', world.ukBankFile);
    assert.equal(added.code, 0, added.stderr);
    const registered = await openpis(world.env, 'register', UK_BANK);
    assert.equal(registered.code, 0, registered.stderr);
    const clientId = /registered, client id ([0-9a-f-]{36})/.exec(registered.stdout)?.[1];
    assert.ok(clientId !== undefined, registered.stdout);
    const shown = JSON.parse((await openpis(world.env, 'show', UK_BANK, '--json')).stdout) as { secretNames: string[] };
    assert.ok(shown.secretNames.includes('registrationAccessToken') && shown.secretNames.includes('clientId'));

    const checked = await openpis(world.env, 'check', UK_BANK, '--json');
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    const report = JSON.parse(checked.stdout) as { failed: boolean; lines: { check: string; outcome: string; reason: string }[] };
    assert.equal(report.failed, false);
    assert.ok(report.lines.some((line) => line.check === 'registration' && line.outcome === 'pass' && line.reason.includes(clientId)));
    assert.ok(report.lines.some((line) => line.check === 'token' && line.outcome === 'pass'));

    const deleted = await openpis(world.env, 'register', UK_BANK, '--delete');
    assert.equal(deleted.code, 0, deleted.stderr);
    const afterDelete = JSON.parse((await openpis(world.env, 'show', UK_BANK, '--json')).stdout) as { secretNames: string[] };
    assert.deepEqual(afterDelete.secretNames, []);
  });

  it('says a wrong certificate in one line per check and exits 1', async () => {
    const wrong = world.otherCa.qwac('cli-wrong-qwac');
    const checked = await openpis(
      { ...world.env, QWAC_CERT_FILE: wrong.certFile, QWAC_KEY_FILE: wrong.keyFile },
      'check',
      BERLIN_GROUP_BANK,
    );
    assert.equal(checked.code, 1);
    assert.match(checked.stdout, /FAILED/);
    assert.match(checked.stdout, /^FAIL +create payment +the bank refused \(HTTP 401: CERTIFICATE_INVALID/m);
  });

  it('names a bank that is not in the list, in one line, exit status 1', async () => {
    const checked = await openpis(world.env, 'check', 'no-such-bank');
    assert.equal(checked.code, 1);
    assert.match(checked.stderr, /^No bank no-such-bank in the bank list/);
  });
});
