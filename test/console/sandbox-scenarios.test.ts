/**
 * The console's Sandbox page starts scenario payments over HTTP, as `openpis trigger` does: the answer comes at
 * once with the payment's link, the payment then reaches the scenario's outcome through the service's own work,
 * the start is audited and the run's access token is deleted; production clients, posts without the CSRF token and
 * members are refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditLog } from '../../src/people/audit-log.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { injectSandboxFault, startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { type ConsoleBrowser, signedInOperatorAndMember } from './console-http.js';

interface PaymentView {
  readonly status: string;
  readonly failureReasons: { readonly code: string }[] | null;
}

for (const kind of await testDatabaseKinds()) {
  describe(`console Sandbox: scenario payments [${kind.name}]`, () => {
    let app: TestApp;
    let shop: TestClient;
    let live: TestClient;
    let operator: ConsoleBrowser;
    let member: ConsoleBrowser;

    before(async () => {
      app = await startTestApp(kind, { workers: true, env: { WORKER_POLL_INTERVAL_MS: '50', BANK_STATUS_POLL_BASE_MS: '100' } });
      shop = await app.createClient({ name: 'Laptop Shop' });
      live = await app.createClient({ name: 'Live Shop', environment: 'production' });
      ({ operator, member } = await signedInOperatorAndMember(app, shop.clientId, 'mia@shop.example'));
    });
    after(async () => {
      await app?.close();
    });

    const paymentCount = async (): Promise<number> =>
      Number(
        (
          await app.database.db
            .selectFrom('payments')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const tokenCount = async (clientId: string): Promise<number> =>
      Number(
        (
          await app.database.db
            .selectFrom('access_tokens')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('client_id', '=', clientId)
            .executeTakeFirstOrThrow()
        ).count,
      );

    it('offers the active sandbox clients only', async () => {
      const page = await operator.get('/console/sandbox');
      assert.equal(page.status, 200);
      const clientSelect = /<select id="client" name="client">([\s\S]*?)<\/select>/.exec(page.html)?.[1] ?? '';
      assert.match(clientSelect, new RegExp(`<option value="${shop.clientId}">Laptop Shop</option>`));
      assert.doesNotMatch(clientSelect, new RegExp(live.clientId));
    });

    const outcomes: Array<[string, string, string | undefined]> = [
      ['completed', 'COMPLETED', undefined],
      ['cancelled', 'FAILED', 'PSU_CANCELLED'],
      ['rejected', 'FAILED', 'BANK_REJECTED'],
      // The console shortens the deadline to 20 s: the service's expiry job ends it.
      ['expired', 'FAILED', 'EXPIRED'],
    ];
    for (const [scenario, status, failureCode] of outcomes) {
      it(`starts ${scenario}: answers with the payment's link, audits it, and the payment ends ${status}${failureCode === undefined ? '' : ` ${failureCode}`}`, async () => {
        const token = await shop.token();
        const tokensBefore = await tokenCount(shop.clientId);
        await operator.get('/console/sandbox');
        const answer = await operator.post('/console/sandbox/scenarios', { scenario, client: shop.clientId });
        assert.equal(answer.status, 303);
        const paymentId = /^\/console\/sandbox\?started=([0-9a-f-]{36})$/.exec(answer.location ?? '')?.[1];
        assert.ok(paymentId !== undefined, `redirected to ${answer.location ?? ''}`);

        const notice = await operator.get(answer.location ?? '');
        assert.match(notice.html, new RegExp(`<a href="/console/payments/${paymentId}">`));
        assert.match(notice.html, new RegExp(`trigger-${scenario}-`));

        const entries = await new AuditLog(app.database.db).list({ action: 'sandbox.scenario.started', limit: 50 });
        const entry = entries.find((candidate) => candidate.target === paymentId);
        assert.ok(entry !== undefined, 'audited');
        assert.equal(entry.details?.['scenario'], scenario);
        assert.equal(entry.details?.['clientId'], shop.clientId);

        const final = await waitFor(
          `payment ${paymentId} to end`,
          async () => {
            const payment = (await (await app.request(`/api/v1/ob/payments/${paymentId}`, { token })).json()) as PaymentView;
            return payment.status === 'COMPLETED' || payment.status === 'FAILED' ? payment : undefined;
          },
          60_000,
          100,
        );
        assert.equal(final.status, status);
        if (failureCode !== undefined)
          assert.ok(
            (final.failureReasons ?? []).some((reason) => reason.code === failureCode),
            JSON.stringify(final.failureReasons),
          );

        // The payment's page shows the timeline with the outcome.
        const paymentPage = await operator.get(`/console/payments/${paymentId}`);
        assert.equal(paymentPage.status, 200);
        const timeline = /<ol class="timeline">([\s\S]*?)<\/ol>/.exec(paymentPage.html)?.[1] ?? '';
        assert.match(timeline, new RegExp(status));
        if (failureCode !== undefined) assert.match(timeline, new RegExp(`<strong>${failureCode}</strong>`));

        // The run's own access token is gone once the payer's part is played.
        await waitFor('the run’s access token to be deleted', async () =>
          (await tokenCount(shop.clientId)) === tokensBefore ? true : undefined,
        );
      });
    }

    it('refuses a production client, an unknown scenario, and a post without the CSRF token', async () => {
      const before = await paymentCount();
      await operator.get('/console/sandbox');
      const production = await operator.post('/console/sandbox/scenarios', { scenario: 'completed', client: live.clientId });
      assert.equal(production.status, 303);
      assert.equal(production.location, '/console/sandbox?error=scenario-invalid');
      const refusal = await operator.get(production.location ?? '');
      assert.match(refusal.html, /scenario payments are made for sandbox clients only/);

      await operator.get('/console/sandbox');
      assert.equal(
        (await operator.post('/console/sandbox/scenarios', { scenario: 'bankrupt', client: shop.clientId })).location,
        '/console/sandbox?error=scenario-invalid',
      );
      assert.equal(
        (await operator.post('/console/sandbox/scenarios', { scenario: 'completed', client: shop.clientId, _csrf: '' })).status,
        403,
      );
      assert.equal(
        (await operator.post('/console/sandbox/scenarios', { scenario: 'completed', client: shop.clientId, _csrf: 'forged' })).status,
        403,
      );
      assert.equal(await paymentCount(), before);
    });

    it('answers a member 404, even for their own sandbox client', async () => {
      const before = await paymentCount();
      assert.equal((await member.get('/console/sandbox')).status, 404);
      await member.get('/console/payments');
      assert.equal((await member.post('/console/sandbox/scenarios', { scenario: 'completed', client: shop.clientId })).status, 404);
      assert.equal(await paymentCount(), before);
    });
  });
}

describe('console Sandbox: a scenario started just before a shutdown', () => {
  it('plays the payer’s part to its end and deletes the run’s token before the server stops', async () => {
    const [sqlite] = await testDatabaseKinds();
    assert.ok(sqlite !== undefined);
    const app = await startTestApp(sqlite);
    try {
      const shop = await app.createClient({ name: 'Laptop Shop' });
      const { operator } = await signedInOperatorAndMember(app, shop.clientId, 'mia@shop.example');
      // The bank takes its time over the one-time code, so the payer's part is still under way when the shutdown begins.
      assert.equal(
        (await injectSandboxFault(app, 'hansa', { operations: ['updateAuthorisation'], fault: { kind: 'delay', delayMs: 1000 } })).status,
        201,
      );
      await operator.get('/console/sandbox');
      const answer = await operator.post('/console/sandbox/scenarios', { scenario: 'completed', client: shop.clientId });
      const paymentId = /started=([0-9a-f-]{36})$/.exec(answer.location ?? '')?.[1] ?? '';
      assert.notEqual(paymentId, '', `redirected to ${answer.location ?? ''}`);
      // The shutdown begins while the payer's part (the one-time code on our page) is under way.
      await app.app.close();
      const statuses = (
        await app.database.db
          .selectFrom('payment_status_history')
          .select('detailed_status')
          .where('payment_id', '=', paymentId)
          .orderBy('sequence')
          .execute()
      ).map((row) => row.detailed_status);
      // The one-time code was entered: the bank took the payment for execution.
      assert.ok(statuses.includes('PAYMENT_EXECUTION_PENDING'), statuses.join(', '));
      const tokens = await app.database.db
        .selectFrom('access_tokens')
        .select('token_hash')
        .where('client_id', '=', shop.clientId)
        .execute();
      assert.deepEqual(tokens, []);
    } finally {
      await app.close();
    }
  });
});
