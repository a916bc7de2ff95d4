import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

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
      const response = await t.request('/metrics');
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await response.text();
      assert.match(text, /openpis_payments_created_total\{mode="hosted"\} 1/);
      assert.match(text, /openpis_payment_transitions_total\{detailed_status="PROVIDER_SELECTION_REDIRECT_PENDING"\} 1/);
      assert.match(text, /openpis_http_request_duration_seconds_count\{route="\/api\/v1\/ob\/payments",method="POST",status_code="201"\} 1/);
      // The creation scheduled its expiry job; it is not due yet, so the queue gauge reads nothing due.
      assert.match(text, /openpis_queue_due\{queue="webhook"\} 0/);
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
