/**
 * The console's Refunds pages over HTTP (SQLite and PostgreSQL): refunds made through the API are listed newest
 * first with the refunded payment, amount, payer and status; the default filter shows those awaiting the approver
 * and "all" every one; "Approve at your bank" leads to the refund's own hosted flow (its redirectUrl) and is
 * audited; several selected are listed for approval one by one; a member never sees another client's refund (404,
 * not listed); the refunded payment's page lists its refunds.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { signedInOperatorAndMember, type ConsoleBrowser } from './console-http.js';

interface Resource {
  readonly paymentId: string;
  readonly redirectUrl: string;
  readonly refundOf?: string;
}

for (const kind of await testDatabaseKinds()) {
  describe(`console refunds (${kind.name})`, () => {
    let app: TestApp;
    let operator: ConsoleBrowser;
    let member: ConsoleBrowser;
    let acme: TestClient;
    let other: TestClient;

    before(async () => {
      app = await startTestApp(kind);
      acme = await app.createClient({ name: 'Acme Shop' });
      other = await app.createClient({ name: 'Other Shop' });
      ({ operator, member } = await signedInOperatorAndMember(app, acme.clientId));
    });
    after(() => app?.close());

    /** A completed payment of the client whose payer the bank told, stored as the flow leaves it. */
    async function completedPayment(client: TestClient, payerName: string): Promise<string> {
      const row = storedPaymentRow(client.clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        amount: '10.00',
        recipient: JSON.stringify({
          account: { number: { type: 'IBAN', value: 'DE89370400440532013000' } },
          name: 'Acme GmbH',
          address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
        }),
        payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE54500105171000007919' }, name: payerName }),
      });
      await app.database.db.insertInto('payments').values(row).execute();
      return row.id;
    }

    async function refund(client: TestClient, paymentId: string, amount: string): Promise<Resource> {
      const response = await app.request(`/api/v1/ob/payments/${paymentId}/refunds`, {
        method: 'POST',
        token: await client.token(),
        json: {
          amount,
          reference: 'Refund order 1001',
          metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: `refund-${randomUUID()}` },
        },
      });
      const body = await response.text();
      assert.equal(response.status, 201, body);
      return JSON.parse(body) as Resource;
    }

    it('lists refunds newest first, awaiting approval by default; the approve link opens the refund’s own flow', async () => {
      const paymentId = await completedPayment(acme, 'Dave Payer');
      const first = await refund(acme, paymentId, '2.00');
      const second = await refund(acme, paymentId, '3.00');
      // A refund the bank is executing: the approver's part is done, so it no longer awaits approval.
      const third = await refund(acme, paymentId, '1.00');
      await app.database.db
        .updateTable('payments')
        .set({ detailed_status: 'PAYMENT_EXECUTION_PENDING' })
        .where('id', '=', third.paymentId)
        .execute();

      const list = await member.get('/console/refunds');
      assert.equal(list.status, 200);
      assert.match(list.html, /<a href="\/console\/refunds" aria-current="page">Awaiting approval<\/a>/);
      assert.match(list.html, /Dave Payer/);
      assert.match(list.html, new RegExp(`href="/console/payments/${paymentId}"`));
      assert.match(list.html, /3\.00 EUR/);
      assert.doesNotMatch(list.html, /1\.00 EUR/, 'the refund at the bank is not awaiting approval');
      const second_at = list.html.indexOf(`/console/refunds/${second.paymentId}/approve`);
      const first_at = list.html.indexOf(`/console/refunds/${first.paymentId}/approve`);
      assert.ok(second_at > 0 && first_at > second_at, 'newest first');
      assert.match(list.html, /Approve selected/);
      assert.doesNotMatch(list.html, /\/pay\//, 'the flow’s secret is not in the listing');

      const all = await member.get('/console/refunds?show=all');
      assert.match(all.html, /1\.00 EUR/);
      assert.match(all.html, /PAYMENT_<wbr>EXECUTION_<wbr>PENDING/);

      const approve = await member.get(`/console/refunds/${first.paymentId}/approve`);
      assert.equal(approve.status, 303);
      assert.equal(approve.location, first.redirectUrl);
      assert.ok(first.redirectUrl.startsWith(`${app.baseUrl}/pay/`));
      const atBank = await member.get(`/console/refunds/${third.paymentId}/approve`);
      assert.equal(atBank.status, 303);
      assert.equal(atBank.location, `/console/payments/${third.paymentId}`);
      const audited = await app.database.db
        .selectFrom('audit_log')
        .select(['action', 'target'])
        .where('action', '=', 'refund.approval-opened')
        .execute();
      assert.deepEqual(audited, [{ action: 'refund.approval-opened', target: first.paymentId }]);

      const selected = await member.get(`/console/refunds/approve?refund=${first.paymentId}&refund=${second.paymentId}`);
      assert.equal(selected.status, 200);
      // Two refunds whose approval has not begun, at a place with banks that make bulk payments: together, or one by one.
      assert.match(selected.html, /<h2 id="together-heading">Approve all 2 together<\/h2>/);
      assert.match(selected.html, /5\.00 EUR in all/);
      assert.match(selected.html, /Rheinland Sandbox Bank/);
      assert.match(selected.html, /Or approve them one after another/);
      assert.doesNotMatch(selected.html, /http-equiv="refresh"/, 'still unless asked');
      assert.match(selected.html, /Check every 5 seconds by itself/);
      assert.equal(selected.html.match(/>Approve<span/g)?.length, 2);
      assert.ok(selected.html.includes(`/console/refunds/${first.paymentId}/approve`));
      assert.ok(selected.html.includes(`/console/refunds/${second.paymentId}/approve`));

      const following = await member.get(`/console/refunds/approve?refund=${first.paymentId}&refund=${second.paymentId}&follow=yes`);
      assert.match(following.html, /<meta http-equiv="refresh" content="5">/);
      assert.match(following.html, /Stop checking by itself/);

      const payment = await member.get(`/console/payments/${paymentId}`);
      assert.match(payment.html, /<h2 id="refunds">Refunds<\/h2>/);
      for (const made of [first, second, third]) assert.ok(payment.html.includes(`href="/console/payments/${made.paymentId}"`));
      const refundPage = await member.get(`/console/payments/${first.paymentId}`);
      assert.match(refundPage.html, /Refund of/);
    });

    it('a member never sees another client’s refund; an operator sees every client’s', async () => {
      const theirs = await refund(other, await completedPayment(other, 'Olive Other'), '4.00');
      const list = await member.get('/console/refunds?show=all');
      assert.doesNotMatch(list.html, /Olive Other/);
      assert.equal((await member.get(`/console/refunds/${theirs.paymentId}/approve`)).status, 404);
      assert.equal((await member.get(`/console/payments/${theirs.paymentId}`)).status, 404);
      const selected = await member.get(`/console/refunds/approve?refund=${theirs.paymentId}`);
      assert.doesNotMatch(selected.html, /Olive Other/);
      assert.match(selected.html, /No refunds selected/);

      const operatorList = await operator.get('/console/refunds');
      assert.match(operatorList.html, /Olive Other/);
      assert.match(operatorList.html, /Dave Payer/);
      assert.match(operatorList.html, /Other Shop/);
      const approve = await operator.get(`/console/refunds/${theirs.paymentId}/approve`);
      assert.equal(approve.location, theirs.redirectUrl);
      assert.equal((await operator.get('/console/refunds/not-a-refund/approve')).status, 404);
    });

    it('“Approve all together” forms one bulk and opens its flow, audited; a selection that cannot be is refused with the reason', async () => {
      const paymentId = await completedPayment(acme, 'Erin Payer');
      const [first, second, third] = [
        await refund(acme, paymentId, '1.00'),
        await refund(acme, paymentId, '2.00'),
        await refund(acme, paymentId, '3.00'),
      ];
      const together = (ids: readonly string[], as: ConsoleBrowser = member) => {
        const body = new URLSearchParams([['_csrf', as.csrf()], ...ids.map((id): [string, string] => ['refund', id])]);
        return as.send('/console/refunds/approve-together', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      };
      await member.get(`/console/refunds/approve?refund=${first.paymentId}&refund=${second.paymentId}`);
      const formed = await together([first.paymentId, second.paymentId]);
      assert.equal(formed.status, 303);
      assert.equal(formed.location, first.redirectUrl, 'the bulk is approved on its first refund’s flow');
      const audited = await app.database.db
        .selectFrom('audit_log')
        .select(['target', 'details'])
        .where('action', '=', 'refund.bulk-approval-opened')
        .execute();
      assert.equal(audited.length, 1);
      assert.equal(audited[0]?.target, first.paymentId);
      assert.match(String(audited[0]?.details), new RegExp(second.paymentId));
      // The follower's own approval leads to the bulk's flow; the page says it is approved together.
      const follower = await member.get(`/console/refunds/${second.paymentId}/approve`);
      assert.equal(follower.location, first.redirectUrl);
      const page = await member.get(`/console/refunds/approve?refund=${first.paymentId}&refund=${second.paymentId}`);
      assert.match(page.html, /Continue approving together/);
      assert.doesNotMatch(page.html, /Approve all 2 together/, 'a bulk is not formed twice');
      const followerPage = await member.get(`/console/payments/${second.paymentId}`);
      assert.match(
        followerPage.html,
        new RegExp(`Approved together</dt><dd>On the approval of <a class="mono" href="/console/payments/${first.paymentId}">`),
      );

      // Already in a bulk: refused, with the reason, and nothing changes.
      await member.get(`/console/refunds/approve?refund=${third.paymentId}&refund=${second.paymentId}`);
      const refused = await together([third.paymentId, second.paymentId]);
      assert.equal(refused.status, 409);
      assert.match(refused.html, /cannot be approved together: refund [0-9a-f-]+ is already approved together with others/);
      // Another client's refund is not found for a member, as everywhere.
      const theirs = await refund(other, await completedPayment(other, 'Olive Other'), '1.00');
      const foreign = await together([third.paymentId, theirs.paymentId]);
      assert.equal(foreign.status, 409);
      assert.match(foreign.html, /was not found/);
      assert.doesNotMatch(foreign.html, /Olive Other/);
      const untouched = await app.database.db
        .selectFrom('payments')
        .select('bulk_leader_id')
        .where('id', 'in', [third.paymentId, theirs.paymentId])
        .execute();
      assert.deepEqual(untouched, [{ bulk_leader_id: null }, { bulk_leader_id: null }]);
    });
  });
}
