/**
 * Test certificates shaped like the real ones (docs/going-live.md): a test CA, and for a TPP an eIDAS QWAC and
 * QSealC (ETSI TS 119 495: organizationIdentifier in the subject, QcCompliance, QcType and the PSD2 statement with
 * its roles) or UK OBWAC/OBSeal-like certificates, made by `openssl` at test time into a temporary folder. Nothing
 * here is a real identity; every value is fictitious.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BankIdentitySources } from '../../src/config/config.js';

/** No identity files configured (a test spreads what it configures over it). */
export const NO_IDENTITY_SOURCES: BankIdentitySources = {
  qwac: undefined,
  qseal: undefined,
  openBankingTransport: undefined,
  openBankingSigningCertFile: undefined,
  softwareStatementFile: undefined,
  bankCaFile: undefined,
  expiryWarningDays: 30,
};

export interface TestCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

export interface CertificateOptions {
  /** Subject organizationIdentifier; default `PSDGB-FCA-123456`. */
  readonly organisationIdentifier?: string;
  readonly commonName?: string;
  readonly organisation?: string;
  /** PSD2 role names with their OIDs' last arc (PSP_PI = 2, PSP_AI = 3); default PSP_PI and PSP_AI. */
  readonly roles?: readonly ('PSP_AS' | 'PSP_PI' | 'PSP_AI' | 'PSP_IC')[];
  /** Validity in days from now; default 365 (an expired one: ask the code under test about a later time). */
  readonly days?: number;
  /** Leave the PSD2 statement out (a plain client certificate). */
  readonly withoutPsd2?: boolean;
  /** Subject alternative DNS names (a server certificate). */
  readonly dnsNames?: readonly string[];
}

const ROLE_ARC = { PSP_AS: 1, PSP_PI: 2, PSP_AI: 3, PSP_IC: 4 } as const;

/** A folder of test certificates with one CA; `remove()` deletes it. */
export class TestCertificateAuthority {
  readonly dir: string;
  readonly caFile: string;
  readonly caKeyFile: string;
  private serial = 1;

  constructor(name = 'Test QTSP') {
    this.dir = mkdtempSync(join(tmpdir(), 'openpis-certs-'));
    this.caFile = join(this.dir, 'ca.pem');
    this.caKeyFile = join(this.dir, 'ca.key');
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      this.caKeyFile,
      '-out',
      this.caFile,
      '-days',
      '30',
      '-subj',
      `/C=GB/O=${name}/CN=${name} PSD2 CA`,
    ]);
  }

  get caPem(): string {
    return readFileSync(this.caFile, 'utf8');
  }

  /** An eIDAS QWAC (mutual TLS: serverAuth and clientAuth, QcType web). */
  qwac(name: string, options: CertificateOptions = {}): TestCertificate {
    return this.issue(name, 'web', options);
  }

  /** An eIDAS QSealC (signatures: nonRepudiation, QcType eseal, no extended key usage). */
  qsealc(name: string, options: CertificateOptions = {}): TestCertificate {
    return this.issue(name, 'seal', options);
  }

  /** A server certificate for a bank's HTTPS endpoint on this machine. */
  server(name: string, dnsNames: readonly string[] = ['localhost']): TestCertificate {
    return this.issue(name, 'server', { withoutPsd2: true, dnsNames, commonName: dnsNames[0] ?? 'localhost' });
  }

  /** The pair as one PKCS#12 file protected by `password` (OpenSSL's default, modern encryption). */
  pkcs12(certificate: TestCertificate, password: string): string {
    const file = certificate.certFile.replace(/\.pem$/, '.p12');
    openssl([
      'pkcs12',
      '-export',
      '-in',
      certificate.certFile,
      '-inkey',
      certificate.keyFile,
      '-out',
      file,
      '-passout',
      `pass:${password}`,
    ]);
    return file;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private issue(name: string, kind: 'web' | 'seal' | 'server', options: CertificateOptions): TestCertificate {
    const keyFile = join(this.dir, `${name}.key`);
    const csrFile = join(this.dir, `${name}.csr`);
    const certFile = join(this.dir, `${name}.pem`);
    const configFile = join(this.dir, `${name}.cnf`);
    writeFileSync(configFile, certificateConfig(kind, options));
    openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', csrFile, '-config', configFile]);
    openssl([
      'x509',
      '-req',
      '-in',
      csrFile,
      '-CA',
      this.caFile,
      '-CAkey',
      this.caKeyFile,
      '-set_serial',
      String(1000 + this.serial++),
      '-days',
      String(options.days ?? 365),
      '-out',
      certFile,
      '-extfile',
      configFile,
      '-extensions',
      'ext',
    ]);
    return { certFile, keyFile, certificatePem: readFileSync(certFile, 'utf8'), privateKeyPem: readFileSync(keyFile, 'utf8') };
  }
}

function certificateConfig(kind: 'web' | 'seal' | 'server', options: CertificateOptions): string {
  const roles = options.roles ?? ['PSP_PI', 'PSP_AI'];
  const qcType = kind === 'seal' ? '0.4.0.1862.1.6.2' : '0.4.0.1862.1.6.3';
  const extension =
    kind === 'seal'
      ? ['keyUsage = critical, digitalSignature, nonRepudiation']
      : kind === 'web'
        ? ['keyUsage = critical, digitalSignature, keyEncipherment', 'extendedKeyUsage = serverAuth, clientAuth']
        : ['keyUsage = critical, digitalSignature, keyEncipherment', 'extendedKeyUsage = serverAuth'];
  if (options.dnsNames !== undefined) extension.push(`subjectAltName = ${options.dnsNames.map((name) => `DNS:${name}`).join(', ')}`);
  if (options.withoutPsd2 !== true) extension.push('qcStatements = ASN1:SEQUENCE:qcs');
  return [
    '[ req ]',
    'distinguished_name = dn',
    'prompt = no',
    'string_mask = utf8only',
    'utf8 = yes',
    '[ dn ]',
    'C = GB',
    `O = ${options.organisation ?? 'Example TPP Ltd'}`,
    ...(options.withoutPsd2 === true ? [] : [`organizationIdentifier = ${options.organisationIdentifier ?? 'PSDGB-FCA-123456'}`]),
    `CN = ${options.commonName ?? '0015800001041RbAAI'}`,
    '[ ext ]',
    'basicConstraints = critical, CA:FALSE',
    'subjectKeyIdentifier = hash',
    ...extension,
    '[ qcs ]',
    'compliance = SEQUENCE:qc_compliance',
    'qctype = SEQUENCE:qc_type',
    'psd2 = SEQUENCE:qc_psd2',
    '[ qc_compliance ]',
    'id = OID:0.4.0.1862.1.1',
    '[ qc_type ]',
    'id = OID:0.4.0.1862.1.6',
    'types = SEQUENCE:qc_types',
    '[ qc_types ]',
    `t = OID:${qcType}`,
    '[ qc_psd2 ]',
    'id = OID:0.4.0.19495.2',
    'info = SEQUENCE:psd2_qc_type',
    '[ psd2_qc_type ]',
    'roles = SEQUENCE:psd2_roles',
    'ncaName = UTF8:Financial Conduct Authority',
    'ncaId = UTF8:GB-FCA',
    '[ psd2_roles ]',
    ...roles.map((role) => `${role.toLowerCase()} = SEQUENCE:role_${role.toLowerCase()}`),
    ...roles.flatMap((role) => [`[ role_${role.toLowerCase()} ]`, `oid = OID:0.4.0.19495.1.${ROLE_ARC[role]}`, `name = UTF8:${role}`]),
    '',
  ].join('\n');
}

function openssl(args: readonly string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
