/**
 * The go-live rehearsal with the strict sandbox bank as a process of its own, started from its files as an operator
 * starts a bank (`openpis sandbox-bank --strict --tls-cert … --client-ca … --directory-jwks … --catalogue …`): a UK
 * bank added with `openpis banks add` and registered by DCR, both banks checked (every line passes), and a wrong
 * certificate, an unregistered client and a bad signature each refused by the bank and told by `banks check`.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOpenpis } from '../helpers/cli.js';
import { BERLIN_GROUP_BANK, startStrictWorld, UK_BANK, type StrictWorld } from './strict-world.js';

interface CheckReport {
  failed: boolean;
  lines: { check: string; outcome: string; reason: string }[];
}

describe('a stand-alone strict sandbox bank: register, check, refusals', () => {
  let world: StrictWorld;

  before(async () => {
    world = await startStrictWorld({ standAlone: true });
  });
  after(async () => {
    await world?.close();
  });

  /** `openpis banks <args…>` with `env`. */
  const banks = (env: Record<string, string>, ...args: string[]) => runOpenpis(env, 'banks', ...args);

  async function check(env: Record<string, string>, bank: string): Promise<{ code: number; report: CheckReport }> {
    const checked = await banks(env, 'check', bank, '--json');
    return { code: checked.code, report: JSON.parse(checked.stdout) as CheckReport };
  }

  it('a UK bank added with banks add is unregistered at first: banks check says invalid_client and exits 1', async () => {
    const added = await banks(world.env, 'add', world.ukBankFile);
    assert.equal(added.code, 0, added.stderr);
    const { code, report } = await check(world.env, UK_BANK);
    assert.equal(code, 1);
    const token = report.lines.find((line) => line.check === 'token');
    assert.equal(token?.outcome, 'fail');
    assert.match(token?.reason ?? '', /invalid_client/);
  });

  it('registered by DCR, the UK bank passes every check; so does the Berlin Group bank', async () => {
    const registered = await banks(world.env, 'register', UK_BANK);
    assert.equal(registered.code, 0, registered.stderr);
    for (const bank of [UK_BANK, BERLIN_GROUP_BANK]) {
      const { code, report } = await check(world.env, bank);
      assert.equal(code, 0, JSON.stringify(report.lines));
      assert.deepEqual(
        report.lines.filter((line) => line.outcome === 'fail'),
        [],
      );
      assert.ok(report.lines.some((line) => line.check === 'create payment' && line.outcome === 'pass'));
    }
  });

  it('a QWAC of another CA: refused by the bank, banks check says CERTIFICATE_INVALID', async () => {
    const wrong = world.otherCa.qwac('stand-alone-wrong-qwac');
    const { code, report } = await check({ ...world.env, QWAC_CERT_FILE: wrong.certFile, QWAC_KEY_FILE: wrong.keyFile }, BERLIN_GROUP_BANK);
    assert.equal(code, 1);
    const create = report.lines.find((line) => line.check === 'create payment');
    assert.equal(create?.outcome, 'fail');
    assert.match(create?.reason ?? '', /CERTIFICATE_INVALID/);
  });

  it('a UK signing key the software statement does not publish: the bank refuses our signed client assertion, banks check says so', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(world.ca.dir, 'stand-alone-wrong-signing.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const { code, report } = await check({ ...world.env, OB_SIGNING_KEY_FILE: keyFile }, UK_BANK);
    assert.equal(code, 1);
    const failures = report.lines.filter((line) => line.outcome === 'fail');
    assert.ok(failures.length > 0);
    const token = failures.find((line) => line.check === 'token');
    assert.match(token?.reason ?? '', /invalid_client — The client assertion does not verify/);
    assert.match(token?.reason ?? '', /check OB_SIGNING_KEY_ID is the kid in the software statement/);
  });
});
