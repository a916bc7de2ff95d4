/**
 * Work a console page answers before it is done (`router.finishBeforeClose`, e.g. a sandbox scenario playing the
 * payer's part): closing the app waits for it, so a shutdown does not cut it off halfway.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../../src/http/fastify-types.js';
import { ConsoleRouter } from '../../src/console/router.js';
import type { ConsoleServices } from '../../src/console/services.js';

describe('console router: work answered before it was done', () => {
  it('is waited for when the app closes', async () => {
    const app = Fastify() as unknown as App;
    // The router's pages are not served here: only its shutdown hook is, which needs no services.
    const router = new ConsoleRouter(app, {} as ConsoleServices, { secure: false });
    await app.ready();
    const happened: string[] = [];
    let finishWork: () => void = () => undefined;
    router.finishBeforeClose(
      new Promise<void>((resolve) => {
        finishWork = resolve;
      }).then(() => void happened.push('work done')),
    );
    const closing = app.close().then(() => void happened.push('closed'));
    // Long enough for a close that does not wait to have finished.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(happened, []);
    finishWork();
    await closing;
    assert.deepEqual(happened, ['work done', 'closed']);
  });

  it('does not hold a close when there is nothing under way', { timeout: 5000 }, async () => {
    const app = Fastify() as unknown as App;
    const router = new ConsoleRouter(app, {} as ConsoleServices, { secure: false });
    router.finishBeforeClose(Promise.resolve());
    await app.ready();
    await app.close();
  });
});
