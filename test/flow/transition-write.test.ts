/**
 * A transition writes the payment's columns it may change (status, version, the changes it names) and no others:
 * a column written beside the engine, such as the flow deadline the sandbox's scenario runner moves, is kept, and
 * the indexes on columns a transition never changes are left alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { PaymentStateStore } from '../../src/flow/payment-state-store.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

for (const kind of await testDatabaseKinds()) {
  describe(`a transition's write [${kind.name}]`, () => {
    let t: TestApp;
    let token: string;
    let store: PaymentStateStore;

    before(async () => {
      t = await startTestApp(kind);
      token = await (await t.createClient()).token();
      store = new PaymentStateStore(t.database.db, new SecretBox(t.config.secretKeys));
    });
    after(() => t.close());

    async function createPayment(): Promise<string> {
      const response = await t.request('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest() });
      assert.equal(response.status, 201);
      return ((await response.json()) as { paymentId: string }).paymentId;
    }

    it('keeps a column it does not change that was written after the payment was loaded', async () => {
      const paymentId = await createPayment();
      const payment = await store.load(paymentId);
      assert.ok(payment);
      const movedDeadline = new Date(Date.now() + 5_000).toISOString();
      await t.database.db.updateTable('payments').set({ flow_expires_at: movedDeadline }).where('id', '=', paymentId).execute();

      const result = await store.transition({
        payment,
        path: [{ status: 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING' }],
        changes: { locale: 'de', flowState: { step: 'chosen' } },
      });
      assert.equal(result.kind, 'applied');

      const row = await t.database.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
      assert.equal(row.flow_expires_at, movedDeadline);
      // What the transition names is written, and the flow token is still the one the payer's link carries.
      assert.deepEqual(
        [row.detailed_status, Number(row.version), row.locale, row.flow_state],
        ['PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING', payment.version + 1, 'de', JSON.stringify({ step: 'chosen' })],
      );
      const reloaded = await store.load(paymentId);
      assert.equal(reloaded?.flowToken, payment.flowToken);
      assert.equal(reloaded?.providerId, payment.providerId);
    });

    it('clears a change given as null (an update without a status)', async () => {
      const paymentId = await createPayment();
      const first = await store.load(paymentId);
      assert.ok(first);
      const moved = await store.transition({
        payment: first,
        path: [{ status: 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING' }],
        changes: { flowState: { step: 'one' } },
      });
      assert.equal(moved.kind, 'applied');
      const second = await store.load(paymentId);
      assert.ok(second);
      const cleared = await store.update(second, { flowState: null });
      assert.equal(cleared.kind, 'applied');
      assert.equal((await store.load(paymentId))?.flowState, null);
    });
  });
}
