/**
 * Berlin Group NextGenPSD2 1.3.11 wire types: the request bodies we send (TypeScript types) and the response
 * bodies we rely on (TypeBox schemas, checked at run time because the bank is input from outside). Names follow
 * the standard's `components/schemas`. Only the fields the connector uses are declared; responses may carry more
 * (banks extend them), so objects are open. Status codes are plain strings here: an unknown code is mapped to
 * `unknown` (still pending), not rejected as a protocol error.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';

// ---------------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------------

/** `components/schemas/amount`: `amount` is `amountValue`, a decimal string. */
export interface Amount {
  currency: string;
  amount: string;
}

/** `components/schemas/accountReference` (the IBAN form). */
export interface AccountReference {
  iban: string;
  currency?: string;
}

/** `components/schemas/address`. */
export interface Address {
  streetName?: string;
  buildingNumber?: string;
  townName?: string;
  postCode?: string;
  country: string;
}

/**
 * `components/schemas/paymentInitiationBulkElement_json` (the fields we send): one payment of a bulk, which is also
 * a single payment without its debtor account.
 */
export interface PaymentInitiationBulkElementJson {
  endToEndIdentification?: string;
  instructedAmount: Amount;
  creditorAccount: AccountReference;
  creditorName: string;
  creditorAddress?: Address;
  remittanceInformationUnstructured?: string;
}

/** `components/schemas/paymentInitiation_json` (single payment, the fields we send). */
export interface PaymentInitiationJson extends PaymentInitiationBulkElementJson {
  /** Mandatory in the schema; omitted for banks that let the PSU choose the account (ASPSP practice). */
  debtorAccount?: AccountReference;
}

/** `components/schemas/bulkPaymentInitiation_json` (the fields we send). */
export interface BulkPaymentInitiationJson {
  batchBookingPreferred: boolean;
  debtorAccount: AccountReference;
  payments: PaymentInitiationBulkElementJson[];
}

/** `components/schemas/consents`. */
export interface Consents {
  access: { availableAccounts: 'allAccounts' | 'allAccountsWithOwnerName' };
  recurringIndicator: boolean;
  validUntil: string;
  frequencyPerDay: number;
  combinedServiceIndicator: boolean;
}

/** `components/schemas/updatePsuAuthentication`. */
export interface UpdatePsuAuthentication {
  psuData: { password: string };
}

/** `components/schemas/selectPsuAuthenticationMethod`. */
export interface SelectPsuAuthenticationMethod {
  authenticationMethodId: string;
}

/** `components/schemas/transactionAuthorisation`. */
export interface TransactionAuthorisation {
  scaAuthenticationData: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------------------

/** `hrefType`. */
const HrefType = Type.Object({ href: Type.String({ minLength: 1 }) });

/** `_links*`: every link object is a map of relation name to `hrefType`. */
export const Links = Type.Record(Type.String(), HrefType);

/** `authenticationObject`. */
export const AuthenticationObject = Type.Object({
  authenticationType: Type.String(),
  authenticationMethodId: Type.String({ minLength: 1 }),
  authenticationVersion: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  explanation: Type.Optional(Type.String()),
});
export type AuthenticationObject = Static<typeof AuthenticationObject>;

/** `challengeData`. `otpMaxLength` is an integer in the schema, a string in the standard's own example. */
export const ChallengeData = Type.Object({
  image: Type.Optional(Type.String()),
  data: Type.Optional(Type.Array(Type.String())),
  imageLink: Type.Optional(Type.String()),
  otpMaxLength: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
  otpFormat: Type.Optional(Type.String()),
  additionalInformation: Type.Optional(Type.String()),
});
export type ChallengeData = Static<typeof ChallengeData>;

/** `tppMessageGeneric` and its per-status variants. */
export const TppMessage = Type.Object({
  category: Type.String(),
  code: Type.String(),
  path: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
});
export type TppMessage = Static<typeof TppMessage>;

const TppMessages = Type.Array(TppMessage);

/** The fields shared by every response that carries SCA data. */
const ScaFields = {
  scaMethods: Type.Optional(Type.Array(AuthenticationObject)),
  chosenScaMethod: Type.Optional(AuthenticationObject),
  challengeData: Type.Optional(ChallengeData),
  psuMessage: Type.Optional(Type.String()),
};

/** `paymentInitationRequestResponse-201` (sic: the standard's spelling). */
export const PaymentInitiationResponse201 = Type.Object({
  transactionStatus: Type.String({ minLength: 1 }),
  paymentId: Type.String({ minLength: 1 }),
  _links: Links,
  scaStatus: Type.Optional(Type.String()),
  tppMessages: Type.Optional(TppMessages),
  ...ScaFields,
});
export type PaymentInitiationResponse201 = Static<typeof PaymentInitiationResponse201>;

/** `paymentInitiationStatusResponse-200_json`. */
export const PaymentInitiationStatusResponse200 = Type.Object({
  transactionStatus: Type.String({ minLength: 1 }),
  fundsAvailable: Type.Optional(Type.Boolean()),
  psuMessage: Type.Optional(Type.String()),
  tppMessages: Type.Optional(TppMessages),
  _links: Type.Optional(Links),
});
export type PaymentInitiationStatusResponse200 = Static<typeof PaymentInitiationStatusResponse200>;

/**
 * `paymentInitiationWithStatusResponse` (`GET …/{paymentId}`), as far as we read it: the payment as initiated plus
 * the optional `transactionStatus`, our second source of the status when the status endpoint fails. The payment
 * fields are not checked: we only need the status.
 */
export const PaymentInitiationWithStatusResponse = Type.Object({
  transactionStatus: Type.Optional(Type.String({ minLength: 1 })),
  tppMessages: Type.Optional(TppMessages),
  _links: Type.Optional(Links),
});
export type PaymentInitiationWithStatusResponse = Static<typeof PaymentInitiationWithStatusResponse>;

/** `paymentInitiationCancelResponse-202`. */
export const PaymentInitiationCancelResponse202 = Type.Object({
  transactionStatus: Type.String({ minLength: 1 }),
  _links: Type.Optional(Links),
  scaStatus: Type.Optional(Type.String()),
  ...ScaFields,
});
export type PaymentInitiationCancelResponse202 = Static<typeof PaymentInitiationCancelResponse202>;

/**
 * `startScaprocessResponse`, `updatePsuIdenticationResponse`, `updatePsuAuthenticationResponse`,
 * `selectPsuAuthenticationMethodResponse` and the transaction authorisation answer: one shape with the union of
 * their fields. `scaStatus` is mandatory in all of them; `authorisationId` only in the start response (checked
 * separately), `_links` only in some.
 */
export const AuthorisationResponse = Type.Object({
  scaStatus: Type.String({ minLength: 1 }),
  authorisationId: Type.Optional(Type.String({ minLength: 1 })),
  _links: Type.Optional(Links),
  ...ScaFields,
});
export type AuthorisationResponse = Static<typeof AuthorisationResponse>;

/** `scaStatusResponse`. */
export const ScaStatusResponse = Type.Object({
  scaStatus: Type.String({ minLength: 1 }),
  psuMessage: Type.Optional(Type.String()),
  _links: Type.Optional(Links),
});
export type ScaStatusResponse = Static<typeof ScaStatusResponse>;

/** `authorisations` (the answer to `GET …/{paymentId}/authorisations`). */
export const Authorisations = Type.Object({ authorisationIds: Type.Array(Type.String({ minLength: 1 })) });
export type Authorisations = Static<typeof Authorisations>;

/** `consentsResponse-201`. */
export const ConsentsResponse201 = Type.Object({
  consentStatus: Type.String({ minLength: 1 }),
  consentId: Type.String({ minLength: 1 }),
  _links: Links,
  scaStatus: Type.Optional(Type.String()),
  ...ScaFields,
});
export type ConsentsResponse201 = Static<typeof ConsentsResponse201>;

/** `consentStatusResponse-200`. */
export const ConsentStatusResponse200 = Type.Object({
  consentStatus: Type.String({ minLength: 1 }),
  psuMessage: Type.Optional(Type.String()),
});
export type ConsentStatusResponse200 = Static<typeof ConsentStatusResponse200>;

/** `accountDetails` (the fields we use). */
export const AccountDetails = Type.Object({
  resourceId: Type.Optional(Type.String()),
  iban: Type.Optional(Type.String()),
  bban: Type.Optional(Type.String()),
  currency: Type.String(),
  name: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  ownerName: Type.Optional(Type.String()),
  product: Type.Optional(Type.String()),
  cashAccountType: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  usage: Type.Optional(Type.String()),
});
export type AccountDetails = Static<typeof AccountDetails>;

/** `accountList`. */
export const AccountList = Type.Object({ accounts: Type.Array(AccountDetails) });
export type AccountList = Static<typeof AccountList>;

/** The NextGenPSD2 error body (`Error4xx_NG_*`): only `tppMessages` matters to us. */
export const ErrorBodyNG = Type.Object({ tppMessages: Type.Optional(TppMessages), _links: Type.Optional(Links) });
export type ErrorBodyNG = Static<typeof ErrorBodyNG>;

/** The RFC 7807 error body (`Error4xx_*`, `application/problem+json`): `code` plus `additionalErrors`. */
export const ErrorBodyProblem = Type.Object({
  code: Type.String(),
  title: Type.Optional(Type.String()),
  detail: Type.Optional(Type.String()),
  additionalErrors: Type.Optional(
    Type.Array(Type.Object({ code: Type.String(), title: Type.Optional(Type.String()), detail: Type.Optional(Type.String()) })),
  ),
});
export type ErrorBodyProblem = Static<typeof ErrorBodyProblem>;

/** Compiled checkers, built once at module load. */
export const check = {
  paymentInitiationResponse201: Compile(PaymentInitiationResponse201),
  paymentInitiationStatusResponse200: Compile(PaymentInitiationStatusResponse200),
  paymentInitiationWithStatusResponse: Compile(PaymentInitiationWithStatusResponse),
  paymentInitiationCancelResponse202: Compile(PaymentInitiationCancelResponse202),
  authorisationResponse: Compile(AuthorisationResponse),
  scaStatusResponse: Compile(ScaStatusResponse),
  authorisations: Compile(Authorisations),
  consentsResponse201: Compile(ConsentsResponse201),
  consentStatusResponse200: Compile(ConsentStatusResponse200),
  accountList: Compile(AccountList),
  errorBodyNG: Compile(ErrorBodyNG),
  errorBodyProblem: Compile(ErrorBodyProblem),
} as const;
