/**
 * `POST /notifications/berlin-group/:token`: where a Berlin Group bank pushes a status notification of a payment
 * (the standard's "lean push", `TPP-Notification-URI`; src/flow/steps/notification.ts makes the address). Not part
 * of the API document: it is the bank's, not a client's.
 *
 * The notification's body is checked for shape and then ignored: its statuses are never taken as the payment's (a
 * forged, replayed or stale one could otherwise change a payment). A known token makes the payment's bank-status job
 * due now, which asks the bank (`FlowEngine.bankNotified`); the answer is 204 at once. An unknown token gets the
 * same 404 as a path no route matches, so the answer tells nothing about which payments exist. Limited per source
 * address like the API's clients (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { FlowEngine } from '../flow/engine.js';
import { sendRouteNotFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import type { RateLimiter } from '../http/rate-limit.js';

/** The largest notification a bank may post: a few status fields and a resource path. */
const NOTIFICATION_BODY_LIMIT_BYTES = 16 * 1024;

const NotificationParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

/**
 * A Berlin Group resource status notification: the resource it is about and the status attributes that changed. The
 * fields are read only to log them; other fields a bank adds are allowed.
 */
export const BerlinGroupNotificationBody = Type.Object(
  {
    resource: Type.Optional(Type.String({ maxLength: 2048 })),
    transactionStatus: Type.Optional(Type.String({ maxLength: 64 })),
    scaStatus: Type.Optional(Type.String({ maxLength: 64 })),
    consentStatus: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: true },
);

export interface BankNotificationRoutesOptions {
  readonly flow: FlowEngine;
  /** The limiter of these routes, keyed by the sender's address. */
  readonly rateLimiter: RateLimiter;
}

export function registerBankNotificationRoutes(app: App, options: BankNotificationRoutesOptions): void {
  const { flow, rateLimiter } = options;
  app.post(
    '/notifications/berlin-group/:token',
    {
      bodyLimit: NOTIFICATION_BODY_LIMIT_BYTES,
      onRequest: async (request) => rateLimiter(request, `bank-notification:${request.ip}`),
      schema: { hide: true, params: NotificationParams, body: BerlinGroupNotificationBody },
    },
    async (
      request: FastifyRequest<{ Params: Static<typeof NotificationParams>; Body: Static<typeof BerlinGroupNotificationBody> }>,
      reply: FastifyReply,
    ) => {
      const known = await flow.bankNotified(request.params.token);
      if (!known) {
        request.log.info('bank notification refused: unknown address');
        return sendRouteNotFound(request, reply);
      }
      const { transactionStatus, scaStatus, consentStatus } = request.body;
      // What the bank says is logged for support only; the bank-status job asks the bank for the truth.
      request.log.info({ transactionStatus, scaStatus, consentStatus }, 'bank notification received; asking the bank');
      return reply.code(204).send();
    },
  );
}
