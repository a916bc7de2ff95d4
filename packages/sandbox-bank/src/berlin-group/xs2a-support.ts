/**
 * What the XS2A route modules share: answers, body and header parsing, links, and finding the resource a path
 * names. Paths, headers, bodies, links and message codes follow the standard's OpenAPI file and Implementation
 * Guidelines.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isValidIBAN } from 'ibantools';
import type { ScaApproach } from '../shared/catalogue.js';
import { header } from '../shared/plumbing.js';
import type { SandboxBankDefinition } from './banks.js';
import { bankUrl, booleanHeader, type BankContext } from './context.js';
import { Xs2aError, Xs2aFormatError } from './errors.js';
import {
  paymentPath,
  type AccountReference,
  type Authorisation,
  type Consent,
  type Payment,
  type PaymentService,
  type Resource,
} from './state.js';

export type Href = { href: string };
export type Links = Record<string, Href>;

/** Payment products of the standard; anything else a bank does not list is unknown to it. */
const PRODUCT_PATTERN = /^[a-z0-9.-]{1,64}$/;

export function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply {
  for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
  return reply.code(status).type('application/json').send(body);
}

export function isJsonRequest(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json');
}

interface BodyCheck<T> {
  Check(value: unknown): value is T;
  Errors(value: unknown): Array<{ keyword: string; instancePath: string; params: unknown; message: string }>;
}

/** How many of a body's problems one answer lists. */
const MAX_BODY_PROBLEMS = 10;

/** `/creditorAccount/iban` → `creditorAccount.iban`; `/access/accounts/0/iban` → `access.accounts[0].iban`. */
function dottedPath(pointer: string, child?: string): string {
  const parts =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/**
 * The body as the check wants it, or a FORMAT_ERROR listing every field that is wrong (a missing one by its own
 * path), as `tppMessages` with `path` and `text`.
 */
export function parseBody<T>(check: BodyCheck<T>, body: unknown): T {
  const value = body ?? {};
  if (check.Check(value)) return value;
  const problems = check.Errors(value).flatMap((error) => {
    const required = (error.params as { requiredProperties?: unknown } | undefined)?.requiredProperties;
    if (error.keyword === 'required' && Array.isArray(required)) {
      return required.map((name) => {
        const path = dottedPath(error.instancePath, String(name));
        return { path, text: `${path} is required` };
      });
    }
    const path = dottedPath(error.instancePath);
    return [{ path: path === '' ? undefined : path, text: `${path || 'body'} ${error.message}` }];
  });
  const unique = [...new Map(problems.map((problem) => [`${problem.path ?? ''}|${problem.text}`, problem])).values()];
  throw new Xs2aFormatError(unique.slice(0, MAX_BODY_PROBLEMS));
}

export function accountReference(value: { iban: string; currency?: string | undefined }, path: string): AccountReference {
  const iban = value.iban.replace(/\s+/g, '').toUpperCase();
  if (!isValidIBAN(iban)) throw new Xs2aError('FORMAT_ERROR', `${path}.iban is not a valid IBAN`, { path: `${path}.iban` });
  return value.currency === undefined ? { iban } : { iban, currency: value.currency };
}

export function credentialsError(check: 'wrong' | 'locked', what: string): Xs2aError {
  return check === 'locked'
    ? new Xs2aError('PSU_CREDENTIALS_INVALID', `Wrong ${what}; no attempts left, the authorisation has failed`)
    : new Xs2aError('PSU_CREDENTIALS_INVALID', `Wrong ${what}`);
}

// ---- the TPP's SCA request: approach, redirect URIs, PSU-ID -----------------------------------------------------

function redirectUri(request: FastifyRequest, name: string): string | undefined {
  const value = header(request, name);
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.toString();
  } catch {
    // falls through to the format error
  }
  throw new Xs2aError('FORMAT_ERROR', `${name} must be an absolute http(s) URI`);
}

function chooseApproach(request: FastifyRequest, bank: SandboxBankDefinition): ScaApproach {
  const redirectPreferred = booleanHeader(request, 'TPP-Redirect-Preferred');
  const decoupledPreferred = booleanHeader(request, 'TPP-Decoupled-Preferred');
  const offers = (approach: ScaApproach): boolean => bank.approaches.includes(approach);
  if (decoupledPreferred === true && offers('DECOUPLED')) return 'DECOUPLED';
  if (redirectPreferred === true && offers('REDIRECT')) return 'REDIRECT';
  if (redirectPreferred === false) {
    const other = bank.approaches.find((approach) => approach !== 'REDIRECT');
    if (other !== undefined) return other;
  }
  const first = bank.approaches[0];
  if (first === undefined) throw new Xs2aError('SERVICE_INVALID', 'The bank offers no SCA approach');
  return first;
}

/** How the TPP wants a new payment or consent authorised, checked alike for both. */
export interface ScaRequest {
  readonly approach: ScaApproach;
  readonly redirectUri: string | undefined;
  readonly nokRedirectUri: string | undefined;
  readonly psuId: string | undefined;
}

export function scaRequest(context: BankContext, request: FastifyRequest, bank: SandboxBankDefinition): ScaRequest {
  const approach = chooseApproach(request, bank);
  const okUri = redirectUri(request, 'TPP-Redirect-URI');
  const nokUri = redirectUri(request, 'TPP-Nok-Redirect-URI');
  if (approach === 'REDIRECT' && okUri === undefined) {
    throw new Xs2aError('FORMAT_ERROR', 'TPP-Redirect-URI is required for the redirect SCA approach');
  }
  const psuId = header(request, 'PSU-ID');
  if (psuId !== undefined && approach !== 'REDIRECT' && context.state.payer(psuId) === undefined) {
    throw new Xs2aError('PSU_CREDENTIALS_INVALID', 'PSU-ID cannot be matched by the bank');
  }
  return { approach, redirectUri: okUri, nokRedirectUri: nokUri, psuId };
}

/** Outside the redirect approach a PSU-ID sent at creation identifies the payer at once. */
export function identifyAtCreation(context: BankContext, resource: Resource, sca: ScaRequest): void {
  if (sca.psuId !== undefined && sca.approach !== 'REDIRECT') context.state.identify(resource, sca.psuId);
}

export function identifyFromHeader(context: BankContext, request: FastifyRequest, resource: Resource): void {
  const psuId = header(request, 'PSU-ID');
  if (psuId === undefined) return;
  if (!context.state.identify(resource, psuId)) throw new Xs2aError('PSU_CREDENTIALS_INVALID', 'PSU-ID cannot be matched by the bank');
}

/** The test payer a call is about: the resource's payer, else the PSU-ID header (for fault rules). */
export function psuOf(request: FastifyRequest, resource?: Resource): string | undefined {
  return resource?.payerId ?? resource?.psuId ?? header(request, 'PSU-ID');
}

// ---- links ------------------------------------------------------------------------------------------------------

export function link(context: BankContext, bank: SandboxBankDefinition, path: string): Href {
  return { href: bankUrl(context, bank, path) };
}

export function resourcePath(resource: Resource): string {
  return resource.kind === 'payment' ? paymentPath(resource) : `/v1/consents/${resource.id}`;
}

export function authorisationPath(resource: Resource, authorisationId: string): string {
  return `${resourcePath(resource)}/authorisations/${authorisationId}`;
}

// ---- the resource a path names ------------------------------------------------------------------------------------

export function checkProduct(bank: SandboxBankDefinition, product: string): void {
  if (!PRODUCT_PATTERN.test(product) || !bank.products.has(product)) {
    throw new Xs2aError('PRODUCT_UNKNOWN', `Payment product ${product.slice(0, 64)} is not offered by ${bank.name}`);
  }
}

/** The payment services every bank serves, then the one only banks with `bulkPayments` serve. */
export const PAYMENT_SERVICES: readonly PaymentService[] = ['payments', 'bulk-payments'];

/** Bulk payments only at banks that offer them: elsewhere the standard's answer to a service not offered. */
export function requireService(bank: SandboxBankDefinition, service: PaymentService): void {
  if (service === 'bulk-payments' && !bank.bulkPayments) {
    throw new Xs2aError('SERVICE_INVALID', `${bank.name} offers single payments (/v1/payments) only`);
  }
}

export function findPayment(
  context: BankContext,
  bank: SandboxBankDefinition,
  service: PaymentService,
  product: string,
  paymentId: string,
): Payment {
  requireService(bank, service);
  checkProduct(bank, product);
  const payment = context.state.payment(paymentId);
  if (payment === undefined || payment.bank !== bank.slug || payment.service !== service || payment.product !== product) {
    throw new Xs2aError('RESOURCE_UNKNOWN', 'Unknown paymentId');
  }
  return payment;
}

export function findConsent(context: BankContext, bank: SandboxBankDefinition, consentId: string): Consent {
  const consent = context.state.consent(consentId);
  if (consent === undefined || consent.bank !== bank.slug) throw new Xs2aError('CONSENT_UNKNOWN', 'Unknown consentId', { status: 403 });
  return consent;
}

export function findAuthorisation(context: BankContext, resource: Resource, authorisationId: string): Authorisation {
  const authorisation = context.state.authorisationOf(resource, authorisationId);
  if (authorisation === undefined) throw new Xs2aError('RESOURCE_UNKNOWN', 'Unknown authorisationId');
  return authorisation;
}
