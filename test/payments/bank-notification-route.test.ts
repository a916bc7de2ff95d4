/**
 * The banks' notification route (src/payments/bank-notification-routes.ts) as any sender on the Internet sees it: an
 * address we never gave is a 404 like a path no route matches, a body of the wrong shape is refused, and a sender
 * that keeps trying is rate-limited per address like the API's clients.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const [sqlite] = await testDatabaseKinds();

describe('the banks’ notification route', () => {
  let app: TestApp;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    app = await startTestApp(sqlite, { env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
  });
  after(async () => {
    await app?.close();
  });

  const notify = (body: unknown): Promise<Response> =>
    app.request(`/notifications/berlin-group/${randomUUID()}.${'x'.repeat(43)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses an unknown address with the 404 of no route, a malformed body with 400, and then limits the sender', async () => {
    const unknown = await notify({ transactionStatus: 'ACSC' });
    assert.equal(unknown.status, 404);
    const noRoute = await app.request('/notifications/nowhere', { method: 'POST' });
    assert.deepEqual(await unknown.json(), await noRoute.json());
    const malformed = await notify({ transactionStatus: 42 });
    assert.equal(malformed.status, 400);
    // Two tokens, one more a second: a few quick tries meet the limit however slow the machine.
    let limited: Response | undefined;
    for (let attempt = 0; attempt < 10 && limited === undefined; attempt += 1) {
      const answer = await notify({});
      if (answer.status === 429) limited = answer;
      else assert.equal(answer.status, 404);
    }
    assert.ok(limited !== undefined, 'the sender was limited');
    assert.ok(limited.headers.get('retry-after') !== null);
  });
});
