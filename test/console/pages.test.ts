/**
 * The console's pages over HTTP: tenancy (a member never sees another client's payment, by address, by search, or by
 * a client filter in the address: 404 or nothing), the payment list's filters and pages, a payment's timeline and
 * webhook deliveries with redelivery (audited), clients (secrets shown once, scopes, disable, branding) and people
 * (operators only).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { DETAILED_STATUS_MEANINGS, type DetailedStatus } from '../../src/domain/detailed-status.js';
import { IBANS, paymentRequest } from '../helpers/payment-requests.js';
import { BANKS, TEST_PASSWORD } from '../e2e/flow-harness.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { ConsoleBrowser, consoleUsers, signedInOperatorAndMember, signInPerson } from './console-http.js';

const [sqlite] = await testDatabaseKinds();

describe('console pages', () => {
  let app: TestApp;
  let acme: TestClient;
  let globex: TestClient;
  const acmePayments: string[] = [];
  let globexPayment: string;
  let member: ConsoleBrowser;
  let operator: ConsoleBrowser;

  const create = async (client: TestClient, overrides: Record<string, unknown> = {}): Promise<string> => {
    const request = paymentRequest(overrides);
    const metadata = { ...(request['metadata'] as Record<string, unknown>), webhookUrl: 'https://shop.example/hooks' };
    const response = await app.request('/api/v1/ob/payments', {
      method: 'POST',
      token: await client.token(),
      json: { ...request, metadata },
    });
    assert.equal(response.status, 201, await response.clone().text());
    return ((await response.json()) as { paymentId: string }).paymentId;
  };

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    app = await startTestApp(sqlite);
    acme = await app.createClient({ name: 'Acme Shop' });
    globex = await app.createClient({ name: 'Globex' });
    for (const amount of [5, 10.5, 99.99]) acmePayments.push(await create(acme, { amount }));
    globexPayment = await create(globex, { amount: 10.5 });
    ({ operator, member } = await signedInOperatorAndMember(app, acme.clientId));
  });
  after(async () => {
    await app?.close();
  });

  it('lists only the member’s client’s payments, whatever the address asks for', async () => {
    const list = await member.get('/console/payments');
    assert.equal(list.status, 200);
    for (const id of acmePayments) assert.match(list.html, new RegExp(`/console/payments/${id}`));
    assert.doesNotMatch(list.html, new RegExp(globexPayment));
    const byClient = await member.get(`/console/payments?client=${globex.clientId}`);
    assert.doesNotMatch(byClient.html, new RegExp(`/console/payments/${globexPayment}`));
    assert.match(byClient.html, new RegExp(acmePayments[0] ?? 'none'));
    const bySearch = await member.get(`/console/payments?q=${globexPayment}`);
    // The search box shows what was typed; no row links to the payment.
    assert.doesNotMatch(bySearch.html, new RegExp(`/console/payments/${globexPayment}`));
    assert.match(bySearch.html, /No payment matches these filters/);
    const byId = await member.get(`/console/payments?id=${globexPayment}`);
    assert.match(byId.html, /No payment matches these filters/);
  });

  it('answers another client’s payment 404, exactly as an unknown one, and its redelivery too', async () => {
    const other = await member.get(`/console/payments/${globexPayment}`);
    const unknown = await member.get('/console/payments/00000000-0000-4000-8000-000000000000');
    assert.equal(other.status, 404);
    assert.equal(unknown.status, 404);
    assert.equal(other.html, unknown.html);
    const [event] = await app.database.db.selectFrom('webhook_events').select('id').where('subject_id', '=', globexPayment).execute();
    assert.ok(event !== undefined);
    await member.get('/console/payments');
    assert.equal((await member.post(`/console/payments/${globexPayment}/webhooks/${event.id}/redeliver`, {})).status, 404);
    // Nor through one of its own payments' addresses.
    assert.equal((await member.post(`/console/payments/${acmePayments[0]}/webhooks/${event.id}/redeliver`, {})).status, 404);
  });

  it('shows operators every client’s payments and filters by client, status, amount and search', async () => {
    const all = await operator.get('/console/payments');
    for (const id of [...acmePayments, globexPayment]) assert.match(all.html, new RegExp(id));
    const globexOnly = await operator.get(`/console/payments?client=${globex.clientId}`);
    assert.match(globexOnly.html, new RegExp(globexPayment));
    assert.doesNotMatch(globexOnly.html, new RegExp(acmePayments[0] ?? 'none'));
    const amounts = await operator.get('/console/payments?min=10&max=10.50');
    const shown = [...amounts.html.matchAll(/\/console\/payments\/([0-9a-f-]{36})"/g)].map((match) => match[1]);
    assert.deepEqual(shown.sort(), [acmePayments[1], globexPayment].sort());
    const completed = await operator.get('/console/payments?status=COMPLETED');
    assert.match(completed.html, /No payment matches these filters/);
    const pending = await operator.get('/console/payments?status=PENDING&status=FAILED');
    assert.equal([...pending.html.matchAll(/\/console\/payments\/[0-9a-f-]{36}"/g)].length, 4);
    const e2e = (
      await app.database.db.selectFrom('payments').select('end_to_end_id').where('id', '=', globexPayment).executeTakeFirstOrThrow()
    ).end_to_end_id;
    const prefix = await operator.get(`/console/payments?q=${encodeURIComponent(e2e.slice(0, 12))}`);
    assert.match(prefix.html, new RegExp(globexPayment));
    const bad = await operator.get('/console/payments?min=ten&from=yesterday');
    assert.equal(bad.status, 400);
    assert.match(bad.html, /Amount from: a number/);
    assert.match(bad.html, /From: a date/);
  });

  it('pages through the list newest first without repeating or skipping', async () => {
    for (let index = 0; index < 52; index += 1) await create(acme, { amount: 1 });
    const seen: string[] = [];
    let path: string | undefined = `/console/payments?client=${acme.clientId}`;
    while (path !== undefined) {
      const answer = await operator.get(path);
      seen.push(...[...answer.html.matchAll(/\/console\/payments\/([0-9a-f-]{36})"/g)].map((match) => match[1] ?? ''));
      path = /<a class="button secondary" href="([^"]+)">Older payments/.exec(answer.html)?.[1]?.replace(/&amp;/g, '&');
    }
    assert.equal(seen.length, 55);
    assert.equal(new Set(seen).size, 55);
  });

  it('shows what each status of the timeline means, and the account the payer pays from (never credentials)', async () => {
    const withSender = await create(acme, {
      amount: 20,
      provider: { id: BANKS.hansa },
      sender: {
        account: { number: { type: 'IBAN', value: IBANS.FR }, currency: 'EUR' },
        credentials: { id: 'dave', password: TEST_PASSWORD },
      },
    });
    const page = await member.get(`/console/payments/${withSender}`);
    assert.equal(page.status, 200);
    const text = page.html.replace(/<wbr>/g, '');
    const facts = /<dl class="facts">[\s\S]*?<\/dl>/.exec(text)?.[0] ?? '';
    assert.match(facts, /<dt>Paid from<\/dt><dd>Account in EUR<span class="detail">FR1420041010050500013M02606<\/span><\/dd>/);
    assert.doesNotMatch(page.html, new RegExp(TEST_PASSWORD), 'the payer’s password is never shown');
    assert.doesNotMatch(page.html, /dave/);
    // Each record of the timeline says what its status means, beside its name.
    const records = [...text.matchAll(/<div class="status-name">([A-Z_]+)[\s\S]*?<p class="meaning">([^<]+)<\/p>/g)].map((match) => [
      match[1],
      match[2],
    ]);
    assert.ok(records.length >= 2, 'the timeline has records');
    for (const [status, meaning] of records) assert.equal(meaning, DETAILED_STATUS_MEANINGS[status as DetailedStatus]);
    // A hosted payment whose payer has not chosen an account yet says so.
    const hosted = (await member.get(`/console/payments/${acmePayments[0] ?? ''}`)).html;
    assert.match(hosted, /<dt>Paid from<\/dt><dd><span class="muted">Not known yet/);
    assert.match(
      hosted.replace(/<wbr>/g, ''),
      /PROVIDER_SELECTION_REDIRECT_PENDING[\s\S]*?<p class="meaning">The payer is being sent to the hosted bank selection screen\.<\/p>/,
    );
  });

  it('shows the payer’s account as the bank told it, in preference to the account sent with the payment', async () => {
    const paymentId = await create(acme, {
      amount: 7,
      sender: { account: { number: { type: 'IBAN', value: IBANS.FR }, currency: 'EUR' } },
    });
    const payers = [
      {
        stored: { account: { type: 'SORT_CODE_ACCOUNT_NUMBER', sortCode: '040004', accountNumber: '10001001' }, name: 'Alice <Happy>' },
        shown:
          /<dt>Paid from<\/dt><dd>Alice &lt;Happy&gt;<span class="detail">Sort code 04-00-04 · account 10001001<\/span><span class="hint">As the bank told it<\/span><\/dd>/,
      },
      {
        stored: { account: { type: 'IBAN', value: 'DE54500105171000007919' } },
        shown: /<dt>Paid from<\/dt><dd>Holder not named by the bank<span class="detail">DE54500105171000007919<\/span>/,
      },
    ];
    for (const { stored, shown } of payers) {
      await app.database.db
        .updateTable('payments')
        .set({ payer: JSON.stringify(stored) })
        .where('id', '=', paymentId)
        .execute();
      const facts =
        /<dl class="facts">[\s\S]*?<\/dl>/.exec((await member.get(`/console/payments/${paymentId}`)).html.replace(/<wbr>/g, ''))?.[0] ?? '';
      assert.match(facts, shown);
      assert.doesNotMatch(facts, new RegExp(IBANS.FR));
    }
  });

  it('shows a refund’s recipient known by sort code and account number in words, not as 14 bare digits', async () => {
    const paymentId = await create(acme, { amount: 3 });
    await app.database.db
      .updateTable('payments')
      .set({
        recipient: JSON.stringify({
          account: { number: { type: 'SORT_CODE_ACCOUNT_NUMBER', value: '60161331926819', rollNumber: 'ROLL-0042' } },
          name: 'Alice Happy',
        }),
      })
      .where('id', '=', paymentId)
      .execute();
    const facts =
      /<dl class="facts">[\s\S]*?<\/dl>/.exec((await member.get(`/console/payments/${paymentId}`)).html.replace(/<wbr>/g, ''))?.[0] ?? '';
    assert.match(
      facts,
      /<dt>Recipient<\/dt><dd>Alice Happy<span class="detail">Sort code 60-16-13 · account 31926819 · roll number ROLL-0042<\/span><\/dd>/,
    );
  });

  it('shows a payment’s timeline and webhook deliveries, and redelivers with one audited click', async () => {
    const paymentId = acmePayments[0] ?? '';
    const detail = await member.get(`/console/payments/${paymentId}`);
    assert.equal(detail.status, 200);
    const text = detail.html.replace(/<wbr>/g, '');
    assert.match(text, /Status timeline/);
    assert.match(text, /PROVIDER_SELECTION_REDIRECT_PENDING/);
    assert.match(text, /Bank calls/);
    assert.match(text, /Redeliver<span class="visually-hidden"> event #1</);
    const [event] = await app.database.db.selectFrom('webhook_events').selectAll().where('subject_id', '=', paymentId).execute();
    assert.ok(event !== undefined);
    await app.database.db
      .updateTable('webhook_events')
      .set({ state: 'failed', next_attempt_at: '2999-01-01T00:00:00.000Z' })
      .where('id', '=', event.id)
      .execute();
    const answer = await member.post(`/console/payments/${paymentId}/webhooks/${event.id}/redeliver`, {});
    assert.equal(answer.status, 303);
    assert.equal(answer.location, `/console/payments/${paymentId}?done=redelivered#webhooks`);
    const after = await app.database.db.selectFrom('webhook_events').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow();
    assert.equal(after.state, 'pending');
    assert.ok(after.next_attempt_at < '2999-01-01');
    const entry = await app.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'webhook.redelivered')
      .executeTakeFirstOrThrow();
    assert.equal(entry.actor, 'mia@acme.example');
    assert.equal(entry.client_id, acme.clientId);
    assert.equal(entry.target, paymentId);
    assert.match(entry.details ?? '', new RegExp(event.id));
    const auditPage = await member.get('/console/audit');
    assert.match(auditPage.html, /webhook\.redelivered/);
    assert.match(auditPage.html, /payment\.viewed/);
  });

  it('shows a member the audit entries of their client only', async () => {
    await operator.get(`/console/payments/${globexPayment}`);
    // The operator's view of Globex's payment is an entry about Globex: not in Acme's member's log.
    const viewed = `<span class="mono">${globexPayment}</span>`;
    const memberLog = await member.get('/console/audit');
    assert.ok(!memberLog.html.includes(viewed));
    assert.doesNotMatch(memberLog.html, /olga@operator\.example/);
    const operatorLog = await operator.get('/console/audit');
    assert.ok(operatorLog.html.includes(viewed));
  });

  it('lets operators create a client and rotate its secrets, each shown once; members only read their own', async () => {
    await operator.get('/console/clients');
    const created = await operator.post('/console/clients', { name: 'Initech', environment: 'sandbox', scopes: 'payments:read' });
    assert.equal(created.status, 201);
    const secret = /Client secret<\/strong><code class="mono">([^<]+)</.exec(created.html)?.[1];
    assert.match(secret ?? '', /^ops_/);
    const clientId = /Client id<\/strong><code class="mono">([^<]+)</.exec(created.html)?.[1] ?? '';
    const detail = await operator.get(`/console/clients/${clientId}`);
    assert.doesNotMatch(detail.html, new RegExp(secret ?? 'none'));
    const rotated = await operator.post(`/console/clients/${clientId}/rotate-secret`, {});
    const newSecret = /Client secret<\/strong><code class="mono">([^<]+)</.exec(rotated.html)?.[1];
    assert.ok(newSecret !== undefined && newSecret !== secret);
    await operator.get(`/console/clients/${clientId}`);
    const webhook = await operator.post(`/console/clients/${clientId}/rotate-webhook-secret`, {});
    assert.match(webhook.html, /Webhook secret<\/strong><code class="mono">whsec_/);
    await operator.get(`/console/clients/${clientId}`);
    assert.equal((await operator.post(`/console/clients/${clientId}/scopes`, { scopes: 'providers:read' })).status, 303);
    assert.equal(
      (await app.database.db.selectFrom('clients').select('scopes').where('id', '=', clientId).executeTakeFirstOrThrow()).scopes,
      'providers:read',
    );
    await operator.get(`/console/clients/${clientId}`);
    const branded = await operator.post(`/console/clients/${clientId}/branding`, {
      displayName: 'Initech Payments',
      brandColour: '#0a5c36',
    });
    assert.equal(branded.status, 303);
    await operator.get(`/console/clients/${clientId}`);
    const badBrand = await operator.post(`/console/clients/${clientId}/branding`, { supportUrl: 'javascript:alert(1)' });
    assert.equal(badBrand.status, 400);
    await operator.get(`/console/clients/${clientId}`);
    assert.equal((await operator.post(`/console/clients/${clientId}/disable`, {})).status, 303);
    assert.notEqual(
      (await app.database.db.selectFrom('clients').select('disabled_at').where('id', '=', clientId).executeTakeFirstOrThrow()).disabled_at,
      null,
    );
    const actions = (await app.database.db.selectFrom('audit_log').select('action').where('client_id', '=', clientId).execute())
      .map((row) => row.action)
      .sort();
    assert.deepEqual(actions, [
      'client.branding-changed',
      'client.created',
      'client.disabled',
      'client.scopes-changed',
      'client.secret-rotated',
      'client.webhook-secret-rotated',
    ]);

    const own = await member.get(`/console/clients/${acme.clientId}`);
    assert.equal(own.status, 200);
    assert.doesNotMatch(own.html, /rotate-secret|<form method="post" action="\/console\/clients/);
    assert.equal((await member.get(`/console/clients/${globex.clientId}`)).status, 404);
    await member.get('/console/clients');
    assert.equal((await member.post(`/console/clients/${acme.clientId}/rotate-secret`, {})).status, 404);
    assert.equal((await member.post('/console/clients', { name: 'Mine', environment: 'sandbox', scopes: 'payments:read' })).status, 404);
  });

  it('lets operators add people with a password shown once, and keeps the page from members', async () => {
    assert.equal((await member.get('/console/people')).status, 404);
    assert.doesNotMatch((await member.get('/console/payments')).html, /href="\/console\/people"/);
    await operator.get('/console/people');
    const added = await operator.post('/console/people', {
      email: 'sam@acme.example',
      name: 'Sam Support',
      role: 'member',
      client: acme.clientId,
    });
    assert.equal(added.status, 201);
    const password = /Password<\/strong><code class="mono">([^<]+)</.exec(added.html)?.[1] ?? '';
    const sam = new ConsoleBrowser(app.baseUrl);
    assert.match(added.html, /At the first sign-in they set up an authenticator app/);
    await signInPerson(sam, 'sam@acme.example', { password });
    assert.equal((await sam.get('/console/payments')).status, 200);
    const samId = (await consoleUsers(app).find('sam@acme.example')).id;
    await operator.get(`/console/people/${samId}`);
    const disabled = await operator.post(`/console/people/${samId}/disable`, {});
    assert.equal(disabled.status, 303);
    assert.match(
      (await operator.get(disabled.location ?? '')).html,
      /The account is disabled; its sessions ended\./,
      'the change is confirmed',
    );
    assert.equal((await sam.get('/console/payments')).status, 303, 'a disabled account’s session ends at once');
    const enabled = await operator.post(`/console/people/${samId}/enable`, {});
    assert.match((await operator.get(enabled.location ?? '')).html, /The account is enabled\./);
    await operator.get('/console/people');
    const refused = await operator.post('/console/people', { email: 'x', name: '', role: 'member', client: '' });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /email must be an email address/);
  });
});
