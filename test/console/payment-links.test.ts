/**
 * The console's Payment links pages over HTTP (SQLite and PostgreSQL): a member creates a link for their client
 * with the API's rules, sees it with its QR code, deactivates it behind a confirmation (CSRF and audit as every
 * console action), and sees no other client's links; an operator sees every client's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { IBANS } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { signedInOperatorAndMember, type ConsoleBrowser } from './console-http.js';

const FORM = {
  reference: 'console-link-1',
  amount: '12.30',
  currency: 'EUR',
  scheme: 'SEPA',
  remittance: 'Order 77',
  recipientName: 'Acme GmbH',
  iban: IBANS.DE,
  street: 'Unter den Linden',
  building: '77',
  postCode: '10117',
  city: 'Berlin',
  country: 'DE',
  redirectUri: 'https://merchant.example/return',
  webhookUrl: '',
  hours: '48',
};

for (const kind of await testDatabaseKinds()) {
  describe(`console payment links (${kind.name})`, () => {
    let app: TestApp;
    let operator: ConsoleBrowser;
    let member: ConsoleBrowser;
    let memberClient: string;
    let otherClient: string;
    before(async () => {
      app = await startTestApp(kind);
      memberClient = (await app.createClient({ name: 'Acme Shop' })).clientId;
      otherClient = (await app.createClient({ name: 'Other Shop' })).clientId;
      ({ operator, member } = await signedInOperatorAndMember(app, memberClient));
    });
    after(() => app?.close());

    it('a member creates a link, sees its QR code and deactivates it after confirming; each step audited', async () => {
      const list = await member.get('/console/payment-links');
      assert.equal(list.status, 200);
      assert.match(list.html, /No payment links yet/);
      assert.doesNotMatch(list.html, /id="client"/, 'a member chooses no client');
      const refused = await member.post('/console/payment-links', { ...FORM, amount: '12.345' });
      assert.equal(refused.status, 400);
      assert.match(refused.html, /amount must not have more than 2 decimal places for EUR/);
      await member.get('/console/payment-links');
      const created = await member.post('/console/payment-links', FORM);
      assert.equal(created.status, 303, created.html.slice(0, 500));
      const linkPath = created.location?.replace(/\?.*$/, '') ?? '';
      const page = await member.get(created.location ?? '');
      assert.equal(page.status, 200);
      assert.match(page.html, /Payment link created/);
      assert.match(page.html, /<svg[^>]*>[\s\S]*<path/);
      assert.match(page.html, new RegExp(`${app.baseUrl}/link/[A-Za-z0-9_-]{22}`));
      assert.match(page.html, /Single use/);
      const duplicate = await member.post('/console/payment-links', FORM);
      assert.equal(duplicate.status, 400);
      assert.match(duplicate.html, /A payment link with reference &quot;console-link-1&quot; already exists|already exists/);

      await member.get(linkPath);
      const unconfirmed = await member.post(`${linkPath}/deactivate`, {});
      assert.equal(unconfirmed.status, 400);
      assert.match(unconfirmed.html, /Tick the box to confirm/);
      const noToken = await member.post(`${linkPath}/deactivate`, { confirm: 'yes', _csrf: 'wrong' });
      assert.equal(noToken.status, 403);
      await member.get(linkPath);
      const deactivated = await member.post(`${linkPath}/deactivate`, { confirm: 'yes' });
      assert.equal(deactivated.status, 303);
      const after = await member.get(deactivated.location ?? '');
      assert.match(after.html, /DEACTIVATED/);
      assert.doesNotMatch(after.html, /Deactivate link/);
      const audit = await app.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'payment_link.%').execute();
      assert.deepEqual(
        new Set(audit.map((entry) => entry.action)),
        new Set(['payment_link.created', 'payment_link.viewed', 'payment_link.deactivated']),
      );
    });

    it("a member sees only their client's links; an operator sees and makes every client's", async () => {
      await operator.get('/console/payment-links');
      const created = await operator.post('/console/payment-links', { ...FORM, reference: 'other-link', client: otherClient });
      assert.equal(created.status, 303, created.html.slice(0, 800));
      const linkPath = created.location?.replace(/\?.*$/, '') ?? '';
      assert.equal((await member.get(linkPath)).status, 404);
      const memberList = await member.get('/console/payment-links');
      assert.doesNotMatch(memberList.html, /other-link/);
      const operatorList = await operator.get('/console/payment-links');
      assert.match(operatorList.html, /other-link/);
      assert.match(operatorList.html, /console-link-1/);
      assert.match(operatorList.html, /Other Shop/);
    });
  });
}
