/**
 * What the Berlin Group connector keeps in the opaque references it hands the engine: the bank's ids and the links
 * it returned, enough to address the payment, consent or authorisation later. The shapes are those stored with
 * payments before the references became opaque, so flow states written then still decode. Every reference is
 * checked when it comes back: a malformed one is a protocol error, never a guess.
 */
import { BankProtocolError } from '../errors.js';
import { fromBankReference, toBankReference, type BankReference } from '../contract.js';

/**
 * The links a bank returned, by relation name (`scaRedirect`, `scaStatus`, `status`, ...), with the hrefs exactly
 * as the bank sent them (absolute or relative to the bank's host). They are resolved at call time against the bank's
 * base URL, so stored references survive a change of host name in configuration.
 */
export type BankLinks = Readonly<Record<string, string>>;

/** A payment held by the bank. */
export interface PaymentReference {
  readonly kind: 'payment';
  /** The bank's id of the payment (`providerPaymentId` of our API). */
  readonly paymentId: string;
  /** The standard's payment service path segment (`payments`). */
  readonly paymentService: string;
  /** The product path segment chosen at initiation (for example `instant-sepa-credit-transfers`). */
  readonly paymentProduct: string;
  /** Links of the initiation response (`self`, `status`, start-authorisation links, ...). */
  readonly links: BankLinks;
}

/** An account information consent held by the bank. */
export interface ConsentReference {
  readonly kind: 'consent';
  /** The bank's consent id (sent as `Consent-ID` when reading accounts). */
  readonly consentId: string;
  readonly links: BankLinks;
}

/** Either resource an authorisation can belong to. */
export type ResourceReference = PaymentReference | ConsentReference;

/**
 * One authorisation sub-resource of a payment or consent. The bank may change the links at every step (for example
 * `authoriseTransaction` appears after the password), so every authorisation call returns a new reference.
 */
export interface AuthorisationReference {
  /** The bank's authorisation id, when it sent one (banks creating the authorisation implicitly may not). */
  readonly authorisationId: string | undefined;
  readonly links: BankLinks;
}

export function paymentReference(payment: PaymentReference): BankReference {
  return toBankReference({ ...payment });
}

export function consentReference(consent: ConsentReference): BankReference {
  return toBankReference({ ...consent });
}

export function authorisationReference(authorisation: AuthorisationReference): BankReference {
  // `authorisationId: undefined` would not survive JSON storage anyway: leave it out.
  return toBankReference({
    ...(authorisation.authorisationId === undefined ? {} : { authorisationId: authorisation.authorisationId }),
    links: authorisation.links,
  });
}

function malformed(operation: string, what: string): BankProtocolError {
  return new BankProtocolError(operation, `the ${what} reference handed back is not one this connector made`);
}

function linksIn(value: unknown): BankLinks | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const links: Record<string, string> = {};
  for (const [relation, href] of Object.entries(value)) {
    if (typeof href !== 'string') return undefined;
    links[relation] = href;
  }
  return links;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function decodePayment(operation: string, reference: BankReference): PaymentReference {
  const data = fromBankReference(reference);
  const paymentId = text(data['paymentId']);
  const paymentService = text(data['paymentService']);
  const paymentProduct = text(data['paymentProduct']);
  const links = linksIn(data['links']);
  if (
    data['kind'] !== 'payment' ||
    paymentId === undefined ||
    paymentService === undefined ||
    paymentProduct === undefined ||
    links === undefined
  ) {
    throw malformed(operation, 'payment');
  }
  return { kind: 'payment', paymentId, paymentService, paymentProduct, links };
}

export function decodeConsent(operation: string, reference: BankReference): ConsentReference {
  const data = fromBankReference(reference);
  const consentId = text(data['consentId']);
  const links = linksIn(data['links']);
  if (data['kind'] !== 'consent' || consentId === undefined || links === undefined) throw malformed(operation, 'consent');
  return { kind: 'consent', consentId, links };
}

/** A payment or a consent, whichever the reference holds (the authorisation steps serve both). */
export function decodeResource(operation: string, reference: BankReference): ResourceReference {
  return fromBankReference(reference)['kind'] === 'consent' ? decodeConsent(operation, reference) : decodePayment(operation, reference);
}

export function decodeAuthorisation(operation: string, reference: BankReference): AuthorisationReference {
  const data = fromBankReference(reference);
  const id = data['authorisationId'];
  const links = linksIn(data['links']);
  if ((id !== undefined && text(id) === undefined) || links === undefined) throw malformed(operation, 'authorisation');
  return { authorisationId: text(id), links };
}
