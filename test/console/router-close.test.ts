/**
 * Work a console page answers before it is done (`services.unfinishedWork`, e.g. a sandbox scenario playing the
 * payer's part): closing the app waits for it (the console plugin's preClose hook), so a shutdown does not cut it off
 * halfway, and waits no longer than the grace. The clock is Node's mock: nothing here depends on how fast the
 * machine is. Where a test checks that a close has *not* finished, it first lets every step that needs no time run
 * (a bounded number of event-loop turns).
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../../src/http/fastify-types.js';
import { UnfinishedWork, UNFINISHED_WORK_GRACE_MS } from '../../src/console/unfinished-work.js';

/** Lets everything already under way that needs no time run: a close that does not wait would finish here. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 100; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function appWithWork(): Promise<{ app: App; work: UnfinishedWork }> {
  // As the service builds it (src/app.ts): no plugin timeout, which would otherwise also end a close hook after 10 s.
  const app = Fastify({ pluginTimeout: 0 }) as unknown as App;
  const work = new UnfinishedWork();
  // As the console plugin does (src/console/plugin.ts), in an encapsulated scope of its own.
  await app.register(async (scope) => {
    scope.addHook('preClose', async () => work.settle());
  });
  await app.ready();
  return { app, work };
}

describe('console: work answered before it was done', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('is waited for when the app closes', async () => {
    const { app, work } = await appWithWork();
    const happened: string[] = [];
    let finishWork: () => void = () => undefined;
    work.add(
      new Promise<void>((resolve) => {
        finishWork = resolve;
      }).then(() => void happened.push('work done')),
    );
    const closing = app.close().then(() => void happened.push('closed'));
    await settle();
    assert.deepEqual(happened, [], 'the close waits for the work');
    finishWork();
    await closing;
    assert.deepEqual(happened, ['work done', 'closed']);
  });

  it('does not hold a close when there is nothing under way: it ends with no time passing', async () => {
    const { app, work } = await appWithWork();
    work.add(Promise.resolve());
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await settle();
    assert.equal(closed, true, 'closed without waiting on the grace');
    await closing;
  });

  it('gives up on work that never ends once the grace is over, and not before', async () => {
    const { app, work } = await appWithWork();
    work.add(new Promise<void>(() => undefined));
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await settle();
    mock.timers.tick(UNFINISHED_WORK_GRACE_MS - 1);
    await settle();
    assert.equal(closed, false, 'still waiting just before the grace is over');
    mock.timers.tick(1);
    await closing;
    assert.equal(closed, true);
  });
});
