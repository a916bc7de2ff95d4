/**
 * A UK payer authorised, the bank issued the token (the code or CIBA grant is spent), and then the funds check or
 * the submission got no answer. The connector asks the engine to hold the token; the engine keeps it sealed in the
 * flow state and hands it back on the next look at the bank, which submits (idempotently) and moves the payment on.
 * Without it the authorised consent was stranded: every later look was a spent grant.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isSealed } from '../../src/crypto/secret-box.js';
import { flowStateOf } from '../../src/flow/flow-state.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import { injectSandboxFault, startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { get } from '../hosted/http-payer.js';
import { payerInBankApp } from '../sandbox-bank/uk-open-banking/tpp.js';

const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';

for (const kind of await testDatabaseKinds()) {
  describe(`the payer's token held across a lost submission (${kind.name})`, () => {
    let app: TestApp;
    let token: string;

    before(async () => {
      app = await startTestApp(kind, { workers: true, env: { BANK_STATUS_POLL_BASE_MS: '200', WORKER_POLL_INTERVAL_MS: '50' } });
      token = await (await app.createClient()).token();
    });
    after(async () => {
      await app?.close();
    });

    async function history(paymentId: string): Promise<string[]> {
      const response = await app.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token });
      return ((await response.json()) as Array<{ detailedStatus: string }>).map((record) => record.detailedStatus);
    }

    async function flowState(paymentId: string) {
      const row = await app.database.db.selectFrom('payments').select('flow_state').where('id', '=', paymentId).executeTakeFirstOrThrow();
      return flowStateOf({ flowState: row.flow_state === null ? null : (JSON.parse(row.flow_state) as Record<string, unknown>) });
    }

    it('CIBA: the submission answers 503 twice after the token; the sealed token pays on a later poll, to COMPLETED', async () => {
      const created = await app.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
      assert.equal((await get(redirectUrl)).status, 200);
      const fault = await injectSandboxFault(app, 'uk/pennine', {
        operations: ['createDomesticPayment'],
        fault: { kind: 'error', status: 503 },
        times: 2,
      });
      assert.equal(fault.status, 201, await fault.text());
      assert.equal(await payerInBankApp({ base: `${app.baseUrl}/sandbox-bank/uk` }, 'pennine', 'alice', 'approve'), 1);

      // The poll got the token and the submission failed: the token is held, sealed, and nothing is recorded yet.
      const held = await waitFor('the token held', async () => (await flowState(paymentId)).authorisation?.heldSecret);
      assert.ok(isSealed(held), 'held in sealed form only');
      assert.equal((await history(paymentId)).at(-1), 'PAYMENT_CONSENT_REDIRECT_PENDING');

      const statuses = await waitFor('completed', async () => {
        const recorded = await history(paymentId);
        return recorded.at(-1) === 'PAYMENT_EXECUTION_COMPLETED' ? recorded : undefined;
      });
      assert.deepEqual(statuses.slice(-3), [
        'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
        'PAYMENT_EXECUTION_PENDING',
        'PAYMENT_EXECUTION_COMPLETED',
      ]);
      assert.equal((await flowState(paymentId)).authorisation?.heldSecret, undefined, 'dropped once used');
      assert.ok(!app.logs.some((line) => line.includes(held)), 'the sealed token is in no log line');
    });
  });
}
