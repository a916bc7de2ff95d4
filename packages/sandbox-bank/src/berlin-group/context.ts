/**
 * What every route of one sandbox bank app shares: the state, the banks, the fault plan and the public URL, plus
 * the request plumbing common to all XS2A calls (request id, signature check, fault gate, error answers).
 */
import type { X509Certificate } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxBankDefinition } from './banks.js';
import { Xs2aError } from './errors.js';
import type { FaultPlan, OperationName } from '../shared/faults.js';
import { payerFixtureFault } from '../shared/fixtures.js';
import { applyFault, header, type RequestKeeping } from '../shared/plumbing.js';
import {
  checkClientCertificate,
  checkIssuedByTrustedCa,
  organisationIdentifier,
  type CertificateProblem,
  type TrustedCas,
} from '../shared/strict.js';
import { verifyRequestSignature } from './signature.js';
import type { StatusNotifier } from './notifier.js';
import type { PaymentService, SandboxState } from './state.js';

export interface BankContext extends RequestKeeping {
  readonly state: SandboxState;
  readonly banks: ReadonlyMap<string, SandboxBankDefinition>;
  readonly faults: FaultPlan;
  /** Public base URL of the sandbox, without a trailing slash. */
  readonly publicUrl: string;
  /** Strict mode (a live bank's checks): the CAs client certificates must be issued by; undefined: off. */
  readonly strict: TrustedCas | undefined;
  /** The status notifications of the payments initiated with a `TPP-Notification-URI`. */
  readonly notifier: StatusNotifier;
}

const CERTIFICATE_CODES = {
  missing: 'CERTIFICATE_MISSING',
  untrusted: 'CERTIFICATE_INVALID',
  expired: 'CERTIFICATE_EXPIRED',
} as const satisfies Record<CertificateProblem, string>;

export { header };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `true`/`false` headers of the standard; anything else is a format error. */
export function booleanHeader(request: FastifyRequest, name: string): boolean | undefined {
  const value = header(request, name);
  if (value === undefined) return undefined;
  if (value.toLowerCase() === 'true') return true;
  if (value.toLowerCase() === 'false') return false;
  throw new Xs2aError('FORMAT_ERROR', `${name} must be true or false`);
}

export function requireBank(context: BankContext, slug: string): SandboxBankDefinition {
  const bank = context.banks.get(slug);
  if (bank === undefined) throw new Xs2aError('RESOURCE_UNKNOWN', `No sandbox bank "${slug}"`, { status: 404 });
  return bank;
}

/** Absolute URL of a path of a bank. */
export function bankUrl(context: BankContext, bank: SandboxBankDefinition, path: string): string {
  return `${context.publicUrl}/${bank.slug}${path}`;
}

/**
 * Common checks of an XS2A call, in the order a bank applies them: request id, signature (for banks that demand
 * one), then injected faults. Returns false when a fault has already taken over the answer.
 */
export async function admit(
  context: BankContext,
  request: FastifyRequest,
  reply: FastifyReply,
  bank: SandboxBankDefinition,
  operation: OperationName,
  psuId: string | undefined,
  /** The payment service the call is about (fault rules may name one); none for consents and accounts. */
  paymentService?: PaymentService,
): Promise<boolean> {
  const requestId = header(request, 'x-request-id');
  if (requestId === undefined || !UUID.test(requestId)) {
    throw new Xs2aError('FORMAT_ERROR', 'X-Request-ID must be a UUID');
  }
  const now = context.state.now();
  // Strict mode: a live bank's mutual TLS, checked before anything else of the request.
  const tls = context.strict === undefined ? undefined : checkClientCertificate(request, context.strict, now);
  if (tls !== undefined && !tls.ok) throw new Xs2aError(CERTIFICATE_CODES[tls.problem], tls.text);
  if (bank.signRequests || context.strict !== undefined) {
    const verification = verifyRequestSignature({ headers: request.headers, body: context.rawBodies.get(request) }, { now });
    if (!verification.ok) throw new Xs2aError(verification.code, verification.text);
    if (context.strict !== undefined)
      checkSealOfTheClient(verification.certificate, tls?.ok === true ? tls.certificate : undefined, context.strict, now);
  }
  const fault =
    context.faults.take({ bank: bank.slug, operation, psuId, ...(paymentService === undefined ? {} : { paymentService }) }) ??
    payerFixtureFault(context.state.payer(psuId), (named) => named === operation);
  // The standard defines no body for 5xx answers.
  return applyFault(fault, { request, reply, keeping: context }, (status) => reply.code(status).send());
}

/**
 * Strict mode: the signature's certificate (the QSealC) must be issued by a trusted CA, like the QWAC, and name the
 * same organisation (the PSD2 authorisation number in organizationIdentifier): a seal of another TPP is refused.
 */
function checkSealOfTheClient(seal: X509Certificate, qwac: X509Certificate | undefined, cas: TrustedCas, now: Date): void {
  const trusted = checkIssuedByTrustedCa(seal, cas, now);
  if (!trusted.ok) throw new Xs2aError(CERTIFICATE_CODES[trusted.problem], `TPP-Signature-Certificate: ${trusted.text}`);
  const sealOrganisation = organisationIdentifier(seal);
  if (qwac !== undefined && sealOrganisation !== organisationIdentifier(qwac)) {
    throw new Xs2aError(
      'CERTIFICATE_INVALID',
      `TPP-Signature-Certificate names organisation ${sealOrganisation ?? '(none)'}, the TLS client certificate ${organisationIdentifier(qwac) ?? '(none)'}`,
    );
  }
}
