/**
 * Choosing the bank faster and finishing on a phone (docs/hosted-pages.md): the bank list's order and headings, the
 * country preselected from the client's default or the payer's language and region, the bank remembered for a client
 * on this browser, banks failing now marked and sorted last; the desktop's single-use hand-over link, taken by one
 * browser only under concurrent use, after which the desktop takes no input and follows the payment.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import QRCode from 'qrcode';
import { BANKS, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { lastBankCookieName } from '../../src/hosted/bank-selection/step.js';
import { handoverLinkOf } from './handover-link.js';
import { csrfOf, get, headingOf, post, submit } from './http-payer.js';

const kinds = await testDatabaseKinds();

/** The bank names of a list section (by its heading's id), in page order. */
function banksUnder(html: string, sectionId: string): string[] {
  const section = new RegExp(`aria-labelledby="${sectionId}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  return [...section.matchAll(/<img src="[^"]*" alt="" width="40" height="40"><span>([^<]+)/g)].map((match) => match[1] ?? '');
}

function selectedCountry(html: string): string | undefined {
  return /<option value="([A-Z]+)" selected>/.exec(html)?.[1] ?? (/<option value="ALL" selected>/.test(html) ? 'ALL' : undefined);
}

/** `name=value` of the Set-Cookie headers of an answer. */
function setCookies(headers: Headers): string[] {
  return headers.getSetCookie();
}

for (const kind of kinds)
  describe(`the bank list and the desktop-to-phone hand-over (${kind.name})`, () => {
    let flow: FlowHarness;
    before(async () => {
      flow = await startFlowHarness(kind);
    });
    after(() => flow?.close());

    const countries = (list: string[], preferred?: string): Record<string, unknown> => ({
      provider: { preferences: { countryCodes: { list, ...(preferred === undefined ? {} : { default: preferred }) } } },
    });

    it('lists popular banks first, then the others by name, under headings saying so, each bank once', async () => {
      const { redirectUrl } = await flow.create(countries(['DE', 'FR'], 'FR'));
      const page = await get(redirectUrl);
      assert.equal(page.status, 200);
      assert.equal(selectedCountry(page.html), 'FR', "the client's default country");
      assert.match(page.html, /<h2 id="popular-banks">Popular banks<\/h2>/);
      assert.match(page.html, /<h2 id="all-banks">Other banks \(A–Z\)<\/h2>/);
      assert.deepEqual(banksUnder(page.html, 'popular-banks'), ['Crédit Sandbox du Midi']);
      assert.deepEqual(banksUnder(page.html, 'all-banks'), ['Banque Lumière Sandbox']);
      assert.ok(page.html.indexOf('id="q"') < page.html.indexOf('id="country"'), 'the search comes first');
      assert.ok(page.html.indexOf('popular-banks') < page.html.indexOf('all-banks'));

      // Every country: one collapsed group per country under "All banks", popular banks of all countries first.
      const all = await get(`${redirectUrl}?country=ALL`);
      assert.equal(selectedCountry(all.html), 'ALL');
      assert.deepEqual(banksUnder(all.html, 'popular-banks'), ['Crédit Sandbox du Midi', 'Rheinland Sandbox Bank']);
      assert.equal([...all.html.matchAll(/<details class="bank-group country-group">/g)].length, 2, 'both countries collapsed');
      const searched = await get(`${redirectUrl}?country=ALL&q=sandbox`);
      assert.equal([...searched.html.matchAll(/<details class="bank-group country-group" open>/g)].length, 2, 'open while searching');
    });

    it("preselects the country from the payer's region and language when the client named none", async () => {
      const { redirectUrl } = await flow.create(countries(['DE', 'FR', 'ES', 'LT', 'IT']));
      const cases: Array<[string | undefined, string]> = [
        ['fr-FR,fr;q=0.9,en;q=0.5', 'FR'],
        ['de-AT,de;q=0.9', 'DE'], // Austria is not offered: the language's country
        ['en-GB,en;q=0.9,it-IT;q=0.8', 'IT'], // English's country is not offered: a region the browser names
        ['lt', 'LT'],
        ['es-ES', 'ES'],
        ['en-US', 'ALL'], // nothing to go by: every country
        [undefined, 'ALL'],
      ];
      for (const [acceptLanguage, expected] of cases) {
        const page = await get(redirectUrl, acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage });
        assert.equal(selectedCountry(page.html), expected, `Accept-Language ${acceptLanguage ?? '(none)'}`);
      }
      // The client's default wins over the browser; the payer's own choice wins over both.
      const withDefault = await flow.create(countries(['DE', 'FR'], 'DE'));
      assert.equal(selectedCountry((await get(withDefault.redirectUrl, { 'accept-language': 'fr-FR' })).html), 'DE');
      assert.equal(selectedCountry((await get(`${withDefault.redirectUrl}?country=FR`, { 'accept-language': 'de-DE' })).html), 'FR');
    });

    it('remembers the bank a payer chose for this client on this browser, in a first-party cookie of the pay path', async () => {
      const first = await flow.create(countries(['DE', 'FR'], 'DE'));
      const list = await get(first.redirectUrl);
      assert.doesNotMatch(list.html, /id="last-bank"/, 'nothing remembered yet');
      assert.match(list.html, /this browser remembers it for your next payment to/, 'the page says what it keeps');
      const chosen = await submit(first.redirectUrl, list.html, 'select-bank', { providerId: BANKS.hansa });
      assert.equal(chosen.status, 303);
      const cookieName = lastBankCookieName(flow.client.clientId);
      const cookie = setCookies(chosen.headers).find((header) => header.startsWith(`${cookieName}=`));
      assert.ok(cookie !== undefined, `no remembered bank in ${JSON.stringify(setCookies(chosen.headers))}`);
      assert.match(cookie, new RegExp(`^${cookieName}=${BANKS.hansa}; Max-Age=\\d+; Path=/pay; HttpOnly; SameSite=Lax$`));
      assert.doesNotMatch(cookie, /Domain=/, 'a host-only cookie of ours');

      // The next payment of the same client, another country shown: the remembered bank comes first.
      const next = await flow.create(countries(['DE', 'FR'], 'FR'));
      const again = await get(next.redirectUrl, { cookie: `${cookieName}=${BANKS.hansa}` });
      assert.deepEqual(banksUnder(again.html, 'last-bank'), ['Hansa Direktbank Sandbox']);
      assert.equal(again.html.split(`value="${BANKS.hansa}"`).length, 2, 'listed once');
      assert.ok(again.html.indexOf('id="last-bank"') < again.html.indexOf('id="popular-banks"'));
      // Another client's cookie, or a bank this payment may not use, is not shown.
      const other = await get(next.redirectUrl, { cookie: `${lastBankCookieName(randomUUID())}=${BANKS.hansa}` });
      assert.doesNotMatch(other.html, /id="last-bank"/);
      const unknown = await get(next.redirectUrl, { cookie: `${cookieName}=${randomUUID()}` });
      assert.doesNotMatch(unknown.html, /id="last-bank"/);
    });

    it('marks banks failing now as having problems and sorts them last, never hiding them', async () => {
      const db = flow.app.database.db;
      const now = Date.now();
      const ids = [0, 1, 2, 3].map(() => randomUUID());
      await db
        .insertInto('bank_calls')
        .values(
          ids.map((id, index) => ({
            id,
            at: new Date(now - (index + 1) * 1000).toISOString(),
            bank_id: BANKS.rheinland,
            client_id: null,
            payment_id: null,
            operation: 'initiatePayment',
            outcome: index === 0 ? ('ok' as const) : ('unavailable' as const),
            http_status: null,
            latency_ms: 30_000,
          })),
        )
        .execute();
      try {
        const { redirectUrl } = await flow.create(countries(['DE', 'FR'], 'DE'));
        const page = await get(redirectUrl);
        assert.deepEqual(banksUnder(page.html, 'popular-banks'), [], 'a failing bank is not offered as popular');
        assert.deepEqual(banksUnder(page.html, 'all-banks'), ['Hansa Direktbank Sandbox', 'Rheinland Sandbox Bank'], 'last');
        assert.match(page.html, /<h2 id="all-banks">All banks \(A–Z\)<\/h2>/, 'no section before it');
        assert.match(page.html, /aria-label="Pay with Rheinland Sandbox Bank \(having problems right now\)"/);
        assert.match(page.html, /<span class="bank-problems">Having problems right now<\/span>/);
        // Still chosen as any other.
        const chosen = await submit(redirectUrl, page.html, 'select-bank', { providerId: BANKS.rheinland });
        assert.equal(chosen.status, 303);
      } finally {
        await db.deleteFrom('bank_calls').where('id', 'in', ids).execute();
      }
    });

    /** The desktop's page and the hand-over link its QR code holds. */
    async function desktopWithQr(redirectUrl: string, paymentId: string): Promise<{ html: string; link: string }> {
      const page = await get(redirectUrl);
      assert.equal(page.status, 200);
      const row = await flow.app.database.db
        .selectFrom('payment_handovers')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .executeTakeFirstOrThrow();
      const link = await handoverLinkOf(flow.app.database.db, flow.app.baseUrl, paymentId);
      assert.ok(!link.endsWith(row.token_hash), 'the secret is stored hashed');
      assert.equal(
        row.token_hash,
        createHash('sha256')
          .update(link.split('/').pop() ?? '')
          .digest('base64url'),
      );
      // The page's code is exactly the code of that link.
      const svg = await QRCode.toString(link, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
      const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
      assert.ok(path !== '' && page.html.includes(path), 'the QR code on the page encodes the hand-over link');
      assert.match(
        page.html,
        /<aside class="handover" aria-labelledby="handover-heading"><h2 id="handover-heading">Continue on your phone<\/h2>/,
      );
      return { html: page.html, link };
    }

    it('offers a QR code of a single-use link: of concurrent uses exactly one takes the flow over', async () => {
      const { redirectUrl, paymentId } = await flow.create(countries(['DE'], 'DE'));
      const { html, link } = await desktopWithQr(redirectUrl, paymentId);
      // A reload shows the same code (the link works until it expires).
      assert.equal((await desktopWithQr(redirectUrl, paymentId)).link, link);
      // The desktop's payer opened the cancel confirmation before the phone took over.
      const desktopCancel = await get(`${redirectUrl}/cancel`);
      assert.equal(headingOf(desktopCancel.html), 'Cancel this payment?');

      const answers = await Promise.all(Array.from({ length: 6 }, () => get(link)));
      const taken = answers.filter((answer) => answer.status === 303);
      assert.equal(taken.length, 1, `statuses ${answers.map((answer) => answer.status).join(',')}`);
      const used = answers.filter((answer) => answer.status === 409);
      assert.equal(used.length, 5);
      for (const answer of used) assert.equal(headingOf(answer.html), 'This payment continues on another device');
      const phone = taken[0];
      assert.ok(phone !== undefined);
      assert.equal(phone.location, new URL(redirectUrl).pathname);
      const deviceCookie = setCookies(phone.headers).find((header) => header.startsWith('pis_device='));
      assert.ok(deviceCookie !== undefined);
      assert.match(deviceCookie, new RegExp(`; Path=${new URL(redirectUrl).pathname}; HttpOnly; SameSite=Lax$`));
      const cookie = deviceCookie.split(';')[0] ?? '';
      // Later uses too, and an altered link is an unknown one.
      assert.equal((await get(link)).status, 409);
      assert.equal((await get(`${link.slice(0, -2)}AA`)).status, 404);

      // The phone carries on with the bank list, without a code to hand over again.
      const phonePage = await get(redirectUrl, { cookie });
      assert.equal(headingOf(phonePage.html), 'Choose your bank');
      assert.doesNotMatch(phonePage.html, /class="handover"/);

      // The desktop takes no input any more: it follows the payment.
      const desktop = await get(redirectUrl);
      assert.equal(headingOf(desktop.html), 'Continuing on your phone');
      assert.doesNotMatch(desktop.html, /<form method="post"/, 'no form on the desktop');
      assert.match(desktop.html, /data-status-url="[^"]+\/status"/, 'it follows the status');
      const refused = await submit(redirectUrl, html, 'select-bank', { providerId: BANKS.rheinland });
      assert.equal(refused.status, 409);
      assert.equal(headingOf(refused.html), 'Continuing on your phone');
      const cancel = await submit(redirectUrl, desktopCancel.html, 'cancel');
      assert.equal(cancel.status, 409, 'nor can it cancel');
      assert.equal(headingOf(cancel.html), 'Continuing on your phone');
      const cancelAgain = await get(`${redirectUrl}/cancel`);
      assert.equal(cancelAgain.status, 303, 'nor is it asked to confirm a cancel');
      assert.equal(cancelAgain.location, new URL(redirectUrl).pathname);
      const stored = await flow.app.database.db
        .selectFrom('payments')
        .select(['provider_id', 'detailed_status'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { provider_id: null, detailed_status: 'PROVIDER_SELECTION_REDIRECT_PENDING' });

      // The phone chooses the bank; the desktop's status follows, and it sees the outcome once the phone is done.
      const chosen = await post(
        `${redirectUrl}/select-bank`,
        {
          csrf: csrfOf(phonePage.html, 'select-bank'),
          providerId: BANKS.rheinland,
        },
        { cookie },
      );
      assert.equal(chosen.status, 303);
      const status = await get(`${redirectUrl}/status`);
      assert.match(status.html, /"view":"taken-over:/);
      const phoneCancel = await get(`${redirectUrl}/cancel`, { cookie });
      assert.equal(headingOf(phoneCancel.html), 'Cancel this payment?');
      const cancelled = await submit(redirectUrl, phoneCancel.html, 'cancel', {});
      assert.equal(cancelled.status, 409, 'the desktop cookie-less post of the phone page is refused too');
      const phoneCancelled = await post(`${redirectUrl}/cancel`, { csrf: csrfOf(phoneCancel.html, 'cancel') }, { cookie });
      assert.equal(phoneCancelled.status, 303);
      const over = await get(redirectUrl);
      assert.notEqual(headingOf(over.html), 'Continuing on your phone', 'the desktop shows the outcome');
      assert.doesNotMatch(over.html, /class="handover"/);
    });
  });
