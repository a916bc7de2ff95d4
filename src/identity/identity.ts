/**
 * Our identity towards the banks, per standard: the certificates and keys the operator configured (docs/going-live.md),
 * loaded once at start, and what an operator needs to see of them (`openpis identity show`, the start-up log, the
 * console's banner, the expiry metric). A bank entry may name its own files instead (its settings' `identity`);
 * those are read by the same functions.
 */
import { rootCertificates } from 'node:tls';
import { decodeJwt } from 'jose';
import type { BankIdentitySources } from '../config/config.js';
import { describeCertificate, type CertificateDescription } from './certificate.js';
import { loadCertifiedKey, readSettingFile, type CertifiedKey } from './credentials.js';

export type { CertificateDescription, Psd2Statement } from './certificate.js';
export type { CertifiedKey } from './credentials.js';

/** What each of our certificates is for. */
export type CertificateUse = 'qwac' | 'qseal' | 'ob-transport' | 'ob-signing';

export const CERTIFICATE_USES: Readonly<Record<CertificateUse, string>> = {
  qwac: 'Berlin Group mutual TLS (QWAC)',
  qseal: 'Berlin Group request signatures (QSealC)',
  'ob-transport': 'UK Open Banking mutual TLS (transport certificate)',
  'ob-signing': 'UK Open Banking signing key (OBSeal)',
};

/** The software statement assertion's claims an operator checks (UK DCR: software_id, org_id, the directory). */
export interface SoftwareStatement {
  /** The JWT as the directory issued it: sent as is in a registration request. */
  readonly jwt: string;
  readonly softwareId: string | undefined;
  readonly organisationId: string | undefined;
  readonly issuer: string | undefined;
  readonly issuedAt: string | undefined;
  readonly redirectUris: readonly string[];
}

/** Our loaded identity: PEM material for the connectors, descriptions for the operator. */
export interface BankIdentity {
  readonly qwac: CertifiedKey | undefined;
  readonly qseal: CertifiedKey | undefined;
  readonly openBankingTransport: CertifiedKey | undefined;
  /** The OBSeal certificate of the UK signing key, where configured (the key itself: OB_SIGNING_KEY_FILE). */
  readonly openBankingSigningCertificatePem: string | undefined;
  readonly softwareStatement: SoftwareStatement | undefined;
  /** CAs to trust for the banks' servers: Node's own plus BANK_CA_FILE's; undefined when no file adds any. */
  readonly bankCas: readonly string[] | undefined;
  readonly expiryWarningDays: number;
  /** What each configured certificate says, read once at load (the reports, the metric and the banner reuse it). */
  readonly certificates: readonly IdentityCertificate[];
}

/** One of our certificates as read: what it is for, and the bank whose entry names it (unset: the process's own). */
export interface IdentityCertificate {
  readonly use: CertificateUse;
  readonly certificate: CertificateDescription;
  /** The bank entry that overrides the process's certificate for this use (src/identity/overrides.ts). */
  readonly bank?: string;
}

/** A configured file that cannot be used: the message names the setting and what to fix (an operator's error). */
export class BankIdentityError extends Error {
  override readonly name = 'BankIdentityError';
}

/** Reads every configured file; throws a {@link BankIdentityError} naming the setting and what is wrong with it. */
export function loadBankIdentity(sources: BankIdentitySources): BankIdentity {
  try {
    return readBankIdentity(sources);
  } catch (error) {
    throw new BankIdentityError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

function readBankIdentity(sources: BankIdentitySources): BankIdentity {
  const loaded = {
    qwac: sources.qwac === undefined ? undefined : loadCertifiedKey(sources.qwac, 'QWAC'),
    qseal: sources.qseal === undefined ? undefined : loadCertifiedKey(sources.qseal, 'QSEAL'),
    openBankingTransport:
      sources.openBankingTransport === undefined ? undefined : loadCertifiedKey(sources.openBankingTransport, 'OB_TRANSPORT'),
    openBankingSigningCertificatePem:
      sources.openBankingSigningCertFile === undefined
        ? undefined
        : readCertificateFile(sources.openBankingSigningCertFile, 'OB_SIGNING_CERT_FILE'),
    softwareStatement: sources.softwareStatementFile === undefined ? undefined : readSoftwareStatement(sources.softwareStatementFile),
    bankCas: sources.bankCaFile === undefined ? undefined : [...rootCertificates, readCertificateFile(sources.bankCaFile, 'BANK_CA_FILE')],
    expiryWarningDays: sources.expiryWarningDays,
  };
  const pems: [CertificateUse, string | undefined][] = [
    ['qwac', loaded.qwac?.certificatePem],
    ['qseal', loaded.qseal?.certificatePem],
    ['ob-transport', loaded.openBankingTransport?.certificatePem],
    ['ob-signing', loaded.openBankingSigningCertificatePem],
  ];
  const certificates = pems.flatMap(([use, pem]): IdentityCertificate[] =>
    pem === undefined ? [] : [{ use, certificate: describeCertificate(pem) }],
  );
  return { ...loaded, certificates };
}

function readCertificateFile(file: string, setting: string): string {
  const pem = readSettingFile(file, setting);
  try {
    describeCertificate(pem);
  } catch (error) {
    throw new Error(`${setting} ${file}: ${error instanceof Error ? error.message : 'unreadable'}`, { cause: error });
  }
  return pem;
}

function readSoftwareStatement(file: string): SoftwareStatement {
  const jwt = readSettingFile(file, 'OB_SSA_FILE').trim();
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(jwt);
  } catch (error) {
    throw new Error(`OB_SSA_FILE ${file} is not a JWT (${error instanceof Error ? error.message : 'unreadable'})`, { cause: error });
  }
  const text = (name: string): string | undefined => (typeof claims[name] === 'string' ? claims[name] : undefined);
  const redirectUris = claims['software_redirect_uris'];
  return {
    jwt,
    softwareId: text('software_id'),
    organisationId: text('org_id'),
    issuer: text('iss'),
    issuedAt: typeof claims['iat'] === 'number' ? new Date(claims['iat'] * 1000).toISOString() : undefined,
    redirectUris: Array.isArray(redirectUris) ? redirectUris.filter((uri): uri is string => typeof uri === 'string') : [],
  };
}

/** Where a certificate stands on its validity: `expiring` within the warning days. */
export type ValidityState = 'valid' | 'expiring' | 'expired' | 'not-yet-valid';

export interface CertificateReport {
  readonly use: CertificateUse;
  /** The bank whose own entry names the certificate; unset for the process's. */
  readonly bank?: string;
  readonly purpose: string;
  readonly certificate: CertificateDescription;
  /** Whole days left until `notAfter` (negative once expired). */
  readonly daysLeft: number;
  readonly state: ValidityState;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Each configured certificate with its validity at `now`: what the CLI, the log, the metric and the banner show. The
 * bank entries' own certificates (`overrides`) follow the process's.
 */
export function certificateReports(identity: BankIdentity, now: Date, overrides: readonly IdentityCertificate[] = []): CertificateReport[] {
  return [...identity.certificates, ...overrides].map(({ use, certificate, bank }) => {
    const msLeft = Date.parse(certificate.notAfter) - now.getTime();
    const daysLeft = Math.floor(msLeft / DAY_MS);
    const state: ValidityState =
      Date.parse(certificate.notBefore) > now.getTime()
        ? 'not-yet-valid'
        : msLeft <= 0
          ? 'expired'
          : msLeft <= identity.expiryWarningDays * DAY_MS
            ? 'expiring'
            : 'valid';
    return { use, ...(bank === undefined ? {} : { bank }), purpose: CERTIFICATE_USES[use], certificate, daysLeft, state };
  });
}

/** The warnings to give an operator: one sentence per certificate that expired, expires soon or is not valid yet. */
export function certificateWarnings(reports: readonly CertificateReport[]): string[] {
  return reports.flatMap((report) => {
    const which = `${report.bank === undefined ? '' : `${report.bank}'s own `}${report.purpose} ${report.certificate.subject}`;
    switch (report.state) {
      case 'valid':
        return [];
      case 'expiring':
        return [`${which} expires on ${report.certificate.notAfter} (in ${report.daysLeft} days): renew it and update its files`];
      case 'expired':
        return [`${which} expired on ${report.certificate.notAfter}: the banks refuse it; renew it and update its files`];
      case 'not-yet-valid':
        return [`${which} is not valid before ${report.certificate.notBefore}`];
    }
  });
}
