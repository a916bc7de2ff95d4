/**
 * A certificate with its private key, read from the operator's files: a PEM certificate (chain) and a PEM key, or one
 * PKCS#12 file whose password comes from the environment. PKCS#12 is opened by node-forge; what comes out is PEM, so
 * everything after (mutual TLS, signatures) sees one shape. The key is checked against the certificate at load, so a
 * mismatched pair stops the start rather than a payment.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import type { CredentialSource } from '../config/config.js';

/** PKCS#12 bag types (RFC 7292). */
const KEY_BAG = '1.2.840.113549.1.12.10.1.1';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';

/** A certificate (chain, leaf first) and its private key, both PEM. */
export interface CertifiedKey {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

/** What an error message calls each part of a credential: the settings (or bank entry fields) that name them. */
export interface CredentialNames {
  readonly certFile: string;
  readonly keyFile: string;
  readonly p12File: string;
  readonly p12Password: string;
}

/** The environment settings of the credential `name` (e.g. `QWAC_CERT_FILE`). */
function settingNames(name: string): CredentialNames {
  return { certFile: `${name}_CERT_FILE`, keyFile: `${name}_KEY_FILE`, p12File: `${name}_P12_FILE`, p12Password: `${name}_P12_PASSWORD` };
}

/**
 * Reads a credential; `name` (e.g. `QWAC`) opens every error message, which says what to fix and names the setting
 * to change (`names`; by default the environment settings of `name`).
 */
export function loadCertifiedKey(source: CredentialSource, name: string, names: CredentialNames = settingNames(name)): CertifiedKey {
  const pair = source.kind === 'pem' ? readPemPair(source, names) : readPkcs12(source, names);
  let matches: boolean;
  try {
    matches = new X509Certificate(pair.certificatePem).checkPrivateKey(createPrivateKey(pair.privateKeyPem));
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : 'the certificate or key is unreadable'}`, { cause: error });
  }
  if (!matches) {
    const files =
      source.kind === 'pem'
        ? `${names.keyFile} ${source.keyFile} is not the key of ${names.certFile} ${source.certFile}`
        : `in ${names.p12File} ${source.file}`;
    throw new Error(`${name}: the private key does not belong to the certificate (${files})`);
  }
  return pair;
}

function readPemPair(source: { readonly certFile: string; readonly keyFile: string }, names: CredentialNames): CertifiedKey {
  const certificatePem = readSettingFile(source.certFile, `${names.certFile}`);
  const privateKeyPem = readSettingFile(source.keyFile, `${names.keyFile}`);
  if (!certificatePem.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`${names.certFile} ${source.certFile} holds no PEM certificate`);
  if (!/-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(privateKeyPem)) {
    throw new Error(`${names.keyFile} ${source.keyFile} holds no PEM private key`);
  }
  if (privateKeyPem.includes('ENCRYPTED PRIVATE KEY')) {
    throw new Error(`${names.keyFile} ${source.keyFile} is encrypted: give an unencrypted key, or the pair as PKCS#12 (${names.p12File})`);
  }
  return { certificatePem, privateKeyPem };
}

/** A configured file's text; the error names the setting and whether the file is missing or unreadable. */
export function readSettingFile(file: string, setting: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw new Error(`${setting} ${file} ${reason}`, { cause: error });
  }
}

function readPkcs12(source: { readonly file: string; readonly password: string }, names: CredentialNames): CertifiedKey {
  let bytes: Buffer;
  try {
    bytes = readFileSync(source.file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw new Error(`${names.p12File} ${source.file} ${reason}`, { cause: error });
  }
  let store: forge.pkcs12.Pkcs12Pfx;
  try {
    store = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(bytes.toString('binary'))), source.password);
  } catch (error) {
    // forge says "Invalid password?" or "Too few bytes to read ASN.1 value." and the like: both point at the file or password.
    throw new Error(
      `${names.p12File} ${source.file} cannot be opened: not PKCS#12, or ${names.p12Password} is wrong (${error instanceof Error ? error.message : 'unreadable'})`,
      { cause: error },
    );
  }
  const keys = [
    ...(store.getBags({ bagType: SHROUDED_KEY_BAG })[SHROUDED_KEY_BAG] ?? []),
    ...(store.getBags({ bagType: KEY_BAG })[KEY_BAG] ?? []),
  ].flatMap((bag) => (bag.key === undefined ? [] : [bag.key]));
  const certificates = (store.getBags({ bagType: CERT_BAG })[CERT_BAG] ?? []).flatMap((bag) => (bag.cert === undefined ? [] : [bag.cert]));
  if (keys.length !== 1) throw new Error(`${names.p12File} ${source.file} must hold exactly one private key (it holds ${keys.length})`);
  if (certificates.length === 0) throw new Error(`${names.p12File} ${source.file} holds no certificate`);
  // node-forge reads RSA keys only; eIDAS and Open Banking certificates are RSA (2048 bits and up).
  const privateKeyPem = forge.pki.privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keys[0]!)));
  // The key's own certificate leads the chain; the others (intermediates) follow in the file's order.
  const publicKeyPem = spkiPem(createPublicKey(privateKeyPem));
  const pems = certificates.map((certificate) => forge.pki.certificateToPem(certificate));
  const leafIndex = pems.findIndex((pem) => spkiPem(new X509Certificate(pem).publicKey) === publicKeyPem);
  if (leafIndex === -1) throw new Error(`${names.p12File} ${source.file} holds no certificate for its private key`);
  const ordered = [pems[leafIndex]!, ...pems.filter((_, index) => index !== leafIndex)];
  return { certificatePem: ordered.join(''), privateKeyPem };
}

function spkiPem(key: KeyObject): string {
  return String(key.export({ type: 'spki', format: 'pem' }));
}
