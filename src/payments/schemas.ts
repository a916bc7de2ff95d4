/**
 * Schemas of the payment endpoints (interface spec, "Resources and their fields"). They give the TypeScript
 * types, the request validation and the OpenAPI document at once. Maximum lengths the spec leaves open are
 * the SEPA rulebook's (decisions §2 and docs/api-decisions.md). A schema's `title` is its name in the OpenAPI
 * document (`components.schemas`, src/http/openapi.ts); its `examples` are the document's examples.
 *
 * Statuses, detailed statuses and failure codes in answers are open lists (`x-extensible-enum`): a client must
 * accept values it does not know. Where they are inputs (the list's filters) they are closed enums.
 */
import { Type, type Static } from 'typebox';
import { DETAILED_STATUSES, FAILURE_CODES } from '../domain/detailed-status.js';
import { COUNTRY_CODES, CURRENCY_CODES, FEE_PAID_BY } from '../domain/reference-data.js';
import { IBAN_FORMAT_NOTE } from '../http/ajv.js';
import { CLIENT_ID_TEXT, IBAN_SHAPE, PSU_IP_ADDRESS, REMITTANCE_TEXT, VISIBLE_TEXT } from '../http/string-rules.js';
import { RefundOfSchema, RefundsOfPaymentSchema } from './refund-schemas.js';

/** Ids and times the examples share, so that the examples of one story agree with each other. */
const EXAMPLE = {
  paymentId: '5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11',
  statusId: '0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22',
  eventId: '9b1e4c7a-2d3f-4a5b-8c6d-7e8f9a0b1c2d',
  providerId: '6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09',
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:02:13.000Z',
  redirectUrl: 'http://localhost:8080/pay/pD2eA5JkR1Yb8WqN0tXcVz3LmH6sGf9UoI4yKeTr7Qw',
  endToEndId: 'order-1001',
} as const;

const CountryCode = Type.Enum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 country code', examples: ['DE'] });
const CurrencyCode = Type.Enum(CURRENCY_CODES, { description: 'ISO 4217 currency code', examples: ['EUR'] });

export const AccountNumberSchema = Type.Object(
  {
    type: Type.Enum(['IBAN'] as const),
    value: Type.String({
      format: 'iban',
      pattern: IBAN_SHAPE.pattern,
      maxLength: 42,
      description: `IBAN; spaces between groups are allowed. Format \`iban\` (a custom format): ${IBAN_FORMAT_NOTE}`,
      'x-format-iban': IBAN_FORMAT_NOTE,
      examples: ['DE89370400440532013000'],
    }),
  },
  { additionalProperties: false, title: 'AccountNumber' },
);

export const AddressSchema = Type.Object(
  {
    country: CountryCode,
    city: Type.String({ minLength: 1, maxLength: 35, pattern: VISIBLE_TEXT.pattern }),
    streetName: Type.String({ minLength: 1, maxLength: 70, pattern: VISIBLE_TEXT.pattern }),
    buildingNumber: Type.String({
      minLength: 1,
      maxLength: 16,
      pattern: VISIBLE_TEXT.pattern,
      description: 'Building and apartment, office or suite number',
    }),
    postCode: Type.String({ minLength: 1, maxLength: 16, pattern: VISIBLE_TEXT.pattern }),
  },
  { additionalProperties: false, title: 'Address' },
);

export const PaymentCreationRequestSchema = Type.Object(
  {
    provider: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(Type.String({ format: 'uuid', description: 'Provider id from the providers list (custom bank selection)' })),
          preferences: Type.Optional(
            Type.Object(
              {
                countryCodes: Type.Optional(
                  Type.Object(
                    {
                      list: Type.Optional(Type.Array(CountryCode, { minItems: 1, maxItems: 250, uniqueItems: true })),
                      default: Type.Optional(CountryCode),
                    },
                    { additionalProperties: false },
                  ),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    paymentScheme: Type.Object(
      {
        name: Type.Enum(['SEPA', 'DOMESTIC'] as const, { examples: ['SEPA'] }),
        preferences: Type.Optional(
          Type.Object(
            {
              mode: Type.Optional(Type.Enum(['INSTANT', 'STANDARD'] as const)),
              feePaidBy: Type.Optional(Type.Enum(FEE_PAID_BY, { description: 'ISO 20022 charge bearer' })),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    sender: Type.Optional(
      Type.Object(
        {
          account: Type.Optional(Type.Object({ number: AccountNumberSchema, currency: CurrencyCode }, { additionalProperties: false })),
          address: Type.Optional(AddressSchema),
          credentials: Type.Optional(
            Type.Object(
              {
                id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "The payer's login id at the bank" })),
                password: Type.Optional(
                  Type.String({
                    minLength: 1,
                    maxLength: 256,
                    description: "The payer's password at the bank; passed to the bank, never stored. Only together with `id`",
                  }),
                ),
              },
              {
                additionalProperties: false,
                description:
                  "The payer's credentials, as the bank's `requiredPaymentFields` ask. Only with `provider.id`: used by the bank calls made within this request, never stored; the payer is not asked again for what is sent",
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    recipient: Type.Object(
      {
        account: Type.Object({ number: AccountNumberSchema }, { additionalProperties: false, title: 'RecipientAccount' }),
        name: Type.String({
          minLength: 1,
          maxLength: 70,
          pattern: VISIBLE_TEXT.pattern,
          description:
            'Shown to the payer. No control characters and no invisible format characters (bidi overrides, zero-width spaces); stored in Unicode NFC',
          examples: ['Acme GmbH'],
        }),
        address: AddressSchema,
      },
      { additionalProperties: false, title: 'Recipient' },
    ),
    amount: Type.Number({
      minimum: 0.01,
      maximum: 999999999.99,
      description: 'At most as many decimals as the currency has (EUR: 2)',
      examples: [10.5],
    }),
    currency: CurrencyCode,
    remittanceInformation: Type.Object(
      {
        type: Type.Enum(['UNSTRUCTURED'] as const),
        value: Type.String({
          minLength: 1,
          maxLength: 140,
          pattern: REMITTANCE_TEXT.pattern,
          description: 'Letters, digits, `/ + -` and spaces',
          examples: ['Invoice 2026-001'],
        }),
        preferences: Type.Optional(
          Type.Object(
            { truncate: Type.Optional(Type.Boolean({ description: "Cut the value to the provider's limit instead of failing" })) },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, title: 'RemittanceInformation' },
    ),
    metadata: Type.Object(
      {
        redirectUri: Type.String({ format: 'uri', maxLength: 2048, description: 'Where the payer is sent when the flow ends (https)' }),
        psuIpAddress: Type.String({
          pattern: PSU_IP_ADDRESS.pattern,
          maxLength: 39,
          description: "The payer's IP address: IPv4 (four octets) or IPv6 in eight groups without `::`",
          examples: ['203.0.113.7'],
        }),
        psuUserAgent: Type.String({ minLength: 1, maxLength: 1024 }),
        endToEndId: Type.String({
          minLength: 1,
          maxLength: 64,
          pattern: CLIENT_ID_TEXT.pattern,
          description:
            "The payment's id in the client's system: printable ASCII, no leading or trailing spaces; unique per client (a second payment with it answers 409)",
          examples: [EXAMPLE.endToEndId],
        }),
        webhookUrl: Type.Optional(
          Type.String({ format: 'uri', maxLength: 2048, description: 'Receives a webhook when the status changes (https)' }),
        ),
        retryWithAnotherBank: Type.Optional(
          Type.Boolean({
            description:
              "Whether the payer's outcome page offers “pay with another bank” when the payment fails for a reason another bank could avoid (`INSUFFICIENT_FUNDS`, `BANK_REJECTED`, `PSU_CANCELLED`, `BANK_UNAVAILABLE`). The retry is a new payment with `retryOf` set to this one's id and an `endToEndId` derived from this one's (docs/api-decisions.md, “Paying with another bank”). Default: `true` in hosted mode, `false` when `provider.id` is sent",
          }),
        ),
      },
      { additionalProperties: false, title: 'PaymentMetadata' },
    ),
  },
  {
    additionalProperties: false,
    title: 'PaymentCreationRequest',
    // Sent as it is (from /docs, say) to a service started with `npm start`, it creates a hosted-mode payment for the
    // demo sandbox client (once: a second one with the same endToEndId answers 409). test/http/openapi-contract.test.ts.
    examples: [
      {
        paymentScheme: { name: 'SEPA' },
        recipient: {
          account: { number: { type: 'IBAN', value: 'DE89370400440532013000' } },
          name: 'Acme GmbH',
          address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
        },
        amount: 10.5,
        currency: 'EUR',
        remittanceInformation: { type: 'UNSTRUCTURED', value: 'Invoice 2026-001' },
        metadata: {
          redirectUri: 'https://merchant.example/return',
          psuIpAddress: '203.0.113.7',
          psuUserAgent: 'Mozilla/5.0',
          endToEndId: EXAMPLE.endToEndId,
        },
      },
    ],
  },
);

export type PaymentCreationRequest = Static<typeof PaymentCreationRequestSchema>;

const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601, UTC', examples: [EXAMPLE.createdAt] });
const OPEN_LIST = 'An open list: accept values you do not know.';

/** Top-level status in answers: open, so a new value never breaks a client. */
const PaymentStatus = Type.String({
  title: 'PaymentStatus',
  description: `Top-level status, derived from \`detailedStatus\`: \`PENDING\`, \`COMPLETED\` or \`FAILED\` (\`UNKNOWN\` is reserved). ${OPEN_LIST} Treat a value you do not know as not final.`,
  'x-extensible-enum': ['PENDING', 'COMPLETED', 'FAILED', 'UNKNOWN'],
  examples: ['PENDING'],
});
const DetailedStatus = Type.String({
  title: 'DetailedStatus',
  description: `The detailed status (interface spec, "States and transitions"); \`*_FAILED\` and \`PAYMENT_EXECUTION_COMPLETED\` are final. ${OPEN_LIST}`,
  'x-extensible-enum': [...DETAILED_STATUSES],
  examples: ['PROVIDER_SELECTION_REDIRECT_PENDING'],
});

export const FailureReasonSchema = Type.Object(
  {
    code: Type.String({
      title: 'FailureCode',
      description: `Stable code of the failure. ${OPEN_LIST}`,
      'x-extensible-enum': [...FAILURE_CODES],
      examples: ['PSU_CANCELLED'],
    }),
    message: Type.String({ description: 'For people; may change', examples: ['The payer cancelled at the bank.'] }),
  },
  { title: 'FailureReason' },
);
const FailureReasons = Type.Union([Type.Array(FailureReasonSchema), Type.Null()], { description: '`null` when there is no failure' });

export const PaymentCreationResponseSchema = Type.Object(
  {
    paymentId: Type.String({ format: 'uuid' }),
    providerPaymentId: Type.Optional(Type.String({ description: "The bank's id of the payment, once the bank has it" })),
    redirectUrl: Type.String({ format: 'uri', description: 'Send the payer here' }),
    createdAt: DateTime,
    updatedAt: DateTime,
    status: PaymentStatus,
  },
  {
    title: 'PaymentCreationResponse',
    examples: [
      {
        paymentId: EXAMPLE.paymentId,
        redirectUrl: EXAMPLE.redirectUrl,
        createdAt: EXAMPLE.createdAt,
        updatedAt: EXAMPLE.createdAt,
        status: 'PENDING',
      },
    ],
  },
);

/** The payer's account as the bank names it (`PayerDetails` of src/domain/payment.ts). */
const PayerAccountSchema = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('IBAN'),
        value: Type.String({ description: 'IBAN, electronic form (no spaces)', examples: ['DE54500105171000007919'] }),
      },
      {
        additionalProperties: false,
        title: 'PayerAccountIban',
        description: 'An account by IBAN (Berlin Group banks; UK banks that name one)',
      },
    ),
    Type.Object(
      {
        type: Type.Literal('SORT_CODE_ACCOUNT_NUMBER'),
        sortCode: Type.String({ pattern: '^[0-9]{6}$', examples: ['040004'] }),
        accountNumber: Type.String({ pattern: '^[0-9]{8}$', examples: ['10001001'] }),
        rollNumber: Type.Optional(
          Type.String({ description: "A building society's roll number, when the bank gives one", examples: ['ROLL-0042'] }),
        ),
      },
      {
        additionalProperties: false,
        title: 'PayerAccountSortCode',
        description: 'A UK account by sort code and account number (UK Open Banking banks)',
      },
    ),
  ],
  {
    title: 'PayerAccount',
    description: 'Discriminated by `type`; further types may come, so a client should accept types it does not know',
  },
);

export const PayerSchema = Type.Object(
  {
    account: PayerAccountSchema,
    name: Type.Optional(Type.String({ description: "The account holder's name, when the bank gives it", examples: ['Alice Happy'] })),
  },
  {
    title: 'Payer',
    description:
      "The account the payer paid from, as the bank told it once the payer had authorised the payment: UK Open Banking, the payment's refund account (`Data.Refund`, asked for with `ReadRefundAccount`); Berlin Group, the payment's debtor account (chosen at the bank or sent with the payment) with the owner's name where the bank gives it. Present once the bank has told it (usually with `COMPLETED`), absent before and for banks that do not tell it. Never the payer's credentials. docs/api-decisions.md, “The payer's account”",
  },
);

/**
 * A UK account by sort code and account number, as a refund to a UK payer is paid to it (`RecipientAccountNumber` of
 * src/domain/payment.ts). Never taken in a request: a payment's recipient is an IBAN (interface spec).
 */
const SortCodeAccountNumberSchema = Type.Object(
  {
    type: Type.Literal('SORT_CODE_ACCOUNT_NUMBER'),
    value: Type.String({
      pattern: '^[0-9]{14}$',
      description:
        "The sort code's 6 digits then the account number's 8, as UK Open Banking's `UK.OBIE.SortCodeAccountNumber` identifies the account (sort code 60-16-13, account 31926819: `60161331926819`)",
      examples: ['60161331926819'],
    }),
    rollNumber: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 34,
        description: "A building society's roll number (the standard's `SecondaryIdentification`), when the payer's bank gave one",
        examples: ['ROLL-0042'],
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'SortCodeAccountNumber',
    description:
      'A UK account by sort code and account number: the recipient of a refund to a payer whose UK bank told the account that way (`payer.account` of type `SORT_CODE_ACCOUNT_NUMBER` on the refunded payment). Only refunds are paid to one, and only through banks that pay to UK accounts',
    examples: [{ type: 'SORT_CODE_ACCOUNT_NUMBER', value: '60161331926819' }],
  },
);

/**
 * An IBAN a refund is paid to, as answers show it. The request's `AccountNumber` checks an IBAN with our custom
 * format; answers are not checked against formats (and the answer serialiser knows none), so this one has none.
 */
const RecipientIbanSchema = Type.Object(
  {
    type: Type.Literal('IBAN'),
    value: Type.String({ description: 'IBAN, electronic form (no spaces)', examples: ['DE54500105171000007919'] }),
  },
  {
    additionalProperties: false,
    title: 'RecipientAccountIban',
    description: "An account by IBAN: a refund's recipient when the payer's bank named the payer's account by IBAN",
    examples: [{ type: 'IBAN', value: 'DE54500105171000007919' }],
  },
);

/** Whom a refund pays: the refunded payment's payer (docs/api-decisions.md, "Refunds"). */
export const RefundRecipientSchema = Type.Object(
  {
    account: Type.Object(
      {
        number: Type.Union([RecipientIbanSchema, SortCodeAccountNumberSchema], {
          title: 'RecipientAccountNumber',
          description:
            'Discriminated by `type`: an IBAN, or a UK sort code and account number. Further types may come, so a client should accept types it does not know',
        }),
      },
      { additionalProperties: false, title: 'RefundRecipientAccount' },
    ),
    name: Type.String({
      description:
        "The account holder's name the refund is paid to: the payer's bank's (`payer.name`), else the refund request's `payerName`",
      examples: ['Alice Happy'],
    }),
  },
  {
    additionalProperties: false,
    title: 'RefundRecipient',
    description:
      "Present on a refund only: the account it is paid to, the refunded payment's payer as their bank told it (`payer`), and the holder's name",
    examples: [
      { account: { number: { type: 'SORT_CODE_ACCOUNT_NUMBER', value: '60161331926819' } }, name: 'Alice Happy' },
      { account: { number: { type: 'IBAN', value: 'DE54500105171000007919' } }, name: 'Alice Happy' },
    ],
  },
);

const PAYMENT_RESOURCE_EXAMPLE = {
  paymentId: EXAMPLE.paymentId,
  redirectUrl: EXAMPLE.redirectUrl,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.updatedAt,
  status: 'FAILED',
  detailedStatus: 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
  failureReasons: [{ code: 'PSU_CANCELLED', message: 'The payer cancelled at the bank.' }],
  endToEndId: EXAMPLE.endToEndId,
  amount: 10.5,
  currency: 'EUR',
  provider: { id: EXAMPLE.providerId, name: 'Rheinland Sandbox Bank' },
};

/** A refund of a completed payment, as it is created (docs/api-decisions.md, "Refunds"). */
const REFUND_RESOURCE_EXAMPLE = {
  paymentId: '7c2e9a14-3b6d-4f8e-a1c5-d9e0f2a3b4c5',
  redirectUrl: 'http://localhost:8080/pay/Xq4Lm8Rt2Vw6Yz0Bc3Df7Gh1Jk5Np9Qs2Tu6Wx0Za4C',
  createdAt: '2026-11-22T09:00:00.000Z',
  updatedAt: '2026-11-22T09:00:00.000Z',
  status: 'PENDING',
  detailedStatus: 'PROVIDER_SELECTION_REDIRECT_PENDING',
  failureReasons: null,
  endToEndId: 'refund-1001-1',
  amount: 4,
  currency: 'EUR',
  refundOf: EXAMPLE.paymentId,
  recipient: { account: { number: { type: 'IBAN', value: 'DE54500105171000007919' } }, name: 'Alice Happy' },
};

/** A completed payment: the payer's account known, one refund under way. */
const COMPLETED_PAYMENT_EXAMPLE = {
  paymentId: EXAMPLE.paymentId,
  providerPaymentId: 'a1b2c3d4e5',
  redirectUrl: EXAMPLE.redirectUrl,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.updatedAt,
  status: 'COMPLETED',
  detailedStatus: 'PAYMENT_EXECUTION_COMPLETED',
  failureReasons: null,
  endToEndId: EXAMPLE.endToEndId,
  amount: 10.5,
  currency: 'EUR',
  provider: { id: EXAMPLE.providerId, name: 'Rheinland Sandbox Bank' },
  payer: { account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: 'Alice Happy' },
  refunds: [{ paymentId: REFUND_RESOURCE_EXAMPLE.paymentId, amount: 4, status: 'PENDING' }],
};

export const PaymentResourceSchema = Type.Object(
  {
    paymentId: Type.String({ format: 'uuid' }),
    providerPaymentId: Type.Optional(Type.String({ description: "The bank's id of the payment, once the bank has it" })),
    redirectUrl: Type.String({ format: 'uri' }),
    createdAt: DateTime,
    updatedAt: DateTime,
    status: PaymentStatus,
    detailedStatus: DetailedStatus,
    failureReasons: FailureReasons,
    endToEndId: Type.String(),
    amount: Type.Number({ description: 'In the currency, with its minor-unit digits (EUR: 2)' }),
    currency: Type.String({ description: 'ISO 4217' }),
    provider: Type.Optional(
      Type.Object(
        { id: Type.String({ format: 'uuid' }), name: Type.String() },
        { title: 'PaymentProvider', description: 'The bank, once known' },
      ),
    ),
    retryOf: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          "Present on a payment the payer started with another bank after this payment failed: the failed payment's id (`metadata.retryWithAnotherBank`)",
      }),
    ),
    retriedBy: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          "Present on a failed payment the payer went on to pay with another bank: the new payment's id. This payment stays `FAILED`; follow the new one",
      }),
    ),
    payer: Type.Optional(PayerSchema),
    paymentLinkId: Type.Optional(
      Type.String({ format: 'uuid', description: "Present on a payment a payer started from a payment link: the link's id" }),
    ),
    refundOf: Type.Optional(RefundOfSchema),
    recipient: Type.Optional(RefundRecipientSchema),
    refunds: Type.Optional(RefundsOfPaymentSchema),
  },
  { title: 'Payment', examples: [PAYMENT_RESOURCE_EXAMPLE, COMPLETED_PAYMENT_EXAMPLE, REFUND_RESOURCE_EXAMPLE] },
);

export type PaymentResource = Static<typeof PaymentResourceSchema>;

const STATUS_RECORD_EXAMPLE = {
  id: EXAMPLE.statusId,
  paymentId: EXAMPLE.paymentId,
  status: 'PENDING',
  detailedStatus: 'PROVIDER_SELECTION_REDIRECT_PENDING',
  failureReasons: null,
  createdAt: EXAMPLE.createdAt,
};

export const PaymentStatusRecordSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    paymentId: Type.String({ format: 'uuid' }),
    status: PaymentStatus,
    detailedStatus: DetailedStatus,
    failureReasons: FailureReasons,
    createdAt: DateTime,
  },
  { title: 'PaymentStatusRecord', examples: [STATUS_RECORD_EXAMPLE] },
);

export const PaymentStatusHistorySchema = Type.Array(PaymentStatusRecordSchema, {
  title: 'PaymentStatusHistory',
  description: 'Every status record of the payment, earliest first',
  examples: [[STATUS_RECORD_EXAMPLE]],
});

export const PaymentIdQuerySchema = Type.Object(
  { paymentId: Type.String({ format: 'uuid', description: "The service's id of the payment", examples: [EXAMPLE.paymentId] }) },
  { additionalProperties: false },
);

export const PaymentIdParamsSchema = Type.Object({
  paymentId: Type.String({ format: 'uuid', description: "The service's id of the payment", examples: [EXAMPLE.paymentId] }),
});

/** Top-level statuses a list can be filtered by (`UNKNOWN` is reserved and never stored). */
export const LISTABLE_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;

export const PAYMENT_LIST_DEFAULT_LIMIT = 20;
export const EVENT_FEED_DEFAULT_LIMIT = 50;
const PAGE_LIMIT_MAX = 100;
/** Far above any cursor we hand out: a longer one cannot be ours. */
const CURSOR_MAX_LENGTH = 600;

/** A filter of the list: one or more of `values`, comma-separated or as repeated parameters (src/http/query-string.ts). */
function listFilter<const Values extends readonly string[]>(values: Values, what: string, example: Values[number]) {
  return Type.Optional(
    Type.Array(Type.Enum(values), {
      minItems: 1,
      maxItems: values.length,
      description: `Only payments in one of these ${what}, separated by commas. Repeating the parameter works too.`,
      examples: [[example]],
    }),
  );
}

export const PaymentListQuerySchema = Type.Object(
  {
    status: listFilter(LISTABLE_STATUSES, 'top-level statuses', 'PENDING'),
    detailedStatus: listFilter(DETAILED_STATUSES, 'detailed statuses', 'PAYMENT_EXECUTION_PENDING'),
    providerId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'Only payments at this provider (custom mode, or hosted once the payer chose it)',
        examples: [EXAMPLE.providerId],
      }),
    ),
    endToEndId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: CLIENT_ID_TEXT.pattern,
        description: 'Only the payment with this endToEndId (exact match): finds a payment after a 409 or a lost answer',
        examples: [EXAMPLE.endToEndId],
      }),
    ),
    createdFrom: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only payments created at or after this time (ISO 8601 with an offset; compared in UTC)',
        examples: ['2026-11-01T00:00:00Z'],
      }),
    ),
    createdTo: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only payments created before this time (exclusive)',
        examples: ['2026-12-01T00:00:00Z'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAYMENT_LIST_DEFAULT_LIMIT, description: 'Page size' }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: CURSOR_MAX_LENGTH,
        description: '`nextCursor` of the previous page, unchanged (opaque). Send the same filters with it.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PaymentListSchema = Type.Object(
  {
    items: Type.Array(PaymentResourceSchema, { description: 'Newest first (createdAt descending, then paymentId descending)' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; `null` on the last page' }),
  },
  { title: 'PaymentList', examples: [{ items: [PAYMENT_RESOURCE_EXAMPLE], nextCursor: null }] },
);

export const EventFeedQuerySchema = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: CURSOR_MAX_LENGTH,
        description: '`nextCursor` of a previous answer, unchanged (opaque). Without it the feed starts at the oldest retained event.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: EVENT_FEED_DEFAULT_LIMIT, description: 'Page size' }),
    ),
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[a-z]+(?:[._][a-z]+)+$',
        description: 'Only events of this type, e.g. `payment.status.updated`',
      }),
    ),
  },
  { additionalProperties: false },
);

const WEBHOOK_BODY_EXAMPLE = {
  type: 'payment.status.updated',
  timestamp: EXAMPLE.updatedAt,
  data: {
    paymentId: EXAMPLE.paymentId,
    endToEndId: EXAMPLE.endToEndId,
    statusId: EXAMPLE.statusId,
    status: 'FAILED',
    detailedStatus: 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
    failureReasons: [{ code: 'PSU_CANCELLED', message: 'The payer cancelled at the bank.' }],
    createdAt: EXAMPLE.updatedAt,
  },
};

/** The body of a `payment.status.updated` webhook (src/webhooks/payload.ts), field for field in the same order. */
export const PaymentStatusUpdatedWebhookSchema = Type.Object(
  {
    type: Type.String({
      description: '`payment.status.updated`. Event types are an open list: ignore types you do not know',
      examples: ['payment.status.updated'],
    }),
    timestamp: Type.String({
      format: 'date-time',
      description: 'When the event was written; the same on every retry',
      examples: [EXAMPLE.updatedAt],
    }),
    data: Type.Object(
      {
        paymentId: Type.String({ format: 'uuid' }),
        endToEndId: Type.String({ description: 'Your end-to-end id of the payment' }),
        statusId: Type.String({
          format: 'uuid',
          description: 'Id of the status record this event reports (an element of the status history)',
        }),
        status: PaymentStatus,
        detailedStatus: DetailedStatus,
        failureReasons: FailureReasons,
        createdAt: DateTime,
        retryOf: Type.Optional(
          Type.String({
            format: 'uuid',
            description:
              "On every event of a payment the payer started with another bank after a failure: the failed payment's id. Its first event (`PROVIDER_SELECTION_REDIRECT_PENDING`) announces the new payment",
          }),
        ),
        paymentLinkId: Type.Optional(
          Type.String({ format: 'uuid', description: "On every event of a payment a payer started from a payment link: the link's id" }),
        ),
        refundOf: Type.Optional(
          Type.String({
            format: 'uuid',
            description:
              'On every event of a refund: the id of the completed payment it refunds. Its first event (`PROVIDER_SELECTION_REDIRECT_PENDING`) announces the new refund',
          }),
        ),
      },
      { title: 'PaymentStatusUpdatedData' },
    ),
  },
  {
    title: 'PaymentStatusUpdatedWebhook',
    description: 'The body of a `payment.status.updated` webhook. New fields may be added: do not reject what you do not know.',
    examples: [WEBHOOK_BODY_EXAMPLE],
  },
);

const LINK_EVENT_EXAMPLE = {
  type: 'payment_link.paid',
  timestamp: '2026-11-21T10:04:10.000Z',
  data: {
    paymentLinkId: '01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f',
    reference: 'invoice-2026-001',
    status: 'PAID',
    paymentId: EXAMPLE.paymentId,
    createdAt: '2026-11-21T10:04:10.000Z',
  },
};

/**
 * The body of a `payment_link.*` webhook (docs/api-decisions.md, "Payment links"); here beside the payments' own,
 * because the event feed serves both (src/webhooks/payment-link-payload.ts), field for field in the same order. */
export const PaymentLinkWebhookSchema = Type.Object(
  {
    type: Type.String({
      description: '`payment_link.paid`, `payment_link.expired` or `payment_link.deactivated`. Ignore types you do not know',
      examples: ['payment_link.paid'],
    }),
    timestamp: Type.String({ format: 'date-time', description: 'When the event was written; the same on every retry' }),
    data: Type.Object(
      {
        paymentLinkId: Type.String({ format: 'uuid' }),
        reference: Type.String({ description: 'Your reference of the link' }),
        status: Type.String({
          description: 'The status the link entered: `PAID`, `EXPIRED` or `DEACTIVATED`. An open list',
          'x-extensible-enum': ['PAID', 'EXPIRED', 'DEACTIVATED'],
        }),
        paymentId: Type.Optional(Type.String({ format: 'uuid', description: '`payment_link.paid` only: the payment that paid the link' })),
        createdAt: Type.String({ format: 'date-time', description: 'When the link entered the status' }),
      },
      { title: 'PaymentLinkEventData' },
    ),
  },
  {
    title: 'PaymentLinkWebhook',
    description: 'The body of a `payment_link.*` webhook. New fields may be added: do not reject what you do not know.',
    examples: [LINK_EVENT_EXAMPLE],
  },
);

const EVENT_EXAMPLE = { id: EXAMPLE.eventId, type: 'payment.status.updated', createdAt: EXAMPLE.updatedAt, data: WEBHOOK_BODY_EXAMPLE };

export const EventSchema = Type.Object(
  {
    id: Type.String({ description: "The event's id: a webhook of this event carries it as `webhook-id`", examples: [EXAMPLE.eventId] }),
    type: Type.String({ description: 'The event type. An open list: skip types you do not know', examples: ['payment.status.updated'] }),
    createdAt: DateTime,
    data: Type.Union([PaymentStatusUpdatedWebhookSchema, PaymentLinkWebhookSchema], {
      description: "The body of the event's webhook: a payment's status change, or a payment link's (by `type`)",
    }),
  },
  {
    title: 'Event',
    description:
      'An event of the feed; `data` is, byte for byte, the body of the event\'s webhook, so one handler serves webhooks and the feed (pass it `data`). The body has a `data` of its own: the payment is `data.data.paymentId`, its status `data.data.status` (docs/api-decisions.md, "Lists and the event feed").',
    examples: [EVENT_EXAMPLE],
  },
);

export const EventFeedSchema = Type.Object(
  {
    items: Type.Array(EventSchema, { description: 'Oldest first' }),
    nextCursor: Type.String({ description: 'Pass as `after` to read on; always present, so a consumer can poll with it' }),
  },
  { title: 'EventFeed', examples: [{ items: [EVENT_EXAMPLE], nextCursor: 'eyJwb3NpdGlvbiI6MTJ9.Zq3u8r1cWm0y5J2bQx7kNw' }] },
);
