/**
 * The lease and the writes that do not take it. A request or job holding a payment's lease owns its status and its
 * bank references; the payer's page key and language (and the operator's pending alert) are written without the
 * lease. Such a write landing while a holder talks to the bank must not cost the holder its commit: the bank's
 * answer may be one that cannot be asked for again (a spent CIBA grant or authorisation code, a submitted payment),
 * and a lost commit also left the lease standing until it ran out, so nobody asked the bank for a minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CompleteAuthorisationInput, Connectors } from '../../src/connectors/index.js';
import { flowStateOf } from '../../src/flow/flow-state.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { get } from '../hosted/http-payer.js';
import { payerInBankApp } from '../sandbox-bank/uk-open-banking/tpp.js';

const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';

/** Holds `completeAuthorisation` answers (after the bank answered) while `held` is set. */
class CompletionGate {
  held: { reached: () => void; release: Promise<void>; fail: boolean } | undefined;

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings) => {
        const connector = connectors.for(settings);
        return new Proxy(connector, {
          get: (target, property, receiver) => {
            if (property !== 'completeAuthorisation') return Reflect.get(target, property, receiver);
            return async (input: CompleteAuthorisationInput) => {
              const result = await target.completeAuthorisation(input);
              const held = this.held;
              if (held !== undefined) {
                held.reached();
                await held.release;
                if (held.fail) throw new Error('unexpected failure after the bank answered');
              }
              return result;
            };
          },
        });
      },
      close: () => connectors.close(),
    };
  }

  /** Holds the next completion; resolves `reached` once the bank answered it, and lets it go on `release()`. */
  hold(options: { fail?: boolean } = {}): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    this.held = { reached, release: new Promise<void>((resolve) => (release = resolve)), fail: options.fail === true };
    return {
      reached: reachedPromise,
      release: () => {
        this.held = undefined;
        release();
      },
    };
  }
}

for (const kind of await testDatabaseKinds()) {
  describe(`writes without the lease while a holder is at the bank (${kind.name})`, () => {
    const gate = new CompletionGate();
    let app: TestApp;
    let client: TestClient;
    let token: string;

    before(async () => {
      app = await startTestApp(kind, { wrapConnectors: (connectors) => gate.wrap(connectors) });
      client = await app.createClient();
      token = await client.token();
    });
    after(async () => {
      await app?.close();
    });

    async function history(paymentId: string): Promise<string[]> {
      const response = await app.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token });
      return ((await response.json()) as Array<{ detailedStatus: string }>).map((record) => record.detailedStatus);
    }

    /** A Pennine (CIBA) payment, its waiting page seen once; returns its flow link. */
    async function decoupledPayment(): Promise<{ paymentId: string; redirectUrl: string }> {
      const created = await app.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
      // The payer's first visit (the page key is made) shows the waiting page: the bank has notified the app.
      const waiting = await get(redirectUrl);
      assert.equal(waiting.status, 200);
      assert.equal((await history(paymentId)).at(-1), 'PAYMENT_CONSENT_REDIRECT_PENDING');
      return { paymentId, redirectUrl };
    }

    async function storedRow(paymentId: string) {
      const row = await app.database.db
        .selectFrom('payments')
        .select(['locale', 'flow_state'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return {
        locale: row.locale,
        state: flowStateOf({ flowState: row.flow_state === null ? null : (JSON.parse(row.flow_state) as Record<string, unknown>) }),
      };
    }

    it('a language switch during a CIBA poll that got the token: the payment is submitted, the language kept, the lease released', async () => {
      const { paymentId, redirectUrl } = await decoupledPayment();
      assert.equal(await payerInBankApp({ base: `${app.baseUrl}/sandbox-bank/uk` }, 'pennine', 'alice', 'approve'), 1);

      // The page's reload polls the grant: the bank hands over the token and takes the payment, and while that
      // answer is on its way back to the engine, the payer switches the language (a write without the lease).
      const hold = gate.hold();
      const polling = get(redirectUrl);
      await hold.reached;
      const switched = await get(`${redirectUrl}?lang=de`);
      assert.equal(switched.status, 200);
      hold.release();
      await polling;

      const statuses = await waitFor(
        'the submission recorded',
        async () => {
          const recorded = await history(paymentId);
          return recorded.includes('PAYMENT_EXECUTION_PENDING') ? recorded : undefined;
        },
        5_000,
      );
      assert.equal(statuses.at(-2), 'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING');
      const { locale, state } = await storedRow(paymentId);
      assert.equal(locale, 'de', 'the language switch is kept');
      assert.equal(state.leaseUntil, undefined, 'the lease is released');
      assert.ok(state.page?.key !== undefined, 'the page key is kept');
    });

    it('a language switch while a holder fails unexpectedly: nothing recorded, the lease released at once, the language kept', async () => {
      const { paymentId, redirectUrl } = await decoupledPayment();
      const hold = gate.hold({ fail: true });
      const polling = get(redirectUrl);
      await hold.reached;
      assert.equal((await get(`${redirectUrl}?lang=fr`)).status, 200);
      hold.release();
      assert.equal((await polling).status, 500);
      const { locale, state } = await storedRow(paymentId);
      assert.equal(locale, 'fr');
      assert.equal(state.leaseUntil, undefined, 'the lease is released');
      assert.equal((await history(paymentId)).at(-1), 'PAYMENT_CONSENT_REDIRECT_PENDING');
    });
  });
}
