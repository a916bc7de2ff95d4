/**
 * Generated from openapi.json by openapi-typescript (packages/sdk/scripts/generate-types.mjs). Do not edit:
 * run `npm run generate -w @openpis/sdk` after the document changes.
 */
export interface paths {
    "/api/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an access token (OAuth 2.0 client credentials)
         * @description Authenticate with HTTP Basic (`clientId:clientSecret`, `client_secret_basic`) or with `client_id` and `client_secret` in the form body (`client_secret_post`, RFC 6749 §2.3.1), never both in one request. Form fields: `grant_type=client_credentials`, optional `scope` (space-separated; omitted = every scope the client holds). Tokens last 1800 seconds.
         */
        post: operations["createAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/capabilities/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List providers (banks)
         * @description Banks available in the caller's environment. Fetch at run time or cache briefly (about an hour); do not hard-code provider ids. Requires scope `providers:read`.
         */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ob/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments
         * @description The caller's payments, newest first, with filters and cursor pagination. Find a payment by `endToEndId` after a 409 or a lost answer. Filters combine with AND; the values of one filter with OR. Requires scope `payments:read`.
         */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Creates a payment and returns the `redirectUrl` to send the payer to. Send `provider.id` for custom bank selection; omit it for the hosted bank selection screen. Requires scope `payments:write`.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ob/payments/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment
         * @description The payment with its current status. Requires scope `payments:read`.
         */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ob/payments/{paymentId}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a payment
         * @description Creates a refund of a `COMPLETED` payment whose payer's account the bank told (`payer` on the payment): a payment from the merchant's account the payment was paid into to the payer's account (an IBAN, or a UK sort code and account number: then only banks that pay to UK accounts are offered), shown as the refund's `recipient`, in the same currency and scheme, for `amount` (default: what is left to refund). Send the merchant's approver to `redirectUrl`: they choose their bank and authorise the refund there, and it runs through the statuses, history, webhooks and event feed of any payment, with `refundOf`. The refunds of a payment that have not failed never add up to more than its amount. A 409 `message` begins with the reason: `PAYMENT_NOT_COMPLETED`, `PAYMENT_IS_A_REFUND`, `PAYER_ACCOUNT_UNKNOWN`, `PAYER_NAME_UNKNOWN`, `REFUND_EXCEEDS_REMAINING` (with the amount left), or the `endToEndId` is taken. Requires scope `payments:write`.
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/archive/payment-statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status history of a payment
         * @description Every status record of the payment, earliest first. Requires scope `payments:read`.
         */
        get: operations["getPaymentStatusHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/archive/payment-statuses/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest status of a payment
         * @description The most recent status record of the payment. Requires scope `payments:read`.
         */
        get: operations["getLatestPaymentStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ob/payment-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment links
         * @description The caller's payment links, newest first, with filters and cursor pagination. Requires scope `payments:read`.
         */
        get: operations["listPaymentLinks"];
        put?: never;
        /**
         * Create a payment link
         * @description Creates a link that payers open to pay: each payer who continues starts a payment of it (hosted bank selection unless `provider.id` is sent) with their own IP address and browser. A single-use link (`reusable` false, the default) closes as `PAID` when one of its payments completes. Requires scope `payments:write`.
         */
        post: operations["createPaymentLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ob/payment-links/{paymentLinkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment link
         * @description The payment link with its current status. Requires scope `payments:read`.
         */
        get: operations["getPaymentLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ob/payment-links/{paymentLinkId}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a payment link
         * @description An `ACTIVE` link becomes `DEACTIVATED` and takes no more payments (a payment already started goes on). Again on a `DEACTIVATED` link: the same answer. A `PAID` or `EXPIRED` link: 409. Requires scope `payments:write`.
         */
        post: operations["deactivatePaymentLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the event feed
         * @description The caller's events, oldest first, after the `after` cursor: every status change of every payment, whether or not the payment has a `webhookUrl`. Each item's `id` is the `webhook-id` and `data` the exact body of the event's webhook. Poll with `nextCursor`. Requires scope `payments:read`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payment.status.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment changed status
         * @description Sent to the payment's `metadata.webhookUrl` for every status record, in order per payment, at least once (docs/webhooks.md). The same events, with the same ids and bodies, are in `GET /api/v1/events`. New fields and new event types may appear: ignore what you do not know.
         */
        post: operations["paymentStatusUpdatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment_link.*": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment link was paid, expired or was deactivated
         * @description Sent to the link's `metadata.webhookUrl` when it enters a final status: `payment_link.paid`, `payment_link.expired` or `payment_link.deactivated` (docs/webhooks.md). Signed and retried as payments' webhooks; the same events are in `GET /api/v1/events`.
         */
        post: operations["paymentLinkWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * AccessToken
         * @example {
         *       "access_token": "q8Zt2vY6mN1kP4rW9xC3bF7hJ0sL5dG2aE8uI6oT1yR",
         *       "token_type": "Bearer",
         *       "expires_in": 1800,
         *       "scope": "payments:read payments:write providers:read"
         *     }
         */
        AccessToken: {
            /** @description Send as `Authorization: Bearer <access_token>` */
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /**
             * @description Seconds the token is valid
             * @example 1800
             */
            expires_in: number;
            /**
             * @description The scopes granted, space-separated
             * @example payments:read payments:write providers:read
             */
            scope: string;
        };
        /** AccountNumber */
        AccountNumber: {
            /** @enum {unknown} */
            type: "IBAN";
            /**
             * Format: iban
             * @description IBAN; spaces between groups are allowed. Format `iban` (a custom format): ISO 13616 IBAN: the country's length and valid mod-97 check digits (spaces between groups allowed)
             * @example DE89370400440532013000
             */
            value: string;
        };
        /** Address */
        Address: {
            /**
             * @description ISO 3166-1 alpha-2 country code
             * @example DE
             * @enum {unknown}
             */
            country: "AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW";
            city: string;
            streetName: string;
            /** @description Building and apartment, office or suite number */
            buildingNumber: string;
            postCode: string;
        };
        /**
         * DetailedStatus
         * @description The detailed status (interface spec, "States and transitions"); `*_FAILED` and `PAYMENT_EXECUTION_COMPLETED` are final. An open list: accept values you do not know.
         * @example PROVIDER_SELECTION_REDIRECT_PENDING
         */
        DetailedStatus: "PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED" | (string & {});
        /**
         * ErrorBody
         * @description The body of every error answer
         */
        ErrorBody: {
            /**
             * @description The HTTP reason phrase of `statusCode`
             * @example Bad Request
             */
            title: string;
            /**
             * @description HTTP status
             * @example 400
             */
            statusCode: number;
            /**
             * @description What went wrong, for people; for a 400 every violated rule as `<field path> <rule>`, comma-separated
             * @example amount must not be less than 0.01, recipient should not be empty
             */
            message: string;
        };
        /**
         * Event
         * @description An event of the feed; `data` is, byte for byte, the body of the event's webhook, so one handler serves webhooks and the feed (pass it `data`). The body has a `data` of its own: the payment is `data.data.paymentId`, its status `data.data.status` (docs/api-decisions.md, "Lists and the event feed").
         * @example {
         *       "id": "9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d",
         *       "type": "payment.status.updated",
         *       "createdAt": "2026-11-21T10:02:13.000Z",
         *       "data": {
         *         "type": "payment.status.updated",
         *         "timestamp": "2026-11-21T10:02:13.000Z",
         *         "data": {
         *           "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *           "endToEndId": "order-1001",
         *           "statusId": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
         *           "status": "FAILED",
         *           "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
         *           "failureReasons": [
         *             {
         *               "code": "PSU_CANCELLED",
         *               "message": "The payer cancelled at the bank."
         *             }
         *           ],
         *           "createdAt": "2026-11-21T10:02:13.000Z"
         *         }
         *       }
         *     }
         */
        Event: {
            /**
             * @description The event's id: a webhook of this event carries it as `webhook-id`
             * @example 9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d
             */
            id: string;
            /**
             * @description The event type. An open list: skip types you do not know
             * @example payment.status.updated
             */
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            createdAt: string;
            /** @description The body of the event's webhook: a payment's status change, or a payment link's (by `type`) */
            data: components["schemas"]["PaymentStatusUpdatedWebhook"] | components["schemas"]["PaymentLinkWebhook"];
        };
        /**
         * EventFeed
         * @example {
         *       "items": [
         *         {
         *           "id": "9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d",
         *           "type": "payment.status.updated",
         *           "createdAt": "2026-11-21T10:02:13.000Z",
         *           "data": {
         *             "type": "payment.status.updated",
         *             "timestamp": "2026-11-21T10:02:13.000Z",
         *             "data": {
         *               "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *               "endToEndId": "order-1001",
         *               "statusId": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
         *               "status": "FAILED",
         *               "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
         *               "failureReasons": [
         *                 {
         *                   "code": "PSU_CANCELLED",
         *                   "message": "The payer cancelled at the bank."
         *                 }
         *               ],
         *               "createdAt": "2026-11-21T10:02:13.000Z"
         *             }
         *           }
         *         }
         *       ],
         *       "nextCursor": "eyJwb3NpdGlvbiI6MTJ9.Zq3u8r1cWm0y5J2bQx7kNw"
         *     }
         */
        EventFeed: {
            /** @description Oldest first */
            items: components["schemas"]["Event"][];
            /** @description Pass as `after` to read on; always present, so a consumer can poll with it */
            nextCursor: string;
        };
        /**
         * FailureCode
         * @description Stable code of the failure. An open list: accept values you do not know.
         * @example PSU_CANCELLED
         */
        FailureCode: "EXPIRED" | "PSU_CANCELLED" | "PSU_AUTHENTICATION_FAILED" | "SCA_FAILED" | "INSUFFICIENT_FUNDS" | "BANK_REJECTED" | "BANK_UNAVAILABLE" | "INVALID_SENDER_DATA" | "CONSENT_REJECTED" | "REMITTANCE_TOO_LONG" | "INTERNAL_ERROR" | (string & {});
        /** FailureReason */
        FailureReason: {
            code: components["schemas"]["FailureCode"];
            /**
             * @description For people; may change
             * @example The payer cancelled at the bank.
             */
            message: string;
        };
        /**
         * OAuthError
         * @description An RFC 6749 §5.2 error with the error body fields alongside
         */
        OAuthError: {
            /**
             * @description RFC 6749 error code. An open list: treat a code you do not know as a failure to get a token
             * @example invalid_client
             */
            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "server_error" | (string & {});
            error_description: string;
            title: string;
            statusCode: number;
            message: string;
        };
        /**
         * Payer
         * @description The account the payer paid from, as the bank told it once the payer had authorised the payment: UK Open Banking, the payment's refund account (`Data.Refund`, asked for with `ReadRefundAccount`); Berlin Group, the payment's debtor account (chosen at the bank or sent with the payment) with the owner's name where the bank gives it. Present once the bank has told it (usually with `COMPLETED`), absent before and for banks that do not tell it. Never the payer's credentials. docs/api-decisions.md, “The payer's account”
         */
        Payer: {
            account: components["schemas"]["PayerAccount"];
            /**
             * @description The account holder's name, when the bank gives it
             * @example Alice Happy
             */
            name?: string;
        };
        /**
         * PayerAccount
         * @description Discriminated by `type`; further types may come, so a client should accept types it does not know
         */
        PayerAccount: components["schemas"]["PayerAccountIban"] | components["schemas"]["PayerAccountSortCode"];
        /**
         * PayerAccountIban
         * @description An account by IBAN (Berlin Group banks; UK banks that name one)
         */
        PayerAccountIban: {
            /** @enum {string} */
            type: "IBAN";
            /**
             * @description IBAN, electronic form (no spaces)
             * @example DE54500105171000007919
             */
            value: string;
        };
        /**
         * PayerAccountSortCode
         * @description A UK account by sort code and account number (UK Open Banking banks)
         */
        PayerAccountSortCode: {
            /** @enum {string} */
            type: "SORT_CODE_ACCOUNT_NUMBER";
            /** @example 040004 */
            sortCode: string;
            /** @example 10001001 */
            accountNumber: string;
            /**
             * @description A building society's roll number, when the bank gives one
             * @example ROLL-0042
             */
            rollNumber?: string;
        };
        /**
         * Payment
         * @example {
         *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *       "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
         *       "createdAt": "2026-11-21T10:00:00.000Z",
         *       "updatedAt": "2026-11-21T10:02:13.000Z",
         *       "status": "FAILED",
         *       "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
         *       "failureReasons": [
         *         {
         *           "code": "PSU_CANCELLED",
         *           "message": "The payer cancelled at the bank."
         *         }
         *       ],
         *       "endToEndId": "order-1001",
         *       "amount": 10.5,
         *       "currency": "EUR",
         *       "provider": {
         *         "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
         *         "name": "Rheinland Sandbox Bank"
         *       }
         *     }
         * @example {
         *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *       "providerPaymentId": "a1b2c3d4e5",
         *       "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
         *       "createdAt": "2026-11-21T10:00:00.000Z",
         *       "updatedAt": "2026-11-21T10:02:13.000Z",
         *       "status": "COMPLETED",
         *       "detailedStatus": "PAYMENT_EXECUTION_COMPLETED",
         *       "failureReasons": null,
         *       "endToEndId": "order-1001",
         *       "amount": 10.5,
         *       "currency": "EUR",
         *       "provider": {
         *         "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
         *         "name": "Rheinland Sandbox Bank"
         *       },
         *       "payer": {
         *         "account": {
         *           "type": "IBAN",
         *           "value": "DE54500105171000007919"
         *         },
         *         "name": "Alice Happy"
         *       },
         *       "refunds": [
         *         {
         *           "paymentId": "7c2e9a14-3b6d-4f8e-a1c5-d9e0f2a3b4c5",
         *           "amount": 4,
         *           "status": "PENDING"
         *         }
         *       ]
         *     }
         * @example {
         *       "paymentId": "7c2e9a14-3b6d-4f8e-a1c5-d9e0f2a3b4c5",
         *       "redirectUrl": "http://localhost:8080/pay/Xq4Lm8Rt2Vw6Yz0Bc3Df7Gh1Jk5Np9Qs2Tu6Wx0Za4C",
         *       "createdAt": "2026-11-22T09:00:00.000Z",
         *       "updatedAt": "2026-11-22T09:00:00.000Z",
         *       "status": "PENDING",
         *       "detailedStatus": "PROVIDER_SELECTION_REDIRECT_PENDING",
         *       "failureReasons": null,
         *       "endToEndId": "refund-1001-1",
         *       "amount": 4,
         *       "currency": "EUR",
         *       "refundOf": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *       "recipient": {
         *         "account": {
         *           "number": {
         *             "type": "IBAN",
         *             "value": "DE54500105171000007919"
         *           }
         *         },
         *         "name": "Alice Happy"
         *       }
         *     }
         */
        Payment: {
            /** Format: uuid */
            paymentId: string;
            /** @description The bank's id of the payment, once the bank has it */
            providerPaymentId?: string;
            /** Format: uri */
            redirectUrl: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            updatedAt: string;
            status: components["schemas"]["PaymentStatus"];
            detailedStatus: components["schemas"]["DetailedStatus"];
            /** @description `null` when there is no failure */
            failureReasons: components["schemas"]["FailureReason"][] | null;
            endToEndId: string;
            /** @description In the currency, with its minor-unit digits (EUR: 2) */
            amount: number;
            /** @description ISO 4217 */
            currency: string;
            provider?: components["schemas"]["PaymentProvider"];
            /**
             * Format: uuid
             * @description Present on a payment the payer started with another bank after this payment failed: the failed payment's id (`metadata.retryWithAnotherBank`)
             */
            retryOf?: string;
            /**
             * Format: uuid
             * @description Present on a failed payment the payer went on to pay with another bank: the new payment's id. This payment stays `FAILED`; follow the new one
             */
            retriedBy?: string;
            payer?: components["schemas"]["Payer"];
            /**
             * Format: uuid
             * @description Present on a payment a payer started from a payment link: the link's id
             */
            paymentLinkId?: string;
            /**
             * Format: uuid
             * @description Present on a refund: the id of the completed payment it refunds
             */
            refundOf?: string;
            recipient?: components["schemas"]["RefundRecipient"];
            /** @description Present on a payment that has refunds: each refund, oldest first, failed ones included (they do not count towards the payment's amount). Embedded rather than ids alone, so the refunded total is one read */
            refunds?: components["schemas"]["RefundSummary"][];
        };
        /** PaymentCreationRequest */
        PaymentCreationRequest: {
            provider?: {
                /**
                 * Format: uuid
                 * @description Provider id from the providers list (custom bank selection)
                 */
                id?: string;
                preferences?: {
                    countryCodes?: {
                        list?: ("AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW")[];
                        /**
                         * @description ISO 3166-1 alpha-2 country code
                         * @example DE
                         * @enum {unknown}
                         */
                        default?: "AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW";
                    };
                };
            };
            paymentScheme: {
                /**
                 * @example SEPA
                 * @enum {unknown}
                 */
                name: "SEPA" | "DOMESTIC";
                preferences?: {
                    /** @enum {unknown} */
                    mode?: "INSTANT" | "STANDARD";
                    /**
                     * @description ISO 20022 charge bearer
                     * @enum {unknown}
                     */
                    feePaidBy?: "DEBT" | "CRED" | "SHAR" | "SLEV";
                };
            };
            sender?: {
                account?: {
                    number: components["schemas"]["AccountNumber"];
                    /**
                     * @description ISO 4217 currency code
                     * @example EUR
                     * @enum {unknown}
                     */
                    currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BOV" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHE" | "CHF" | "CHW" | "CLF" | "CLP" | "CNY" | "COP" | "COU" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MXV" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "USN" | "UYI" | "UYU" | "UYW" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XAG" | "XAU" | "XBA" | "XBB" | "XBC" | "XBD" | "XCD" | "XDR" | "XOF" | "XPD" | "XPF" | "XPT" | "XSU" | "XTS" | "XUA" | "XXX" | "YER" | "ZAR" | "ZMW" | "ZWG";
                };
                address?: components["schemas"]["Address"];
                /** @description The payer's credentials, as the bank's `requiredPaymentFields` ask. Only with `provider.id`: used by the bank calls made within this request, never stored; the payer is not asked again for what is sent */
                credentials?: {
                    /** @description The payer's login id at the bank */
                    id?: string;
                    /** @description The payer's password at the bank; passed to the bank, never stored. Only together with `id` */
                    password?: string;
                };
            };
            recipient: components["schemas"]["Recipient"];
            /**
             * @description At most as many decimals as the currency has (EUR: 2)
             * @example 10.5
             */
            amount: number;
            /**
             * @description ISO 4217 currency code
             * @example EUR
             * @enum {unknown}
             */
            currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BOV" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHE" | "CHF" | "CHW" | "CLF" | "CLP" | "CNY" | "COP" | "COU" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MXV" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "USN" | "UYI" | "UYU" | "UYW" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XAG" | "XAU" | "XBA" | "XBB" | "XBC" | "XBD" | "XCD" | "XDR" | "XOF" | "XPD" | "XPF" | "XPT" | "XSU" | "XTS" | "XUA" | "XXX" | "YER" | "ZAR" | "ZMW" | "ZWG";
            remittanceInformation: components["schemas"]["RemittanceInformation"];
            metadata: components["schemas"]["PaymentMetadata"];
        };
        /**
         * PaymentCreationResponse
         * @example {
         *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *       "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
         *       "createdAt": "2026-11-21T10:00:00.000Z",
         *       "updatedAt": "2026-11-21T10:00:00.000Z",
         *       "status": "PENDING"
         *     }
         */
        PaymentCreationResponse: {
            /** Format: uuid */
            paymentId: string;
            /** @description The bank's id of the payment, once the bank has it */
            providerPaymentId?: string;
            /**
             * Format: uri
             * @description Send the payer here
             */
            redirectUrl: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            updatedAt: string;
            status: components["schemas"]["PaymentStatus"];
        };
        /**
         * PaymentLink
         * @example {
         *       "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
         *       "url": "http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp",
         *       "status": "ACTIVE",
         *       "reference": "invoice-2026-001",
         *       "reusable": false,
         *       "amount": 10.5,
         *       "currency": "EUR",
         *       "remittance": "Invoice 2026-001",
         *       "recipientName": "Acme GmbH",
         *       "expiresAt": "2026-11-22T10:00:00.000Z",
         *       "createdAt": "2026-11-21T10:00:00.000Z",
         *       "updatedAt": "2026-11-21T10:00:00.000Z",
         *       "paymentCount": 0
         *     }
         */
        PaymentLink: {
            /** Format: uuid */
            paymentLinkId: string;
            /**
             * Format: uri
             * @description The address to give the payer (a page of ours; show it as a link or QR code)
             */
            url: string;
            status: components["schemas"]["PaymentLinkStatus"];
            reference: string;
            reusable: boolean;
            /** @description In the currency, with its minor-unit digits (EUR: 2) */
            amount: number;
            /** @description ISO 4217 */
            currency: string;
            /** @description The remittance information of every payment of the link */
            remittance: string;
            recipientName: string;
            /** Format: date-time */
            expiresAt: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description How many payments payers started from the link (failed ones included) */
            paymentCount: number;
            /**
             * Format: uuid
             * @description On a `PAID` link: the payment that paid it
             */
            paymentId?: string;
        };
        /** PaymentLinkCreationRequest */
        PaymentLinkCreationRequest: {
            provider?: {
                /**
                 * Format: uuid
                 * @description Provider id from the providers list (custom bank selection)
                 */
                id?: string;
                preferences?: {
                    countryCodes?: {
                        list?: ("AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW")[];
                        /**
                         * @description ISO 3166-1 alpha-2 country code
                         * @example DE
                         * @enum {unknown}
                         */
                        default?: "AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW";
                    };
                };
            };
            paymentScheme: {
                /**
                 * @example SEPA
                 * @enum {unknown}
                 */
                name: "SEPA" | "DOMESTIC";
                preferences?: {
                    /** @enum {unknown} */
                    mode?: "INSTANT" | "STANDARD";
                    /**
                     * @description ISO 20022 charge bearer
                     * @enum {unknown}
                     */
                    feePaidBy?: "DEBT" | "CRED" | "SHAR" | "SLEV";
                };
            };
            recipient: components["schemas"]["Recipient"];
            /**
             * @description At most as many decimals as the currency has (EUR: 2)
             * @example 10.5
             */
            amount: number;
            /**
             * @description ISO 4217 currency code
             * @example EUR
             * @enum {unknown}
             */
            currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BOV" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHE" | "CHF" | "CHW" | "CLF" | "CLP" | "CNY" | "COP" | "COU" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MXV" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "USN" | "UYI" | "UYU" | "UYW" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XAG" | "XAU" | "XBA" | "XBB" | "XBC" | "XBD" | "XCD" | "XDR" | "XOF" | "XPD" | "XPF" | "XPT" | "XSU" | "XTS" | "XUA" | "XXX" | "YER" | "ZAR" | "ZMW" | "ZWG";
            remittanceInformation: components["schemas"]["RemittanceInformation"];
            metadata: components["schemas"]["PaymentLinkMetadata"];
            /**
             * @description The link's id in your system: printable ASCII, no leading or trailing spaces; unique per client (a second link with it answers 409). The link's payments get `endToEndId` `<reference>-<n>` (1, 2, …)
             * @example invoice-2026-001
             */
            reference: string;
            /**
             * Format: date-time
             * @description When the link stops taking payments (ISO 8601 with an offset). Default: 24 hours from now; at most 90 days ahead
             * @example 2026-11-22T10:00:00.000Z
             */
            expiresAt?: string;
            /** @description false (default): the first completed payment closes the link (`PAID`). true: every payer may pay until it expires or is deactivated */
            reusable?: boolean;
        };
        /** PaymentLinkEventData */
        PaymentLinkEventData: {
            /** Format: uuid */
            paymentLinkId: string;
            /** @description Your reference of the link */
            reference: string;
            /** @description The status the link entered: `PAID`, `EXPIRED` or `DEACTIVATED`. An open list */
            status: "PAID" | "EXPIRED" | "DEACTIVATED" | (string & {});
            /**
             * Format: uuid
             * @description `payment_link.paid` only: the payment that paid the link
             */
            paymentId?: string;
            /**
             * Format: date-time
             * @description When the link entered the status
             */
            createdAt: string;
        };
        /**
         * PaymentLinkList
         * @example {
         *       "items": [
         *         {
         *           "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
         *           "url": "http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp",
         *           "status": "ACTIVE",
         *           "reference": "invoice-2026-001",
         *           "reusable": false,
         *           "amount": 10.5,
         *           "currency": "EUR",
         *           "remittance": "Invoice 2026-001",
         *           "recipientName": "Acme GmbH",
         *           "expiresAt": "2026-11-22T10:00:00.000Z",
         *           "createdAt": "2026-11-21T10:00:00.000Z",
         *           "updatedAt": "2026-11-21T10:00:00.000Z",
         *           "paymentCount": 0
         *         }
         *       ],
         *       "nextCursor": null
         *     }
         */
        PaymentLinkList: {
            /** @description Newest first (createdAt descending, then paymentLinkId descending) */
            items: components["schemas"]["PaymentLink"][];
            /** @description Pass as `cursor` for the next page; `null` on the last page */
            nextCursor: string | null;
        };
        /**
         * PaymentLinkMetadata
         * @description Where each payer is sent when their payment's flow ends, and where the link's and its payments' webhooks go
         */
        PaymentLinkMetadata: {
            /**
             * Format: uri
             * @description Where the payer is sent when the flow ends (https)
             */
            redirectUri: string;
            /**
             * Format: uri
             * @description Receives a webhook when the status changes (https)
             */
            webhookUrl?: string;
        };
        /**
         * PaymentLinkStatus
         * @description `ACTIVE` takes payments; `PAID` (a single-use link paid), `EXPIRED` and `DEACTIVATED` are final. An open list: treat a value you do not know as not taking payments.
         * @example ACTIVE
         */
        PaymentLinkStatus: "ACTIVE" | "PAID" | "EXPIRED" | "DEACTIVATED" | (string & {});
        /**
         * PaymentLinkWebhook
         * @description The body of a `payment_link.*` webhook. New fields may be added: do not reject what you do not know.
         * @example {
         *       "type": "payment_link.paid",
         *       "timestamp": "2026-11-21T10:04:10.000Z",
         *       "data": {
         *         "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
         *         "reference": "invoice-2026-001",
         *         "status": "PAID",
         *         "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *         "createdAt": "2026-11-21T10:04:10.000Z"
         *       }
         *     }
         */
        PaymentLinkWebhook: {
            /**
             * @description `payment_link.paid`, `payment_link.expired` or `payment_link.deactivated`. Ignore types you do not know
             * @example payment_link.paid
             */
            type: string;
            /**
             * Format: date-time
             * @description When the event was written; the same on every retry
             */
            timestamp: string;
            data: components["schemas"]["PaymentLinkEventData"];
        };
        /**
         * PaymentList
         * @example {
         *       "items": [
         *         {
         *           "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *           "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
         *           "createdAt": "2026-11-21T10:00:00.000Z",
         *           "updatedAt": "2026-11-21T10:02:13.000Z",
         *           "status": "FAILED",
         *           "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
         *           "failureReasons": [
         *             {
         *               "code": "PSU_CANCELLED",
         *               "message": "The payer cancelled at the bank."
         *             }
         *           ],
         *           "endToEndId": "order-1001",
         *           "amount": 10.5,
         *           "currency": "EUR",
         *           "provider": {
         *             "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
         *             "name": "Rheinland Sandbox Bank"
         *           }
         *         }
         *       ],
         *       "nextCursor": null
         *     }
         */
        PaymentList: {
            /** @description Newest first (createdAt descending, then paymentId descending) */
            items: components["schemas"]["Payment"][];
            /** @description Pass as `cursor` for the next page; `null` on the last page */
            nextCursor: string | null;
        };
        /** PaymentMetadata */
        PaymentMetadata: {
            /**
             * Format: uri
             * @description Where the payer is sent when the flow ends (https)
             */
            redirectUri: string;
            /**
             * @description The payer's IP address: IPv4 (four octets) or IPv6 in eight groups without `::`
             * @example 203.0.113.7
             */
            psuIpAddress: string;
            psuUserAgent: string;
            /**
             * @description The payment's id in the client's system: printable ASCII, no leading or trailing spaces; unique per client (a second payment with it answers 409)
             * @example order-1001
             */
            endToEndId: string;
            /**
             * Format: uri
             * @description Receives a webhook when the status changes (https)
             */
            webhookUrl?: string;
            /** @description Whether the payer's outcome page offers “pay with another bank” when the payment fails for a reason another bank could avoid (`INSUFFICIENT_FUNDS`, `BANK_REJECTED`, `PSU_CANCELLED`, `BANK_UNAVAILABLE`). The retry is a new payment with `retryOf` set to this one's id and an `endToEndId` derived from this one's (docs/api-decisions.md, “Paying with another bank”). Default: `true` in hosted mode, `false` when `provider.id` is sent */
            retryWithAnotherBank?: boolean;
        };
        /**
         * PaymentProvider
         * @description The bank, once known
         */
        PaymentProvider: {
            /** Format: uuid */
            id: string;
            name: string;
        };
        /**
         * PaymentStatus
         * @description Top-level status, derived from `detailedStatus`: `PENDING`, `COMPLETED` or `FAILED` (`UNKNOWN` is reserved). An open list: accept values you do not know. Treat a value you do not know as not final.
         * @example PENDING
         */
        PaymentStatus: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN" | (string & {});
        /**
         * PaymentStatusHistory
         * @description Every status record of the payment, earliest first
         * @example [
         *       {
         *         "id": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
         *         "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *         "status": "PENDING",
         *         "detailedStatus": "PROVIDER_SELECTION_REDIRECT_PENDING",
         *         "failureReasons": null,
         *         "createdAt": "2026-11-21T10:00:00.000Z"
         *       }
         *     ]
         */
        PaymentStatusHistory: components["schemas"]["PaymentStatusRecord"][];
        /**
         * PaymentStatusRecord
         * @example {
         *       "id": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
         *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *       "status": "PENDING",
         *       "detailedStatus": "PROVIDER_SELECTION_REDIRECT_PENDING",
         *       "failureReasons": null,
         *       "createdAt": "2026-11-21T10:00:00.000Z"
         *     }
         */
        PaymentStatusRecord: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            paymentId: string;
            status: components["schemas"]["PaymentStatus"];
            detailedStatus: components["schemas"]["DetailedStatus"];
            /** @description `null` when there is no failure */
            failureReasons: components["schemas"]["FailureReason"][] | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            createdAt: string;
        };
        /** PaymentStatusUpdatedData */
        PaymentStatusUpdatedData: {
            /** Format: uuid */
            paymentId: string;
            /** @description Your end-to-end id of the payment */
            endToEndId: string;
            /**
             * Format: uuid
             * @description Id of the status record this event reports (an element of the status history)
             */
            statusId: string;
            status: components["schemas"]["PaymentStatus"];
            detailedStatus: components["schemas"]["DetailedStatus"];
            /** @description `null` when there is no failure */
            failureReasons: components["schemas"]["FailureReason"][] | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             * @example 2026-11-21T10:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: uuid
             * @description On every event of a payment the payer started with another bank after a failure: the failed payment's id. Its first event (`PROVIDER_SELECTION_REDIRECT_PENDING`) announces the new payment
             */
            retryOf?: string;
            /**
             * Format: uuid
             * @description On every event of a payment a payer started from a payment link: the link's id
             */
            paymentLinkId?: string;
            /**
             * Format: uuid
             * @description On every event of a refund: the id of the completed payment it refunds. Its first event (`PROVIDER_SELECTION_REDIRECT_PENDING`) announces the new refund
             */
            refundOf?: string;
        };
        /**
         * PaymentStatusUpdatedWebhook
         * @description The body of a `payment.status.updated` webhook. New fields may be added: do not reject what you do not know.
         * @example {
         *       "type": "payment.status.updated",
         *       "timestamp": "2026-11-21T10:02:13.000Z",
         *       "data": {
         *         "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
         *         "endToEndId": "order-1001",
         *         "statusId": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
         *         "status": "FAILED",
         *         "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
         *         "failureReasons": [
         *           {
         *             "code": "PSU_CANCELLED",
         *             "message": "The payer cancelled at the bank."
         *           }
         *         ],
         *         "createdAt": "2026-11-21T10:02:13.000Z"
         *       }
         *     }
         */
        PaymentStatusUpdatedWebhook: {
            /**
             * @description `payment.status.updated`. Event types are an open list: ignore types you do not know
             * @example payment.status.updated
             */
            type: string;
            /**
             * Format: date-time
             * @description When the event was written; the same on every retry
             * @example 2026-11-21T10:02:13.000Z
             */
            timestamp: string;
            data: components["schemas"]["PaymentStatusUpdatedData"];
        };
        /** Provider */
        Provider: {
            /** Format: uuid */
            id: string;
            name: string;
            countryCode: string;
            /** Format: uri */
            logoUrl: string;
            /** Format: uri */
            iconUrl: string;
            paymentSchemes: ("SEPA" | "DOMESTIC")[];
            requiredPaymentFields: ("SENDER_ACCOUNT" | "SENDER_PROVIDER_CREDENTIALS_ID" | "SENDER_PROVIDER_CREDENTIALS_PASSWORD")[];
            /** @description Present on the parent of a bank group: send a subsidiary id, never the parent id */
            subsidiaries?: components["schemas"]["ProviderSubsidiary"][];
        };
        /**
         * ProviderList
         * @example [
         *       {
         *         "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
         *         "name": "Rheinland Sandbox Bank",
         *         "countryCode": "DE",
         *         "logoUrl": "http://localhost:8080/assets/providers/6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09/logo.svg",
         *         "iconUrl": "http://localhost:8080/assets/providers/6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09/icon.svg",
         *         "paymentSchemes": [
         *           "SEPA"
         *         ],
         *         "requiredPaymentFields": []
         *       }
         *     ]
         */
        ProviderList: components["schemas"]["Provider"][];
        /** ProviderSubsidiary */
        ProviderSubsidiary: {
            /** Format: uuid */
            id: string;
            name: string;
            countryCode: string;
            /** Format: uri */
            logoUrl: string;
            /** Format: uri */
            iconUrl: string;
            paymentSchemes: ("SEPA" | "DOMESTIC")[];
            requiredPaymentFields: ("SENDER_ACCOUNT" | "SENDER_PROVIDER_CREDENTIALS_ID" | "SENDER_PROVIDER_CREDENTIALS_PASSWORD")[];
        };
        /** Recipient */
        Recipient: {
            account: components["schemas"]["RecipientAccount"];
            /**
             * @description Shown to the payer. No control characters and no invisible format characters (bidi overrides, zero-width spaces); stored in Unicode NFC
             * @example Acme GmbH
             */
            name: string;
            address: components["schemas"]["Address"];
        };
        /** RecipientAccount */
        RecipientAccount: {
            number: components["schemas"]["AccountNumber"];
        };
        /**
         * RecipientAccountIban
         * @description An account by IBAN: a refund's recipient when the payer's bank named the payer's account by IBAN
         * @example {
         *       "type": "IBAN",
         *       "value": "DE54500105171000007919"
         *     }
         */
        RecipientAccountIban: {
            /** @enum {string} */
            type: "IBAN";
            /**
             * @description IBAN, electronic form (no spaces)
             * @example DE54500105171000007919
             */
            value: string;
        };
        /**
         * RecipientAccountNumber
         * @description Discriminated by `type`: an IBAN, or a UK sort code and account number. Further types may come, so a client should accept types it does not know
         */
        RecipientAccountNumber: components["schemas"]["RecipientAccountIban"] | components["schemas"]["SortCodeAccountNumber"];
        /** RefundCreationRequest */
        RefundCreationRequest: {
            /**
             * @description In the payment's currency, with at most its minor-unit digits (EUR: 2): a JSON number like a payment's `amount`, or a decimal string. Default: what is left to refund (the payment's amount less its refunds not failed). More than is left answers 409 `REFUND_EXCEEDS_REMAINING`
             * @example 4.00
             */
            amount?: number | string;
            /**
             * @description The refund's remittance information, shown to the payer by their bank: letters, digits, `/ + -` and spaces
             * @example Refund order 1001
             */
            reference: string;
            /**
             * @description The payer's name as you know it, used as the refund's recipient name only when the payer's bank did not name the account's holder (`payer.name` absent on the payment). Without either, the refund answers 409 `PAYER_NAME_UNKNOWN`: banks check a recipient's name against the account, so none is made up
             * @example Alice Happy
             */
            payerName?: string;
            metadata: components["schemas"]["RefundMetadata"];
        };
        /** RefundMetadata */
        RefundMetadata: {
            /**
             * Format: uri
             * @description Where the merchant's approver is sent when the refund's flow ends (https)
             */
            redirectUri: string;
            /**
             * @description The refund's id in your system, unique per client among all your payments (refunds are payments): a second one with it answers 409
             * @example refund-1001-1
             */
            endToEndId: string;
            /**
             * Format: uri
             * @description Receives a webhook when the refund's status changes (https)
             */
            webhookUrl?: string;
        };
        /**
         * RefundRecipient
         * @description Present on a refund only: the account it is paid to, the refunded payment's payer as their bank told it (`payer`), and the holder's name
         * @example {
         *       "account": {
         *         "number": {
         *           "type": "SORT_CODE_ACCOUNT_NUMBER",
         *           "value": "60161331926819"
         *         }
         *       },
         *       "name": "Alice Happy"
         *     }
         * @example {
         *       "account": {
         *         "number": {
         *           "type": "IBAN",
         *           "value": "DE54500105171000007919"
         *         }
         *       },
         *       "name": "Alice Happy"
         *     }
         */
        RefundRecipient: {
            account: components["schemas"]["RefundRecipientAccount"];
            /**
             * @description The account holder's name the refund is paid to: the payer's bank's (`payer.name`), else the refund request's `payerName`
             * @example Alice Happy
             */
            name: string;
        };
        /** RefundRecipientAccount */
        RefundRecipientAccount: {
            number: components["schemas"]["RecipientAccountNumber"];
        };
        /** RefundSummary */
        RefundSummary: {
            /**
             * Format: uuid
             * @description The refund's payment id: `GET /api/v1/ob/payments/{paymentId}` for all of it
             */
            paymentId: string;
            /** @description In the currency of the payment refunded */
            amount: number;
            /** @description The refund's top-level status (`PENDING`, `COMPLETED`, `FAILED`). An open list: accept values you do not know */
            status: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN" | (string & {});
        };
        /** RemittanceInformation */
        RemittanceInformation: {
            /** @enum {unknown} */
            type: "UNSTRUCTURED";
            /**
             * @description Letters, digits, `/ + -` and spaces
             * @example Invoice 2026-001
             */
            value: string;
            preferences?: {
                /** @description Cut the value to the provider's limit instead of failing */
                truncate?: boolean;
            };
        };
        /**
         * SortCodeAccountNumber
         * @description A UK account by sort code and account number: the recipient of a refund to a payer whose UK bank told the account that way (`payer.account` of type `SORT_CODE_ACCOUNT_NUMBER` on the refunded payment). Only refunds are paid to one, and only through banks that pay to UK accounts
         * @example {
         *       "type": "SORT_CODE_ACCOUNT_NUMBER",
         *       "value": "60161331926819"
         *     }
         */
        SortCodeAccountNumber: {
            /** @enum {string} */
            type: "SORT_CODE_ACCOUNT_NUMBER";
            /**
             * @description The sort code's 6 digits then the account number's 8, as UK Open Banking's `UK.OBIE.SortCodeAccountNumber` identifies the account (sort code 60-16-13, account 31926819: `60161331926819`)
             * @example 60161331926819
             */
            value: string;
            /**
             * @description A building society's roll number (the standard's `SecondaryIdentification`), when the payer's bank gave one
             * @example ROLL-0042
             */
            rollNumber?: string;
        };
        /** TokenRequest */
        TokenRequest: {
            /**
             * @description Always `client_credentials`
             * @example client_credentials
             */
            grant_type: string;
            /**
             * @description Scopes wanted, space-separated; without it every scope the client holds
             * @example payments:read payments:write
             */
            scope?: string;
            /** @description The client id, for `client_secret_post`; with HTTP Basic it may be sent too and must then be the same client */
            client_id?: string;
            /** @description The client secret, for `client_secret_post` only: never together with HTTP Basic */
            client_secret?: string;
        };
    };
    responses: never;
    parameters: {
        /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
        RequestId: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request's id: the one the client sent in `X-Request-ID` when well-formed (1–128 of `A–Z a–z 0–9 . _ : -`), otherwise a new UUID. It is in the service's logs and is sent on to the banks; quote it when reporting a problem. */
        "X-Request-ID": string;
        /** @description The per-client rate limit (IETF RateLimit headers): `q` requests in a burst, refilled over `w` seconds. */
        "RateLimit-Policy": string;
        /** @description Requests `r` left in the burst now, and `t` seconds until it is full again. */
        RateLimit: string;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
        /** @description The bearer challenge (RFC 6750): `Bearer realm="openpis"` when no bearer token was sent, with `error="invalid_token"` for a malformed, unknown, expired or revoked one. */
        "WWW-Authenticate-Bearer": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createAccessToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grant_type": "client_credentials"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description The access token */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    /** @description Never cache: `no-store` */
                    "Cache-Control": string;
                    /** @description `no-cache`, for HTTP/1.0 caches */
                    Pragma: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "q8Zt2vY6mN1kP4rW9xC3bF7hJ0sL5dG2aE8uI6oT1yR",
                     *       "token_type": "Bearer",
                     *       "expires_in": 1800,
                     *       "scope": "payments:read payments:write providers:read"
                     *     }
                     */
                    "application/json": components["schemas"]["AccessToken"];
                };
            };
            /** @description `invalid_request`, `unsupported_grant_type` or `invalid_scope` */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    /** @description Never cache: `no-store` */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_grant_type",
                     *       "error_description": "Only grant_type=client_credentials is supported",
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "Only grant_type=client_credentials is supported"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_client`: no client credentials (HTTP Basic or in the body), or wrong ones */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    /** @description Never cache: `no-store` */
                    "Cache-Control": string;
                    /** @description The Basic challenge */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Invalid client id or client secret",
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Invalid client id or client secret"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_request`: the body is over 1 MiB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    /** @description Never cache: `no-store` */
                    "Cache-Control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "Request body is too large",
                     *       "title": "Payload Too Large",
                     *       "statusCode": 413,
                     *       "message": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `server_error`: tokens cannot be issued now; retry with backoff */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    /** @description Never cache: `no-store` */
                    "Cache-Control": string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "server_error",
                     *       "error_description": "The authorization service is temporarily unavailable; retry with backoff",
                     *       "title": "Service Unavailable",
                     *       "statusCode": 503,
                     *       "message": "The authorization service is temporarily unavailable; retry with backoff"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    listProviders: {
        parameters: {
            query?: {
                /** @description Only banks of this country */
                countryCode?: "AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW";
                /** @description Only banks offering this scheme */
                paymentScheme?: "SEPA" | "DOMESTIC";
            };
            header?: {
                /**
                 * @description The `ETag` of a list you hold: an unchanged list answers 304 with no content
                 * @example "q1w2e3r4t5y6u7i8o9p0a1s2d3f"
                 */
                "if-none-match"?: string;
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The banks of the caller's environment */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    /** @description The version of this list; send it back in `If-None-Match` */
                    ETag: string;
                    /** @description Cache privately for an hour */
                    "Cache-Control": string;
                    /** @description The list depends on the caller */
                    Vary: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
                     *         "name": "Rheinland Sandbox Bank",
                     *         "countryCode": "DE",
                     *         "logoUrl": "http://localhost:8080/assets/providers/6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09/logo.svg",
                     *         "iconUrl": "http://localhost:8080/assets/providers/6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09/icon.svg",
                     *         "paymentSchemes": [
                     *           "SEPA"
                     *         ],
                     *         "requiredPaymentFields": []
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ProviderList"];
                };
            };
            /** @description Not modified (`If-None-Match` matched the `ETag`): no content; ETag, Cache-Control and Vary as on 200 */
            304: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    /** @description The version of this list; send it back in `If-None-Match` */
                    ETag: string;
                    /** @description Cache privately for an hour */
                    "Cache-Control": string;
                    /** @description The list depends on the caller */
                    Vary: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /**
                 * @description Only payments in one of these top-level statuses, separated by commas. Repeating the parameter works too.
                 * @example [
                 *       "PENDING"
                 *     ]
                 */
                status?: ("PENDING" | "COMPLETED" | "FAILED")[];
                /**
                 * @description Only payments in one of these detailed statuses, separated by commas. Repeating the parameter works too.
                 * @example [
                 *       "PAYMENT_EXECUTION_PENDING"
                 *     ]
                 */
                detailedStatus?: ("PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED")[];
                /**
                 * @description Only payments at this provider (custom mode, or hosted once the payer chose it)
                 * @example 6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09
                 */
                providerId?: string;
                /**
                 * @description Only the payment with this endToEndId (exact match): finds a payment after a 409 or a lost answer
                 * @example order-1001
                 */
                endToEndId?: string;
                /**
                 * @description Only payments created at or after this time (ISO 8601 with an offset; compared in UTC)
                 * @example 2026-11-01T00:00:00Z
                 */
                createdFrom?: string;
                /**
                 * @description Only payments created before this time (exclusive)
                 * @example 2026-12-01T00:00:00Z
                 */
                createdTo?: string;
                /** @description Page size */
                limit?: number;
                /** @description `nextCursor` of the previous page, unchanged (opaque). Send the same filters with it. */
                cursor?: string;
            };
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payments, newest first */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *           "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
                     *           "createdAt": "2026-11-21T10:00:00.000Z",
                     *           "updatedAt": "2026-11-21T10:02:13.000Z",
                     *           "status": "FAILED",
                     *           "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
                     *           "failureReasons": [
                     *             {
                     *               "code": "PSU_CANCELLED",
                     *               "message": "The payer cancelled at the bank."
                     *             }
                     *           ],
                     *           "endToEndId": "order-1001",
                     *           "amount": 10.5,
                     *           "currency": "EUR",
                     *           "provider": {
                     *             "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
                     *             "name": "Rheinland Sandbox Bank"
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Preferred initial language of the payer's pages (ISO 639-1); invalid values are ignored */
                "accept-language"?: string;
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "paymentScheme": {
                 *         "name": "SEPA"
                 *       },
                 *       "recipient": {
                 *         "account": {
                 *           "number": {
                 *             "type": "IBAN",
                 *             "value": "DE89370400440532013000"
                 *           }
                 *         },
                 *         "name": "Acme GmbH",
                 *         "address": {
                 *           "country": "DE",
                 *           "city": "Berlin",
                 *           "streetName": "Unter den Linden",
                 *           "buildingNumber": "77",
                 *           "postCode": "10117"
                 *         }
                 *       },
                 *       "amount": 10.5,
                 *       "currency": "EUR",
                 *       "remittanceInformation": {
                 *         "type": "UNSTRUCTURED",
                 *         "value": "Invoice 2026-001"
                 *       },
                 *       "metadata": {
                 *         "redirectUri": "https://merchant.example/return",
                 *         "psuIpAddress": "203.0.113.7",
                 *         "psuUserAgent": "Mozilla/5.0",
                 *         "endToEndId": "order-1001"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PaymentCreationRequest"];
            };
        };
        responses: {
            /** @description Created, always `PENDING`: send the payer to `redirectUrl` */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *       "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
                     *       "createdAt": "2026-11-21T10:00:00.000Z",
                     *       "updatedAt": "2026-11-21T10:00:00.000Z",
                     *       "status": "PENDING"
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentCreationResponse"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller already has a payment with this `metadata.endToEndId`: find it with `GET /api/v1/ob/payments?endToEndId=…` */
            409: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "statusCode": 409,
                     *       "message": "A payment with endToEndId \"order-1001\" already exists"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is over 1 MiB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Payload Too Large",
                     *       "statusCode": 413,
                     *       "message": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is not `application/json` */
            415: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unsupported Media Type",
                     *       "statusCode": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The service's id of the payment
                 * @example 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11
                 */
                paymentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *       "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
                     *       "createdAt": "2026-11-21T10:00:00.000Z",
                     *       "updatedAt": "2026-11-21T10:02:13.000Z",
                     *       "status": "FAILED",
                     *       "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
                     *       "failureReasons": [
                     *         {
                     *           "code": "PSU_CANCELLED",
                     *           "message": "The payer cancelled at the bank."
                     *         }
                     *       ],
                     *       "endToEndId": "order-1001",
                     *       "amount": 10.5,
                     *       "currency": "EUR",
                     *       "provider": {
                     *         "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
                     *         "name": "Rheinland Sandbox Bank"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Preferred initial language of the approver's pages (ISO 639-1); invalid values are ignored */
                "accept-language"?: string;
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The service's id of the payment
                 * @example 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11
                 */
                paymentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": "4.00",
                 *       "reference": "Refund order 1001",
                 *       "metadata": {
                 *         "redirectUri": "https://merchant.example/refunds/done",
                 *         "endToEndId": "refund-1001-1"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["RefundCreationRequest"];
            };
        };
        responses: {
            /** @description The refund (a payment), `PENDING`: send the merchant's approver to `redirectUrl` */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *       "redirectUrl": "http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw",
                     *       "createdAt": "2026-11-21T10:00:00.000Z",
                     *       "updatedAt": "2026-11-21T10:02:13.000Z",
                     *       "status": "FAILED",
                     *       "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
                     *       "failureReasons": [
                     *         {
                     *           "code": "PSU_CANCELLED",
                     *           "message": "The payer cancelled at the bank."
                     *         }
                     *       ],
                     *       "endToEndId": "order-1001",
                     *       "amount": 10.5,
                     *       "currency": "EUR",
                     *       "provider": {
                     *         "id": "6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09",
                     *         "name": "Rheinland Sandbox Bank"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller already has a payment with this `metadata.endToEndId`: find it with `GET /api/v1/ob/payments?endToEndId=…` */
            409: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "statusCode": 409,
                     *       "message": "A payment with endToEndId \"order-1001\" already exists"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is over 1 MiB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Payload Too Large",
                     *       "statusCode": 413,
                     *       "message": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is not `application/json` */
            415: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unsupported Media Type",
                     *       "statusCode": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPaymentStatusHistory: {
        parameters: {
            query: {
                /**
                 * @description The service's id of the payment
                 * @example 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11
                 */
                paymentId: string;
            };
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status records, earliest first */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
                     *         "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *         "status": "PENDING",
                     *         "detailedStatus": "PROVIDER_SELECTION_REDIRECT_PENDING",
                     *         "failureReasons": null,
                     *         "createdAt": "2026-11-21T10:00:00.000Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["PaymentStatusHistory"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getLatestPaymentStatus: {
        parameters: {
            query: {
                /**
                 * @description The service's id of the payment
                 * @example 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11
                 */
                paymentId: string;
            };
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest status record */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
                     *       "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *       "status": "PENDING",
                     *       "detailedStatus": "PROVIDER_SELECTION_REDIRECT_PENDING",
                     *       "failureReasons": null,
                     *       "createdAt": "2026-11-21T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentStatusRecord"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listPaymentLinks: {
        parameters: {
            query?: {
                /**
                 * @description Only links in one of these statuses, separated by commas. Repeating the parameter works too.
                 * @example [
                 *       "ACTIVE"
                 *     ]
                 */
                status?: ("ACTIVE" | "PAID" | "EXPIRED" | "DEACTIVATED")[];
                /**
                 * @description Only the link with this reference (exact match): finds a link after a 409 or a lost answer
                 * @example invoice-2026-001
                 */
                reference?: string;
                /** @description Page size */
                limit?: number;
                /** @description `nextCursor` of the previous page, unchanged (opaque). Send the same filters with it. */
                cursor?: string;
            };
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payment links, newest first */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
                     *           "url": "http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp",
                     *           "status": "ACTIVE",
                     *           "reference": "invoice-2026-001",
                     *           "reusable": false,
                     *           "amount": 10.5,
                     *           "currency": "EUR",
                     *           "remittance": "Invoice 2026-001",
                     *           "recipientName": "Acme GmbH",
                     *           "expiresAt": "2026-11-22T10:00:00.000Z",
                     *           "createdAt": "2026-11-21T10:00:00.000Z",
                     *           "updatedAt": "2026-11-21T10:00:00.000Z",
                     *           "paymentCount": 0
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentLinkList"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createPaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "paymentScheme": {
                 *         "name": "SEPA"
                 *       },
                 *       "recipient": {
                 *         "account": {
                 *           "number": {
                 *             "type": "IBAN",
                 *             "value": "DE89370400440532013000"
                 *           }
                 *         },
                 *         "name": "Acme GmbH",
                 *         "address": {
                 *           "country": "DE",
                 *           "city": "Berlin",
                 *           "streetName": "Unter den Linden",
                 *           "buildingNumber": "77",
                 *           "postCode": "10117"
                 *         }
                 *       },
                 *       "amount": 10.5,
                 *       "currency": "EUR",
                 *       "remittanceInformation": {
                 *         "type": "UNSTRUCTURED",
                 *         "value": "Invoice 2026-001"
                 *       },
                 *       "metadata": {
                 *         "redirectUri": "https://merchant.example/return"
                 *       },
                 *       "reference": "invoice-2026-001"
                 *     }
                 */
                "application/json": components["schemas"]["PaymentLinkCreationRequest"];
            };
        };
        responses: {
            /** @description Created, `ACTIVE`: give the payer `url` */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
                     *       "url": "http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp",
                     *       "status": "ACTIVE",
                     *       "reference": "invoice-2026-001",
                     *       "reusable": false,
                     *       "amount": 10.5,
                     *       "currency": "EUR",
                     *       "remittance": "Invoice 2026-001",
                     *       "recipientName": "Acme GmbH",
                     *       "expiresAt": "2026-11-22T10:00:00.000Z",
                     *       "createdAt": "2026-11-21T10:00:00.000Z",
                     *       "updatedAt": "2026-11-21T10:00:00.000Z",
                     *       "paymentCount": 0
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentLink"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller already has a payment with this `metadata.endToEndId`: find it with `GET /api/v1/ob/payments?endToEndId=…` */
            409: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "statusCode": 409,
                     *       "message": "A payment with endToEndId \"order-1001\" already exists"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is over 1 MiB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Payload Too Large",
                     *       "statusCode": 413,
                     *       "message": "Request body is too large"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is not `application/json` */
            415: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unsupported Media Type",
                     *       "statusCode": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                paymentLinkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment link */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
                     *       "url": "http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp",
                     *       "status": "ACTIVE",
                     *       "reference": "invoice-2026-001",
                     *       "reusable": false,
                     *       "amount": 10.5,
                     *       "currency": "EUR",
                     *       "remittance": "Invoice 2026-001",
                     *       "recipientName": "Acme GmbH",
                     *       "expiresAt": "2026-11-22T10:00:00.000Z",
                     *       "createdAt": "2026-11-21T10:00:00.000Z",
                     *       "updatedAt": "2026-11-21T10:00:00.000Z",
                     *       "paymentCount": 0
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentLink"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deactivatePaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path: {
                paymentLinkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment link, `DEACTIVATED` */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
                     *       "url": "http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp",
                     *       "status": "ACTIVE",
                     *       "reference": "invoice-2026-001",
                     *       "reusable": false,
                     *       "amount": 10.5,
                     *       "currency": "EUR",
                     *       "remittance": "Invoice 2026-001",
                     *       "recipientName": "Acme GmbH",
                     *       "expiresAt": "2026-11-22T10:00:00.000Z",
                     *       "createdAt": "2026-11-21T10:00:00.000Z",
                     *       "updatedAt": "2026-11-21T10:00:00.000Z",
                     *       "paymentCount": 0
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentLink"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource of the caller (another client’s is answered the same) */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Not Found",
                     *       "statusCode": 404,
                     *       "message": "Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller already has a payment with this `metadata.endToEndId`: find it with `GET /api/v1/ob/payments?endToEndId=…` */
            409: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Conflict",
                     *       "statusCode": 409,
                     *       "message": "A payment with endToEndId \"order-1001\" already exists"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description `nextCursor` of a previous answer, unchanged (opaque). Without it the feed starts at the oldest retained event. */
                after?: string;
                /** @description Page size */
                limit?: number;
                /** @description Only events of this type, e.g. `payment.status.updated` */
                type?: string;
            };
            header?: {
                /** @description Your id for this request (1–128 of `A–Z a–z 0–9 . _ : -`): echoed in the answer, logged and sent on to the banks. Without it (or when malformed) the service makes one. */
                "X-Request-ID"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events after the cursor, oldest first, and the cursor to read on from */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d",
                     *           "type": "payment.status.updated",
                     *           "createdAt": "2026-11-21T10:02:13.000Z",
                     *           "data": {
                     *             "type": "payment.status.updated",
                     *             "timestamp": "2026-11-21T10:02:13.000Z",
                     *             "data": {
                     *               "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                     *               "endToEndId": "order-1001",
                     *               "statusId": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
                     *               "status": "FAILED",
                     *               "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
                     *               "failureReasons": [
                     *                 {
                     *                   "code": "PSU_CANCELLED",
                     *                   "message": "The payer cancelled at the bank."
                     *                 }
                     *               ],
                     *               "createdAt": "2026-11-21T10:02:13.000Z"
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": "eyJwb3NpdGlvbiI6MTJ9.Zq3u8r1cWm0y5J2bQx7kNw"
                     *     }
                     */
                    "application/json": components["schemas"]["EventFeed"];
                };
            };
            /** @description The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Bad Request",
                     *       "statusCode": 400,
                     *       "message": "amount must not be less than 0.01, recipient should not be empty"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid bearer token: missing, malformed, unknown, expired or revoked */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Unauthorized",
                     *       "statusCode": 401,
                     *       "message": "Unauthorized"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The token does not hold the scope this operation requires */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Forbidden",
                     *       "statusCode": 403,
                     *       "message": "Access denied"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The caller’s rate limit is spent: retry after `Retry-After` seconds */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Too Many Requests",
                     *       "statusCode": 429,
                     *       "message": "Rate limit of 100 requests per second exceeded; retry after 1 s"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID` */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "title": "Internal Server Error",
                     *       "statusCode": 500,
                     *       "message": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    paymentStatusUpdatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id, the same on every retry and the `id` of the event in `GET /api/v1/events`: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix time (seconds) of this attempt; changes on every retry. Reject it when it is more than 5 minutes off (replays). */
                "webhook-timestamp": string;
                /** @description Standard Webhooks v1 signatures, space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with your `whsec_…` secret; two during a secret rotation. Verify the raw body bytes with a Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "payment.status.updated",
                 *       "timestamp": "2026-11-21T10:02:13.000Z",
                 *       "data": {
                 *         "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                 *         "endToEndId": "order-1001",
                 *         "statusId": "0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22",
                 *         "status": "FAILED",
                 *         "detailedStatus": "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",
                 *         "failureReasons": [
                 *           {
                 *             "code": "PSU_CANCELLED",
                 *             "message": "The payer cancelled at the bank."
                 *           }
                 *         ],
                 *         "createdAt": "2026-11-21T10:02:13.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PaymentStatusUpdatedWebhook"];
            };
        };
        responses: {
            /** @description Received. Any 2xx within 15 seconds counts; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: no further events of this payment are sent to this URL. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, a timeout or a connection error is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter; `Retry-After` honoured within bounds). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentLinkWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id, the same on every retry and the `id` of the event in `GET /api/v1/events`: deduplicate on it. */
                "webhook-id": string;
                /** @description Unix time (seconds) of this attempt; changes on every retry. Reject it when it is more than 5 minutes off (replays). */
                "webhook-timestamp": string;
                /** @description Standard Webhooks v1 signatures, space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with your `whsec_…` secret; two during a secret rotation. Verify the raw body bytes with a Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "payment_link.paid",
                 *       "timestamp": "2026-11-21T10:04:10.000Z",
                 *       "data": {
                 *         "paymentLinkId": "01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f",
                 *         "reference": "invoice-2026-001",
                 *         "status": "PAID",
                 *         "paymentId": "5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11",
                 *         "createdAt": "2026-11-21T10:04:10.000Z"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PaymentLinkWebhook"];
            };
        };
        responses: {
            /** @description Received. Any 2xx within 15 seconds counts; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: no further events of this link are sent to this URL. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Retried as payments' webhooks are. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
