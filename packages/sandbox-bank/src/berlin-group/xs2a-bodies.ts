/**
 * The request bodies the XS2A API takes, as the standard's OpenAPI file defines them (the parts the sandbox acts
 * on), and their checks. test/sandbox-bank/berlin-group/request-bodies.test.ts holds them against
 * psd2-api-1.3.12.yaml on a corpus: what these accept the standard accepts (`debtorAccount` may be left out, see
 * docs/sandbox-bank.md), and what the standard forbids these refuse. Where the standard's patterns are unanchored
 * (amount, BIC) these anchor them, so they are stricter than a literal reading, never looser.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';

const AccountReferenceSchema = Type.Object({
  // The standard's `iban` pattern, anchored: electronic format only (no spaces, upper-case country code).
  iban: Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$' }),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
});

const PaymentBodySchema = Type.Object({
  endToEndIdentification: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  debtorAccount: Type.Optional(AccountReferenceSchema),
  instructedAmount: Type.Object({
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    amount: Type.String({ pattern: '^[0-9]{1,14}(\\.[0-9]{1,3})?$' }),
  }),
  creditorAccount: AccountReferenceSchema,
  creditorAgent: Type.Optional(Type.String({ pattern: '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$' })),
  creditorName: Type.String({ minLength: 1, maxLength: 70 }),
  creditorAddress: Type.Optional(
    Type.Object({
      streetName: Type.Optional(Type.String({ maxLength: 70 })),
      buildingNumber: Type.Optional(Type.String({ maxLength: 16 })),
      townName: Type.Optional(Type.String({ maxLength: 35 })),
      postCode: Type.Optional(Type.String({ maxLength: 16 })),
      country: Type.String({ pattern: '^[A-Z]{2}$' }),
    }),
  ),
  remittanceInformationUnstructured: Type.Optional(Type.String({ maxLength: 140 })),
});

/** The payments one bulk may hold at the sandbox banks. */
export const MAX_BULK_PAYMENTS = 100;

/**
 * `bulkPaymentInitiation_json`: the debtor account once, and 1 to 100 payments, each a single payment's body without
 * the debtor (the standard forbids `debtorAccount` in an element; the route refuses one).
 */
const BulkPaymentBodySchema = Type.Object({
  batchBookingPreferred: Type.Optional(Type.Boolean()),
  debtorAccount: AccountReferenceSchema,
  debtorName: Type.Optional(Type.String({ minLength: 1, maxLength: 70 })),
  requestedExecutionDate: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  payments: Type.Array(Type.Omit(PaymentBodySchema, ['debtorAccount']), { minItems: 1, maxItems: MAX_BULK_PAYMENTS }),
});

/** One payment as a single payment's body or a bulk's element carries it. */
export type PaymentBody = Static<typeof PaymentBodySchema>;
export type BulkPaymentBody = Static<typeof BulkPaymentBodySchema>;

const AvailableSchema = Type.Optional(Type.Union([Type.Literal('allAccounts'), Type.Literal('allAccountsWithOwnerName')]));
const ConsentBodySchema = Type.Object({
  access: Type.Object({
    accounts: Type.Optional(Type.Array(AccountReferenceSchema, { maxItems: 50 })),
    balances: Type.Optional(Type.Array(AccountReferenceSchema, { maxItems: 50 })),
    transactions: Type.Optional(Type.Array(AccountReferenceSchema, { maxItems: 50 })),
    availableAccounts: AvailableSchema,
    availableAccountsWithBalance: AvailableSchema,
    allPsd2: AvailableSchema,
  }),
  recurringIndicator: Type.Boolean(),
  validUntil: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  frequencyPerDay: Type.Integer({ minimum: 1 }),
  combinedServiceIndicator: Type.Boolean(),
});

/** What a consent request asks to see. */
export type ConsentAccessBody = Static<typeof ConsentBodySchema>['access'];

/** The forms an authorisation request body can take (start and update). */
const AuthorisationBodySchema = Type.Object({
  psuData: Type.Optional(Type.Object({ password: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) })),
  authenticationMethodId: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  scaAuthenticationData: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  confirmationCode: Type.Optional(Type.String()),
});
export type AuthorisationBody = Static<typeof AuthorisationBodySchema>;

export const checkPaymentBody = Compile(PaymentBodySchema);
export const checkBulkPaymentBody = Compile(BulkPaymentBodySchema);
export const checkConsentBody = Compile(ConsentBodySchema);
export const checkAuthorisationBody = Compile(AuthorisationBodySchema);
