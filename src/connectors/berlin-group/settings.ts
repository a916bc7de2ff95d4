/** The catalogue settings of a Berlin Group NextGenPSD2 bank. Only the Berlin Group connector reads them. */
import { Type, type Static } from 'typebox';
import { BerlinGroupIdentitySchema } from '../identity-settings.js';

const ScaApproachSchema = Type.Union([Type.Literal('REDIRECT'), Type.Literal('EMBEDDED'), Type.Literal('DECOUPLED')]);

/** How the service talks to a Berlin Group NextGenPSD2 bank: the catalogue's `connector` for `standard: 'berlin-group'`. */
export const BerlinGroupSettingsSchema = Type.Object(
  {
    standard: Type.Literal('berlin-group'),
    /**
     * Base URL of the bank's XS2A API (the part before `/v1/…`). `{SANDBOX_BANK_URL}` is replaced with the
     * sandbox bank's address (embedded by default, under the service's own base URL).
     */
    baseUrl: Type.String({ minLength: 1 }),
    /** SCA approaches the bank offers, preferred first. */
    scaApproaches: Type.Array(ScaApproachSchema, { minItems: 1 }),
    /** Berlin Group payment product per scheme; `SEPA_INSTANT` only for banks with instant payments. */
    products: Type.Object(
      {
        SEPA: Type.Optional(Type.String()),
        SEPA_INSTANT: Type.Optional(Type.String()),
        DOMESTIC: Type.Optional(Type.String()),
        DOMESTIC_INSTANT: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    /** Record `PAYMENT_EXECUTION_COMPLETED` on accepted-for-execution (ACSP, ACWC, ACWP), not only on settlement. */
    acceptedForExecutionIsCompleted: Type.Boolean(),
    /** The bank needs the debtor account in the payment request. */
    requiresDebtorAccount: Type.Boolean(),
    /** The bank offers account information (consent + account list) to resolve the sender account. */
    accountInformation: Type.Boolean(),
    /** The payer must log in at the bank before any payment call (phase 3). */
    requiresSenderAuthorization: Type.Boolean(),
    /** Time limit of one call to the bank, in milliseconds. */
    timeoutMs: Type.Integer({ minimum: 100, maximum: 120_000 }),
    /** Sign requests with the standard's HTTP message signature (Digest, Signature, TPP-Signature-Certificate). */
    signRequests: Type.Optional(Type.Boolean()),
    /**
     * How many refused logins (user ID or password) the bank accepts for one payment; the last one fails it.
     * Berlin Group answers do not say how many are left, so the flow counts them (default 3).
     */
    loginAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    /** How many wrong one-time codes the bank accepts for one authorisation (default 3). */
    oneTimeCodeAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    /**
     * The bank offers the standard's resource status notifications: the payment initiation and the start of its
     * authorisation carry `TPP-Notification-URI` (our per-payment address) and `TPP-Notification-Content-Preferred`,
     * and a notification makes us ask the bank at once (default false: the bank is only polled).
     */
    statusNotifications: Type.Optional(Type.Boolean()),
    /**
     * The bank offers the standard's bulk payments (`/v1/bulk-payments/{payment-product}`): several payments from one
     * account, authorised by the payer once (default false: each payment is authorised on its own).
     */
    bulkPayments: Type.Optional(Type.Boolean()),
    /** This bank's own QWAC and QSealC files, replacing the process's (QWAC_*, QSEAL_*) towards it. */
    identity: Type.Optional(BerlinGroupIdentitySchema),
  },
  { additionalProperties: false },
);

export type BerlinGroupSettings = Static<typeof BerlinGroupSettingsSchema>;
