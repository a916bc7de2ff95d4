/**
 * Polite, fast polling (issue 22, reproduction 5): one schedule for every wait (fast for the first minute, then
 * doubling to a cap of minutes, with jitter and the bank's Retry-After as a floor), a per-bank budget, the decoupled
 * wait backing off like the others, and the PSU-present headers sent only while the payer is in the session.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallContext, Connectors } from '../../src/connectors/index.js';
import { PollBudget, PollingSchedule } from '../../src/flow/polling.js';
import { delayAfterError } from '../../src/jobs/worker.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import { waitFor } from '../helpers/wait.js';

/** A UK Open Banking sandbox bank whose payers approve in their app (CIBA). */
const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';

describe('the polling schedule', () => {
  const middle = (): number => 0.5;
  const schedule = new PollingSchedule({ baseMs: 1000, maxMs: 120_000, random: middle });

  it('asks every second for the first minute, then doubles up to the cap of two minutes', () => {
    assert.equal(schedule.delayMs(0), 1000);
    assert.equal(schedule.delayMs(59), 1000);
    assert.equal(schedule.delayMs(60), 2000);
    assert.equal(schedule.delayMs(61), 4000);
    assert.equal(schedule.delayMs(65), 64_000);
    assert.equal(schedule.delayMs(66), 120_000);
    assert.equal(schedule.delayMs(10_000), 120_000);
  });

  it('a wait the bank will notify is polled as a fallback: every 10 s for the first minute, then doubling to the same cap', () => {
    assert.equal(schedule.delayMs(0, undefined, true), 10_000);
    assert.equal(schedule.delayMs(5, undefined, true), 10_000);
    assert.equal(schedule.delayMs(6, undefined, true), 20_000);
    assert.equal(schedule.delayMs(8, undefined, true), 80_000);
    assert.equal(schedule.delayMs(9, undefined, true), 120_000);
    assert.equal(schedule.delayMs(10_000, undefined, true), 120_000);
    assert.equal(schedule.delayMs(0, 30, true), 30_000, "the bank's Retry-After is still a floor");
  });

  it("spreads each delay by at most 20 % either way, and takes the bank's Retry-After as a floor", () => {
    const low = new PollingSchedule({ baseMs: 1000, maxMs: 120_000, random: () => 0 });
    const high = new PollingSchedule({ baseMs: 1000, maxMs: 120_000, random: () => 0.999999 });
    assert.equal(low.delayMs(0), 800);
    assert.equal(high.delayMs(0), 1200);
    assert.equal(low.delayMs(10_000), 96_000);
    assert.equal(schedule.delayMs(0, 30), 30_000);
    assert.equal(schedule.delayMs(10_000, 30), 120_000);
  });

  it('a per-bank budget: calls beyond it wait for a token, other banks are not held up', () => {
    let now = 0;
    const budget = new PollBudget(2, () => now);
    assert.equal(budget.take('bank-a'), 0);
    assert.equal(budget.take('bank-a'), 0);
    assert.equal(budget.take('bank-a'), 500);
    assert.equal(budget.take('bank-b'), 0);
    now = 500;
    assert.equal(budget.take('bank-a'), 0);
  });
});

/** Records the call context of every connector call, by operation. */
class ContextRecorder {
  readonly calls: Array<{ readonly operation: string; readonly context: CallContext | undefined }> = [];

  wrap(connectors: Connectors): Connectors {
    return {
      for: (settings, caller) => {
        const connector = connectors.for(settings, caller);
        return new Proxy(connector, {
          get: (target, property, receiver) => {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof property !== 'string' || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              const input = args[0] as { context?: CallContext } | undefined;
              this.calls.push({ operation: property, context: input?.context });
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
      },
      close: () => connectors.close(),
    };
  }
}

const [sqlite] = await testDatabaseKinds();

describe('polling a payment at the bank', () => {
  let flow: FlowHarness;
  const recorder = new ContextRecorder();
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    flow = await startFlowHarness(
      sqlite,
      { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '10000' },
      { wrapConnectors: (connectors) => recorder.wrap(connectors) },
    );
  });
  after(async () => {
    await flow?.close();
  });

  it("a decoupled approval awaited for long is asked for at the capped pace, not at the first minute's", async () => {
    // Midi (decoupled): the payer never approves in the app.
    const created = await flow.create({ provider: { id: BANKS.midi }, sender: { credentials: { id: 'alice' } } });
    await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_CONSENT_REDIRECT_PENDING');
    const handler = flow.app.app.jobHandlers['bank-status'];
    assert.ok(handler !== undefined);
    const job = {
      id: 'test-job',
      kind: 'bank-status' as const,
      subjectType: 'payment' as const,
      subjectId: created.paymentId,
      runAt: new Date().toISOString(),
    };
    const delay = async (attempts: number): Promise<number> => {
      const before = Date.now();
      const outcome = await handler({ ...job, attempts });
      assert.equal(outcome.kind, 'retry');
      return outcome.kind === 'retry' ? Date.parse(outcome.runAt) - before : 0;
    };
    // Young: the first minute's pace (50 ms here); old: the cap (10 s here, at least 8 s with the jitter). The bound
    // on the young one leaves seconds for a slow machine's bank call, which only adds to the measured delay.
    const young = await delay(0);
    const old = await delay(100_000);
    assert.ok(old >= 8000, `an old wait is asked at the cap (${old} ms)`);
    assert.ok(young < 5000, `a young wait is asked at the base pace (${young} ms)`);
  });

  it('a look at the bank that failed is tried again at the polling pace, however long the job has polled', () => {
    const handler = flow.app.app.jobHandlers['bank-status'];
    assert.ok(handler !== undefined);
    const job = {
      id: 'test-job',
      kind: 'bank-status' as const,
      subjectType: 'payment' as const,
      subjectId: 'any',
      runAt: new Date().toISOString(),
    };
    // The worker's default backoff doubles with the job's runs (2^7 s after seven polls, up to 10 minutes): a payment
    // polled for long would look pending for minutes after one failed run. The bank-status job keeps its schedule.
    assert.equal(
      delayAfterError({ ...job, attempts: 7 }, async () => ({ kind: 'done' })),
      128_000,
    );
    for (const attempts of [0, 7, 100_000]) {
      const delay = delayAfterError({ ...job, attempts }, handler);
      assert.ok(delay <= 12_000, `after ${attempts} runs: ${delay} ms, at most the polling cap (10 s here) and its jitter`);
    }
  });

  it('a CIBA grant still pending at each poll is an expected answer, not a warning in the log', async () => {
    recorder.calls.length = 0;
    const response = await flow.app.request('/api/v1/ob/payments', {
      method: 'POST',
      token: await flow.client.token(),
      json: ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    await waitFor(
      'three polls of the pending grant',
      () => {
        const polls = recorder.calls.filter((call) => call.operation === 'completeAuthorisation').length;
        return polls >= 3 ? polls : undefined;
      },
      30_000,
    );
    const warnings = flow.app.logs
      .map((line) => JSON.parse(line) as { level: number; msg: string; operation?: string; status?: number })
      .filter((entry) => entry.level >= 40 && entry.operation === 'completeAuthorisation');
    assert.deepEqual(warnings, []);
  });

  it("PSU-present headers go with the payer's own requests only, never with background polls", async () => {
    recorder.calls.length = 0;
    const created = await flow.create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'dave', password: TEST_PASSWORD } } });
    await flow.waitFor(created.paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    const registration = recorder.calls.find((call) => call.operation === 'registerPayment');
    assert.equal(registration?.context?.psuIpAddress, '203.0.113.7', 'the creation request carries the payer');
    const polls = recorder.calls.filter((call) => call.operation === 'getPaymentStatus');
    assert.ok(polls.length > 0);
    for (const poll of polls) assert.equal(poll.context?.psuIpAddress, undefined, 'a background poll says the payer is present');
  });
});
