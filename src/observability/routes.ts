/** Liveness, readiness and metrics endpoints, for load balancers and Prometheus. Not part of the public API. */
import { sql, type Kysely } from 'kysely';
import type { App } from '../http/fastify-types.js';
import type { DatabaseHandle } from '../storage/database.js';
import { hasPendingMigrations } from '../storage/migrations.js';
import type { Metrics } from './metrics.js';

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

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequestDuration.observe({ route, method: request.method, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
