/**
 * The standard's push (issue 22, "polite, fast polling"): a Berlin Group bank that offers status notifications gets
 * our per-payment address with the payment, and its notification wakes the payment's bank-status job, which asks
 * the bank. Polling is slowed right down here (a base of ten minutes), so only the notification can finish a
 * payment within the bound. A notification is never believed: a forged address is refused with 404 and changes
 * nothing, and a notification that claims a final status while the bank says otherwise changes nothing either.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Connectors } from '../../src/connectors/index.js';
import { flowStateOf, type FlowState } from '../../src/flow/flow-state.js';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { get, submit } from '../hosted/http-payer.js';
import { TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { waitFor } from '../helpers/wait.js';

/** Norrland Sandbox Bank: decoupled, SEK, with status notifications (src/providers/sandbox-catalogue.json). */
const NORRLAND = 'b4a261b2-d449-441f-9bbe-cef91dfc6ff1';
/** Polder Sandbox Bank: redirect, EUR, with status notifications. */
const POLDER = 'd18beafa-aa91-443f-8093-91ba05c17716';

/** Records the notification address the engine gives the bank, and the bank calls made, by operation. */
class BankCallRecorder {
  readonly calls: string[] = [];
  notificationUri: string | undefined;

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings, caller) => {
        const connector = connectors.for(settings, caller);
        return new Proxy(connector, {
          get: (target, property, receiver) => {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof property !== 'string' || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              const input = args[0] as { notificationUri?: string } | undefined;
              if (input?.notificationUri !== undefined) this.notificationUri = input.notificationUri;
              this.calls.push(property);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
      },
      close: () => connectors.close(),
    };
  }

  count(operation: string): number {
    return this.calls.filter((call) => call === operation).length;
  }
}

/** A SEK payment at Norrland, its payer's login id in the request (the flow runs to the decoupled wait). */
function norrlandPayment(): Record<string, unknown> {
  return {
    provider: { id: NORRLAND },
    paymentScheme: { name: 'DOMESTIC' },
    currency: 'SEK',
    amount: 125,
    recipient: {
      account: { number: { type: 'IBAN', value: 'SE3550000000054910000003' } },
      name: 'Acme AB',
      address: { country: 'SE', city: 'Stockholm', streetName: 'Drottninggatan', buildingNumber: '1', postCode: '111 51' },
    },
    sender: { credentials: { id: 'sven' } },
  };
}

/** Generous: the notification makes it within seconds; polling alone would take ten minutes or more. */
const BOUND_MS = 30_000;
/** hanna's payments rest at ACTC for 5 s and ACSP for 30 s after SCA, then settle (the sandbox's test payers). */
const HANNA_SETTLES_MS = 35_000;

for (const kind of await testDatabaseKinds()) {
  describe(`status notifications of a Berlin Group bank (${kind.name})`, () => {
    let flow: FlowHarness;
    const recorder = new BankCallRecorder();

    before(async () => {
      flow = await startFlowHarness(
        kind,
        { BANK_STATUS_POLL_BASE_MS: '600000', BANK_STATUS_POLL_MAX_MS: '3600000' },
        { wrapConnectors: (connectors) => recorder.wrap(connectors) },
      );
    });
    after(async () => {
      await flow?.close();
    });

    async function flowState(paymentId: string): Promise<FlowState> {
      const row = await flow.app.database.db
        .selectFrom('payments')
        .select('flow_state')
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      return flowStateOf({ flowState: row.flow_state === null ? null : (JSON.parse(row.flow_state) as Record<string, unknown>) });
    }

    /** True once the payment's bank-status job waits, unclaimed, for a look more than a minute away. */
    async function parkedJob(paymentId: string): Promise<true | undefined> {
      const job = await flow.app.database.db
        .selectFrom('jobs')
        .select(['run_at', 'locked_by'])
        .where('subject_id', '=', paymentId)
        .where('kind', '=', 'bank-status')
        .executeTakeFirst();
      return job !== undefined && job.locked_by === null && Date.parse(job.run_at) > Date.now() + 60_000 ? true : undefined;
    }

    async function latest(paymentId: string): Promise<string> {
      const history = await flow.history(paymentId);
      return history[history.length - 1]?.detailedStatus ?? '';
    }

    async function notify(path: string, body: unknown): Promise<Response> {
      return fetch(new URL(path, flow.app.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    }

    it('a notification claiming a final status only makes us ask the bank; a forged address is refused; the approval is pushed and completes the payment at once', async () => {
      recorder.notificationUri = undefined;
      const created = await flow.create(norrlandPayment());
      await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_CONSENT_REDIRECT_PENDING');
      const uri = recorder.notificationUri;
      assert.ok(uri !== undefined, 'the initiation carried our notification address');
      const address = new URL(uri);
      assert.equal(address.origin, new URL(flow.app.baseUrl).origin, 'the address is on our own domain');
      assert.match(address.pathname, new RegExp(`^/notifications/berlin-group/${created.paymentId}\\.[A-Za-z0-9_-]{43}$`));
      const state = await flowState(created.paymentId);
      assert.equal(state.notification?.confirmed, true, "the bank's ASPSP-Notification-Support: true is kept");
      const historyBefore = await flow.history(created.paymentId);

      // A forged address (the right payment, another secret) and a token of no shape: 404, the answer of no route.
      const forged = await notify(`/notifications/berlin-group/${created.paymentId}.${'A'.repeat(43)}`, { transactionStatus: 'ACSC' });
      assert.equal(forged.status, 404);
      const nowhere = await notify('/notifications/berlin-group/no-such-route-at-all', {});
      assert.equal(nowhere.status, 404);
      assert.deepEqual(await forged.json(), await nowhere.json(), 'a forged address is answered like a path no route matches');

      // Our address with a body that says the payment settled, while the payer has not approved: the job asks the bank.
      // Once the first look is over and the job parked at its distant next look (a notification that comes during a
      // look can be overtaken by that look's own reschedule: docs/state-machine.md, invariant 4).
      await waitFor('the first look at the bank over, the next one far away', () => parkedJob(created.paymentId), BOUND_MS);
      const looksBefore = recorder.count('completeAuthorisation');
      const claimed = await notify(address.pathname, { resource: '/v1/payments/sek-credit-transfers/x', transactionStatus: 'ACSC' });
      assert.equal(claimed.status, 204);
      await waitFor(
        'the look the notification caused',
        () => (recorder.count('completeAuthorisation') > looksBefore ? true : undefined),
        BOUND_MS,
      );
      assert.equal(await latest(created.paymentId), 'PAYMENT_CONSENT_REDIRECT_PENDING', 'the claimed status was not believed');
      assert.deepEqual(await flow.history(created.paymentId), historyBefore, 'nothing was recorded');

      // The payer approves in the bank's app: the bank's notification wakes the job, long before any poll is due.
      const appUrl = (await flowState(created.paymentId)).decoupledAppUrl;
      assert.ok(appUrl !== undefined, 'the sandbox app is linked');
      await completeBankPages(appUrl, { psuId: 'sven', password: TEST_PASSWORD, otp: '123456' });
      await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED', BOUND_MS);
    });

    it('a redirect payment settling late at the bank is completed by its notifications, not by the next poll', async () => {
      const response = await flow.app.request('/api/v1/ob/payments', {
        method: 'POST',
        token: await flow.client.token(),
        json: { ...polderPayment() },
      });
      assert.equal(response.status, 201);
      const { paymentId, redirectUrl } = (await response.json()) as { paymentId: string; redirectUrl: string };
      const review = await get(redirectUrl);
      const continued = await submit(redirectUrl, review.html, 'continue');
      assert.equal(continued.status, 303);
      const atBank = await completeBankPages(new URL(continued.location ?? '', redirectUrl).href, {
        psuId: 'hanna',
        password: TEST_PASSWORD,
        otp: '123456',
      });
      const callback = atBank.redirectedTo ?? '';
      assert.ok(callback.includes(`/pay/return/${paymentId}/`), callback);
      assert.equal((await get(callback)).status, 303);
      assert.equal((await flowState(paymentId)).notification?.confirmed, true);
      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_PENDING', BOUND_MS);
      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED', HANNA_SETTLES_MS + BOUND_MS);
    });
  });
}

function polderPayment(): Record<string, unknown> {
  return paymentRequest({ provider: { id: POLDER } });
}
