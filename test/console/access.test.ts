/**
 * Who gets into the console and for how long, over plain HTTP: sign-in, the operators' second factor (enrolment,
 * single-use codes), lock-out, the session cookie's attributes, idle and absolute timeouts (an injectable clock, no
 * sleeps), CSRF and cross-site posts, and the audit entries all of it leaves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { totpCode } from '../../src/people/second-factor.js';
import { AuditLog } from '../../src/people/audit-log.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { ConsoleSessions } from '../../src/people/sessions.js';
import { ConsoleBrowser, consoleUsers, enrolmentKey, freshTotpCode, PASSWORD, signInPerson } from './console-http.js';

const kinds = await testDatabaseKinds();

for (const kind of kinds) {
  describe(`console access (${kind.name})`, () => {
    let app: TestApp;
    let clock = new Date('2026-11-24T09:00:00.000Z');
    const now = (): Date => clock;
    const advance = (seconds: number): void => {
      clock = new Date(clock.getTime() + seconds * 1000);
    };
    let clientId: string;

    before(async () => {
      app = await startTestApp(kind, { now });
      clientId = (await app.createClient({ name: 'Acme Shop' })).clientId;
    });
    after(async () => {
      await app?.close();
    });

    let miaKey = '';

    it('signs a member in with their authenticator too (enrolled at the first sign-in), with a session cookie that is HttpOnly, SameSite=Strict and only for /console', async () => {
      await consoleUsers(app, now).create({ email: 'Mia@Acme.example', name: 'Mia Member', role: 'member', clientId, password: PASSWORD });
      const browser = new ConsoleBrowser(app.baseUrl);
      const signInPage = await browser.get('/console/sign-in');
      assert.equal(signInPage.status, 200);
      assert.match(
        signInPage.headers.get('content-security-policy') ?? '',
        /^default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'$/,
      );
      assert.doesNotMatch(signInPage.html, /<script/);
      const passed = await browser.post('/console/sign-in', { email: 'mia@acme.example', password: PASSWORD });
      assert.equal(passed.status, 303);
      assert.equal(passed.location, '/console/sign-in/enrol', 'a member sets up an authenticator as an operator does');
      assert.equal((await browser.get('/console/payments')).status, 303, 'the password alone opens nothing');
      const enrol = await browser.get('/console/sign-in/enrol');
      assert.match(enrol.html, /<svg[^>]*>[\s\S]*<path/);
      assert.doesNotMatch(enrol.html, /Operators sign in/);
      miaKey = enrolmentKey(enrol.html);
      const answer = await browser.post('/console/sign-in/enrol', { code: await freshTotpCode(miaKey, now) });
      assert.equal(answer.status, 303);
      assert.equal(answer.location, '/console/payments');
      const cookie = answer.setCookies.find((line) => line.startsWith('openpis_console='));
      assert.ok(cookie !== undefined);
      assert.match(cookie, /; Path=\/console/);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Strict/);
      assert.doesNotMatch(cookie, /; Secure/, 'BASE_URL is http here: a Secure cookie would never come back');
      const payments = await browser.get('/console/payments');
      assert.equal(payments.status, 200);
      assert.match(payments.html, /Mia Member/);
      // Only a hash of the session id is stored.
      const value = browser.cookies.get('openpis_console') ?? '';
      const stored = await app.database.db.selectFrom('console_sessions').select('id_hash').execute();
      assert.ok(stored.length > 0 && stored.every((row) => row.id_hash !== value && /^[0-9a-f]{64}$/.test(row.id_hash)));
    });

    it('sends anyone without a session to the sign-in page, and answers a wrong password without saying which part was wrong', async () => {
      const browser = new ConsoleBrowser(app.baseUrl);
      const page = await browser.get('/console/payments?status=FAILED');
      assert.equal(page.status, 303);
      assert.equal(page.location, '/console/sign-in?next=%2Fconsole%2Fpayments%3Fstatus%3DFAILED');
      const unknown = await browser.signIn('nobody@acme.example', PASSWORD);
      const wrong = await browser.signIn('mia@acme.example', 'not the password at all');
      assert.equal(unknown.status, 401);
      assert.equal(wrong.status, 401);
      assert.match(unknown.html, /The email or the password is wrong/);
      assert.match(wrong.html, /The email or the password is wrong/);
      await consoleUsers(app, now).unlock((await consoleUsers(app, now).find('mia@acme.example')).id);
    });

    it('locks an account after five failures in a row for fifteen minutes, and says so', async () => {
      const users = consoleUsers(app, now);
      await users.create({ email: 'lou@acme.example', name: 'Lou', role: 'member', clientId, password: PASSWORD });
      const browser = new ConsoleBrowser(app.baseUrl);
      // A second between attempts keeps the log's order (newest first by time) the order of the attempts.
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        assert.equal((await browser.signIn('lou@acme.example', `wrong password ${attempt}`)).status, 401);
        advance(1);
      }
      const fifth = await browser.signIn('lou@acme.example', 'wrong password 5');
      assert.match(fifth.html, /locked until 09:1\d UTC/);
      advance(1);
      const right = await browser.signIn('lou@acme.example', PASSWORD);
      assert.equal(right.status, 429, 'the right password does not open a locked account');
      advance(14 * 60 - 1);
      assert.equal((await browser.signIn('lou@acme.example', PASSWORD)).status, 429);
      advance(61);
      assert.equal((await browser.signIn('lou@acme.example', PASSWORD)).location, '/console/sign-in/enrol');
      await browser.get('/console/sign-in/enrol');
      assert.equal(
        (await browser.post('/console/sign-in/enrol', { code: await freshTotpCode(enrolmentKey(browser.lastHtml), now) })).status,
        303,
      );
      const log = await new AuditLog(app.database.db).list({ actor: 'lou@acme.example', limit: 50 });
      const actions = log.map((entry) => entry.action).sort();
      assert.deepEqual(actions, [
        'account.locked',
        'second-factor.enrolled',
        'sign-in',
        'sign-in.failed',
        'sign-in.failed',
        'sign-in.failed',
        'sign-in.failed',
        'sign-in.failed',
        'sign-in.refused',
        'sign-in.refused',
      ]);
      assert.deepEqual(
        log.slice(2, 4).map((entry) => entry.action),
        ['sign-in.refused', 'sign-in.refused'],
      );
      assert.ok(log.every((entry) => entry.ip === '127.0.0.1' && entry.clientId === clientId));
    });

    it('makes an operator enrol an authenticator, then asks for a fresh code at every sign-in; a code works once', async () => {
      await consoleUsers(app, now).create({ email: 'olga@operator.example', name: 'Olga Operator', role: 'operator', password: PASSWORD });
      const browser = new ConsoleBrowser(app.baseUrl);
      const first = await browser.signIn('olga@operator.example', PASSWORD);
      assert.equal(first.location, '/console/sign-in/enrol');
      assert.equal((await browser.get('/console/payments')).status, 303, 'the password alone opens nothing');
      const enrol = await browser.get('/console/sign-in/enrol');
      assert.match(enrol.html, /<svg[^>]*>[\s\S]*<path/);
      assert.match(enrol.html, /otpauth:\/\/totp\/openpis%20console:olga%40operator\.example\?/);
      const key = enrolmentKey(enrol.html);
      assert.equal(key.length, 32);
      assert.equal(
        (await browser.post('/console/sign-in/enrol', { code: '000000' === totpCode(key, clock) ? '111111' : '000000' })).status,
        401,
      );
      const confirmed = await browser.post('/console/sign-in/enrol', { code: totpCode(key, clock) });
      assert.equal(confirmed.status, 303);
      assert.equal((await browser.get('/console/people')).status, 200);

      advance(30);
      const again = new ConsoleBrowser(app.baseUrl);
      assert.equal((await again.signIn('olga@operator.example', PASSWORD)).location, '/console/sign-in/code');
      await again.get('/console/sign-in/code');
      const code = totpCode(key, clock);
      assert.equal((await again.post('/console/sign-in/code', { code })).status, 303);
      // The same code at once in another browser: refused, it was used.
      const replay = new ConsoleBrowser(app.baseUrl);
      await replay.signIn('olga@operator.example', PASSWORD);
      await replay.get('/console/sign-in/code');
      assert.equal((await replay.post('/console/sign-in/code', { code })).status, 401);
    });

    it('counts wrong codes toward the lock-out and ends the half-way session when it locks', async () => {
      const users = consoleUsers(app, now);
      const olga = await users.find('olga@operator.example');
      await users.unlock(olga.id);
      const browser = new ConsoleBrowser(app.baseUrl);
      await browser.signIn('olga@operator.example', PASSWORD);
      await browser.get('/console/sign-in/code');
      let last = await browser.post('/console/sign-in/code', { code: '000001' });
      for (let attempt = 2; attempt <= 5 && last.status === 401; attempt += 1) {
        last = await browser.post('/console/sign-in/code', { code: `00000${attempt}` });
      }
      assert.equal(last.status, 429);
      assert.match(last.html, /locked/);
      assert.equal((await browser.get('/console/sign-in/code')).status, 303);
      assert.equal((await users.find('olga@operator.example')).lockedUntil !== null, true);
      await users.unlock(olga.id);
    });

    it('ends a session opened before members needed a second factor, and leads the member through enrolment at the next sign-in', async () => {
      const users = consoleUsers(app, now);
      const ned = await users.create({ email: 'ned@acme.example', name: 'Ned Earlier', role: 'member', clientId, password: PASSWORD });
      // A session as the console opened them for members before: signed in with the password alone.
      const sessions = new ConsoleSessions(app.database.db, users, { idleSeconds: 1800, absoluteSeconds: 43_200 }, now);
      const browser = new ConsoleBrowser(app.baseUrl);
      browser.cookies.set('openpis_console', await sessions.start(ned.id, 'signed-in', { ip: '127.0.0.1', userAgent: 'test' }));
      const page = await browser.get('/console/payments');
      assert.equal(page.status, 303);
      assert.match(page.location ?? '', /^\/console\/sign-in/);
      assert.equal((await browser.signIn('ned@acme.example', PASSWORD)).location, '/console/sign-in/enrol');
      assert.equal((await users.find('ned@acme.example')).secondFactor, 'not-enrolled');
    });

    it('ends a session after 30 idle minutes, and after 12 hours whatever the activity', async () => {
      const browser = new ConsoleBrowser(app.baseUrl);
      await signInPerson(browser, 'mia@acme.example', { key: miaKey, now });
      advance(29 * 60);
      assert.equal((await browser.get('/console/payments')).status, 200, 'active within the idle time');
      advance(29 * 60);
      assert.equal((await browser.get('/console/payments')).status, 200, 'each request restarts the idle time');
      advance(30 * 60 + 1);
      assert.equal((await browser.get('/console/payments')).status, 303, 'idle too long');

      const busy = new ConsoleBrowser(app.baseUrl);
      await signInPerson(busy, 'mia@acme.example', { key: miaKey, now });
      for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
        advance(20 * 60);
        assert.equal((await busy.get('/console/payments')).status, 200, `still open after ${minutes} minutes`);
      }
      advance(20 * 60);
      assert.equal((await busy.get('/console/payments')).status, 303, 'past the absolute end');
    });

    it('refuses a form without the session’s CSRF token, with another session’s, or sent by another site', async () => {
      const mallory = new ConsoleBrowser(app.baseUrl);
      await signInPerson(mallory, 'mia@acme.example', { key: miaKey, now });
      await mallory.get('/console/payments');
      const otherToken = mallory.csrf();
      const browser = new ConsoleBrowser(app.baseUrl);
      await signInPerson(browser, 'mia@acme.example', { key: miaKey, now });
      await browser.get('/console/payments');
      assert.equal((await browser.post('/console/sign-out', { _csrf: '' })).status, 403);
      assert.equal((await browser.post('/console/sign-out', { _csrf: otherToken })).status, 403);
      assert.equal((await browser.post('/console/sign-out', {}, { 'sec-fetch-site': 'cross-site' })).status, 403);
      assert.equal((await browser.post('/console/sign-out', {}, { origin: 'https://evil.example' })).status, 403);
      assert.equal((await browser.get('/console/payments')).status, 200, 'still signed in');
      const out = await browser.post('/console/sign-out', {});
      assert.equal(out.status, 303);
      assert.equal((await browser.get('/console/payments')).status, 303, 'signed out');
      // The sign-in form has its own token (before any session).
      const fresh = new ConsoleBrowser(app.baseUrl);
      await fresh.get('/console/sign-in');
      assert.equal((await fresh.post('/console/sign-in', { _csrf: 'forged', email: 'mia@acme.example', password: PASSWORD })).status, 403);
    });

    it('keeps the audit log append-only: the database refuses to change or delete an entry', async () => {
      const entries = await app.database.db.selectFrom('audit_log').select('id').execute();
      assert.ok(entries.length > 0);
      await assert.rejects(sql`UPDATE audit_log SET action = 'nothing'`.execute(app.database.db), /append-only/);
      await assert.rejects(sql`DELETE FROM audit_log`.execute(app.database.db), /append-only/);
    });
  });
}
