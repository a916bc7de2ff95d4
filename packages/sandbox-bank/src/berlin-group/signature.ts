/**
 * Verifier of the NextGenPSD2 application-layer signature (Implementation Guidelines, "Signature"): a `Digest`
 * header over the body, a draft-cavage `Signature` header over chosen headers, and the TPP's certificate in
 * `TPP-Signature-Certificate` (base64 DER). Exported so that the connector's tests can check what they sign.
 */
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';

export interface SignedRequest {
  /** Request headers; names are matched case-insensitively. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body exactly as sent (empty for GET/DELETE). */
  readonly body: string | Uint8Array | undefined;
}

export type SignatureProblem =
  'SIGNATURE_MISSING' | 'SIGNATURE_INVALID' | 'CERTIFICATE_MISSING' | 'CERTIFICATE_INVALID' | 'CERTIFICATE_EXPIRED';

export type SignatureVerification =
  | { readonly ok: true; readonly certificate: X509Certificate; readonly signedHeaders: readonly string[] }
  | { readonly ok: false; readonly code: SignatureProblem; readonly text: string };

/** Headers that must be signed whenever the request carries them; `digest` and `x-request-id` always. */
const SIGNED_WHEN_PRESENT = ['psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'date'] as const;
const DIGEST_ALGORITHMS: Readonly<Record<string, string>> = { 'SHA-256': 'sha256', 'SHA-512': 'sha512' };
const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = { 'rsa-sha256': 'sha256', 'rsa-sha512': 'sha512' };

type Failure = Extract<SignatureVerification, { ok: false }>;

function fail(code: SignatureProblem, text: string): Failure {
  return { ok: false, code, text };
}

function isFailure<T>(value: T | Failure): value is Failure {
  return typeof value === 'object' && value !== null && 'ok' in value && value.ok === false;
}

/** A header of the request by lower-case name (repeated values joined). */
function headerReader(request: SignedRequest): (name: string) => string | undefined {
  return (name) => {
    for (const [key, value] of Object.entries(request.headers)) {
      if (key.toLowerCase() !== name) continue;
      return typeof value === 'string' ? value : value?.join(', ');
    }
    return undefined;
  };
}

export function verifyRequestSignature(request: SignedRequest, options: { now?: Date } = {}): SignatureVerification {
  const header = headerReader(request);
  const certificateHeader = header('tpp-signature-certificate');
  const signatureHeader = header('signature');
  const digestHeader = header('digest');
  if (certificateHeader === undefined || certificateHeader.trim() === '') {
    return fail('CERTIFICATE_MISSING', 'TPP-Signature-Certificate header is missing');
  }
  if (signatureHeader === undefined || digestHeader === undefined) {
    return fail('SIGNATURE_MISSING', 'Signature and Digest headers are required');
  }
  const certificate = readCertificate(certificateHeader, options.now ?? new Date());
  if (isFailure(certificate)) return certificate;
  const digestProblem = checkDigest(digestHeader, request.body ?? '');
  if (digestProblem !== undefined) return digestProblem;
  const signed = readSignatureHeader(signatureHeader, certificate);
  if (isFailure(signed)) return signed;
  const signingString = signingStringOf(signed.signedHeaders, header);
  if (isFailure(signingString)) return signingString;
  let valid: boolean;
  try {
    valid = verifySignature(signed.hash, Buffer.from(signingString), certificate.publicKey, Buffer.from(signed.signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) return fail('SIGNATURE_INVALID', 'The signature does not verify with the certificate');
  return { ok: true, certificate, signedHeaders: signed.signedHeaders };
}

/** The TPP's certificate: base64 DER (PEM armour tolerated), an RSA key, valid now. */
function readCertificate(certificateHeader: string, now: Date): X509Certificate | Failure {
  let certificate: X509Certificate;
  try {
    const base64 = certificateHeader.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    certificate = new X509Certificate(Buffer.from(base64, 'base64'));
  } catch {
    return fail('CERTIFICATE_INVALID', 'TPP-Signature-Certificate is not a base64 DER X.509 certificate');
  }
  if (certificate.publicKey.asymmetricKeyType !== 'rsa') {
    return fail('CERTIFICATE_INVALID', 'The certificate does not carry an RSA key');
  }
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo)) {
    return fail('CERTIFICATE_EXPIRED', 'The certificate is not valid at this time');
  }
  return certificate;
}

/** The `Digest` header must be the hash of the exact body. */
function checkDigest(digestHeader: string, body: string | Uint8Array): Failure | undefined {
  const digestMatch = /^(SHA-256|SHA-512)=([A-Za-z0-9+/]+={0,2})$/.exec(digestHeader.trim());
  const digestAlgorithm = digestMatch?.[1] === undefined ? undefined : DIGEST_ALGORITHMS[digestMatch[1]];
  if (digestMatch === null || digestAlgorithm === undefined) {
    return fail('SIGNATURE_INVALID', 'Digest must be SHA-256=<base64> or SHA-512=<base64>');
  }
  const expectedDigest = createHash(digestAlgorithm).update(body).digest('base64');
  if (expectedDigest !== digestMatch[2]) return fail('SIGNATURE_INVALID', 'Digest does not match the body');
  return undefined;
}

/** The `Signature` header's parameters: the hash, the signed headers, the signature; its keyId must name the certificate. */
function readSignatureHeader(
  signatureHeader: string,
  certificate: X509Certificate,
): { hash: string; signedHeaders: string[]; signature: string } | Failure {
  const parameters = new Map<string, string>();
  for (const match of signatureHeader.matchAll(/([A-Za-z]+)\s*=\s*"([^"]*)"/g)) {
    if (match[1] !== undefined && match[2] !== undefined) parameters.set(match[1], match[2]);
  }
  const keyId = parameters.get('keyId');
  const algorithm = parameters.get('algorithm');
  const headersParameter = parameters.get('headers');
  const signature = parameters.get('signature');
  if (keyId === undefined || algorithm === undefined || headersParameter === undefined || signature === undefined) {
    return fail('SIGNATURE_INVALID', 'Signature needs keyId, algorithm, headers and signature');
  }
  const hash = SIGNATURE_ALGORITHMS[algorithm.toLowerCase()];
  if (hash === undefined) return fail('SIGNATURE_INVALID', `Unsupported signature algorithm ${algorithm}`);
  const serial = /(?:^|,)\s*SN=([0-9A-Fa-f]+)/.exec(keyId)?.[1];
  if (serial === undefined || !/(?:^|,)\s*CA=/.test(keyId)) {
    return fail('SIGNATURE_INVALID', 'keyId must have the form SN=<serial>,CA=<issuer>');
  }
  if (normaliseSerial(serial) !== normaliseSerial(certificate.serialNumber)) {
    return fail('SIGNATURE_INVALID', 'keyId serial number does not match the certificate');
  }
  return {
    hash,
    signedHeaders: headersParameter
      .toLowerCase()
      .split(/\s+/)
      .filter((name) => name !== ''),
    signature,
  };
}

/** The signed headers' `name: value` lines; the mandatory ones, and those the request carries, must be signed. */
function signingStringOf(signedHeaders: readonly string[], header: (name: string) => string | undefined): string | Failure {
  for (const required of ['digest', 'x-request-id']) {
    if (!signedHeaders.includes(required)) return fail('SIGNATURE_INVALID', `The signature must cover ${required}`);
  }
  for (const name of SIGNED_WHEN_PRESENT) {
    if (header(name) !== undefined && !signedHeaders.includes(name)) {
      return fail('SIGNATURE_INVALID', `The signature must cover ${name}, which the request carries`);
    }
  }
  const lines: string[] = [];
  for (const name of signedHeaders) {
    const value = header(name);
    if (value === undefined) return fail('SIGNATURE_INVALID', `Signed header ${name} is missing from the request`);
    lines.push(`${name}: ${value}`);
  }
  return lines.join('\n');
}

function normaliseSerial(serial: string): string {
  return serial.toUpperCase().replace(/^0+/, '');
}
