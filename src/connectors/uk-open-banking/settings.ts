/**
 * The catalogue settings of a UK Open Banking Read/Write API 4.0 bank (domestic payments). Only the UK connector
 * reads them. The profile the engine sees is derived from them in profile.ts (apart from
 * these settings, which the contract's settings union imports, so they import nothing of the contract back).
 */
import { Type, type Static } from 'typebox';
import { UkOpenBankingIdentitySchema } from '../identity-settings.js';

/** How the UK connector talks to one ASPSP: the catalogue's `connector` for `standard: 'uk-open-banking'`. */
export const UkOpenBankingSettingsSchema = Type.Object(
  {
    standard: Type.Literal('uk-open-banking'),
    /**
     * The bank's OpenID Provider issuer; discovery is read at `{issuer}/.well-known/openid-configuration`.
     * `{SANDBOX_BANK_URL}` is replaced with the sandbox bank's address, as for Berlin Group's `baseUrl`.
     */
    issuer: Type.String({ minLength: 1 }),
    /** Base URL of the payment initiation API, before `/domestic-payment-consents` (e.g. `{issuer}/open-banking/v4.0/pisp`). */
    resourceBaseUrl: Type.String({ minLength: 1 }),
    /** Our client id at this bank (from dynamic client registration). */
    clientId: Type.String({ minLength: 1 }),
    /** `private_key_jwt`: a signed client assertion; `tls_client_auth`: the mutual TLS certificate of the dispatcher. */
    tokenEndpointAuthMethod: Type.Union([Type.Literal('private_key_jwt'), Type.Literal('tls_client_auth')]),
    /** `redirect`: FAPI hybrid flow on the bank's pages; `decoupled`: CIBA, approved in the bank's app. */
    authorisation: Type.Union([Type.Literal('redirect'), Type.Literal('decoupled')]),
    /** Redirect only: how the bank returns the answer (the fragment, or a posted form). Default `fragment`. */
    responseMode: Type.Optional(Type.Union([Type.Literal('fragment'), Type.Literal('form_post')])),
    /** Send `x-jws-signature` on consent and payment creation (the profile makes it mandatory for most ASPSPs). */
    signRequests: Type.Boolean(),
    /** Require and check the bank's `x-jws-signature` on every JSON answer of the resource API. */
    verifyResponseSignatures: Type.Boolean(),
    /** Our `http://openbanking.org.uk/iss` in signatures (the Directory's org/software id; the sandbox: the client id). */
    jwsIssuer: Type.String({ minLength: 1 }),
    /** Our `http://openbanking.org.uk/tan` (trust anchor), usually `openbanking.org.uk`. */
    trustAnchor: Type.String({ minLength: 1 }),
    /** The bank's `tan` we accept on its answers; when absent any is accepted (the signature is still checked). */
    bankTrustAnchor: Type.Optional(Type.String({ minLength: 1 })),
    /** Ask the funds confirmation with the payer's token before submitting; `false` fails before any payment exists. */
    fundsConfirmation: Type.Boolean(),
    /** Record the payment completed on accepted-for-execution (ACSP, ACWC, ACWP), not only on settlement. */
    acceptedForExecutionIsCompleted: Type.Boolean(),
    /** Time limit of one call to the bank, in milliseconds. */
    timeoutMs: Type.Integer({ minimum: 100, maximum: 120_000 }),
    /** Refused logins the bank accepts for one payment (informative: the bank counts them on its pages). Default 3. */
    loginAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    /** This bank's own transport certificate and signing key, replacing the process's (OB_TRANSPORT_*, OB_SIGNING_KEY_*). */
    identity: Type.Optional(UkOpenBankingIdentitySchema),
  },
  { additionalProperties: false },
);

export type UkOpenBankingSettings = Static<typeof UkOpenBankingSettingsSchema>;
