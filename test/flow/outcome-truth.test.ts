/**
 * The outcome is the bank's truth under the faults a live bank produces daily (issue 22's five reproductions):
 * a login answered after our timeout, a process that dies between the bank's answer and our commit, a registration
 * whose answer is lost while the creation carried the password, a one-time code answered after our timeout, and the
 * polling schedule. Each payment ends where the bank says (COMPLETED if and only if the bank settled), never FAILED
 * while the bank executed, and never rests without a job or a payer's page.
 *
 * The sandbox banks get a 4 s answer timeout here (a catalogue of their own), so a "slow" answer is one of 5.5 s.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BankUnavailableError, type Connectors } from '../../src/connectors/index.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { sandboxCatalogueWithTimeouts } from '../helpers/sandbox-payments.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { injectSandboxFault } from '../helpers/test-app.js';
import { get, submitAndFollow } from '../hosted/http-payer.js';

const ANSWER_TIMEOUT_MS = 4000;
/**
 * Past our timeout and past the first look of reconciliation (a second after the timeout), within the settle window
 * (twice the timeout) with seconds to spare: the bank acts after we looked once and saw nothing.
 */
const SLOW_MS = 5500;

/** The built-in sandbox catalogue with a short answer timeout for every bank, in a file of its own. */
type Fault =
  /** The bank acts, then the process dies before our commit (an unexpected error after the bank's answer). */
  | 'crash-after-acting'
  /** The bank acts; its answer is lost (a timeout, as when the answer does not come back in time). */
  | 'lost-after-acting';

/** Connectors whose next call of an operation meets a fault, after the real call (the bank acted). */
class FaultyConnectors {
  private readonly next = new Map<string, Fault>();

  arm(operation: string, fault: Fault): void {
    this.next.set(operation, fault);
  }

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings, caller) => {
        const connector = connectors.for(settings, caller);
        return new Proxy(connector, {
          get: (target, property, receiver) => {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof property !== 'string' || typeof value !== 'function') return value;
            return async (...args: unknown[]) => {
              const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              const fault = this.next.get(property);
              if (fault === undefined) return result;
              this.next.delete(property);
              if (fault === 'crash-after-acting') throw new Error(`simulated crash after the bank answered ${property}`);
              throw new BankUnavailableError(property, 'timeout');
            };
          },
        });
      },
      close: () => connectors.close(),
    };
  }
}

const kinds = await testDatabaseKinds();

for (const kind of kinds) {
  describe(`the outcome is the bank's truth under faults [${kind.name}]`, () => {
    let flow: FlowHarness;
    let dir: string;
    const faulty = new FaultyConnectors();

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openpis-outcome-'));
      flow = await startFlowHarness(
        kind,
        {
          PROVIDER_CATALOGUE_FILE: sandboxCatalogueWithTimeouts(dir, ANSWER_TIMEOUT_MS),
          BANK_STATUS_POLL_BASE_MS: '100',
          BANK_STATUS_POLL_MAX_MS: '400',
        },
        { wrapConnectors: (connectors) => faulty.wrap(connectors) },
      );
    });
    after(async () => {
      await flow?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    async function fault(slug: string, rule: Record<string, unknown>): Promise<void> {
      const response = await injectSandboxFault(flow.app, slug, rule);
      assert.equal(response.status, 201, await response.text());
    }

    /** Waits for a final status and returns the history's detailed statuses. */
    async function ends(paymentId: string, timeoutMs = 30_000): Promise<string[]> {
      await flow.waitFor(paymentId, (status) => status.endsWith('_COMPLETED') || status.endsWith('_FAILED'), timeoutMs);
      return statuses(await flow.history(paymentId));
    }

    /** Open payments with neither a job nor a payer's page to go on from (the invariant "no payment without a future"). */
    async function paymentsWithoutFuture(): Promise<string[]> {
      const rows = await flow.app.database.db
        .selectFrom('payments')
        .select(['id', 'detailed_status'])
        .where((eb) => eb.not(eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.subject_id', '=', 'payments.id'))))
        .execute();
      return rows
        .filter((row) => !row.detailed_status.endsWith('_COMPLETED') && !row.detailed_status.endsWith('_FAILED'))
        .map((row) => row.id);
    }

    it('1. a login answered after our timeout, then taken by the bank: COMPLETED, never FAILED, the payer never asked again', async () => {
      await fault('hansa', { psuId: 'dave', operations: ['startAuthorisation'], fault: { kind: 'delay', delayMs: SLOW_MS }, times: 1 });
      const created = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'dave', password: TEST_PASSWORD } },
      });
      const history = await ends(created.paymentId);
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')), history.join(' > '));
      assert.ok(!history.includes('SENDER_AUTHORIZATION_REDIRECT_PENDING'), 'the payer was asked to log in again');
    });

    it('2. the process dies after the bank accepted the login, before our commit: the stored reference is reconciled to COMPLETED', async () => {
      faulty.arm('startAuthorisation', 'crash-after-acting');
      const response = await flow.app.request('/api/v1/ob/payments', {
        method: 'POST',
        token: await flow.client.token(),
        json: paymentRequest({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'dave', password: TEST_PASSWORD } } }),
      });
      // The creation itself answered 500 (the simulated crash); the payment exists and the bank holds it authorised.
      assert.equal(response.status, 500, await response.clone().text());
      const latest = await flow.app.database.db
        .selectFrom('payments')
        .select(['id'])
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      const paymentId = latest.id;
      assert.equal(statuses(await flow.history(paymentId)).length, 1, 'the crash left the payment at its first status');
      const history = await ends(paymentId);
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      const payment = await flow.app.database.db
        .selectFrom('payments')
        .select(['provider_payment_id'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      assert.ok(payment.provider_payment_id !== null, 'the bank reference is known');
    });

    it('3. a registration whose answer is lost once is sent again within the request: COMPLETED, the payer never asked', async () => {
      await fault('hansa', {
        psuId: 'dave',
        operations: ['initiatePayment'],
        fault: { kind: 'timeout', holdMs: SLOW_MS, afterActing: true },
        times: 1,
      });
      const created = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'dave', password: TEST_PASSWORD } },
      });
      const history = await ends(created.paymentId);
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.includes('FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING'), 'the payer was asked');
    });

    it('3. a registration whose answer is lost twice while the creation carried the password: the payer is asked at once, not left silent', async () => {
      await fault('hansa', { psuId: 'dave', operations: ['initiatePayment'], fault: { kind: 'timeout', holdMs: SLOW_MS }, times: 2 });
      const created = await flow.create({
        provider: { id: BANKS.hansa },
        sender: { credentials: { id: 'dave', password: TEST_PASSWORD } },
      });
      assert.equal(created.status, 'PENDING');
      const history = statuses(await flow.history(created.paymentId));
      // Within the creation request: the payer is needed at the redirectUrl (the client's webhook says so).
      assert.equal(history.at(-1), 'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING', history.join(' > '));
      assert.deepEqual(await paymentsWithoutFuture(), []);
      // The payer logs in on our form and pays.
      const form = await get(created.redirectUrl, {}, flow.seen);
      assert.equal(form.status, 200);
      const next = await submitAndFollow(
        created.redirectUrl,
        form.html,
        'details',
        { loginId: 'dave', password: TEST_PASSWORD },
        flow.seen,
      );
      assert.equal(next.status, 200);
      const final = await ends(created.paymentId);
      assert.equal(final.at(-1), 'PAYMENT_EXECUTION_COMPLETED', final.join(' > '));
    });

    it('4. a one-time code answered after our timeout, and taken by the bank: COMPLETED without asking the payer again', async () => {
      await fault('italia', { psuId: 'bob', operations: ['updateAuthorisation'], fault: { kind: 'delay', delayMs: SLOW_MS }, times: 1 });
      const created = await flow.create({
        provider: { id: BANKS.italia },
        sender: { credentials: { id: 'bob', password: TEST_PASSWORD } },
      });
      const codePage = await get(created.redirectUrl, {}, flow.seen);
      assert.match(codePage.html, /one-time code/i);
      // The code's answer comes after our timeout: the payer waits (no form again), and the bank's truth arrives.
      const afterCode = await submitAndFollow(created.redirectUrl, codePage.html, 'code', { otp: '123456' }, flow.seen);
      assert.doesNotMatch(afterCode.html, /could not process the code/i);
      const history = await ends(created.paymentId);
      assert.equal(history.at(-1), 'PAYMENT_EXECUTION_COMPLETED', history.join(' > '));
      assert.ok(!history.some((status) => status.endsWith('_FAILED')));
    });

    it('the sweep finds open payments without a future (as an older version could leave them) and gives each one', async () => {
      // A custom-mode payment whose run died (its lease long gone, nothing else written), and a hosted one at the bank
      // list, their jobs gone.
      const custom = await flow.create({ provider: { id: BANKS.hansa } });
      const hosted = await flow.create({ provider: undefined });
      await flow.app.database.db
        .updateTable('payments')
        .set({ flow_state: JSON.stringify({ leaseUntil: '2026-01-01T00:00:00.000Z' }) })
        .where('id', '=', custom.paymentId)
        .execute();
      for (const paymentId of [custom.paymentId, hosted.paymentId]) {
        await flow.app.database.db.deleteFrom('jobs').where('subject_id', '=', paymentId).execute();
      }
      const stranded = await paymentsWithoutFuture();
      assert.ok(stranded.includes(custom.paymentId) && stranded.includes(hosted.paymentId), stranded.join(', '));
      assert.ok((await flow.app.app.flowSweep()) >= 2);
      // The custom one goes on by itself to the payer's form; the hosted one waits at the bank list with its expiry.
      await flow.waitFor(custom.paymentId, (status) => status === 'FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING');
      assert.equal(statuses(await flow.history(hosted.paymentId)).at(-1), 'PROVIDER_SELECTION_REDIRECT_PENDING');
      await flow.app.app.flowSweep();
      assert.deepEqual(await paymentsWithoutFuture(), []);
      assert.ok(flow.app.logs.some((line) => line.includes('open payment without a future found') && line.includes(custom.paymentId)));
    });

    it('every payment of these faults has a future at every moment it is open, and the password is nowhere', async () => {
      assert.deepEqual(await paymentsWithoutFuture(), []);
      await flow.assertPasswordNowhere();
    });
  });
}
