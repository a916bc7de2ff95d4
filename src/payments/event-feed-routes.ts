/**
 * `GET /api/v1/events`: the caller's event feed, for clients that cannot receive webhooks and for catching up after
 * an outage. The same events as the webhooks: the same ids (`webhook-id`) and, in `data`, the very bytes a webhook
 * of the event delivers (docs/api-decisions.md, "Lists and the event feed").
 */
import type { FastifyReply } from 'fastify';
import { callerOf, type Authenticator } from '../auth/authenticate.js';
import { INVALID_CURSOR_MESSAGE, type CursorCodec } from '../http/cursor.js';
import { ErrorResponses, jsonResponse } from '../http/error-schemas.js';
import { ValidationError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { queryStringValidator } from '../http/query-string.js';
import type { EventFeed, FeedEvent } from '../webhooks/event-feed.js';
import { EVENT_FEED_DEFAULT_LIMIT, EventFeedQuerySchema, EventFeedSchema } from './schemas.js';

export interface EventFeedRoutesOptions {
  readonly auth: Authenticator;
  readonly events: EventFeed;
  readonly cursors: CursorCodec;
}

/** The feed position an `after` cursor carries. */
function positionOf(cursors: CursorCodec, clientId: string, after: string): number {
  const position = cursors.decode('events', clientId, after)?.position;
  if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0)
    throw new ValidationError([INVALID_CURSOR_MESSAGE('after')]);
  return position;
}

/**
 * The answer as JSON text, each event's stored body embedded as it is: `data` is byte for byte what its webhook
 * carries (a serialiser would re-order or drop fields it does not know), so a consumer may verify or forward it.
 */
function feedPage(events: readonly FeedEvent[], nextCursor: string): string {
  const items = events.map(
    (event) =>
      `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt)},"data":${event.body}}`,
  );
  return `{"items":[${items.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
}

export function registerEventFeedRoutes(app: App, options: EventFeedRoutesOptions): void {
  const { auth, events, cursors } = options;

  app.get(
    '/api/v1/events',
    {
      onRequest: auth.require('payments:read'),
      validatorCompiler: queryStringValidator,
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'Read the event feed',
        description:
          "The caller's events, oldest first, after the `after` cursor: every status change of every payment, whether or not the payment has a `webhookUrl`. Each item's `id` is the `webhook-id` and `data` the exact body of the event's webhook. Poll with `nextCursor`. Requires scope `payments:read`.",
        security: [{ bearerAuth: [] }],
        querystring: EventFeedQuerySchema,
        response: {
          200: jsonResponse('Events after the cursor, oldest first, and the cursor to read on from', EventFeedSchema),
          ...ErrorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const client = callerOf(request);
      const after = request.query.after === undefined ? 0 : positionOf(cursors, client.clientId, request.query.after);
      const limit = request.query.limit ?? EVENT_FEED_DEFAULT_LIMIT;
      // Read before the events: every event up to this position has committed (docs/api-decisions.md), so a page
      // shorter than the limit has seen them all and the cursor may move past events of other types.
      const committed = await events.latestPosition(client.clientId);
      const page = await events.after(client.clientId, after, limit, request.query.type);
      const last = page[page.length - 1];
      const reachedEnd = page.length < limit;
      const nextPosition = Math.max(after, last?.position ?? 0, reachedEnd ? committed : 0);
      const body = feedPage(page, cursors.encode('events', client.clientId, { position: nextPosition }));
      // JSON text is sent as it is (Fastify serialises objects only); the schema above documents its shape.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );
}
