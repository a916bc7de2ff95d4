/**
 * A bank's own identity: a bank entry may name its own certificate and key files instead of the process's (its
 * connector settings' `identity`), for a bank that issued us a certificate of its own or needs another registration's
 * signing key. The files are read with the same functions as the process's (src/identity/credentials.ts), once per
 * bank entry, and their certificates join the process's in every report (start-up log, `openpis identity show`, the
 * expiry metric and the console's banner).
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { CredentialSource } from '../config/config.js';
import { describeCertificate } from './certificate.js';
import { loadCertifiedKey, readSettingFile, type CertifiedKey, type CredentialNames } from './credentials.js';
import { BankIdentityError, type CertificateUse, type IdentityCertificate } from './identity.js';

/** A certificate and its key as a bank entry names them: a PEM pair, or PKCS#12 with its password in the environment. */
export type CredentialFiles =
  { readonly certFile: string; readonly keyFile: string } | { readonly p12File: string; readonly p12PasswordEnv: string };

/** What a bank entry may override, whatever its standard (the composition root maps each standard's names to these). */
export interface IdentityOverrideFiles {
  /** Mutual TLS (a QWAC, a UK transport certificate); `field` is where the entry names it (`identity.qwac`). */
  readonly tls?: { readonly files: CredentialFiles; readonly use: CertificateUse; readonly field: string };
  /** Berlin Group request signatures (a QSealC). */
  readonly signing?: { readonly files: CredentialFiles; readonly use: CertificateUse; readonly field: string };
  /** UK Open Banking: a PKCS#8 PEM RSA key and its `kid` at the bank's directory. */
  readonly signingKey?: { readonly keyFile: string; readonly keyId: string };
}

export interface IdentityOverride {
  readonly tls?: CertifiedKey;
  readonly signing?: CertifiedKey;
  readonly signingKey?: { readonly privateKey: KeyObject; readonly kid: string };
  /** The override's certificates, described once, each naming the bank. */
  readonly certificates: readonly IdentityCertificate[];
}

/**
 * Reads a bank entry's own files; throws a {@link BankIdentityError} that names the bank, the setting and what to fix.
 * `environment` gives the PKCS#12 passwords (by the variable each entry names: a password never sits in a bank entry).
 */
export function loadIdentityOverride(
  bank: string,
  files: IdentityOverrideFiles,
  environment: NodeJS.ProcessEnv = process.env,
): IdentityOverride {
  try {
    const read = (part: { readonly files: CredentialFiles; readonly field: string } | undefined): CertifiedKey | undefined =>
      part === undefined
        ? undefined
        : loadCertifiedKey(credentialSource(part.files, environment), `${bank}: ${part.field}`, fieldNames(bank, part));
    const tls = read(files.tls);
    const signing = read(files.signing);
    const signingKey = files.signingKey === undefined ? undefined : readSigningKey(bank, files.signingKey);
    const described = (use: CertificateUse, pair: CertifiedKey | undefined): IdentityCertificate[] =>
      pair === undefined ? [] : [{ use, bank, certificate: describeCertificate(pair.certificatePem) }];
    return {
      ...(tls === undefined ? {} : { tls }),
      ...(signing === undefined ? {} : { signing }),
      ...(signingKey === undefined ? {} : { signingKey }),
      certificates: [...described(files.tls?.use ?? 'qwac', tls), ...described(files.signing?.use ?? 'qseal', signing)],
    };
  } catch (error) {
    if (error instanceof BankIdentityError) throw error;
    throw new BankIdentityError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** Error messages name the bank entry's fields, e.g. `Hansa: identity.qwac.certFile /etc/q.pem does not exist`. */
function fieldNames(bank: string, part: { readonly files: CredentialFiles; readonly field: string }): CredentialNames {
  const field = `${bank}: ${part.field}`;
  const password = 'p12PasswordEnv' in part.files ? `the password in ${part.files.p12PasswordEnv}` : `${field}.p12PasswordEnv`;
  return { certFile: `${field}.certFile`, keyFile: `${field}.keyFile`, p12File: `${field}.p12File`, p12Password: password };
}

function credentialSource(files: CredentialFiles, environment: NodeJS.ProcessEnv): CredentialSource {
  if ('certFile' in files) return { kind: 'pem', certFile: files.certFile, keyFile: files.keyFile };
  const password = environment[files.p12PasswordEnv];
  if (password === undefined) {
    throw new Error(
      `the PKCS#12 file ${files.p12File} needs its password in the environment variable ${files.p12PasswordEnv}, which is not set`,
    );
  }
  return { kind: 'pkcs12', file: files.p12File, password };
}

function readSigningKey(bank: string, configured: { readonly keyFile: string; readonly keyId: string }): IdentityOverride['signingKey'] {
  const pem = readSettingFile(configured.keyFile, `${bank}: identity.signingKey.keyFile`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`${bank}: identity.signingKey.keyFile ${configured.keyFile} holds no readable PEM private key`, { cause: error });
  }
  if (privateKey.asymmetricKeyType !== 'rsa') {
    throw new Error(`${bank}: identity.signingKey.keyFile ${configured.keyFile} is not an RSA key (PS256 needs one)`);
  }
  return { privateKey, kid: configured.keyId };
}
