/**
 * Berlin Group references for the connector's own tests: they may look inside what the connector put in the opaque
 * references it returns (the engine never does), and make references as an earlier call would have.
 */
import {
  fromBankReference,
  toBankReference,
  type AccountInformation,
  type BankConnector,
  type BankReference,
  type EmbeddedAuthentication,
  type ReturnAddress,
} from '../../../src/connectors/index.js';

/** The Berlin Group payment reference of a stored payment (as `registerPayment` makes it). */
export function bgPayment(data: {
  readonly paymentId: string;
  readonly paymentService: string;
  readonly paymentProduct: string;
  readonly links: Readonly<Record<string, string>>;
}): BankReference {
  return toBankReference({ kind: 'payment', ...data });
}

/** A Berlin Group authorisation reference. */
export function bgAuthorisation(data: {
  readonly authorisationId?: string;
  readonly links: Readonly<Record<string, string>>;
}): BankReference {
  return toBankReference(data);
}

/** What the connector put in a reference (tests only). */
export function inside(reference: BankReference | undefined): Readonly<Record<string, unknown>> {
  if (reference === undefined) throw new Error('no reference');
  return fromBankReference(reference);
}

/** The links inside a reference (tests only). */
export function linksInside(reference: BankReference | undefined): Readonly<Record<string, string>> {
  return inside(reference)['links'] as Readonly<Record<string, string>>;
}

/** A return address whose URIs are all `uri` (the bank under test never fetches them). */
export function returnTo(uri: string, nokUri?: string): ReturnAddress {
  return { uri, registeredUri: uri, state: 'state-of-the-test', ...(nokUri === undefined ? {} : { nokUri }) };
}

/** The connector's embedded steps (the test's bank offers them). */
export function embeddedOf(connector: BankConnector): EmbeddedAuthentication {
  if (connector.embedded === undefined) throw new Error('the connector offers no embedded authentication');
  return connector.embedded;
}

/** The connector's account information (the test's bank offers it). */
export function accountInformationOf(connector: BankConnector): AccountInformation {
  if (connector.accountInformation === undefined) throw new Error('the connector offers no account information');
  return connector.accountInformation;
}
