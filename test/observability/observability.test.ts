import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { freePort, startTestApp, type TestApp } from '../helpers/test-app.js';
import { loadConfig } from '../../src/config/config.js';
import { Metrics } from '../../src/observability/metrics.js';
import { buildMetricsServer } from '../../src/observability/routes.js';

for (const kind of await testDatabaseKinds()) {
  describe(`health and metrics [${kind.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(kind);
    });
    after(() => t.close());

    it('/healthz and /readyz answer ok when the database is migrated and reachable', async () => {
      assert.deepEqual(await (await t.request('/healthz')).json(), { status: 'ok' });
      const ready = await t.request('/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ok' });
    });

    it('/metrics exposes HTTP latency by route, payments created and transitions', async () => {
      const token = await (await t.createClient()).token();
      assert.equal((await t.request('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest() })).status, 201);
      const response = await fetch(`${t.metricsUrl}/metrics`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await response.text();
      assert.match(text, /openpis_payments_created_total\{mode="hosted"\} 1/);
      assert.match(text, /openpis_payment_transitions_total\{detailed_status="PROVIDER_SELECTION_REDIRECT_PENDING"\} 1/);
      assert.match(
        text,
        /openpis_http_request_duration_seconds_count\{route="\/api\/v1\/ob\/payments",method="POST",status_code="201"\} 1/,
      );
      // The creation scheduled its expiry job; it is not due yet, so the queue gauge reads nothing due.
      assert.match(text, /openpis_queue_due\{queue="webhook"\} 0/);
    });

    it('/metrics is not served on the public API port, only on the metrics listener', async () => {
      const response = await t.request('/metrics');
      assert.equal(response.status, 404);
      assert.doesNotMatch(await response.text(), /openpis_/);
    });
  });
}

describe('readiness without a database', () => {
  it('/readyz answers 503 when the database is unreachable', async () => {
    const [sqlite] = await testDatabaseKinds();
    assert.ok(sqlite);
    const t = await startTestApp(sqlite);
    try {
      await t.database.db.destroy();
      const response = await t.request('/readyz');
      assert.equal(response.status, 503);
      assert.equal(((await response.json()) as { status: string }).status, 'unavailable');
      assert.equal((await t.request('/healthz')).status, 200);
    } finally {
      await t.app.close();
    }
  });
});

describe('metrics listener settings', () => {
  it('listens on 127.0.0.1:9464 by default; METRICS_PORT=off turns it off', () => {
    assert.deepEqual(loadConfig({}).metrics, { host: '127.0.0.1', port: 9464, token: undefined });
    assert.equal(loadConfig({ METRICS_PORT: 'off' }).metrics, undefined);
    assert.throws(() => loadConfig({ METRICS_HOST: '0.0.0.0' }), /METRICS_TOKEN/);
  });

  it('with METRICS_TOKEN, answers only requests bearing it', async () => {
    const server = buildMetricsServer({
      metrics: new Metrics({ jobs: async () => [], webhooks: async () => ({ due: 0, oldestDueAt: null }) }),
      token: 'scrape-secret-123456',
    });
    const port = await freePort();
    await server.listen({ port, host: '127.0.0.1' });
    try {
      const anonymous = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
      const wrong = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 401);
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer scrape-secret-123456' } });
      assert.equal(scraped.status, 200);
      assert.match(await scraped.text(), /process_cpu_user_seconds_total/);
    } finally {
      await server.close();
    }
  });
});
