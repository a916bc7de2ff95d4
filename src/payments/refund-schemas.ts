/**
 * Schemas of refunds (docs/api-decisions.md, "Refunds"): the creation request, and the refund fields of the payment
 * resource (`refundOf` on a refund, `refunds` on the payment refunded). A refund's answer is the payment resource.
 */
import { Type, type Static } from 'typebox';
import { CLIENT_ID_TEXT, REMITTANCE_TEXT, VISIBLE_TEXT } from '../http/string-rules.js';

/** The amount of a refund as the API takes it: a JSON number like a payment's, or the same as a decimal string. */
export const REFUND_AMOUNT_TEXT = '^[0-9]{1,9}(?:\\.[0-9]{1,4})?$';

export const RefundCreationRequestSchema = Type.Object(
  {
    amount: Type.Optional(
      Type.Union(
        [
          Type.Number({ minimum: 0.01, maximum: 999999999.99 }),
          Type.String({ pattern: REFUND_AMOUNT_TEXT, maxLength: 14, description: 'The same amount as a decimal string, e.g. `"4.00"`' }),
        ],
        {
          description:
            "In the payment's currency, with at most its minor-unit digits (EUR: 2): a JSON number like a payment's `amount`, or a decimal string. Default: what is left to refund (the payment's amount less its refunds not failed). More than is left answers 409 `REFUND_EXCEEDS_REMAINING`",
          examples: ['4.00'],
        },
      ),
    ),
    reference: Type.String({
      minLength: 1,
      maxLength: 140,
      pattern: REMITTANCE_TEXT.pattern,
      description: "The refund's remittance information, shown to the payer by their bank: letters, digits, `/ + -` and spaces",
      examples: ['Refund order 1001'],
    }),
    payerName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 70,
        pattern: VISIBLE_TEXT.pattern,
        description:
          "The payer's name as you know it, used as the refund's recipient name only when the payer's bank did not name the account's holder (`payer.name` absent on the payment). Without either, the refund answers 409 `PAYER_NAME_UNKNOWN`: banks check a recipient's name against the account, so none is made up",
        examples: ['Alice Happy'],
      }),
    ),
    metadata: Type.Object(
      {
        redirectUri: Type.String({
          format: 'uri',
          maxLength: 2048,
          description: "Where the merchant's approver is sent when the refund's flow ends (https)",
        }),
        endToEndId: Type.String({
          minLength: 1,
          maxLength: 64,
          pattern: CLIENT_ID_TEXT.pattern,
          description:
            "The refund's id in your system, unique per client among all your payments (refunds are payments): a second one with it answers 409",
          examples: ['refund-1001-1'],
        }),
        webhookUrl: Type.Optional(
          Type.String({ format: 'uri', maxLength: 2048, description: "Receives a webhook when the refund's status changes (https)" }),
        ),
      },
      { additionalProperties: false, title: 'RefundMetadata' },
    ),
  },
  {
    additionalProperties: false,
    title: 'RefundCreationRequest',
    examples: [
      {
        amount: '4.00',
        reference: 'Refund order 1001',
        metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: 'refund-1001-1' },
      },
    ],
  },
);

export type RefundCreationRequest = Static<typeof RefundCreationRequestSchema>;

/** One refund as the refunded payment's resource lists it. */
export const RefundSummarySchema = Type.Object(
  {
    paymentId: Type.String({ format: 'uuid', description: "The refund's payment id: `GET /api/v1/ob/payments/{paymentId}` for all of it" }),
    amount: Type.Number({ description: 'In the currency of the payment refunded' }),
    status: Type.String({
      description: "The refund's top-level status (`PENDING`, `COMPLETED`, `FAILED`). An open list: accept values you do not know",
      'x-extensible-enum': ['PENDING', 'COMPLETED', 'FAILED', 'UNKNOWN'],
    }),
  },
  { title: 'RefundSummary' },
);

export const RefundsOfPaymentSchema = Type.Array(RefundSummarySchema, {
  description:
    "Present on a payment that has refunds: each refund, oldest first, failed ones included (they do not count towards the payment's amount). Embedded rather than ids alone, so the refunded total is one read",
});

export const RefundOfSchema = Type.String({
  format: 'uuid',
  description: 'Present on a refund: the id of the completed payment it refunds',
});
