/**
 * Phase 7 reconciliation against an unreliable bank: while the bank answers 503 the payment stays pending and the
 * status job backs off and asks again; once the bank answers, the payment completes. Nothing is failed on an
 * indeterminate answer (decisions §3).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

for (const kind of await testDatabaseKinds()) {
  describe(`bank status reconciliation [${kind.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(kind, { workers: true, env: { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200', WORKER_POLL_INTERVAL_MS: '20' } });
    });
    after(() => t.close());

    it('keeps polling through bank 503s, never failing the payment, until the bank settles it', async () => {
      const hansa = t.catalogue.banks('sandbox').find((bank) => bank.name === 'Hansa Direktbank Sandbox');
      assert.ok(hansa);
      const fault = await fetch(`${t.baseUrl}/sandbox-bank/hansa/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.config.sandboxOperatorToken}` },
        body: JSON.stringify({ operations: ['getPaymentStatus'], fault: { kind: 'error', status: 503 }, times: 4 }),
      });
      assert.equal(fault.status, 201);

      const token = await (await t.createClient()).token();
      // dave needs no SCA step: with his credentials in the request the flow runs straight to execution.
      const created = await t.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: paymentRequest({ provider: { id: hansa.id }, sender: { credentials: { id: 'dave', password: 'sandbox' } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId } = (await created.json()) as { paymentId: string };

      const history = await waitFor(
        'completion',
        async () => {
          const records = (await (await t.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token })).json()) as { detailedStatus: string }[];
          return records.at(-1)?.detailedStatus === 'PAYMENT_EXECUTION_COMPLETED' ? records : undefined;
        },
        15_000,
      );
      const statuses = history.map((record) => record.detailedStatus);
      assert.deepEqual(statuses.slice(-2), ['PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED']);
      assert.ok(statuses.every((status) => !status.endsWith('_FAILED')));
      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      assert.match(metrics, /openpis_bank_calls_total\{provider="Hansa Direktbank Sandbox",operation="getPaymentStatus",result="unavailable"\} 4/);
      assert.match(metrics, /openpis_bank_calls_total\{provider="Hansa Direktbank Sandbox",operation="getPaymentStatus",result="ok"\} [1-9]/);
    });
  });
}
