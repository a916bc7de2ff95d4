/**
 * The Berlin Group's HTTP message signature (Implementation Guidelines, "Signature"; draft-cavage-http-signatures
 * style), as a profile of the generic signer (../http/signature.ts): `keyId="SN=<serial hex>,CA=<issuer DN>"`, the
 * headers below, and the signing certificate in `TPP-Signature-Certificate` (base64 DER). Keys come from the
 * operator's configuration (a QSealC in production).
 */
import type { X509Certificate } from 'node:crypto';
import { HttpMessageSigner, type CertificateKeys, type HttpSignatureProfile, type KeyIdFormat } from '../http/signature.js';

export { digestHeader, signingString } from '../http/signature.js';

/** A PEM private key and its PEM certificate. */
export type SigningKeys = CertificateKeys;

/**
 * Headers covered by the signature when present, in this order. `digest` and `x-request-id` are always present;
 * the PSU and redirect headers are signed because they steer the flow; `date` binds the time.
 */
export const SIGNED_HEADERS = ['digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'date'] as const;

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

/** The standard's `keyId`: the certificate's serial number (hex) and its issuer. */
export const berlinGroupKeyId: KeyIdFormat = (certificate) => `SN=${certificate.serialNumber},CA=${issuerDistinguishedName(certificate)}`;

export const BERLIN_GROUP_SIGNATURE: HttpSignatureProfile = {
  keyId: berlinGroupKeyId,
  signedHeaders: SIGNED_HEADERS,
  certificateHeaders: (certificate) => ({ 'TPP-Signature-Certificate': certificate.raw.toString('base64') }),
};

/** The Berlin Group request signer: `Digest`, `Signature` and `TPP-Signature-Certificate`. */
export class RequestSigner extends HttpMessageSigner {
  constructor(keys: SigningKeys) {
    super(keys, BERLIN_GROUP_SIGNATURE);
  }
}
