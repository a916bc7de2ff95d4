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
         * @description Authenticate with HTTP Basic (`clientId:clientSecret`). Form fields: `grant_type=client_credentials`, optional `scope` (space-separated; omitted = every scope the client holds). Tokens last 1800 seconds.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        /** @example client_credentials */
                        grant_type: string;
                        scope?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            /** @example 1800 */
                            expires_in: number;
                            /** @example payments:read payments:write providers:read */
                            scope: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "server_error";
                            error_description: string;
                            title: string;
                            statusCode: number;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "server_error";
                            error_description: string;
                            title: string;
                            statusCode: number;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "server_error";
                            error_description: string;
                            title: string;
                            statusCode: number;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {unknown} */
                            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "server_error";
                            error_description: string;
                            title: string;
                            statusCode: number;
                            message: string;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: {
                    /** @description Only banks of this country */
                    countryCode?: "AF" | "AL" | "DZ" | "AS" | "AD" | "AO" | "AI" | "AQ" | "AG" | "AR" | "AM" | "AW" | "AU" | "AT" | "AZ" | "BS" | "BH" | "BD" | "BB" | "BY" | "BE" | "BZ" | "BJ" | "BM" | "BT" | "BO" | "BA" | "BW" | "BR" | "IO" | "BN" | "BG" | "BF" | "BI" | "CV" | "KH" | "CM" | "CA" | "KY" | "CF" | "TD" | "CL" | "CN" | "CX" | "CC" | "CO" | "KM" | "CG" | "CD" | "CK" | "CR" | "HR" | "CU" | "CY" | "CZ" | "DK" | "DJ" | "DM" | "DO" | "EC" | "EG" | "SV" | "GQ" | "ER" | "EE" | "SZ" | "ET" | "FJ" | "FI" | "FR" | "GF" | "PF" | "GA" | "GM" | "GE" | "DE" | "GH" | "GI" | "GR" | "GL" | "GD" | "GP" | "GU" | "GT" | "GN" | "GW" | "GY" | "HT" | "HN" | "HK" | "HU" | "IS" | "IN" | "ID" | "IR" | "IQ" | "IE" | "IL" | "IT" | "JM" | "JP" | "JO" | "KZ" | "KE" | "KI" | "KP" | "KR" | "KW" | "KG" | "LA" | "LV" | "LB" | "LS" | "LR" | "LY" | "LI" | "LT" | "LU" | "MO" | "MG" | "MW" | "MY" | "MV" | "ML" | "MT" | "MH" | "MQ" | "MR" | "MU" | "YT" | "MX" | "FM" | "MD" | "MC" | "MN" | "ME" | "MS" | "MA" | "MZ" | "MM" | "NA" | "NR" | "NP" | "NL" | "NC" | "NZ" | "NI" | "NE" | "NG" | "NU" | "NF" | "MK" | "MP" | "NO" | "OM" | "PK" | "PW" | "PS" | "PA" | "PG" | "PY" | "PE" | "PH" | "PN" | "PL" | "PT" | "PR" | "QA" | "RE" | "RO" | "RU" | "RW" | "BL" | "SH" | "KN" | "LC" | "MF" | "PM" | "VC" | "WS" | "SM" | "ST" | "SA" | "SN" | "RS" | "SC" | "SL" | "SG" | "SX" | "SK" | "SI" | "SB" | "SO" | "ZA" | "SS" | "ES" | "LK" | "SD" | "SR" | "SE" | "CH" | "SY" | "TW" | "TJ" | "TZ" | "TH" | "TL" | "TG" | "TK" | "TO" | "TT" | "TN" | "TR" | "TM" | "TV" | "UG" | "UA" | "AE" | "GB" | "US" | "UY" | "UZ" | "VU" | "VE" | "VN" | "VG" | "VI" | "WF" | "EH" | "YE" | "ZM" | "ZW";
                    /** @description Only banks offering this scheme */
                    paymentScheme?: "SEPA" | "DOMESTIC";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                            subsidiaries?: {
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
                            }[];
                        }[];
                    };
                };
                /** @description Not modified: no content; ETag, Cache-Control and Vary as on 200 */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: {
                    /** @description Only payments in one of these top-level statuses. Repeat the parameter or separate values with commas. */
                    status?: ("PENDING" | "COMPLETED" | "FAILED")[];
                    /** @description Only payments in one of these detailed statuses. Repeat the parameter or separate values with commas. */
                    detailedStatus?: ("PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED")[];
                    /** @description Only payments at this provider (custom mode, or hosted once the payer chose it) */
                    providerId?: string;
                    /** @description Only the payment with this endToEndId (exact match): finds a payment after a 409 or a lost answer */
                    endToEndId?: string;
                    /** @description Only payments created at or after this time (ISO 8601 with an offset; compared in UTC) */
                    createdFrom?: string;
                    /** @description Only payments created before this time (exclusive) */
                    createdTo?: string;
                    /** @description Page size */
                    limit?: number;
                    /** @description `nextCursor` of the previous page, unchanged (opaque). Send the same filters with it. */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Newest first (createdAt descending, then paymentId descending) */
                            items: {
                                /** Format: uuid */
                                paymentId: string;
                                providerPaymentId?: string;
                                /** Format: uri */
                                redirectUrl: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:00:00.000Z
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:00:00.000Z
                                 */
                                updatedAt: string;
                                /** @enum {unknown} */
                                status: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN";
                                /** @enum {unknown} */
                                detailedStatus: "PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED";
                                failureReasons: {
                                    /** @enum {unknown} */
                                    code: "EXPIRED" | "PSU_CANCELLED" | "PSU_AUTHENTICATION_FAILED" | "SCA_FAILED" | "INSUFFICIENT_FUNDS" | "BANK_REJECTED" | "BANK_UNAVAILABLE" | "INVALID_SENDER_DATA" | "CONSENT_REJECTED" | "REMITTANCE_TOO_LONG" | "INTERNAL_ERROR";
                                    message: string;
                                }[] | null;
                                endToEndId: string;
                                amount: number;
                                currency: string;
                                provider?: {
                                    /** Format: uuid */
                                    id: string;
                                    name: string;
                                };
                            }[];
                            /** @description Pass as `cursor` for the next page; `null` on the last page */
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a payment
         * @description Creates a payment and returns the `redirectUrl` to send the payer to. Send `provider.id` for custom bank selection; omit it for the hosted bank selection screen. Requires scope `payments:write`.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Preferred initial language of the payer's pages (ISO 639-1); invalid values are ignored */
                    "accept-language"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
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
                            /** @enum {unknown} */
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
                                number: {
                                    /** @enum {unknown} */
                                    type: "IBAN";
                                    /**
                                     * Format: iban
                                     * @description IBAN; spaces between groups are allowed
                                     * @example DE89370400440532013000
                                     */
                                    value: string;
                                };
                                /**
                                 * @description ISO 4217 currency code
                                 * @example EUR
                                 * @enum {unknown}
                                 */
                                currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BOV" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHE" | "CHF" | "CHW" | "CLF" | "CLP" | "CNY" | "COP" | "COU" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MXV" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "USN" | "UYI" | "UYU" | "UYW" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XAG" | "XAU" | "XBA" | "XBB" | "XBC" | "XBD" | "XCD" | "XDR" | "XOF" | "XPD" | "XPF" | "XPT" | "XSU" | "XTS" | "XUA" | "XXX" | "YER" | "ZAR" | "ZMW" | "ZWG";
                            };
                            address?: {
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
                            /** @description The payer's credentials, as the bank's `requiredPaymentFields` ask. Only with `provider.id`: used by the bank calls made within this request, never stored; the payer is not asked again for what is sent */
                            credentials?: {
                                /** @description The payer's login id at the bank */
                                id?: string;
                                /** @description The payer's password at the bank; passed to the bank, never stored. Only together with `id` */
                                password?: string;
                            };
                        };
                        recipient: {
                            account: {
                                number: {
                                    /** @enum {unknown} */
                                    type: "IBAN";
                                    /**
                                     * Format: iban
                                     * @description IBAN; spaces between groups are allowed
                                     * @example DE89370400440532013000
                                     */
                                    value: string;
                                };
                            };
                            name: string;
                            address: {
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
                        };
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
                        remittanceInformation: {
                            /** @enum {unknown} */
                            type: "UNSTRUCTURED";
                            /** Format: remittance */
                            value: string;
                            preferences?: {
                                /** @description Cut the value to the provider's limit instead of failing */
                                truncate?: boolean;
                            };
                        };
                        metadata: {
                            /**
                             * Format: uri
                             * @description Where the payer is sent when the flow ends (https)
                             */
                            redirectUri: string;
                            /** Format: psu-ip-address */
                            psuIpAddress: string;
                            psuUserAgent: string;
                            /**
                             * Format: printable-ascii
                             * @description The payment's id in the client's system; unique per client
                             */
                            endToEndId: string;
                            /**
                             * Format: uri
                             * @description Receives a webhook when the status changes (https)
                             */
                            webhookUrl?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            paymentId: string;
                            providerPaymentId?: string;
                            /**
                             * Format: uri
                             * @description Send the payer here
                             */
                            redirectUrl: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:00:00.000Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:00:00.000Z
                             */
                            updatedAt: string;
                            /** @enum {unknown} */
                            status: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN";
                        };
                    };
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Not Found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Payload Too Large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unsupported Media Type */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            paymentId: string;
                            providerPaymentId?: string;
                            /** Format: uri */
                            redirectUrl: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:00:00.000Z
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:00:00.000Z
                             */
                            updatedAt: string;
                            /** @enum {unknown} */
                            status: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN";
                            /** @enum {unknown} */
                            detailedStatus: "PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED";
                            failureReasons: {
                                /** @enum {unknown} */
                                code: "EXPIRED" | "PSU_CANCELLED" | "PSU_AUTHENTICATION_FAILED" | "SCA_FAILED" | "INSUFFICIENT_FUNDS" | "BANK_REJECTED" | "BANK_UNAVAILABLE" | "INVALID_SENDER_DATA" | "CONSENT_REJECTED" | "REMITTANCE_TOO_LONG" | "INTERNAL_ERROR";
                                message: string;
                            }[] | null;
                            endToEndId: string;
                            amount: number;
                            currency: string;
                            provider?: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                            };
                        };
                    };
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Not Found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
        get: {
            parameters: {
                query: {
                    /** @description The service's id of the payment */
                    paymentId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            paymentId: string;
                            /** @enum {unknown} */
                            status: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN";
                            /** @enum {unknown} */
                            detailedStatus: "PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED";
                            failureReasons: {
                                /** @enum {unknown} */
                                code: "EXPIRED" | "PSU_CANCELLED" | "PSU_AUTHENTICATION_FAILED" | "SCA_FAILED" | "INSUFFICIENT_FUNDS" | "BANK_REJECTED" | "BANK_UNAVAILABLE" | "INVALID_SENDER_DATA" | "CONSENT_REJECTED" | "REMITTANCE_TOO_LONG" | "INTERNAL_ERROR";
                                message: string;
                            }[] | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:00:00.000Z
                             */
                            createdAt: string;
                        }[];
                    };
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Not Found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query: {
                    /** @description The service's id of the payment */
                    paymentId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            paymentId: string;
                            /** @enum {unknown} */
                            status: "PENDING" | "COMPLETED" | "FAILED" | "UNKNOWN";
                            /** @enum {unknown} */
                            detailedStatus: "PROVIDER_SELECTION_REDIRECT_PENDING" | "PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING" | "FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING" | "FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_FAILED" | "SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_PENDING" | "SENDER_AUTHORIZATION_REDIRECT_FAILED" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_PENDING" | "SENDER_AUTHORIZATION_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_FAILED" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_INFORMATION_CONSENT_CALLBACK_PROCESSING_FAILED" | "SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING" | "SENDER_ACCOUNT_LIST_RETRIEVAL_FAILED" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING" | "SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_FAILED" | "SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING" | "SENDER_ACCOUNT_SELECTION_REDIRECT_FAILED" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING" | "SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_REGISTRATION_PENDING" | "PAYMENT_REGISTRATION_FAILED" | "PAYMENT_CONSENT_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REQUIRED_CHECK_FAILED" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_CALLBACK_PROCESSING_FAILED" | "PAYMENT_CONSENT_REDIRECT_PENDING" | "PAYMENT_CONSENT_REDIRECT_FAILED" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING" | "PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED" | "PAYMENT_EXECUTION_PENDING" | "PAYMENT_EXECUTION_FAILED" | "PAYMENT_EXECUTION_COMPLETED";
                            failureReasons: {
                                /** @enum {unknown} */
                                code: "EXPIRED" | "PSU_CANCELLED" | "PSU_AUTHENTICATION_FAILED" | "SCA_FAILED" | "INSUFFICIENT_FUNDS" | "BANK_REJECTED" | "BANK_UNAVAILABLE" | "INVALID_SENDER_DATA" | "CONSENT_REJECTED" | "REMITTANCE_TOO_LONG" | "INTERNAL_ERROR";
                                message: string;
                            }[] | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T10:00:00.000Z
                             */
                            createdAt: string;
                        };
                    };
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Not Found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
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
        get: {
            parameters: {
                query?: {
                    /** @description `nextCursor` of a previous answer, unchanged (opaque). Without it the feed starts at the oldest retained event. */
                    after?: string;
                    /** @description Page size */
                    limit?: number;
                    /** @description Only events of this type, e.g. `payment.status.updated` */
                    type?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Oldest first */
                            items: {
                                /** @description The event's id: a webhook of this event carries it as `webhook-id` */
                                id: string;
                                /**
                                 * @description The event type; ignore types you do not know
                                 * @example payment.status.updated
                                 */
                                type: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-21T10:00:00.000Z
                                 */
                                createdAt: string;
                                data: {
                                    /**
                                     * @description `payment.status.updated`; ignore types you do not know
                                     * @example payment.status.updated
                                     */
                                    type: string;
                                    /**
                                     * Format: date-time
                                     * @description When the event was written; the same on every retry
                                     */
                                    timestamp: string;
                                    data: {
                                        /** Format: uuid */
                                        paymentId: string;
                                        endToEndId: string;
                                        /**
                                         * Format: uuid
                                         * @description Id of the status record this event reports
                                         */
                                        statusId: string;
                                        /** @description Top-level status (`PENDING`, `COMPLETED`, `FAILED`); treat values you do not know as not final */
                                        status: string;
                                        detailedStatus: string;
                                        failureReasons: {
                                            /** @enum {unknown} */
                                            code: "EXPIRED" | "PSU_CANCELLED" | "PSU_AUTHENTICATION_FAILED" | "SCA_FAILED" | "INSUFFICIENT_FUNDS" | "BANK_REJECTED" | "BANK_UNAVAILABLE" | "INVALID_SENDER_DATA" | "CONSENT_REJECTED" | "REMITTANCE_TOO_LONG" | "INTERNAL_ERROR";
                                            message: string;
                                        }[] | null;
                                        /**
                                         * Format: date-time
                                         * @example 2026-11-21T10:00:00.000Z
                                         */
                                        createdAt: string;
                                    };
                                };
                            }[];
                            /** @description Pass as `after` to read on; always present, so a consumer can poll with it */
                            nextCursor: string;
                        };
                    };
                };
                /** @description Bad Request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Unauthorized */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
                /** @description Too Many Requests */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description Name of the error
                             * @example Bad Request
                             */
                            title: string;
                            /**
                             * @description HTTP status
                             * @example 400
                             */
                            statusCode: number;
                            /** @example amount must not be less than 0.01, recipient should not be empty */
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
