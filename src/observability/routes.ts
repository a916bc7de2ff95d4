/**
 * Liveness and readiness endpoints (for load balancers, on the API port) and the metrics listener (for Prometheus,
 * on a port of its own: METRICS_HOST/METRICS_PORT, loopback by default, optionally behind METRICS_TOKEN).
 * Not part of the public API.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { App } from '../http/fastify-types.js';
import type { DatabaseHandle } from '../storage/database.js';
import { hasPendingMigrations } from '../storage/migrator.js';
import type { Metrics } from './metrics.js';

/**
 * The metrics listener: `GET /metrics` and nothing else. Kept off the public API port so that traffic and queue
 * figures are not published to the internet; with a token, a scraper must send it as a bearer token.
 */
export function buildMetricsServer(options: {
  metrics: Metrics;
  token?: string | undefined;
  logger?: FastifyInstance['log'];
}): FastifyInstance {
  const { metrics, token } = options;
  const app = Fastify({ ...(options.logger === undefined ? {} : { loggerInstance: options.logger }), forceCloseConnections: true });
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', async (request, reply) => {
    if (expected !== undefined) {
      const sent = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      // Compare fixed-length digests in constant time, so the comparison says nothing about the token.
      if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ title: 'Unauthorized', statusCode: 401, message: 'Send the metrics token (METRICS_TOKEN) as a bearer token' });
      }
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
  return app;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function registerObservabilityRoutes(app: App, options: { database: DatabaseHandle; metrics: Metrics }): void {
  const { database, metrics } = options;

  // Alive: the process answers. Nothing else is checked, so a slow database never gets a live process killed.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Ready: the database answers and every migration of this build is applied.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      if (await hasPendingMigrations(database.db as unknown as Kysely<unknown>)) {
        return reply.code(503).send({ status: 'unavailable', reason: 'database migrations pending' });
      }
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', reason: 'database unreachable' });
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequestDuration.observe({ route, method: request.method, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
