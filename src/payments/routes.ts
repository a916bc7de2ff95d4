/** Payment endpoints: creation, the payment resource, the list of payments, status history and latest status. */
import type { App } from '../http/fastify-types.js';
import { Type, type Static } from 'typebox';
import { callerOf, type Authenticator } from '../auth/authenticate.js';
import { DETAILED_STATUSES, topLevelStatus } from '../domain/detailed-status.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentListFilter } from './payment-repository.js';
import type { CursorCodec } from '../http/cursor.js';
import { newestFirstPage, newestFirstPosition } from '../http/newest-first-page.js';
import { queryStringValidator, splitCommaLists } from '../http/query-string.js';
import { initialStatus } from '../domain/transitions.js';
import { ApiError, UNSUPPORTED_MEDIA_TYPE_MESSAGE, ValidationError } from '../http/errors.js';
import { ErrorResponses, jsonResponse } from '../http/error-schemas.js';
import { createAjv } from '../http/ajv.js';
import { localeFromAcceptLanguage } from '../i18n/locale.js';
import type { Metrics } from '../observability/metrics.js';
import type { CatalogueView } from '../providers/catalogue.js';
import type { FlowEngine } from '../flow/engine.js';
import { credentialViolations } from './credentials.js';
import { toJsonNumber } from '../domain/money.js';
import { redirectUrlOf, statusRecordView, type PaymentService } from './payment-service.js';
import {
  PAYMENT_LIST_DEFAULT_LIMIT,
  PaymentCreationRequestSchema,
  PaymentListQuerySchema,
  PaymentListSchema,
  type PaymentResource,
  PaymentCreationResponseSchema,
  PaymentIdParamsSchema,
  PaymentIdQuerySchema,
  PaymentResourceSchema,
  PaymentStatusHistorySchema,
  PaymentStatusRecordSchema,
  type RefundRecipientSchema,
} from './schemas.js';
import { validatePaymentCreation } from './validation.js';
import { validateRefundCreation } from './refund-validation.js';
import { RefundCreationRequestSchema } from './refund-schemas.js';
import type { RefundSummary } from './payment-repository.js';

export interface PaymentRoutesOptions {
  readonly auth: Authenticator;
  readonly payments: PaymentService;
  readonly catalogue: CatalogueView;
  readonly baseUrl: string;
  readonly metrics: Metrics;
  /** Signs and checks the list's page cursors. */
  readonly cursors: CursorCodec;
  /** `WEBHOOK_ALLOW_PRIVATE_TARGETS`: webhook URLs may name loopback and private addresses (development only). */
  readonly allowPrivateWebhookTargets: boolean;
  /** Runs the flow at once when the payer's credentials come with the request (decisions §7). */
  readonly flow?: Pick<FlowEngine, 'runWithCredentials' | 'safetyNet'>;
}

const bearer = [{ bearerAuth: [] }];

/** Validates the path of a route whose body is validated in its handler (its headers are documentation only). */
const paramsAjv = createAjv();

/**
 * The address a request came from as the bank's PSU-IP-Address wants it: an IPv4 address mapped into IPv6 (what a
 * dual-stack socket reports) as the IPv4 address.
 */
function requesterIpAddress(ip: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

/**
 * Whom a refund pays, as its resource shows it: the account (an IBAN, or a UK payer's sort code and account number with
 * the roll number if any) and the holder's name. Only refunds show it, so every other payment's resource is unchanged.
 */
function refundRecipientView(refund: Payment): Static<typeof RefundRecipientSchema> {
  const number = refund.recipient.account.number;
  return {
    account: {
      number:
        number.type === 'SORT_CODE_ACCOUNT_NUMBER'
          ? {
              type: 'SORT_CODE_ACCOUNT_NUMBER',
              value: number.value,
              ...(number.rollNumber === undefined ? {} : { rollNumber: number.rollNumber }),
            }
          : { type: 'IBAN', value: number.value },
    },
    name: refund.recipient.name,
  };
}

/** The payment resource, as `GET /api/v1/ob/payments/{paymentId}` and the list answer it. */
function paymentResourceView(
  payment: Payment,
  catalogue: CatalogueView,
  baseUrl: string,
  retriedBy: string | undefined,
  refunds: readonly RefundSummary[] | undefined,
): PaymentResource {
  const bank = payment.providerId === null ? undefined : catalogue.find(payment.providerId, payment.environment);
  return {
    paymentId: payment.id,
    ...(payment.providerPaymentId === null ? {} : { providerPaymentId: payment.providerPaymentId }),
    redirectUrl: redirectUrlOf(baseUrl, payment),
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
    status: topLevelStatus(payment.detailedStatus),
    detailedStatus: payment.detailedStatus,
    failureReasons: payment.failureReasons === null ? null : [...payment.failureReasons],
    endToEndId: payment.endToEndId,
    amount: toJsonNumber(payment.amount),
    currency: payment.currency,
    ...(bank?.kind === 'bank' ? { provider: { id: bank.bank.id, name: bank.bank.name } } : {}),
    ...(payment.retryOf === null ? {} : { retryOf: payment.retryOf }),
    ...(retriedBy === undefined ? {} : { retriedBy }),
    ...(payment.refundOf === null ? {} : { refundOf: payment.refundOf, recipient: refundRecipientView(payment) }),
    // Absent on a payment without refunds, so other payments' resource is unchanged.
    ...(refunds === undefined || refunds.length === 0
      ? {}
      : {
          refunds: refunds.map((refund) => ({
            paymentId: refund.paymentId,
            amount: toJsonNumber(refund.amount),
            status: topLevelStatus(refund.detailedStatus),
          })),
        }),
    // Once the bank told it (src/flow/run.ts, `paymentStatus`); absent before, like the other fields not yet known.
    ...(payment.payer === null
      ? {}
      : { payer: { account: { ...payment.payer.account }, ...(payment.payer.name === undefined ? {} : { name: payment.payer.name }) } }),
    ...(payment.paymentLinkId === null ? {} : { paymentLinkId: payment.paymentLinkId }),
  };
}

/** The list's filters in storage terms: statuses become the detailed ones both filters admit; times are UTC. */
function paymentListFilter(query: Static<typeof PaymentListQuerySchema>): PaymentListFilter {
  const { status, detailedStatus } = query;
  const detailedStatuses =
    status === undefined && detailedStatus === undefined
      ? undefined
      : DETAILED_STATUSES.filter(
          (detailed) =>
            (status === undefined || status.includes(topLevelStatus(detailed))) &&
            (detailedStatus === undefined || detailedStatus.includes(detailed)),
        );
  return {
    ...(detailedStatuses === undefined ? {} : { detailedStatuses }),
    ...(query.providerId === undefined ? {} : { providerId: query.providerId.toLowerCase() }),
    ...(query.endToEndId === undefined ? {} : { endToEndId: query.endToEndId }),
    ...(query.createdFrom === undefined ? {} : { createdFrom: new Date(query.createdFrom).toISOString() }),
    ...(query.createdTo === undefined ? {} : { createdTo: new Date(query.createdTo).toISOString() }),
  };
}

export function registerPaymentRoutes(app: App, options: PaymentRoutesOptions): void {
  const { auth, payments, catalogue, baseUrl, metrics, cursors } = options;

  app.post(
    '/api/v1/ob/payments',
    {
      onRequest: auth.require('payments:write'),
      // The body is validated in the handler, where the caller's environment is known: some rules depend on it
      // (providers of the caller's environment, http redirect URIs for sandbox clients), and every violation
      // must be reported in one message.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'createPayment',
        tags: ['Payments'],
        summary: 'Create a payment',
        description:
          'Creates a payment and returns the `redirectUrl` to send the payer to. Send `provider.id` for custom bank selection; omit it for the hosted bank selection screen. Requires scope `payments:write`.',
        security: bearer,
        headers: Type.Object({
          'accept-language': Type.Optional(
            Type.String({ description: "Preferred initial language of the payer's pages (ISO 639-1); invalid values are ignored" }),
          ),
        }),
        body: PaymentCreationRequestSchema,
        response: {
          201: jsonResponse('Created, always `PENDING`: send the payer to `redirectUrl`', PaymentCreationResponseSchema),
          ...ErrorResponses(400, 401, 403, 404, 409, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const client = callerOf(request);
      if (!isJson(request.headers['content-type'])) throw new ApiError(415, UNSUPPORTED_MEDIA_TYPE_MESSAGE);
      const result = validatePaymentCreation(request.body, {
        environment: client.environment,
        catalogue,
        allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
      });
      // Credentials that could not be used are refused with the other rules, in one message (docs/api-decisions.md).
      const refusedCredentials = credentialViolations(request.body);
      if (result.kind === 'invalid' || refusedCredentials.length > 0) {
        throw new ValidationError(
          [...(result.kind === 'invalid' ? result.violations : []), ...refusedCredentials],
          result.kind === 'invalid' ? (result.unlisted ?? 0) : 0,
        );
      }
      if (result.kind === 'unknown-provider') throw new ApiError(404, `Provider ${result.providerId} not found`);
      // Credentials in the request (custom mode only, see above): the bank is called within this request, so the
      // password is used and forgotten here, never stored (decisions §7).
      const credentials = result.payment.request.sender?.credentials;
      const runsNow = options.flow !== undefined && credentials !== undefined && result.payment.mode === 'custom';
      const created = await payments.create(
        client,
        result.payment,
        localeFromAcceptLanguage(request.headers['accept-language']),
        runsNow ? options.flow?.safetyNet() : undefined,
      );
      let payment = created.payment;
      if (options.flow !== undefined && credentials !== undefined && payment.mode === 'custom') {
        payment = await options.flow.runWithCredentials(
          payment,
          {
            ...(credentials.id === undefined ? {} : { loginId: credentials.id }),
            ...(credentials.password === undefined ? {} : { password: credentials.password }),
          },
          { log: request.log, requestId: request.id },
        );
      }
      request.log.info({ paymentId: payment.id, detailedStatus: payment.detailedStatus }, 'payment created');
      metrics.paymentsCreated.inc({ mode: payment.mode });
      metrics.transitions.inc({ detailed_status: initialStatus(payment.mode) });
      // The answer describes the creation, which is always PENDING (spec rule 4, decisions §1): what the bank said
      // within this request (a refusal included) is in the statuses recorded after it, in the history and webhooks.
      return reply.code(201).send({
        paymentId: payment.id,
        ...(payment.providerPaymentId === null ? {} : { providerPaymentId: payment.providerPaymentId }),
        redirectUrl: redirectUrlOf(baseUrl, payment),
        createdAt: created.payment.createdAt,
        updatedAt: created.payment.updatedAt,
        status: topLevelStatus(created.payment.detailedStatus),
      });
    },
  );

  app.get(
    '/api/v1/ob/payments',
    {
      onRequest: auth.require('payments:read'),
      preValidation: splitCommaLists(PaymentListQuerySchema),
      validatorCompiler: queryStringValidator,
      schema: {
        operationId: 'listPayments',
        tags: ['Payments'],
        summary: 'List payments',
        description:
          "The caller's payments, newest first, with filters and cursor pagination. Find a payment by `endToEndId` after a 409 or a lost answer. Filters combine with AND; the values of one filter with OR. Requires scope `payments:read`.",
        security: bearer,
        querystring: PaymentListQuerySchema,
        response: { 200: jsonResponse('A page of payments, newest first', PaymentListSchema), ...ErrorResponses(400, 401, 403, 429, 500) },
      },
    },
    async (request) => {
      const client = callerOf(request);
      const limit = request.query.limit ?? PAYMENT_LIST_DEFAULT_LIMIT;
      const position =
        request.query.cursor === undefined ? undefined : newestFirstPosition(cursors, 'payments', client.clientId, request.query.cursor);
      const found = await payments.list(client, paymentListFilter(request.query), limit + 1, position);
      const { page, nextCursor } = newestFirstPage(found, limit, cursors, 'payments', client.clientId);
      const ids = page.map((payment) => payment.id);
      const [retries, refunds] = await Promise.all([payments.retriesOf(client, ids), payments.refundsOf(client, ids)]);
      return {
        items: page.map((payment) => paymentResourceView(payment, catalogue, baseUrl, retries.get(payment.id), refunds.get(payment.id))),
        nextCursor,
      };
    },
  );

  app.get(
    '/api/v1/ob/payments/:paymentId',
    {
      onRequest: auth.require('payments:read'),
      schema: {
        operationId: 'getPayment',
        tags: ['Payments'],
        summary: 'Get a payment',
        description: 'The payment with its current status. Requires scope `payments:read`.',
        security: bearer,
        params: PaymentIdParamsSchema,
        response: { 200: jsonResponse('The payment', PaymentResourceSchema), ...ErrorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request) => {
      const client = callerOf(request);
      const payment = await payments.get(client, request.params.paymentId);
      const [retries, refunds] = await Promise.all([payments.retriesOf(client, [payment.id]), payments.refundsOf(client, [payment.id])]);
      return paymentResourceView(payment, catalogue, baseUrl, retries.get(payment.id), refunds.get(payment.id));
    },
  );

  app.post(
    '/api/v1/ob/payments/:paymentId/refunds',
    {
      onRequest: auth.require('payments:write'),
      // Validated in the handler, like a payment's creation: the caller's environment decides some rules, and every
      // violation is reported in one message.
      validatorCompiler: ({ schema, httpPart }) => (httpPart === 'params' ? paramsAjv.compile(schema as object) : () => true),
      schema: {
        operationId: 'createRefund',
        tags: ['Refunds'],
        summary: 'Refund a payment',
        description:
          "Creates a refund of a `COMPLETED` payment whose payer's account the bank told (`payer` on the payment): a payment from the merchant's account the payment was paid into to the payer's account (an IBAN, or a UK sort code and account number: then only banks that pay to UK accounts are offered), shown as the refund's `recipient`, in the same currency and scheme, for `amount` (default: what is left to refund). Send the merchant's approver to `redirectUrl`: they choose their bank and authorise the refund there, and it runs through the statuses, history, webhooks and event feed of any payment, with `refundOf`. The refunds of a payment that have not failed never add up to more than its amount. A 409 `message` begins with the reason: `PAYMENT_NOT_COMPLETED`, `PAYMENT_IS_A_REFUND`, `PAYER_ACCOUNT_UNKNOWN`, `PAYER_NAME_UNKNOWN`, `REFUND_EXCEEDS_REMAINING` (with the amount left), or the `endToEndId` is taken. Requires scope `payments:write`.",
        security: bearer,
        params: PaymentIdParamsSchema,
        headers: Type.Object({
          'accept-language': Type.Optional(
            Type.String({ description: "Preferred initial language of the approver's pages (ISO 639-1); invalid values are ignored" }),
          ),
        }),
        body: RefundCreationRequestSchema,
        response: {
          201: jsonResponse("The refund (a payment), `PENDING`: send the merchant's approver to `redirectUrl`", PaymentResourceSchema),
          ...ErrorResponses(400, 401, 403, 404, 409, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const client = callerOf(request);
      if (!isJson(request.headers['content-type'])) throw new ApiError(415, UNSUPPORTED_MEDIA_TYPE_MESSAGE);
      const result = validateRefundCreation(request.body, {
        environment: client.environment,
        allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
      });
      if (result.kind === 'invalid') throw new ValidationError(result.violations, result.unlisted ?? 0);
      const created = await payments.refund(
        client,
        request.params.paymentId,
        result.request,
        { ipAddress: requesterIpAddress(request.ip), userAgent: request.headers['user-agent'] ?? 'unknown' },
        localeFromAcceptLanguage(request.headers['accept-language']),
      );
      const refund = created.payment;
      request.log.info({ paymentId: refund.id, refundOf: refund.refundOf }, 'refund created');
      metrics.paymentsCreated.inc({ mode: refund.mode });
      metrics.transitions.inc({ detailed_status: refund.detailedStatus });
      return reply.code(201).send(paymentResourceView(refund, catalogue, baseUrl, undefined, undefined));
    },
  );

  app.get(
    '/api/v1/archive/payment-statuses',
    {
      onRequest: auth.require('payments:read'),
      schema: {
        operationId: 'getPaymentStatusHistory',
        tags: ['Payment statuses'],
        summary: 'Status history of a payment',
        description: 'Every status record of the payment, earliest first. Requires scope `payments:read`.',
        security: bearer,
        querystring: PaymentIdQuerySchema,
        response: {
          200: jsonResponse('The status records, earliest first', PaymentStatusHistorySchema),
          ...ErrorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request) => (await payments.history(callerOf(request), request.query.paymentId)).map(statusRecordView),
  );

  app.get(
    '/api/v1/archive/payment-statuses/latest',
    {
      onRequest: auth.require('payments:read'),
      schema: {
        operationId: 'getLatestPaymentStatus',
        tags: ['Payment statuses'],
        summary: 'Latest status of a payment',
        description: 'The most recent status record of the payment. Requires scope `payments:read`.',
        security: bearer,
        querystring: PaymentIdQuerySchema,
        response: {
          200: jsonResponse('The latest status record', PaymentStatusRecordSchema),
          ...ErrorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request) => statusRecordView(await payments.latest(callerOf(request), request.query.paymentId)),
  );
}
