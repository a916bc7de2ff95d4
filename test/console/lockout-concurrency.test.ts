/**
 * The lock-out holds whatever the concurrency: many guesses sent at once (sign-in passwords, second-factor codes,
 * the own-password page's current password) get at most CONSOLE_LOCKOUT_ATTEMPTS checks per lock window; the rest
 * are answered "locked" without being checked. A code is accepted once even when sent twice at once. On SQLite and
 * PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditLog } from '../../src/people/audit-log.js';
import { totpCode } from '../../src/people/second-factor.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { ConsoleBrowser, consoleUsers, enrolmentKey, PASSWORD, signInOperator } from './console-http.js';

const kinds = await testDatabaseKinds();
const ATTEMPTS = 5;
const BURST = 40;

for (const kind of kinds) {
  describe(`console lock-out under concurrent attempts (${kind.name})`, () => {
    let app: TestApp;
    let clientId: string;

    before(async () => {
      app = await startTestApp(kind, { env: { CONSOLE_LOCKOUT_ATTEMPTS: String(ATTEMPTS) } });
      clientId = (await app.createClient({ name: 'Acme Shop' })).clientId;
    });
    after(async () => {
      await app?.close();
    });

    const actions = async (actor: string): Promise<string[]> =>
      (await new AuditLog(app.database.db).list({ actor, limit: 500 })).map((entry) => entry.action);
    const count = (list: readonly string[], action: string): number => list.filter((entry) => entry === action).length;

    it(`checks at most ${ATTEMPTS} of ${BURST} passwords sent at once, the right one among them included`, async () => {
      const email = 'burst@acme.example';
      await consoleUsers(app).create({ email, name: 'Burst', role: 'operator', password: PASSWORD });
      const browsers = Array.from({ length: BURST }, () => new ConsoleBrowser(app.baseUrl));
      for (const browser of browsers) await browser.get('/console/sign-in');
      const answers = await Promise.all(
        browsers.map((browser, index) =>
          browser.post('/console/sign-in', { email, password: index === BURST / 2 ? PASSWORD : `wrong guess number ${index}` }),
        ),
      );
      const log = await actions(email);
      const checkedWrong = count(log, 'sign-in.failed');
      const accepted = answers.filter((answer) => answer.status === 303).length;
      assert.ok(checkedWrong + accepted <= ATTEMPTS, `${checkedWrong} wrong and ${accepted} right passwords were checked`);
      assert.equal(count(log, 'sign-in.refused'), BURST - checkedWrong - accepted, 'every other attempt is answered "locked" unchecked');
      assert.equal(answers.filter((answer) => answer.status === 429).length, BURST - checkedWrong - accepted);
      const user = await consoleUsers(app).find(email);
      if (accepted === 0) {
        assert.ok(user.lockedUntil !== null && user.lockedUntil > new Date().toISOString(), 'locked after the burst');
        assert.equal(
          (await new ConsoleBrowser(app.baseUrl).signIn(email, PASSWORD)).status,
          429,
          'the right password after the burst is refused',
        );
      }
    });

    it(`checks at most ${ATTEMPTS} of ${BURST} second-factor codes sent at once, and accepts a right code once when it comes twice at once`, async () => {
      const email = 'codes@operator.example';
      const users = consoleUsers(app);
      await users.create({ email, name: 'Codes', role: 'operator', password: PASSWORD });
      const key = await signInOperator(new ConsoleBrowser(app.baseUrl), email, () => new Date());
      const { id } = await users.find(email);

      // Two half-way sessions send the code of the next time step at once: one is signed in, the other refused.
      await users.unlock(id);
      const next = new Date(Date.now() + 30_000);
      const pair = [new ConsoleBrowser(app.baseUrl), new ConsoleBrowser(app.baseUrl)];
      for (const browser of pair) {
        assert.equal((await browser.signIn(email, PASSWORD)).location, '/console/sign-in/code');
        await browser.get('/console/sign-in/code');
      }
      const both = await Promise.all(pair.map((browser) => browser.post('/console/sign-in/code', { code: totpCode(key, next) })));
      assert.deepEqual(both.map((answer) => answer.status).sort(), [303, 401], 'a code opens one session');

      // One half-way session sends two right codes (this step's and the next one's) at once: it becomes one session.
      await users.unlock(id);
      const twice = new ConsoleBrowser(app.baseUrl);
      assert.equal((await twice.signIn(email, PASSWORD)).location, '/console/sign-in/code');
      await twice.get('/console/sign-in/code');
      const sessionsBefore = await app.database.db
        .selectFrom('console_sessions')
        .select('id_hash')
        .where('user_id', '=', id)
        .where('stage', '=', 'signed-in')
        .execute();
      // Forget the steps used above, so that the previous step's code and this one's are both right.
      await app.database.db.updateTable('console_users').set({ totp_last_step: null }).where('id', '=', id).execute();
      const answers = await Promise.all(
        [-30_000, 0].map((offset) => twice.post('/console/sign-in/code', { code: totpCode(key, new Date(Date.now() + offset)) })),
      );
      assert.ok(
        answers.every((answer) => answer.status < 500),
        `no server error: ${answers.map((answer) => answer.status).join(', ')}`,
      );
      const sessionsAfter = await app.database.db
        .selectFrom('console_sessions')
        .select('id_hash')
        .where('user_id', '=', id)
        .where('stage', '=', 'signed-in')
        .execute();
      assert.equal(sessionsAfter.length - sessionsBefore.length, 1, 'one half-way session becomes one session');

      await users.unlock(id);
      const half = new ConsoleBrowser(app.baseUrl);
      assert.equal((await half.signIn(email, PASSWORD)).location, '/console/sign-in/code');
      await half.get('/console/sign-in/code');
      const failedBefore = count(await actions(email), 'sign-in.failed');
      const valid = new Set([-30_000, 0, 30_000].map((offset) => totpCode(key, new Date(Date.now() + offset))));
      const wrongCodes = Array.from({ length: BURST + valid.size }, (_, index) => String(100000 + index))
        .filter((code) => !valid.has(code))
        .slice(0, BURST);
      await Promise.all(wrongCodes.map((code) => half.post('/console/sign-in/code', { code })));
      const checked = count(await actions(email), 'sign-in.failed') - failedBefore;
      assert.ok(checked >= 1 && checked <= ATTEMPTS, `${checked} codes were checked`);
      const user = await users.find(email);
      assert.ok(user.lockedUntil !== null && user.lockedUntil > new Date().toISOString(), 'locked');
    });

    it('offers one authenticator key however many enrolment pages open at once', async () => {
      const email = 'enrol@acme.example';
      await consoleUsers(app).create({ email, name: 'Enrol', role: 'member', clientId, password: PASSWORD });
      const browser = new ConsoleBrowser(app.baseUrl);
      assert.equal((await browser.signIn(email, PASSWORD)).location, '/console/sign-in/enrol');
      const pages = await Promise.all(Array.from({ length: 8 }, () => browser.get('/console/sign-in/enrol')));
      const keys = new Set(pages.map((page) => enrolmentKey(page.html)));
      assert.equal(keys.size, 1, 'every page shows the key that is stored');
      const [key = ''] = keys;
      assert.equal((await browser.post('/console/sign-in/enrol', { code: totpCode(key, new Date()) })).status, 303);
    });

    it(`checks at most ${ATTEMPTS} of ${BURST} current passwords sent at once on the own-password page`, async () => {
      const email = 'own@acme.example';
      const users = consoleUsers(app);
      await users.create({ email, name: 'Own', role: 'operator', password: PASSWORD });
      const browser = new ConsoleBrowser(app.baseUrl);
      await signInOperator(browser, email, () => new Date());
      await browser.get('/console/account/password');
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, index) =>
          browser.post('/console/account/password', {
            current: `wrong current ${index}`,
            next: 'a brand new passphrase',
            confirm: 'a brand new passphrase',
          }),
        ),
      );
      const log = await actions(email);
      assert.ok(
        count(log, 'user.password-change-failed') <= ATTEMPTS,
        `${count(log, 'user.password-change-failed')} current passwords were checked`,
      );
      assert.equal(count(log, 'account.locked'), 1);
      assert.ok(
        answers.every(
          (answer) => answer.status === 400 || (answer.status === 303 && answer.location?.startsWith('/console/sign-in') === true),
        ),
      );
      const user = await users.find(email);
      assert.ok(user.lockedUntil !== null && user.lockedUntil > new Date().toISOString(), 'locked');
      assert.equal((await browser.get('/console/payments')).status, 303, 'the session ended');
    });
  });
}
