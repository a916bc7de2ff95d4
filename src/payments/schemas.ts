/**
 * Schemas of the payment endpoints (interface spec, "Resources and their fields"). They give the TypeScript
 * types, the request validation and the OpenAPI document at once. Maximum lengths the spec leaves open are
 * the SEPA rulebook's (decisions §2 and docs/api-decisions.md).
 */
import { Type, type Static } from 'typebox';
import { DETAILED_STATUSES, FAILURE_CODES } from '../domain/detailed-status.js';
import { COUNTRY_CODES, CURRENCY_CODES, FEE_PAID_BY } from '../domain/reference-data.js';

const CountryCode = Type.Enum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 country code', examples: ['DE'] });
const CurrencyCode = Type.Enum(CURRENCY_CODES, { description: 'ISO 4217 currency code', examples: ['EUR'] });

export const AccountNumberSchema = Type.Object(
  {
    type: Type.Enum(['IBAN'] as const),
    value: Type.String({ format: 'iban', maxLength: 42, description: 'IBAN; spaces between groups are allowed', examples: ['DE89370400440532013000'] }),
  },
  { additionalProperties: false },
);

export const AddressSchema = Type.Object(
  {
    country: CountryCode,
    city: Type.String({ minLength: 1, maxLength: 35 }),
    streetName: Type.String({ minLength: 1, maxLength: 70 }),
    buildingNumber: Type.String({ minLength: 1, maxLength: 16, description: 'Building and apartment, office or suite number' }),
    postCode: Type.String({ minLength: 1, maxLength: 16 }),
  },
  { additionalProperties: false },
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
        name: Type.Enum(['SEPA', 'DOMESTIC'] as const),
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
          account: Type.Optional(
            Type.Object({ number: AccountNumberSchema, currency: CurrencyCode }, { additionalProperties: false }),
          ),
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
        account: Type.Object({ number: AccountNumberSchema }, { additionalProperties: false }),
        name: Type.String({ minLength: 1, maxLength: 70 }),
        address: AddressSchema,
      },
      { additionalProperties: false },
    ),
    amount: Type.Number({ minimum: 0.01, maximum: 999999999.99, description: 'At most as many decimals as the currency has (EUR: 2)', examples: [10.5] }),
    currency: CurrencyCode,
    remittanceInformation: Type.Object(
      {
        type: Type.Enum(['UNSTRUCTURED'] as const),
        value: Type.String({ minLength: 1, maxLength: 140, format: 'remittance' }),
        preferences: Type.Optional(
          Type.Object(
            { truncate: Type.Optional(Type.Boolean({ description: "Cut the value to the provider's limit instead of failing" })) },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    metadata: Type.Object(
      {
        redirectUri: Type.String({ format: 'uri', maxLength: 2048, description: 'Where the payer is sent when the flow ends (https)' }),
        psuIpAddress: Type.String({ format: 'psu-ip-address', maxLength: 39 }),
        psuUserAgent: Type.String({ minLength: 1, maxLength: 1024 }),
        endToEndId: Type.String({ minLength: 1, maxLength: 64, format: 'printable-ascii', description: "The payment's id in the client's system; unique per client" }),
        webhookUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Receives a webhook when the status changes (https)' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type PaymentCreationRequest = Static<typeof PaymentCreationRequestSchema>;

const DateTime = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00.000Z'] });
const TopLevelStatus = Type.Enum(['PENDING', 'COMPLETED', 'FAILED', 'UNKNOWN'] as const);
const DetailedStatus = Type.Enum(DETAILED_STATUSES);

export const FailureReasonSchema = Type.Object(
  { code: Type.Enum(FAILURE_CODES), message: Type.String() },
  { additionalProperties: false },
);
const FailureReasons = Type.Union([Type.Array(FailureReasonSchema), Type.Null()]);

export const PaymentCreationResponseSchema = Type.Object(
  {
    paymentId: Type.String({ format: 'uuid' }),
    providerPaymentId: Type.Optional(Type.String()),
    redirectUrl: Type.String({ format: 'uri', description: 'Send the payer here' }),
    createdAt: DateTime,
    updatedAt: DateTime,
    status: TopLevelStatus,
  }
);

export const PaymentResourceSchema = Type.Object(
  {
    paymentId: Type.String({ format: 'uuid' }),
    providerPaymentId: Type.Optional(Type.String()),
    redirectUrl: Type.String({ format: 'uri' }),
    createdAt: DateTime,
    updatedAt: DateTime,
    status: TopLevelStatus,
    detailedStatus: DetailedStatus,
    failureReasons: FailureReasons,
    endToEndId: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    provider: Type.Optional(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() })),
  }
);

export type PaymentResource = Static<typeof PaymentResourceSchema>;

export const PaymentStatusRecordSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    paymentId: Type.String({ format: 'uuid' }),
    status: TopLevelStatus,
    detailedStatus: DetailedStatus,
    failureReasons: FailureReasons,
    createdAt: DateTime,
  }
);

export const PaymentIdQuerySchema = Type.Object(
  { paymentId: Type.String({ format: 'uuid', description: "The service's id of the payment" }) },
  { additionalProperties: false },
);

export const PaymentIdParamsSchema = Type.Object({ paymentId: Type.String({ format: 'uuid' }) });

/** Top-level statuses a list can be filtered by (`UNKNOWN` is reserved and never stored). */
export const LISTABLE_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;

export type ListableStatus = (typeof LISTABLE_STATUSES)[number];

export const PAYMENT_LIST_DEFAULT_LIMIT = 20;
export const EVENT_FEED_DEFAULT_LIMIT = 50;
const PAGE_LIMIT_MAX = 100;
/** Far above any cursor we hand out: a longer one cannot be ours. */
const CURSOR_MAX_LENGTH = 600;

export const PaymentListQuerySchema = Type.Object(
  {
    status: Type.Optional(
      Type.Array(Type.Enum(LISTABLE_STATUSES), {
        minItems: 1,
        maxItems: LISTABLE_STATUSES.length,
        description: 'Only payments in one of these top-level statuses. Repeat the parameter or separate values with commas.',
      }),
    ),
    detailedStatus: Type.Optional(
      Type.Array(DetailedStatus, {
        minItems: 1,
        maxItems: DETAILED_STATUSES.length,
        description: 'Only payments in one of these detailed statuses. Repeat the parameter or separate values with commas.',
      }),
    ),
    providerId: Type.Optional(Type.String({ format: 'uuid', description: 'Only payments at this provider (custom mode, or hosted once the payer chose it)' })),
    endToEndId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only the payment with this endToEndId (exact match): finds a payment after a 409 or a lost answer' })),
    createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Only payments created at or after this time (ISO 8601 with an offset; compared in UTC)' })),
    createdTo: Type.Optional(Type.String({ format: 'date-time', description: 'Only payments created before this time (exclusive)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAYMENT_LIST_DEFAULT_LIMIT, description: 'Page size' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: CURSOR_MAX_LENGTH, description: '`nextCursor` of the previous page, unchanged (opaque). Send the same filters with it.' }),
    ),
  },
  { additionalProperties: false },
);

export const PaymentListSchema = Type.Object({
  items: Type.Array(PaymentResourceSchema, { description: 'Newest first (createdAt descending, then paymentId descending)' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; `null` on the last page' }),
});

export const EventFeedQuerySchema = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: CURSOR_MAX_LENGTH,
        description: '`nextCursor` of a previous answer, unchanged (opaque). Without it the feed starts at the oldest retained event.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: EVENT_FEED_DEFAULT_LIMIT, description: 'Page size' })),
    type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z]+(?:[._][a-z]+)+$', description: 'Only events of this type, e.g. `payment.status.updated`' }),
    ),
  },
  { additionalProperties: false },
);

/** The body of a `payment.status.updated` webhook (src/webhooks/payload.ts), field for field in the same order. */
export const PaymentStatusUpdatedWebhookSchema = Type.Object({
  type: Type.String({ description: '`payment.status.updated`; ignore types you do not know', examples: ['payment.status.updated'] }),
  timestamp: Type.String({ format: 'date-time', description: 'When the event was written; the same on every retry' }),
  data: Type.Object({
    paymentId: Type.String({ format: 'uuid' }),
    endToEndId: Type.String(),
    statusId: Type.String({ format: 'uuid', description: 'Id of the status record this event reports' }),
    status: Type.String({ description: 'Top-level status (`PENDING`, `COMPLETED`, `FAILED`); treat values you do not know as not final' }),
    detailedStatus: Type.String(),
    failureReasons: FailureReasons,
    createdAt: DateTime,
  }),
});

export const EventSchema = Type.Object({
  id: Type.String({ description: "The event's id: a webhook of this event carries it as `webhook-id`" }),
  type: Type.String({ description: 'The event type; ignore types you do not know', examples: ['payment.status.updated'] }),
  createdAt: DateTime,
  data: PaymentStatusUpdatedWebhookSchema,
});

export const EventFeedSchema = Type.Object({
  items: Type.Array(EventSchema, { description: 'Oldest first' }),
  nextCursor: Type.String({ description: 'Pass as `after` to read on; always present, so a consumer can poll with it' }),
});
