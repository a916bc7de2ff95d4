/**
 * What an operator needs to know of one of our certificates towards the banks: whose it is (subject, the PSD2
 * organisation identifier), what it allows (the PSD2 roles of its QCStatement, ETSI TS 119 495) and until when.
 * The certificate is read by Node's X.509 (OpenSSL) and the PKIX ASN.1 schemas of @peculiar/asn1-x509; the PSD2
 * statement's own structure by asn1js. Nothing here parses DER by hand.
 */
import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { QCStatements } from '@peculiar/asn1-x509-qualified';
import * as asn1js from 'asn1js';

/** Subject attribute `organizationIdentifier` (X.520): the PSD2 authorisation number, e.g. `PSDGB-FCA-123456`. */
const ORGANIZATION_IDENTIFIER = '2.5.4.97';
const COMMON_NAME = '2.5.4.3';
const ORGANIZATION = '2.5.4.10';
/** The qcStatements extension (RFC 3739). */
const QC_STATEMENTS = '1.3.6.1.5.5.7.1.3';
/** ETSI TS 119 495's PSD2 statement, `id-etsi-psd2-qcStatement`. */
const PSD2_STATEMENT = '0.4.0.19495.2';
/** The PSD2 role of each role OID (ETSI TS 119 495, `etsi-psd2-roles`). */
const PSD2_ROLES: Readonly<Record<string, string>> = {
  '0.4.0.19495.1.1': 'PSP_AS',
  '0.4.0.19495.1.2': 'PSP_PI',
  '0.4.0.19495.1.3': 'PSP_AI',
  '0.4.0.19495.1.4': 'PSP_IC',
};

/** The PSD2 statement of a certificate: the roles it grants and the authority that granted them. */
export interface Psd2Statement {
  /** Role names (`PSP_PI`, `PSP_AI`, …) in the certificate's order. */
  readonly roles: readonly string[];
  readonly authorityName: string;
  /** E.g. `GB-FCA`. */
  readonly authorityId: string;
}

export interface CertificateDescription {
  /** The subject in RFC 4514 order (most specific first), e.g. `CN=…,organizationIdentifier=…,O=…,C=GB`. */
  readonly subject: string;
  readonly issuer: string;
  readonly commonName: string | undefined;
  readonly organisation: string | undefined;
  /** The PSD2 authorisation number (`PSDGB-FCA-123456`), where the subject carries one. */
  readonly organisationIdentifier: string | undefined;
  /** Where the certificate carries the PSD2 QCStatement. */
  readonly psd2: Psd2Statement | undefined;
  /** Hexadecimal, as Node prints it. */
  readonly serialNumber: string;
  readonly notBefore: string;
  /** UTC ISO 8601. */
  readonly notAfter: string;
  /** SHA-256 fingerprint (colon-separated hex). */
  readonly fingerprintSha256: string;
}

/** Reads the first certificate of a PEM chain. Throws an Error whose message says what is wrong. */
export function describeCertificate(pem: string): CertificateDescription {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch (error) {
    throw new Error(`not a PEM X.509 certificate (${error instanceof Error ? error.message : 'unreadable'})`, { cause: error });
  }
  const parsed = AsnConvert.parse(certificate.raw, Certificate);
  const attributes = parsed.tbsCertificate.subject.flatMap((rdn) => [...rdn]);
  const attribute = (oid: string): string | undefined => {
    const found = attributes.find((entry) => entry.type === oid);
    return found === undefined ? undefined : found.value.toString();
  };
  const qcStatements = parsed.tbsCertificate.extensions?.find((extension) => extension.extnID === QC_STATEMENTS);
  return {
    subject: rfc4514(certificate.subject),
    issuer: rfc4514(certificate.issuer),
    commonName: attribute(COMMON_NAME),
    organisation: attribute(ORGANIZATION),
    organisationIdentifier: attribute(ORGANIZATION_IDENTIFIER),
    psd2: qcStatements === undefined ? undefined : psd2Statement(qcStatements.extnValue.buffer),
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprintSha256: certificate.fingerprint256,
  };
}

/** Node prints a name one attribute a line, least specific first; RFC 4514 writes them the other way, with commas. */
function rfc4514(name: string): string {
  return name
    .split('\n')
    .filter((part) => part !== '')
    .reverse()
    .join(',');
}

/** The PSD2 statement among the certificate's QCStatements; undefined when it has none (or one not of its shape). */
function psd2Statement(extensionValue: ArrayBuffer): Psd2Statement | undefined {
  const statement = AsnConvert.parse(extensionValue, QCStatements).find((entry) => entry.statementId === PSD2_STATEMENT);
  if (statement?.statementInfo === undefined) return undefined;
  // PSD2QcType ::= SEQUENCE { rolesOfPSP SEQUENCE OF RoleOfPSP, nCAName UTF8String, nCAId UTF8String }
  // RoleOfPSP ::= SEQUENCE { roleOfPspOid OBJECT IDENTIFIER, roleOfPspName UTF8String }
  const decoded = asn1js.fromBER(statement.statementInfo);
  if (decoded.offset === -1 || !(decoded.result instanceof asn1js.Sequence)) return undefined;
  const [roles, authorityName, authorityId] = decoded.result.valueBlock.value;
  if (!(roles instanceof asn1js.Sequence) || !(authorityName instanceof asn1js.Utf8String) || !(authorityId instanceof asn1js.Utf8String)) {
    return undefined;
  }
  const roleNames = roles.valueBlock.value.flatMap((role) => {
    if (!(role instanceof asn1js.Sequence)) return [];
    const [oid, name] = role.valueBlock.value;
    if (!(oid instanceof asn1js.ObjectIdentifier)) return [];
    // The name must be the one of its OID; the OID decides when a certificate says otherwise.
    const known = PSD2_ROLES[oid.valueBlock.toString()];
    if (known !== undefined) return [known];
    return name instanceof asn1js.Utf8String ? [name.valueBlock.value] : [];
  });
  return { roles: roleNames, authorityName: authorityName.valueBlock.value, authorityId: authorityId.valueBlock.value };
}
