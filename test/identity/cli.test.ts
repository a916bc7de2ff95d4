/**
 * `openpis identity show` as an operator runs it: what each configured certificate is, the UK key and software
 * statement, warnings before expiry, exit status 1 and a plain message when a file cannot be used.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CLI_ARGS } from '../helpers/cli.js';
import { TestCertificateAuthority } from '../helpers/psd2-certificates.js';

const run = promisify(execFile);

async function identityShow(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI_ARGS, 'identity', 'show', ...args], {
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('openpis identity show', () => {
  let authority: TestCertificateAuthority;
  let env: Record<string, string>;

  before(() => {
    authority = new TestCertificateAuthority();
    const qwac = authority.qwac('qwac', { organisationIdentifier: 'PSDGB-FCA-123456' });
    const qseal = authority.qsealc('qseal', { organisationIdentifier: 'PSDGB-FCA-123456', roles: ['PSP_PI'], days: 12 });
    env = {
      QWAC_P12_FILE: authority.pkcs12(qwac, 'p12 password'),
      QWAC_P12_PASSWORD: 'p12 password',
      QSEAL_CERT_FILE: qseal.certFile,
      QSEAL_KEY_FILE: qseal.keyFile,
    };
  });
  after(() => authority.remove());

  it('shows each certificate with its authorisation number, roles and expiry, and warns of one expiring soon', async () => {
    const { stdout, code } = await identityShow(env);
    assert.equal(code, 0);
    assert.match(
      stdout,
      /Berlin Group mutual TLS \(QWAC\): valid\n {2}subject: +CN=0015800001041RbAAI,organizationIdentifier=PSDGB-FCA-123456,O=Example TPP Ltd,C=GB/,
    );
    assert.match(stdout, /authorisation: +PSDGB-FCA-123456/);
    assert.match(stdout, /PSD2 roles: +PSP_PI, PSP_AI \(Financial Conduct Authority, GB-FCA\)/);
    assert.match(stdout, /Berlin Group request signatures \(QSealC\): EXPIRING/);
    assert.match(stdout, /UK Open Banking mutual TLS \(transport\): not configured/);
    assert.match(stdout, /UK Open Banking signing key: not configured .* only the sandbox banks accept/);
    assert.match(stdout, /WARNING: Berlin Group request signatures \(QSealC\) .* expires on .* \(in 1[01] days\)/);
    assert.doesNotMatch(stdout, /PRIVATE KEY|p12 password/);
  });

  it('--json gives the same facts to scripts', async () => {
    const { stdout } = await identityShow(env, '--json');
    const shown = JSON.parse(stdout) as {
      certificates: { use: string; state: string; organisationIdentifier: string; psd2: { roles: string[] } }[];
      warnings: string[];
    };
    assert.deepEqual(
      shown.certificates.map((certificate) => [
        certificate.use,
        certificate.state,
        certificate.organisationIdentifier,
        certificate.psd2.roles,
      ]),
      [
        ['qwac', 'valid', 'PSDGB-FCA-123456', ['PSP_PI', 'PSP_AI']],
        ['qseal', 'expiring', 'PSDGB-FCA-123456', ['PSP_PI']],
      ],
    );
    assert.equal(shown.warnings.length, 1);
  });

  it('a file that cannot be used: one line naming the setting, exit status 1, no stack', async () => {
    const { stderr, code } = await identityShow({ ...env, QWAC_P12_PASSWORD: 'wrong' });
    assert.equal(code, 1);
    assert.match(stderr, /^QWAC_P12_FILE .* cannot be opened: not PKCS#12, or QWAC_P12_PASSWORD is wrong/);
    assert.doesNotMatch(stderr, /\n\s+at /);
    const notKey = join(authority.dir, 'empty.key');
    writeFileSync(notKey, '');
    const mismatched = await identityShow({ QSEAL_CERT_FILE: env['QSEAL_CERT_FILE']!, QSEAL_KEY_FILE: notKey });
    assert.equal(mismatched.code, 1);
    assert.match(mismatched.stderr, /QSEAL_KEY_FILE .* holds no PEM private key/);
  });
  it("lists a bank entry's own certificates under the bank's name, read as the service reads them", async () => {
    const catalogue = JSON.parse(readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8')) as {
      providers: { name: string; connector: Record<string, unknown> }[];
    };
    const bank = catalogue.providers[0]!;
    const own = authority.qwac('own-qwac', { commonName: 'own-client', days: 5 });
    bank.connector['identity'] = { qwac: { certFile: own.certFile, keyFile: own.keyFile } };
    const file = join(authority.dir, 'catalogue.json');
    writeFileSync(file, JSON.stringify(catalogue));
    const { stdout, code } = await identityShow({ ...env, PROVIDER_CATALOGUE_FILE: file }, '--json');
    assert.equal(code, 0);
    const shown = JSON.parse(stdout) as { certificates: { bank?: string; use: string; state: string }[]; warnings: string[] };
    assert.deepEqual(
      shown.certificates.filter((certificate) => certificate.bank !== undefined).map(({ bank, use, state }) => ({ bank, use, state })),
      [{ bank: bank.name, use: 'qwac', state: 'expiring' }],
    );
    assert.ok(shown.warnings.some((warning) => warning.startsWith(`${bank.name}'s own Berlin Group mutual TLS (QWAC) CN=own-client`)));
  });
});
