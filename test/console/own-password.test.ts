/**
 * Changing one's own console password (/console/account/password): with the current password; the new one checked
 * as any new password and typed twice; the change ends the person's other sessions but not this one, and is
 * audited; a wrong current password counts toward the lock-out, and the failure that locks ends every session.
 * Passwords are never put back into the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditLog } from '../../src/people/audit-log.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { ConsoleBrowser, consoleUsers, PASSWORD, signInPerson } from './console-http.js';

const [sqlite] = await testDatabaseKinds();
const NEW_PASSWORD = 'plum rocket lantern meadow';

describe('console: changing one’s own password', () => {
  let app: TestApp;
  let clientId: string;

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    app = await startTestApp(sqlite, { env: { CONSOLE_LOCKOUT_ATTEMPTS: '3' } });
    clientId = (await app.createClient({ name: 'Acme Shop' })).clientId;
  });
  after(async () => {
    await app?.close();
  });

  /** A new member of the client, signed in from two browsers (their sessions "here" and "elsewhere"). */
  const newMember = async (email: string): Promise<{ here: ConsoleBrowser; elsewhere: ConsoleBrowser }> => {
    await consoleUsers(app).create({ email, name: email.split('@')[0] ?? email, role: 'member', clientId, password: PASSWORD });
    const here = new ConsoleBrowser(app.baseUrl);
    const key = await signInPerson(here, email);
    const elsewhere = new ConsoleBrowser(app.baseUrl);
    await signInPerson(elsewhere, email, { key });
    return { here, elsewhere };
  };
  /** Whether the password passes the sign-in's password step. */
  const passwordWorks = async (email: string, password: string): Promise<boolean> =>
    (await consoleUsers(app).checkPassword(email, password)).outcome === 'accepted';
  const changePassword = async (browser: ConsoleBrowser, current: string, next: string, confirm = next) => {
    await browser.get('/console/account/password');
    return browser.post('/console/account/password', { current, next, confirm });
  };
  const audited = async (email: string): Promise<string[]> =>
    (await new AuditLog(app.database.db).list({ limit: 100 }))
      .filter((entry) => entry.target === email)
      .map((entry) => entry.action)
      .reverse();

  it('is linked beside the person’s name on every page', async () => {
    const { here: browser } = await newMember('link@acme.example');
    const home = await browser.get('/console/payments');
    assert.match(home.html, /<a href="\/console\/account\/password">Change password<\/a>/);
    const form = await browser.get('/console/account/password');
    assert.equal(form.status, 200);
    assert.match(form.html, /autocomplete="current-password"/);
    assert.equal((form.html.match(/autocomplete="new-password"/g) ?? []).length, 2);
  });

  it('changes it, ends the person’s other sessions but not this one, and audits it', async () => {
    const email = 'mia@acme.example';
    const { here, elsewhere } = await newMember(email);
    const answer = await changePassword(here, PASSWORD, NEW_PASSWORD);
    assert.equal(answer.status, 303);
    assert.equal(answer.location, '/console/account/password?done=changed');
    const done = await here.get(answer.location ?? '');
    assert.match(done.html, /Your password is changed\. Your other sessions ended\./);
    assert.doesNotMatch(done.html, new RegExp(NEW_PASSWORD));
    assert.equal((await here.get('/console/payments')).status, 200);
    const other = await elsewhere.get('/console/payments');
    assert.equal(other.status, 303);
    assert.match(other.location ?? '', /^\/console\/sign-in/);
    // The old password no longer signs in; the new one does.
    assert.equal(await passwordWorks(email, PASSWORD), false);
    assert.equal(await passwordWorks(email, NEW_PASSWORD), true);
    assert.deepEqual(await audited(email), ['user.password-changed']);
  });

  it('refuses a wrong current password, a short or unchanged new one and a repetition that differs, changing nothing', async () => {
    const email = 'ned@acme.example';
    const { here: browser } = await newMember(email);
    const cases: [string, string, string, RegExp][] = [
      ['not my password at all', NEW_PASSWORD, NEW_PASSWORD, /The current password is not right\./],
      [PASSWORD, 'too short', 'too short', /at least 12 characters/],
      [PASSWORD, PASSWORD, PASSWORD, /must differ from the current one/],
      [PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}!`, /The new password and its repetition differ\./],
    ];
    for (const [current, next, confirm, message] of cases) {
      const answer = await changePassword(browser, current, next, confirm);
      assert.equal(answer.status, 400, String(message));
      assert.match(answer.html, message);
      // The field the reason is about is marked.
      const aboutCurrent = current !== PASSWORD;
      assert.equal(/id="current"[^>]*aria-invalid="true"/.test(answer.html), aboutCurrent);
      assert.equal(/id="next"[^>]*aria-invalid="true"/.test(answer.html), !aboutCurrent);
      // Nothing typed comes back.
      for (const typed of [current, next, confirm]) assert.doesNotMatch(answer.html, new RegExp(`value="${typed}"`));
    }
    assert.equal(await passwordWorks(email, PASSWORD), true);
    assert.deepEqual(await audited(email), ['user.password-change-failed']);
  });

  it('counts a wrong current password toward the lock-out; the failure that locks ends every session', async () => {
    const email = 'lou@acme.example';
    const { here: browser, elsewhere } = await newMember(email);
    assert.equal((await changePassword(browser, 'wrong one, first', NEW_PASSWORD)).status, 400);
    assert.equal((await changePassword(browser, 'wrong one, second', NEW_PASSWORD)).status, 400);
    const locking = await changePassword(browser, 'wrong one, third', NEW_PASSWORD);
    assert.equal(locking.status, 303);
    assert.equal(locking.location, '/console/sign-in');
    for (const session of [browser, elsewhere]) assert.equal((await session.get('/console/payments')).status, 303);
    const user = await consoleUsers(app).find(email);
    assert.ok(user.lockedUntil !== null && user.lockedUntil > new Date().toISOString());
    assert.deepEqual(await audited(email), [
      'user.password-change-failed',
      'user.password-change-failed',
      'user.password-change-failed',
      'account.locked',
    ]);
  });
});
