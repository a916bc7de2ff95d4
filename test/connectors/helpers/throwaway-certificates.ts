/**
 * Throw-away RSA keys and self-signed certificates, made at test time with the system's `openssl` (Node cannot
 * create X.509 certificates by itself) in a temporary directory that is deleted at once. Nothing is committed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface KeyAndCertificate {
  readonly keyPem: string;
  readonly certificatePem: string;
}

export function throwawayCertificate(subject: string, options: { days?: number; san?: string } = {}): KeyAndCertificate {
  const directory = mkdtempSync(path.join(tmpdir(), 'openpis-cert-'));
  try {
    const key = path.join(directory, 'key.pem');
    const certificate = path.join(directory, 'certificate.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-keyout',
        key,
        '-out',
        certificate,
        '-days',
        String(options.days ?? 2),
        '-subj',
        subject,
        ...(options.san === undefined ? [] : ['-addext', `subjectAltName=${options.san}`]),
      ],
      { stdio: 'ignore', timeout: 20_000 },
    );
    return { keyPem: readFileSync(key, 'utf8'), certificatePem: readFileSync(certificate, 'utf8') };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
