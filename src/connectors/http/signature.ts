/**
 * A generic HTTP message signer in the draft-cavage-http-signatures style that banking standards adopted (the Berlin
 * Group's "Signature"; others alike): `Digest: SHA-256=<base64 sha256(body)>` and `Signature: keyId="...",
 * algorithm="rsa-sha256",headers="digest ...",signature="<base64>"` over the listed headers present in the request.
 *
 * What differs between standards is a parameter: the `keyId` (its format is the standard's; a {@link KeyIdFormat}
 * derives it from the signing certificate), the headers covered, and the headers sent beside the signature (the
 * Berlin Group's `TPP-Signature-Certificate`). The signing itself is `node:crypto`'s.
 */
import { X509Certificate, createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';

/** How a standard names the signing key in `keyId`, from the signing certificate. */
export type KeyIdFormat = (certificate: X509Certificate) => string;

/** A PEM private key and its PEM certificate. */
export interface CertificateKeys {
  readonly privateKeyPem: string;
  readonly certificatePem: string;
}

export interface HttpSignatureProfile {
  /** The standard's `keyId` of the certificate. */
  readonly keyId: KeyIdFormat;
  /**
   * Lower-case header names covered by the signature when present, in this order; `digest` is always present (the
   * signer adds it) and should come first.
   */
  readonly signedHeaders: readonly string[];
  /** Headers sent beside the signature, from the certificate (the certificate itself, for a bank to verify with). */
  readonly certificateHeaders?: (certificate: X509Certificate) => Record<string, string>;
}

/** `SHA-256=<base64>` of the exact body bytes (of the empty string for requests without body). */
export function digestHeader(body: string | Uint8Array): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/** The signing string: one `name: value` line per signed header, in the order given. */
export function signingString(headers: Readonly<Record<string, string>>, names: readonly string[]): string {
  return names.map((name) => `${name}: ${headers[name] ?? ''}`).join('\n');
}

export class HttpMessageSigner {
  private readonly privateKey: KeyObject;
  /** The `keyId` sent, as the standard formats it. */
  readonly keyId: string;
  private readonly extraHeaders: Readonly<Record<string, string>>;

  constructor(
    keys: CertificateKeys,
    private readonly profile: HttpSignatureProfile,
  ) {
    const certificate = new X509Certificate(keys.certificatePem);
    this.privateKey = createPrivateKey(keys.privateKeyPem);
    if (this.privateKey.asymmetricKeyType !== 'rsa') {
      throw new Error(`The request signing key is ${this.privateKey.asymmetricKeyType ?? 'not asymmetric'}; rsa-sha256 needs an RSA key`);
    }
    if (!certificate.checkPrivateKey(this.privateKey)) {
      throw new Error('The request signing key does not belong to the signing certificate');
    }
    this.keyId = profile.keyId(certificate);
    if (/["\\]/.test(this.keyId)) throw new Error('A keyId may not contain quotes or backslashes');
    this.extraHeaders = profile.certificateHeaders?.(certificate) ?? {};
  }

  /**
   * The headers to add to a request: `Digest`, `Signature` and the profile's certificate headers. `headers` must
   * already hold the request's other headers (including `Date` when signed); names are matched case-insensitively.
   */
  sign(headers: Readonly<Record<string, string>>, body: string | Uint8Array): Record<string, string> {
    const lower: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
    lower['digest'] = digestHeader(body);
    const names = this.profile.signedHeaders.filter((name) => lower[name] !== undefined);
    const signature = createSign('sha256').update(signingString(lower, names)).sign(this.privateKey, 'base64');
    return {
      Digest: lower['digest'],
      Signature: `keyId="${this.keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`,
      ...this.extraHeaders,
    };
  }
}
