/**
 * The Banks section's management pages over HTTP: an operator sees a bank's entry, lifecycle and registration,
 * disables, enables and replaces it (confirmed, CSRF-protected, audited, through the bank store so the registry
 * hears of it) and runs the go-live check in the background; a member gets 404 on all of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { type ConsoleBrowser, signedInOperatorAndMember } from './console-http.js';

const [kind] = await testDatabaseKinds();

describe(`console bank management [${kind?.name ?? 'none'}]`, () => {
  let app: TestApp;
  let operator: ConsoleBrowser;
  let member: ConsoleBrowser;
  let bankId: string;
  let otherBankId: string;

  before(async () => {
    assert.ok(kind !== undefined);
    app = await startTestApp(kind, { banksInDatabase: true });
    const client = await app.createClient({ name: 'Acme Shop' });
    ({ operator, member } = await signedInOperatorAndMember(app, client.clientId));
    const sandboxBanks = app.bankRegistry!.list('sandbox').filter((entry) => entry.kind === 'bank');
    assert.ok(sandboxBanks.length >= 2, 'the test catalogue has two sandbox banks');
    bankId = sandboxBanks[0]!.id;
    otherBankId = sandboxBanks[1]!.id;
  });

  after(async () => {
    await app?.close();
  });

  const auditActions = async (): Promise<string[]> =>
    (await app.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'bank.%').execute()).map((row) => row.action);

  it('shows an operator the bank’s entry, lifecycle and forms, never its secrets’ values', async () => {
    const list = await operator.get('/console/banks');
    assert.match(list.html, new RegExp(`href="/console/banks/${bankId}"`));
    const page = await operator.get(`/console/banks/${bankId}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /Settings as stored/);
    assert.match(page.html, /Active/);
    assert.match(page.html, new RegExp(`action="/console/banks/${bankId}/disable"`));
    assert.match(page.html, /Run the check/);
    // No bank calls yet in this test app: the health line says so, not a dash.
    assert.match(page.html, /No calls<\/span> <span class="muted">no calls in the last day<\/span>/);
    assert.equal((await operator.get('/console/banks/no-such-bank')).status, 404);
  });

  it('answers a member 404 on the management pages and forms, and keeps their health view', async () => {
    assert.equal((await member.get('/console/banks')).status, 200);
    assert.doesNotMatch(member.lastHtml, new RegExp(`href="/console/banks/${bankId}"`));
    assert.equal((await member.get(`/console/banks/${bankId}`)).status, 404);
    await member.get('/console/banks');
    assert.equal((await member.post(`/console/banks/${bankId}/disable`, { confirm: 'yes' })).status, 404);
    assert.equal((await member.post(`/console/banks/${bankId}/check`, { confirm: 'yes' })).status, 404);
    assert.equal((await app.bankRegistry!.store.get(bankId))?.status, 'active');
  });

  it('refuses a change without the CSRF token or without confirmation', async () => {
    await operator.get(`/console/banks/${bankId}`);
    const forged = await operator.post(`/console/banks/${bankId}/disable`, { _csrf: 'forged', confirm: 'yes' });
    assert.ok(forged.status >= 400 && forged.status < 500, `status ${forged.status}`);
    await operator.get(`/console/banks/${bankId}`);
    const unconfirmed = await operator.post(`/console/banks/${bankId}/disable`, {});
    assert.equal(unconfirmed.status, 400);
    assert.match(unconfirmed.html, /Tick the box to confirm/);
    assert.equal((await app.bankRegistry!.store.get(bankId))?.status, 'active');
    assert.deepEqual(await auditActions(), []);
  });

  it('disables and enables a bank: audited, and the registry’s lists follow', async () => {
    await operator.get(`/console/banks/${bankId}`);
    const disabled = await operator.post(`/console/banks/${bankId}/disable`, { confirm: 'yes' });
    assert.equal(disabled.status, 303);
    assert.equal(disabled.location, `/console/banks/${bankId}?done=disabled`);
    await waitFor('the registry to drop the bank', () =>
      app.bankRegistry!.list('sandbox').some((entry) => entry.id === bankId) ? undefined : true,
    );
    const page = await operator.get(disabled.location);
    assert.match(page.html, /Bank disabled/);
    assert.match(page.html, new RegExp(`action="/console/banks/${bankId}/enable"`));
    const enabled = await operator.post(`/console/banks/${bankId}/enable`, { confirm: 'yes' });
    assert.equal(enabled.status, 303);
    await waitFor('the registry to list the bank again', () =>
      app.bankRegistry!.list('sandbox').some((entry) => entry.id === bankId) ? true : undefined,
    );
    assert.deepEqual(await auditActions(), ['bank.disabled', 'bank.enabled']);
  });

  it('shows what the bank store refuses when replacing, and replaces by an active bank', async () => {
    await operator.get(`/console/banks/${bankId}`);
    const unknown = await operator.post(`/console/banks/${bankId}/replace`, { confirm: 'yes', replacement: 'no-such-bank' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.html, /class="errors"/);
    assert.equal((await app.bankRegistry!.store.get(bankId))?.status, 'active');
    const replaced = await operator.post(`/console/banks/${bankId}/replace`, { confirm: 'yes', replacement: otherBankId });
    assert.equal(replaced.status, 303);
    const stored = await app.bankRegistry!.store.get(bankId);
    assert.equal(stored?.status, 'deprecated');
    assert.equal(stored?.replacedBy, otherBankId);
    const page = await operator.get(`/console/banks/${bankId}`);
    assert.match(page.html, new RegExp(`Replaced</span> by <a href="/console/banks/${otherBankId}"`));
    await operator.post(`/console/banks/${bankId}/enable`, { confirm: 'yes' });
    assert.equal((await app.bankRegistry!.store.get(bankId))?.status, 'active');
    assert.ok((await auditActions()).includes('bank.replaced'));
  });

  it('runs the check in the background and shows one line per check', async () => {
    await operator.get(`/console/banks/${otherBankId}`);
    const started = await operator.post(`/console/banks/${otherBankId}/check`, { confirm: 'yes' });
    assert.equal(started.status, 303);
    // A second click while the first runs starts no second check (one audit entry).
    await operator.get(`/console/banks/${otherBankId}`);
    if (/Running since/.test(operator.lastHtml)) assert.doesNotMatch(operator.lastHtml, /Run the check<\/button>/);
    const page = await waitFor('the check’s lines', async () => {
      const answer = await operator.get(`/console/banks/${otherBankId}`);
      return /Running since/.test(answer.html) ? undefined : answer.html;
    });
    assert.match(page, /<th scope="col">Check<\/th>/);
    assert.match(page, /badge (completed|pending|failed)">(Pass|Warn|Fail)/);
    assert.equal((await auditActions()).filter((action) => action === 'bank.checked').length, 1);
  });
});
