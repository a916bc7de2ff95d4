/**
 * The worker loop keeps pace with its queue (src/jobs/polling-worker.ts): it sleeps only until the next item falls
 * due, not a whole poll interval, and a full worker claims again as soon as a slot frees. Time is the test's
 * (mocked timers), so what is asserted is which claims happen, never how fast anything runs.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { PollingWorker, type LeasedWork } from '../../src/jobs/polling-worker.js';

const silent = { error: () => undefined } as unknown as FastifyBaseLogger;
/** Lets the worker's loop run through every promise that can settle without the clock moving. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('polling worker', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
  afterEach(() => mock.timers.reset());

  it('sleeps only until the next item falls due, not the whole poll interval', async () => {
    let claims = 0;
    const processed: string[] = [];
    const work: LeasedWork<string> = {
      async claim() {
        claims += 1;
        return claims === 2 ? ['due in 100 ms'] : [];
      },
      async process(item) {
        processed.push(item);
      },
      nextDueInMs: async () => (claims < 2 ? 100 : undefined),
    };
    const worker = new PollingWorker('test', work, { logger: silent, pollIntervalMs: 60_000, concurrency: 4 });
    worker.start();
    await settle();
    assert.equal(claims, 1);
    mock.timers.tick(99);
    await settle();
    assert.equal(claims, 1, 'not before the item is due');
    mock.timers.tick(1);
    await settle();
    assert.equal(claims, 2);
    assert.deepEqual(processed, ['due in 100 ms']);
    const stopped = worker.stop();
    mock.timers.tick(60_000);
    await stopped;
  });

  it('claims again as soon as a slot frees when it was full', async () => {
    let claims = 0;
    const finish: (() => void)[] = [];
    const work: LeasedWork<number> = {
      async claim() {
        claims += 1;
        return [claims];
      },
      process: () => new Promise<void>((resolve) => finish.push(resolve)),
    };
    const worker = new PollingWorker('test', work, { logger: silent, pollIntervalMs: 60_000, concurrency: 1 });
    worker.start();
    await settle();
    assert.equal(claims, 1);
    finish.shift()?.();
    await settle();
    assert.equal(claims, 2, 'the freed slot is filled without waiting for a timer');
    const stopped = worker.stop();
    for (const resolve of finish) resolve();
    mock.timers.tick(60_000);
    await stopped;
  });

  it('wakes at once when poked during a claim', async () => {
    let claims = 0;
    let worker: PollingWorker<string> | undefined;
    const work: LeasedWork<string> = {
      async claim() {
        claims += 1;
        // Work committed while this claim runs: the poke must not be lost.
        if (claims === 1) worker?.poke();
        return [];
      },
      process: async () => undefined,
    };
    worker = new PollingWorker('test', work, { logger: silent, pollIntervalMs: 60_000, concurrency: 1 });
    worker.start();
    await settle();
    assert.equal(claims, 2);
    const stopped = worker.stop();
    mock.timers.tick(60_000);
    await stopped;
  });

  it('wakes by a due time it was told during a claim, and not before it', async () => {
    let claims = 0;
    let worker: PollingWorker<string> | undefined;
    const work: LeasedWork<string> = {
      async claim() {
        claims += 1;
        // A job due in 300 ms was committed while this claim ran (after the claim's own read).
        if (claims === 1) worker?.wakeBy(Date.now() + 300);
        return [];
      },
      process: async () => undefined,
    };
    worker = new PollingWorker('test', work, { logger: silent, pollIntervalMs: 60_000, concurrency: 1 });
    worker.start();
    await settle();
    assert.equal(claims, 1);
    mock.timers.tick(299);
    await settle();
    assert.equal(claims, 1, 'not before the job is due');
    mock.timers.tick(1);
    await settle();
    assert.equal(claims, 2, 'the sleep ended when the job fell due, not at the poll interval');
    const stopped = worker.stop();
    mock.timers.tick(60_000);
    await stopped;
  });

  it('is not woken by a due time later than its sleep', async () => {
    let claims = 0;
    const work: LeasedWork<string> = {
      async claim() {
        claims += 1;
        return [];
      },
      process: async () => undefined,
      nextDueInMs: async () => 100,
    };
    const worker = new PollingWorker('test', work, { logger: silent, pollIntervalMs: 60_000, concurrency: 1 });
    worker.start();
    await settle();
    assert.equal(claims, 1);
    // A flow-expiry job due in half an hour: the worker keeps its sleep of 100 ms and claims no earlier.
    worker.wakeBy(Date.now() + 30 * 60_000);
    await settle();
    assert.equal(claims, 1);
    mock.timers.tick(100);
    await settle();
    assert.equal(claims, 2);
    const stopped = worker.stop();
    mock.timers.tick(60_000);
    await stopped;
  });
});
