/** Payment link endpoints: creation, the link resource, the list of links and deactivation (docs/api-decisions.md). */
import type { Static } from 'typebox';
import { callerOf, type Authenticator } from '../auth/authenticate.js';
import type { CursorCodec } from '../http/cursor.js';
import { newestFirstPage, newestFirstPosition } from '../http/newest-first-page.js';
import { ErrorResponses, jsonResponse } from '../http/error-schemas.js';
import { ApiError, UNSUPPORTED_MEDIA_TYPE_MESSAGE, ValidationError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { queryStringValidator, splitCommaLists } from '../http/query-string.js';
import type { CatalogueView } from '../providers/catalogue.js';
import { paymentLinkView, type PaymentLinkService } from './payment-link-service.js';
import {
  PAYMENT_LINK_LIST_DEFAULT_LIMIT,
  PaymentLinkCreationRequestSchema,
  PaymentLinkIdParamsSchema,
  PaymentLinkListQuerySchema,
  PaymentLinkListSchema,
  PaymentLinkResourceSchema,
} from './schemas.js';
import { validatePaymentLinkCreation } from './validation.js';

export interface PaymentLinkRoutesOptions {
  readonly auth: Authenticator;
  readonly links: PaymentLinkService;
  readonly catalogue: CatalogueView;
  readonly baseUrl: string;
  readonly cursors: CursorCodec;
  readonly allowPrivateWebhookTargets: boolean;
  readonly now: () => Date;
}

const bearer = [{ bearerAuth: [] }];

function isJson(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

function listFilter(query: Static<typeof PaymentLinkListQuerySchema>) {
  return {
    ...(query.status === undefined ? {} : { statuses: query.status }),
    ...(query.reference === undefined ? {} : { reference: query.reference }),
  };
}

export function registerPaymentLinkRoutes(app: App, options: PaymentLinkRoutesOptions): void {
  const { auth, links, catalogue, baseUrl, cursors } = options;

  app.post(
    '/api/v1/ob/payment-links',
    {
      onRequest: auth.require('payments:write'),
      // Validated in the handler, where the caller's environment is known (as payments are).
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'createPaymentLink',
        tags: ['Payment links'],
        summary: 'Create a payment link',
        description:
          'Creates a link that payers open to pay: each payer who continues starts a payment of it (hosted bank selection unless `provider.id` is sent) with their own IP address and browser. A single-use link (`reusable` false, the default) closes as `PAID` when one of its payments completes. Requires scope `payments:write`.',
        security: bearer,
        body: PaymentLinkCreationRequestSchema,
        response: {
          201: jsonResponse('Created, `ACTIVE`: give the payer `url`', PaymentLinkResourceSchema),
          ...ErrorResponses(400, 401, 403, 404, 409, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const client = callerOf(request);
      if (!isJson(request.headers['content-type'])) throw new ApiError(415, UNSUPPORTED_MEDIA_TYPE_MESSAGE);
      const result = validatePaymentLinkCreation(
        request.body,
        { environment: client.environment, catalogue, allowPrivateWebhookTargets: options.allowPrivateWebhookTargets },
        options.now(),
      );
      if (result.kind === 'invalid') throw new ValidationError(result.violations, result.unlisted ?? 0);
      if (result.kind === 'unknown-provider') throw new ApiError(404, `Provider ${result.providerId} not found`);
      const link = await links.create(client, result.link);
      request.log.info({ paymentLinkId: link.id }, 'payment link created');
      return reply.code(201).send(paymentLinkView(link, baseUrl));
    },
  );

  app.get(
    '/api/v1/ob/payment-links',
    {
      onRequest: auth.require('payments:read'),
      preValidation: splitCommaLists(PaymentLinkListQuerySchema),
      validatorCompiler: queryStringValidator,
      schema: {
        operationId: 'listPaymentLinks',
        tags: ['Payment links'],
        summary: 'List payment links',
        description: "The caller's payment links, newest first, with filters and cursor pagination. Requires scope `payments:read`.",
        security: bearer,
        querystring: PaymentLinkListQuerySchema,
        response: {
          200: jsonResponse('A page of payment links, newest first', PaymentLinkListSchema),
          ...ErrorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async (request) => {
      const client = callerOf(request);
      const limit = request.query.limit ?? PAYMENT_LINK_LIST_DEFAULT_LIMIT;
      const position =
        request.query.cursor === undefined
          ? undefined
          : newestFirstPosition(cursors, 'payment-links', client.clientId, request.query.cursor);
      const found = await links.list(client, listFilter(request.query), limit + 1, position);
      const { page, nextCursor } = newestFirstPage(found, limit, cursors, 'payment-links', client.clientId);
      return { items: page.map((link) => paymentLinkView(link, baseUrl)), nextCursor };
    },
  );

  app.get(
    '/api/v1/ob/payment-links/:paymentLinkId',
    {
      onRequest: auth.require('payments:read'),
      schema: {
        operationId: 'getPaymentLink',
        tags: ['Payment links'],
        summary: 'Get a payment link',
        description: 'The payment link with its current status. Requires scope `payments:read`.',
        security: bearer,
        params: PaymentLinkIdParamsSchema,
        response: { 200: jsonResponse('The payment link', PaymentLinkResourceSchema), ...ErrorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request) => paymentLinkView(await links.get(callerOf(request), request.params.paymentLinkId), baseUrl),
  );

  app.post(
    '/api/v1/ob/payment-links/:paymentLinkId/deactivate',
    {
      onRequest: auth.require('payments:write'),
      schema: {
        operationId: 'deactivatePaymentLink',
        tags: ['Payment links'],
        summary: 'Deactivate a payment link',
        description:
          'An `ACTIVE` link becomes `DEACTIVATED` and takes no more payments (a payment already started goes on). Again on a `DEACTIVATED` link: the same answer. A `PAID` or `EXPIRED` link: 409. Requires scope `payments:write`.',
        security: bearer,
        params: PaymentLinkIdParamsSchema,
        response: {
          200: jsonResponse('The payment link, `DEACTIVATED`', PaymentLinkResourceSchema),
          ...ErrorResponses(400, 401, 403, 404, 409, 429, 500),
        },
      },
    },
    async (request) => paymentLinkView(await links.deactivate(callerOf(request), request.params.paymentLinkId), baseUrl),
  );
}
