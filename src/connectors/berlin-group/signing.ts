/**
 * The Berlin Group's HTTP message signature (Implementation Guidelines, "Signature"; draft-cavage-http-signatures
 * style): `Digest: SHA-256=<base64 sha256(body)>`, `Signature: keyId="SN=<serial hex>,CA=<issuer DN>",
 * algorithm="rsa-sha256",headers="digest x-request-id ...",signature="<base64>"` and the signing certificate in
 * `TPP-Signature-Certificate` (base64 DER). Keys come from the operator's configuration (a QSealC in production).
 */
import { X509Certificate, createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';

/** A PEM private key and its PEM certificate. */
export interface SigningKeys {
  readonly privateKeyPem: string;
  readonly certificatePem: string;
}

/**
 * Headers covered by the signature when present, in this order. `digest` and `x-request-id` are always present;
 * the PSU and redirect headers are signed because they steer the flow; `date` binds the time.
 */
export const SIGNED_HEADERS = ['digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'date'] as const;

/** `SHA-256=<base64>` of the exact body bytes (of the empty string for requests without body). */
export function digestHeader(body: string | Uint8Array): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/**
 * The issuer's distinguished name in RFC 4514 order (most specific first, as in the standard's example
 * `CN=D-TRUST%20CA%202-1%202015,O=D-Trust%20GmbH,C=DE`), with spaces percent-encoded as the example does so the
 * quoted `keyId` holds no spaces.
 */
export function issuerDistinguishedName(certificate: X509Certificate): string {
  return certificate.issuer
    .split('\n')
    .filter((part) => part !== '')
    .reverse()
    .join(',')
    .replace(/%/g, '%25')
    .replace(/ /g, '%20')
    .replace(/"/g, '%22');
}

/** The signing string: one `name: value` line per signed header present, in {@link SIGNED_HEADERS} order. */
export function signingString(headers: Readonly<Record<string, string>>, names: readonly string[]): string {
  return names.map((name) => `${name}: ${headers[name] ?? ''}`).join('\n');
}

export class RequestSigner {
  private readonly privateKey: KeyObject;
  private readonly keyId: string;
  private readonly certificateBase64: string;

  constructor(keys: SigningKeys) {
    const certificate = new X509Certificate(keys.certificatePem);
    this.privateKey = createPrivateKey(keys.privateKeyPem);
    if (!certificate.checkPrivateKey(this.privateKey)) {
      throw new Error('The request signing key does not belong to the signing certificate');
    }
    this.keyId = `SN=${certificate.serialNumber},CA=${issuerDistinguishedName(certificate)}`;
    this.certificateBase64 = certificate.raw.toString('base64');
  }

  /**
   * Returns the headers to add to a request: `Digest`, `Signature` and `TPP-Signature-Certificate`. `headers` must
   * already hold the request's other headers (including `Date`); names are matched case-insensitively.
   */
  sign(headers: Readonly<Record<string, string>>, body: string | Uint8Array): Record<string, string> {
    const lower: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
    lower['digest'] = digestHeader(body);
    const names = SIGNED_HEADERS.filter((name) => lower[name] !== undefined);
    const signature = createSign('sha256').update(signingString(lower, names)).sign(this.privateKey, 'base64');
    return {
      Digest: lower['digest'],
      Signature: `keyId="${this.keyId}",algorithm="rsa-sha256",` + `headers="${names.join(' ')}",signature="${signature}"`,
      'TPP-Signature-Certificate': this.certificateBase64,
    };
  }
}
