/**
 * The hosted pages' guards over plain HTTP: CSRF tokens, the reach of a flow link, a double submit racing, the
 * payer cancelling on our page, page headers, and the language (from Accept-Language at creation, switchable).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BANKS, startFlowHarness, statuses, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { continueLinkOf, csrfOf, get, headingOf, post, submit } from './http-payer.js';

const [sqlite] = await testDatabaseKinds();

describe('hosted page guards and languages', () => {
  let flow: FlowHarness;
  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    flow = await startFlowHarness(sqlite);
  });
  after(async () => {
    await flow?.close();
  });

  it('sends strict security headers on every page', async () => {
    const { redirectUrl } = await flow.create();
    const page = await get(redirectUrl);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /style-src 'self'/);
    // Scripts only from our own files: never inline, never another origin.
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|unsafe-hashes|script-src [^;]*(https?:|\*|data:|blob:)/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    // Our own files only, nothing inline: the script of every page, and the bank list's filter.
    const scripts = [...page.html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.deepEqual(
      scripts.map((match) => match[2]),
      ['', ''],
    );
    assert.match(scripts[0]?.[1] ?? '', /^ src="\/pay\/assets\/hosted-[\w-]+\.js" defer$/);
    assert.match(scripts[1]?.[1] ?? '', /^ src="\/pay\/assets\/bank-filter-[\w-]{12}\.js" defer$/);
    assert.doesNotMatch(page.html, /style=|\son[a-z]+=/);
  });

  it("refuses a form without its CSRF token (403), with another payment's token (403), and a cross-site post (403)", async () => {
    const mine = await flow.create({ provider: { id: BANKS.rheinland } });
    const other = await flow.create({ provider: { id: BANKS.rheinland } });
    const myPage = await get(mine.redirectUrl);
    const otherPage = await get(other.redirectUrl);
    assert.equal((await post(`${mine.redirectUrl}/continue`, {})).status, 403);
    assert.equal((await post(`${mine.redirectUrl}/continue`, { csrf: csrfOf(otherPage.html, 'continue') })).status, 403);
    const myCancelPage = await get(`${mine.redirectUrl}/cancel`);
    assert.equal((await post(`${mine.redirectUrl}/continue`, { csrf: csrfOf(myCancelPage.html, 'cancel') })).status, 403);
    const crossSite = await post(
      `${mine.redirectUrl}/continue`,
      { csrf: csrfOf(myPage.html, 'continue') },
      { 'sec-fetch-site': 'cross-site' },
    );
    assert.equal(crossSite.status, 403);
    assert.deepEqual(statuses(await flow.history(mine.paymentId)), ['FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING']);
  });

  it('a flow link opens only its own payment: unknown or altered tokens get 404', async () => {
    const { redirectUrl } = await flow.create();
    const token = new URL(redirectUrl).pathname.split('/')[2] ?? '';
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    assert.equal((await get(`${flow.app.baseUrl}/pay/${altered}`)).status, 404);
    assert.equal((await get(`${flow.app.baseUrl}/pay/not-a-token`)).status, 404);
    assert.equal((await post(`${flow.app.baseUrl}/pay/${altered}/continue`, { csrf: 'x' })).status, 404);
    assert.equal((await get(`${flow.app.baseUrl}/pay/return/00000000-0000-4000-8000-000000000000/${'A'.repeat(43)}`)).status, 404);
  });

  it('a double submit cannot advance the payment twice', async () => {
    const { paymentId, redirectUrl } = await flow.create({ provider: { id: BANKS.rheinland } });
    const page = await get(redirectUrl);
    const csrf = csrfOf(page.html, 'continue');
    const answers = await Promise.all([post(`${redirectUrl}/continue`, { csrf }), post(`${redirectUrl}/continue`, { csrf })]);
    const toBank = answers.filter((answer) => answer.location?.includes('/sandbox-bank/'));
    assert.equal(toBank.length, 1, JSON.stringify(answers.map((answer) => [answer.status, answer.location])));
    const history = statuses(await flow.history(paymentId));
    assert.deepEqual(history, [
      'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
      'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
      'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
      'PAYMENT_REGISTRATION_PENDING',
      'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
      'PAYMENT_CONSENT_REDIRECT_PENDING',
    ]);
  });

  it('cancel on our page asks first, then fails the waiting step with PSU_CANCELLED and shows the cancelled page', async () => {
    const { paymentId, redirectUrl } = await flow.create();
    const page = await get(redirectUrl);
    // The page links to the confirmation; it has no form that cancels at once.
    assert.match(page.html, /<p class="cancel-link"><a href="\/pay\/[\w-]{43}\/cancel">Cancel payment<\/a><\/p>/);
    assert.doesNotMatch(page.html, /action="[^"]*\/cancel"/);
    const confirmation = await get(`${redirectUrl}/cancel`);
    assert.equal(confirmation.status, 200);
    assert.equal(headingOf(confirmation.html), 'Cancel this payment?');
    assert.match(confirmation.html, /<a class="button secondary" href="\/pay\/[\w-]{43}">No, go on with the payment<\/a>/);
    // Looking at the question changes nothing.
    assert.deepEqual(statuses(await flow.history(paymentId)), ['PROVIDER_SELECTION_REDIRECT_PENDING']);
    const cancelled = await submit(redirectUrl, confirmation.html, 'cancel');
    assert.equal(cancelled.status, 303);
    assert.equal(cancelled.location, new URL(redirectUrl).pathname);
    // The flow link shows what happened, with the way back to the shop.
    const end = await get(redirectUrl);
    assert.equal(headingOf(end.html), 'Payment cancelled');
    assert.match(end.html, /You cancelled the payment\./);
    assert.equal(continueLinkOf(end), `https://merchant.example/return?paymentId=${paymentId}`);
    const history = await flow.history(paymentId);
    assert.deepEqual(statuses(history), ['PROVIDER_SELECTION_REDIRECT_PENDING', 'PAYMENT_REGISTRATION_FAILED']);
    assert.deepEqual(
      history.at(-1)?.failureReasons?.map((reason) => reason.code),
      ['PSU_CANCELLED'],
    );
    // The confirmation of a finished payment is its outcome.
    const again = await get(`${redirectUrl}/cancel`);
    assert.equal(again.status, 303);
    assert.equal(again.location, new URL(redirectUrl).pathname);
  });

  it('speaks the language of Accept-Language at creation, switches on ?lang= and remembers the choice', async () => {
    const { redirectUrl } = await flow.create({}, { 'accept-language': 'fr-CH, de;q=0.5' });
    const french = await get(redirectUrl, { 'accept-language': 'en' });
    assert.match(french.html, /<html lang="fr">/);
    assert.match(french.html, /Choisissez votre banque/);
    const german = await get(`${redirectUrl}?lang=de`);
    assert.match(german.html, /<html lang="de">/);
    assert.match(german.html, /Wählen Sie Ihre Bank/);
    const again = await get(redirectUrl);
    assert.match(again.html, /Wählen Sie Ihre Bank/);
    const ignored = await get(`${redirectUrl}?lang=xx`);
    assert.match(ignored.html, /Wählen Sie Ihre Bank/);
    for (const [lang, heading] of [
      ['en', 'Choose your bank'],
      ['es', 'Elija su banco'],
      ['lt', 'Pasirinkite savo banką'],
    ] as const) {
      assert.match((await get(`${redirectUrl}?lang=${lang}`)).html, new RegExp(heading));
    }
  });
});
