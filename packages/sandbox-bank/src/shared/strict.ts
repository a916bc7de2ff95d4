/**
 * The strict mode of the sandbox banks (docs/sandbox-bank.md, "Strict mode"): behave like a live bank. Its API is
 * served over HTTPS only, and every API call must come with a TLS client certificate issued by one of the CAs the
 * bank is configured with; Berlin Group banks then require a request signature whose certificate chains to the same
 * CAs and names the same organisation, and UK banks know only clients registered through dynamic client
 * registration. This file reads the TLS client certificate and checks certificates against the CAs; each standard
 * answers a refusal in its own error shape. Certificates are read with node's X509Certificate, never by hand.
 */
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';

export interface StrictOptions {
  /** The CAs (PEM certificates) a client's TLS and signature certificates must be issued by. */
  readonly clientCaPems: readonly string[];
}

/** The CAs, parsed once. */
export interface TrustedCas {
  readonly certificates: readonly X509Certificate[];
}

export function trustedCas(options: StrictOptions): TrustedCas {
  const certificates = options.clientCaPems.flatMap((pem) => splitPemCertificates(pem).map((one) => new X509Certificate(one)));
  if (certificates.length === 0) throw new Error('strict mode needs at least one client CA certificate');
  return { certificates };
}

function splitPemCertificates(pem: string): string[] {
  return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

export type CertificateProblem = 'missing' | 'untrusted' | 'expired';

export type CertificateCheck =
  | { readonly ok: true; readonly certificate: X509Certificate }
  | { readonly ok: false; readonly problem: CertificateProblem; readonly text: string };

/** Whether a certificate was issued (and signed) by one of the CAs, and is valid at `now`. */
export function checkIssuedByTrustedCa(certificate: X509Certificate, cas: TrustedCas, now: Date): CertificateCheck {
  const issuer = cas.certificates.find((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey));
  if (issuer === undefined)
    return {
      ok: false,
      problem: 'untrusted',
      text: `The certificate (${oneLine(certificate.subject)}) is not issued by a CA this bank trusts`,
    };
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo))
    return { ok: false, problem: 'expired', text: `The certificate (${oneLine(certificate.subject)}) is not valid at this time` };
  return { ok: true, certificate };
}

/** The TLS client certificate of the request, checked against the CAs; `missing` over plain HTTP too. */
export function checkClientCertificate(request: FastifyRequest, cas: TrustedCas, now: Date): CertificateCheck {
  const socket = request.raw.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerX509Certificate !== 'function')
    return { ok: false, problem: 'missing', text: 'This bank is served over HTTPS only, with a TLS client certificate' };
  const certificate = socket.getPeerX509Certificate();
  if (certificate === undefined) return { ok: false, problem: 'missing', text: 'No TLS client certificate was presented' };
  return checkIssuedByTrustedCa(certificate, cas, now);
}

/** The subject's organizationIdentifier (ETSI EN 319 412-1: the PSD2 authorisation number), as node prints it. */
export function organisationIdentifier(certificate: X509Certificate): string | undefined {
  return certificate.subject
    .split('\n')
    .map((line) => /^(?:organizationIdentifier|2\.5\.4\.97)=(.*)$/.exec(line)?.[1])
    .find((value) => value !== undefined);
}

/**
 * The subject as an RFC 4514 string (most specific first, `CN=…,organizationIdentifier=…,O=…,C=…`), the form
 * `tls_client_auth_subject_dn` takes in UK dynamic client registration.
 */
export function subjectDn(certificate: X509Certificate): string {
  return certificate.subject
    .split('\n')
    .filter((line) => line !== '')
    .reverse()
    .map((line) => {
      const at = line.indexOf('=');
      return `${line.slice(0, at)}=${line.slice(at + 1).replace(/([,+"\\<>;])/g, '\\$1')}`;
    })
    .join(',');
}

/** Two DNs compared as an ASN.1 DN comparison would: attribute names case-insensitively, whitespace around values ignored. */
export function sameDn(left: string, right: string): boolean {
  const normalise = (dn: string): string =>
    dn
      .split(/(?<!\\),/)
      .map((part) => {
        const at = part.indexOf('=');
        return `${part.slice(0, at).trim().toLowerCase()}=${part.slice(at + 1).trim()}`;
      })
      .join(',');
  return normalise(left) === normalise(right);
}

function oneLine(subject: string): string {
  return subject
    .split('\n')
    .filter((line) => line !== '')
    .join(', ');
}
