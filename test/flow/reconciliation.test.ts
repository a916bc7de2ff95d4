/**
 * Phase 7 reconciliation against an unreliable bank: while the bank answers 503 the payment stays pending and the
 * status job backs off and asks again; once the bank answers, the payment completes. A bank whose status endpoint
 * alone is down is read through the payment resource instead. Nothing is failed on an indeterminate answer
 * (decisions §3).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { BANKS } from '../e2e/flow-harness.js';
import { get, submit } from '../hosted/http-payer.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/** What the tests of one app need: the history of a payment, its completion, a payer approving at a redirect bank. */
function payerJourneys(app: () => TestApp, token: () => string) {
  async function history(paymentId: string): Promise<string[]> {
    const records = (await (await app().request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token: token() })).json()) as {
      detailedStatus: string;
    }[];
    return records.map((record) => record.detailedStatus);
  }

  async function reaches(paymentId: string, status: string): Promise<string[]> {
    return waitFor(
      status,
      async () => {
        const statuses = await history(paymentId);
        return statuses.at(-1) === status ? statuses : undefined;
      },
      15_000,
    );
  }

  /** A Rheinland (redirect) payment the payer `psuId` approves at the bank, back at our callback. */
  async function approvedAtRedirectBank(psuId: string): Promise<string> {
    const created = await app().request('/api/v1/ob/payments', {
      method: 'POST',
      token: token(),
      json: paymentRequest({ provider: { id: BANKS.rheinland } }),
    });
    assert.equal(created.status, 201);
    const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
    const review = await get(redirectUrl);
    const continued = await submit(redirectUrl, review.html, 'continue');
    assert.equal(continued.status, 303);
    const atBank = await completeBankPages(new URL(continued.location ?? '', redirectUrl).href, {
      psuId,
      password: 'sandbox',
      otp: '123456',
    });
    const callback = atBank.redirectedTo ?? '';
    assert.ok(callback.includes(`/pay/return/${paymentId}/`), callback);
    assert.equal((await get(callback)).status, 303);
    return paymentId;
  }

  return { history, reaches, approvedAtRedirectBank };
}

/** The value of an unlabelled metric in a Prometheus text page. */
function metricValue(page: string, name: string): number | undefined {
  const line = page.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** The app's log lines (JSON) that say a payment has been pending at the bank too long. */
function pendingAlerts(logs: readonly string[], paymentId: string): Array<Record<string, unknown>> {
  return logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter(
      (entry) => entry['msg'] === 'payment pending at the bank longer than BANK_PENDING_ALERT_SECONDS' && entry['paymentId'] === paymentId,
    );
}

for (const kind of await testDatabaseKinds()) {
  describe(`bank status reconciliation [${kind.name}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await startTestApp(kind, {
        workers: true,
        env: { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200', WORKER_POLL_INTERVAL_MS: '20' },
      });
      token = await (await t.createClient()).token();
    });
    after(() => t.close());
    const { reaches, approvedAtRedirectBank } = payerJourneys(
      () => t,
      () => token,
    );
    it('keeps polling through bank 503s, never failing the payment, until the bank settles it', async () => {
      const hansa = t.catalogue.banks('sandbox').find((bank) => bank.name === 'Hansa Direktbank Sandbox');
      assert.ok(hansa);
      // The whole bank is down for the status: the status endpoint and the payment resource, 4 reads of each.
      const fault = await fetch(`${t.baseUrl}/sandbox-bank/hansa/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.config.sandboxOperatorToken}` },
        body: JSON.stringify({ operations: ['getPaymentStatus', 'getPayment'], fault: { kind: 'error', status: 503 }, times: 8 }),
      });
      assert.equal(fault.status, 201);

      // dave needs no SCA step: with his credentials in the request the flow runs straight to execution.
      const created = await t.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: paymentRequest({ provider: { id: hansa.id }, sender: { credentials: { id: 'dave', password: 'sandbox' } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId } = (await created.json()) as { paymentId: string };

      const statuses = await reaches(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses.slice(-2), ['PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED']);
      assert.ok(statuses.every((status) => !status.endsWith('_FAILED')));
      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      assert.match(
        metrics,
        /openpis_bank_calls_total\{provider="Hansa Direktbank Sandbox",operation="getPaymentStatus",result="unavailable"\} 4/,
      );
      assert.match(
        metrics,
        /openpis_bank_calls_total\{provider="Hansa Direktbank Sandbox",operation="getPaymentStatus",result="ok"\} [1-9]/,
      );
    });

    it('a bank whose status endpoint is down (payer julia): the payment resource says ACSC, the payment completes', async () => {
      const paymentId = await approvedAtRedirectBank('julia');
      const statuses = await reaches(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      assert.deepEqual(statuses.slice(-2), ['PAYMENT_EXECUTION_PENDING', 'PAYMENT_EXECUTION_COMPLETED']);
      assert.ok(statuses.every((status) => !status.endsWith('_FAILED')));
    });

    it('a verification that failed at the bank (payer ivan, sent back through the "not OK" address) is SCA_FAILED, not the payer cancelling', async () => {
      const paymentId = await approvedAtRedirectBank('ivan');
      const statuses = await reaches(paymentId, 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED');
      assert.equal(statuses.at(-1), 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED');
      const latest = (await (await t.request(`/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { token })).json()) as {
        failureReasons: { code: string }[];
      };
      assert.deepEqual(
        latest.failureReasons.map((reason) => reason.code),
        ['SCA_FAILED'],
      );
      const payment = (await (await t.request(`/api/v1/ob/payments/${paymentId}`, { token })).json()) as { redirectUrl: string };
      const outcome = await get(payment.redirectUrl);
      assert.match(outcome.html, /Your bank could not confirm that it was you\./);
      assert.doesNotMatch(outcome.html, /You cancelled/i);
    });

    it('a payment pending at the bank for less than BANK_PENDING_ALERT_SECONDS (default 1 h) is neither counted nor logged', async () => {
      // gustav's payments stay accepted for execution (ACSP) for ever; Rheinland does not count that as completed.
      const paymentId = await approvedAtRedirectBank('gustav');
      await reaches(paymentId, 'PAYMENT_EXECUTION_PENDING');
      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      assert.equal(metricValue(metrics, 'openpis_payments_pending_at_bank_overdue'), 0);
      assert.ok((metricValue(metrics, 'openpis_payments_pending_at_bank_oldest_age_seconds') ?? -1) >= 0);
      assert.deepEqual(pendingAlerts(t.logs, paymentId), []);
    });
  });

  describe(`payments pending at the bank too long [${kind.name}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await startTestApp(kind, {
        workers: true,
        env: {
          BANK_PENDING_ALERT_SECONDS: '1',
          BANK_STATUS_POLL_BASE_MS: '50',
          BANK_STATUS_POLL_MAX_MS: '200',
          WORKER_POLL_INTERVAL_MS: '20',
        },
      });
      token = await (await t.createClient()).token();
    });
    after(() => t.close());
    const { history, reaches, approvedAtRedirectBank } = payerJourneys(
      () => t,
      () => token,
    );

    it('past BANK_PENDING_ALERT_SECONDS the payment is counted in a gauge and logged once, and still polled, never failed', async () => {
      const paymentId = await approvedAtRedirectBank('gustav');
      await reaches(paymentId, 'PAYMENT_EXECUTION_PENDING');
      const [alert] = await waitFor('the alert', () => {
        const alerts = pendingAlerts(t.logs, paymentId);
        return alerts.length > 0 ? alerts : undefined;
      });
      assert.equal(alert?.['level'], 40, 'a warning');
      assert.equal(alert?.['detailedStatus'], 'PAYMENT_EXECUTION_PENDING');
      assert.equal(typeof alert?.['providerPaymentId'], 'string');
      assert.ok(typeof alert?.['pendingSeconds'] === 'number' && alert['pendingSeconds'] >= 1);

      const overdue = await waitFor('the gauge', async () => {
        const value = metricValue(await (await fetch(`${t.metricsUrl}/metrics`)).text(), 'openpis_payments_pending_at_bank_overdue');
        return value === 1 ? value : undefined;
      });
      assert.equal(overdue, 1);
      // The bank is asked a few more times after the alert: still one line, and the payment still waits.
      const polls = async (): Promise<number> => {
        const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
        return Number(
          /openpis_bank_calls_total\{provider="Rheinland Sandbox Bank",operation="getPaymentStatus",result="ok"\} (\d+)/.exec(
            metrics,
          )?.[1] ?? 0,
        );
      };
      const seen = await polls();
      await waitFor('three more polls', async () => ((await polls()) >= seen + 3 ? true : undefined));
      assert.equal(pendingAlerts(t.logs, paymentId).length, 1);
      assert.equal((await history(paymentId)).at(-1), 'PAYMENT_EXECUTION_PENDING');
      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      assert.ok((metricValue(metrics, 'openpis_payments_pending_at_bank_oldest_age_seconds') ?? 0) >= 1);
    });
  });
}
