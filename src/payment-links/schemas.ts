/**
 * Schemas of the payment link endpoints (docs/api-decisions.md, "Payment links"): the request takes the parts of a
 * payment request that describe the payment (the very same schemas, so the same rules and messages), without the
 * payer's details, plus the link's own `reference`, `expiresAt` and `reusable`.
 */
import { Type, type Static } from 'typebox';
import { PAYMENT_LINK_REFERENCE_MAX_LENGTH, PAYMENT_LINK_STATUSES } from '../domain/payment-link.js';
import { CLIENT_ID_TEXT } from '../http/string-rules.js';
import { PaymentCreationRequestSchema } from '../payments/schemas.js';

const EXAMPLE = {
  paymentLinkId: '01936b2e-4c1a-7d3e-9f10-2a3b4c5d6e7f',
  paymentId: '5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11',
  url: 'http://localhost:8080/link/Qm9vW2VjX3RhbGtzLWxp',
  reference: 'invoice-2026-001',
  createdAt: '2026-11-21T10:00:00.000Z',
  expiresAt: '2026-11-22T10:00:00.000Z',
} as const;

const payment = PaymentCreationRequestSchema.properties;
const paymentMetadata = payment.metadata.properties;

export const PaymentLinkCreationRequestSchema = Type.Object(
  {
    provider: payment.provider,
    paymentScheme: payment.paymentScheme,
    recipient: payment.recipient,
    amount: payment.amount,
    currency: payment.currency,
    remittanceInformation: payment.remittanceInformation,
    metadata: Type.Object(
      { redirectUri: paymentMetadata.redirectUri, webhookUrl: paymentMetadata.webhookUrl },
      {
        additionalProperties: false,
        title: 'PaymentLinkMetadata',
        description: "Where each payer is sent when their payment's flow ends, and where the link's and its payments' webhooks go",
      },
    ),
    reference: Type.String({
      minLength: 1,
      maxLength: PAYMENT_LINK_REFERENCE_MAX_LENGTH,
      pattern: CLIENT_ID_TEXT.pattern,
      description:
        "The link's id in your system: printable ASCII, no leading or trailing spaces; unique per client (a second link with it answers 409). The link's payments get `endToEndId` `<reference>-<n>` (1, 2, …)",
      examples: [EXAMPLE.reference],
    }),
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the link stops taking payments (ISO 8601 with an offset). Default: 24 hours from now; at most 90 days ahead',
        examples: [EXAMPLE.expiresAt],
      }),
    ),
    reusable: Type.Optional(
      Type.Boolean({
        description:
          'false (default): the first completed payment closes the link (`PAID`). true: every payer may pay until it expires or is deactivated',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'PaymentLinkCreationRequest',
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
        metadata: { redirectUri: 'https://merchant.example/return' },
        reference: EXAMPLE.reference,
      },
    ],
  },
);

export type PaymentLinkCreationRequest = Static<typeof PaymentLinkCreationRequestSchema>;

const PaymentLinkStatus = Type.String({
  title: 'PaymentLinkStatus',
  description:
    '`ACTIVE` takes payments; `PAID` (a single-use link paid), `EXPIRED` and `DEACTIVATED` are final. An open list: treat a value you do not know as not taking payments.',
  'x-extensible-enum': [...PAYMENT_LINK_STATUSES],
  examples: ['ACTIVE'],
});

const RESOURCE_EXAMPLE = {
  paymentLinkId: EXAMPLE.paymentLinkId,
  url: EXAMPLE.url,
  status: 'ACTIVE',
  reference: EXAMPLE.reference,
  reusable: false,
  amount: 10.5,
  currency: 'EUR',
  remittance: 'Invoice 2026-001',
  recipientName: 'Acme GmbH',
  expiresAt: EXAMPLE.expiresAt,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
  paymentCount: 0,
};

export const PaymentLinkResourceSchema = Type.Object(
  {
    paymentLinkId: Type.String({ format: 'uuid' }),
    url: Type.String({ format: 'uri', description: 'The address to give the payer (a page of ours; show it as a link or QR code)' }),
    status: PaymentLinkStatus,
    reference: Type.String(),
    reusable: Type.Boolean(),
    amount: Type.Number({ description: 'In the currency, with its minor-unit digits (EUR: 2)' }),
    currency: Type.String({ description: 'ISO 4217' }),
    remittance: Type.String({ description: 'The remittance information of every payment of the link' }),
    recipientName: Type.String(),
    expiresAt: Type.String({ format: 'date-time' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    paymentCount: Type.Integer({ description: 'How many payments payers started from the link (failed ones included)' }),
    paymentId: Type.Optional(Type.String({ format: 'uuid', description: 'On a `PAID` link: the payment that paid it' })),
  },
  { title: 'PaymentLink', examples: [RESOURCE_EXAMPLE] },
);

export type PaymentLinkResource = Static<typeof PaymentLinkResourceSchema>;

export const PaymentLinkIdParamsSchema = Type.Object({ paymentLinkId: Type.String({ format: 'uuid' }) });

export const PAYMENT_LINK_LIST_DEFAULT_LIMIT = 20;

export const PaymentLinkListQuerySchema = Type.Object(
  {
    status: Type.Optional(
      Type.Array(Type.Enum(PAYMENT_LINK_STATUSES), {
        minItems: 1,
        maxItems: PAYMENT_LINK_STATUSES.length,
        description: 'Only links in one of these statuses, separated by commas. Repeating the parameter works too.',
        examples: [['ACTIVE']],
      }),
    ),
    reference: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: PAYMENT_LINK_REFERENCE_MAX_LENGTH,
        pattern: CLIENT_ID_TEXT.pattern,
        description: 'Only the link with this reference (exact match): finds a link after a 409 or a lost answer',
        examples: [EXAMPLE.reference],
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAYMENT_LINK_LIST_DEFAULT_LIMIT, description: 'Page size' })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 600,
        description: '`nextCursor` of the previous page, unchanged (opaque). Send the same filters with it.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PaymentLinkListSchema = Type.Object(
  {
    items: Type.Array(PaymentLinkResourceSchema, { description: 'Newest first (createdAt descending, then paymentLinkId descending)' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; `null` on the last page' }),
  },
  { title: 'PaymentLinkList', examples: [{ items: [RESOURCE_EXAMPLE], nextCursor: null }] },
);
