/**
 * A strict sandbox bank over loopback HTTPS and a TPP to go with it, all made at test time: a test CA (from
 * test/helpers/psd2-certificates.ts) issuing the bank's server certificate and the TPP's QWAC, QSealC, UK transport
 * certificate and OBSeal signing key; a directory key and a software statement (SSA) it signs, publishing the OBSeal
 * key under its kid; a bank with one Berlin Group bank that signs requests and one UK bank; and the service's
 * environment pointing at all of it, as an operator would set it: a SQLite database of its own, into which the
 * service's bank list imports the Berlin Group bank, the UK bank being for a test to add (`openpis banks add`).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildSandboxBankApp } from '@openpis/sandbox-bank';
import { startSandboxBankProcess } from '../helpers/processes.js';
import { exportJWK, generateKeyPair, importPKCS8, SignJWT, type JSONWebKeySet } from 'jose';
import { loadConfig, type Config } from '../../src/config/config.js';
import { generateSecretKeysSetting } from '../../src/crypto/secret-box.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { TestCertificateAuthority, type TestCertificate } from '../helpers/psd2-certificates.js';

export const BERLIN_GROUP_BANK = 'a1b2c3d4-0000-4000-8000-000000000001';
export const UK_BANK = 'a1b2c3d4-0000-4000-8000-000000000002';
export const SIGNING_KID = 'obseal-kid-1';
export const SOFTWARE_ID = 'openpisTestSoftware1';
export const ORG_ID = '0015800001041RbAAI';
/** The software statement's redirect URI unless a test names its own: the service at https://localhost. */
const DEFAULT_REDIRECT_URI = 'https://localhost/pay/return';

export interface StrictWorld {
  readonly ca: TestCertificateAuthority;
  /** Another CA: certificates from it are "wrong". */
  readonly otherCa: TestCertificateAuthority;
  readonly sandboxUrl: string;
  /** The bank's HTTPS server certificate (from `ca`, for localhost). */
  readonly bankServer: TestCertificate;
  readonly qwac: TestCertificate;
  readonly qseal: TestCertificate;
  readonly transport: TestCertificate;
  readonly obSeal: TestCertificate;
  readonly ssaFile: string;
  /** The Berlin Group bank's entry (in the service's bank list, `{SANDBOX_BANK_URL}` in its addresses). */
  readonly berlinGroupBankEntry: Readonly<Record<string, unknown>>;
  /** The UK bank's entry, not in the service's bank list: a test adds it (ukBankFile for `openpis banks add`). */
  readonly ukBankEntry: Readonly<Record<string, unknown>>;
  readonly ukBankFile: string;
  readonly directoryJwks: JSONWebKeySet;
  /** Another software statement of ours, signed by the directory, listing `redirectUris`: its file. */
  softwareStatementFile(name: string, redirectUris: readonly string[]): Promise<string>;
  /** The operator's environment for the service and the CLI. */
  readonly env: Record<string, string>;
  readonly config: (overrides?: Record<string, string>) => Config;
  close(): Promise<void>;
}

export interface StrictWorldOptions {
  /**
   * The bank is `openpis sandbox-bank --strict` started from its files (certificates, client CA, directory keys, its
   * own catalogue) as a live bank would be, in a process of its own; else it runs in this process.
   */
  readonly standAlone?: boolean;
  /** The software statement's redirect URIs (where the service's payers come back); default https://localhost/pay/return. */
  readonly softwareRedirectUris?: readonly string[];
}

export async function startStrictWorld(options: StrictWorldOptions = {}): Promise<StrictWorld> {
  const ca = new TestCertificateAuthority('Strict Test QTSP');
  const otherCa = new TestCertificateAuthority('Unknown QTSP');
  const server = ca.server('bank', ['localhost']);
  const qwac = ca.qwac('qwac');
  const qseal = ca.qsealc('qseal');
  const transport = ca.qwac('ob-transport', { commonName: ORG_ID });
  const obSeal = ca.qsealc('ob-seal');

  const directory = await generateKeyPair('PS256', { extractable: true });
  const directoryJwks: JSONWebKeySet = {
    keys: [{ ...(await exportJWK(directory.publicKey)), kid: 'directory-1', alg: 'PS256', use: 'sig' }],
  };
  const softwareKey = await importPKCS8(obSeal.privateKeyPem, 'PS256', { extractable: true });
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...softwarePublic } = await exportJWK(softwareKey);
  const ssa = await softwareStatement(
    directory.privateKey,
    { keys: [{ ...softwarePublic, kid: SIGNING_KID, alg: 'PS256', use: 'sig' }] },
    options.softwareRedirectUris,
  );
  const ssaFile = join(ca.dir, 'ssa.jwt');
  writeFileSync(ssaFile, ssa);

  // The stand-alone bank as `openpis sandbox-bank --strict` builds it; the catalogue's public URL is only known
  // once it listens, so a first app reserves the port.
  const reserve = buildSandboxBankApp({
    catalogue: loadCatalogue(undefined, 'http://localhost'),
    publicUrl: 'http://localhost',
    authenticationAttempts: 3,
  });
  await reserve.listen({ port: 0, host: '127.0.0.1' });
  const port = (reserve.server.address() as AddressInfo).port;
  await reserve.close();
  const sandboxUrl = `https://localhost:${port}`;
  const catalogueFile = join(ca.dir, 'banks.json');
  const banks = bankList();
  writeFileSync(catalogueFile, JSON.stringify(banks));
  const [berlinGroupBank, ukBankEntry] = banks.providers;
  if (berlinGroupBank === undefined || ukBankEntry === undefined) throw new Error('the bank list lost a bank');
  const serviceCatalogueFile = join(ca.dir, 'service-banks.json');
  writeFileSync(serviceCatalogueFile, JSON.stringify({ providers: [berlinGroupBank] }));
  const ukBankFile = join(ca.dir, 'uk-bank.json');
  writeFileSync(ukBankFile, JSON.stringify(ukBankEntry));
  let stopBank: () => Promise<void>;
  if (options.standAlone === true) {
    const directoryJwksFile = join(ca.dir, 'directory-jwks.json');
    writeFileSync(directoryJwksFile, JSON.stringify(directoryJwks));
    const bankProcess = await startSandboxBankProcess(port, [
      '--public-url',
      sandboxUrl,
      '--strict',
      '--tls-cert',
      server.certFile,
      '--tls-key',
      server.keyFile,
      '--client-ca',
      ca.caFile,
      '--directory-jwks',
      directoryJwksFile,
      '--catalogue',
      catalogueFile,
    ]);
    stopBank = () => bankProcess.stop();
  } else {
    const bank = buildSandboxBankApp({
      catalogue: loadCatalogue(catalogueFile, sandboxUrl),
      publicUrl: sandboxUrl,
      authenticationAttempts: 3,
      https: { certificatePem: server.certificatePem, privateKeyPem: server.privateKeyPem },
      strict: { clientCaPems: [ca.caPem] },
      ukDirectoryJwks: directoryJwks,
    });
    await bank.listen({ port, host: '127.0.0.1' });
    stopBank = () => bank.close();
  }

  const env: Record<string, string> = {
    NODE_ENV: 'test',
    // The service's address as the software statement lists it: payers come back to {BASE_URL}/pay/return.
    BASE_URL: new URL(options.softwareRedirectUris?.[0] ?? DEFAULT_REDIRECT_URI).origin,
    SANDBOX_BANK_URL: sandboxUrl,
    PROVIDER_CATALOGUE_FILE: serviceCatalogueFile,
    DATABASE_URL: `sqlite:${join(ca.dir, 'openpis.sqlite')}`,
    BANK_CA_FILE: ca.caFile,
    QWAC_CERT_FILE: qwac.certFile,
    QWAC_KEY_FILE: qwac.keyFile,
    QSEAL_CERT_FILE: qseal.certFile,
    QSEAL_KEY_FILE: qseal.keyFile,
    OB_TRANSPORT_CERT_FILE: transport.certFile,
    OB_TRANSPORT_KEY_FILE: transport.keyFile,
    OB_SIGNING_KEY_FILE: obSeal.keyFile,
    OB_SIGNING_KEY_ID: SIGNING_KID,
    OB_SSA_FILE: ssaFile,
    SECRET_KEYS: generateSecretKeysSetting(),
  };
  return {
    ca,
    otherCa,
    sandboxUrl,
    bankServer: server,
    qwac,
    qseal,
    transport,
    obSeal,
    ssaFile,
    berlinGroupBankEntry: berlinGroupBank,
    ukBankEntry,
    ukBankFile,
    directoryJwks,
    async softwareStatementFile(name, redirectUris) {
      const file = join(ca.dir, `${name}.jwt`);
      writeFileSync(
        file,
        await softwareStatement(
          directory.privateKey,
          { keys: [{ ...softwarePublic, kid: SIGNING_KID, alg: 'PS256', use: 'sig' }] },
          redirectUris,
        ),
      );
      return file;
    },
    env,
    config: (overrides = {}) => loadConfig({ ...env, ...overrides }),
    async close() {
      await stopBank();
      ca.remove();
      otherCa.remove();
    },
  };
}

/** A software statement as a directory issues one: signed by its key, publishing the software's keys and redirects. */
export async function softwareStatement(
  directoryKey: Parameters<SignJWT['sign']>[0],
  softwareJwks: JSONWebKeySet,
  redirectUris: readonly string[] = [DEFAULT_REDIRECT_URI],
): Promise<string> {
  return new SignJWT({
    software_id: SOFTWARE_ID,
    org_id: ORG_ID,
    software_client_name: 'openpis test',
    software_jwks: softwareJwks,
    software_redirect_uris: redirectUris,
    software_roles: ['PISP'],
  })
    .setProtectedHeader({ alg: 'PS256', kid: 'directory-1', typ: 'JWT' })
    .setIssuer('Test Directory')
    .setIssuedAt()
    .setJti(randomUUID())
    .sign(directoryKey);
}

/** The bank list: the built-in Rheinland and Albion sandbox banks, Rheinland signing its requests as a live bank asks. */
function bankList(): { providers: Record<string, unknown>[] } {
  const builtIn = JSON.parse(readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8')) as {
    providers: { id: string; connector?: Record<string, unknown> }[];
  };
  const rheinland = builtIn.providers.find((provider) => provider.connector?.['baseUrl'] === '{SANDBOX_BANK_URL}/rheinland');
  const albion = builtIn.providers.find((provider) => provider.connector?.['issuer'] === '{SANDBOX_BANK_URL}/uk/albion');
  if (rheinland === undefined || albion === undefined) throw new Error('the built-in catalogue lost Rheinland or Albion');
  return {
    providers: [
      { ...rheinland, id: BERLIN_GROUP_BANK, connector: { ...rheinland.connector, signRequests: true } },
      { ...albion, id: UK_BANK },
    ],
  };
}
