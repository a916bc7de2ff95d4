/** The browser tests' set-up helper: a failed part closes the parts that started, so nothing holds the process. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startAll } from './browser-harness.js';

function part(name: string, closed: string[]) {
  return { name, close: async () => void closed.push(name) };
}

test('all parts started: their values, in order, none closed', async () => {
  const closed: string[] = [];
  const [first, second] = await startAll([Promise.resolve(part('app', closed)), Promise.resolve(part('shop', closed))]);
  assert.equal(first.name, 'app');
  assert.equal(second.name, 'shop');
  assert.deepEqual(closed, []);
});

test('one part fails: the others are closed and its error is thrown', async () => {
  const closed: string[] = [];
  await assert.rejects(
    startAll([
      Promise.resolve(part('browser', closed)),
      Promise.reject(new Error('plugin did not start')),
      Promise.resolve(part('shop', closed)),
    ]),
    /plugin did not start/,
  );
  assert.deepEqual(closed.sort(), ['browser', 'shop']);
});
