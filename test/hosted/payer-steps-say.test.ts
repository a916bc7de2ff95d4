/**
 * What the payer's pages say at each step, over HTTP: every payer address answers a page for GET (never JSON), the
 * review says what Continue leads to for the bank's approach, an empty login form names its fields, the login and
 * code pages put the form before the payment details, the recipient is tied to the shop's name, the operator's
 * consent line ties Continue to its terms, and a completed payment's page continues to the shop by itself once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ClientBrandingStore } from '../../src/branding/client-branding.js';
import { cancelledAfterConfirmation } from '../../src/console/insight/queries.js';
import type { PageContext } from '../../src/hosted/layout/page-context.js';
import { COMMON_ACTIONS, PAYER_STEPS } from '../../src/hosted/payer-steps.js';
import { reviewPage } from '../../src/hosted/review/page.js';
import { translator } from '../../src/i18n/messages.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { get, headingOf, openFlow, submit, type Answer } from './http-payer.js';

const [sqlite] = await testDatabaseKinds();
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The text of a page without its markup (entities of our escaping read back). */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** A page's context for rendering a page alone (English, a bank chosen, no operator). */
function pageContext(): PageContext {
  return {
    locale: 'en',
    t: translator('en'),
    flowUrl: `/pay/${'A'.repeat(43)}`,
    csrf: () => 'token',
    summary: {
      amount: '10.50',
      currency: 'EUR',
      merchant: 'Acme GmbH',
      recipientName: 'Acme GmbH',
      recipientAccount: { iban: 'DE89370400440532013000' },
      reference: 'Invoice 1',
      bankName: 'Rheinland Sandbox Bank',
      fromIban: undefined,
    },
    merchant: { name: 'Acme GmbH', logo: undefined, supportUrl: undefined, stylesheetPath: undefined },
    operator: { name: undefined, regulatoryStatement: undefined, termsUrl: undefined, privacyUrl: undefined },
    sandbox: true,
    canGoBack: false,
    twoLogins: false,
    errors: [],
    notice: undefined,
    liveView: 'review:x',
  };
}

describe('what the payer pages say at each step', () => {
  let flow: FlowHarness;
  before(async () => {
    assert.ok(sqlite);
    flow = await startFlowHarness(sqlite, {
      BANK_STATUS_POLL_BASE_MS: '50',
      BANK_STATUS_POLL_MAX_MS: '200',
      OPERATOR_NAME: 'Example Pay',
      OPERATOR_TERMS_URL: 'https://pay.example/terms',
    });
  });
  after(() => flow?.close());

  /** A GET as the address bar makes it, following our own redirects: the page it ends on. */
  async function open(path: string): Promise<Answer & { readonly path: string }> {
    let url = new URL(path, flow.app.baseUrl).toString();
    for (let hop = 0; hop < 3; hop += 1) {
      const answer = await get(url, BROWSER, flow.seen);
      if (answer.status !== 303 && answer.status !== 302 && answer.status !== 301) return { ...answer, path };
      assert.ok(answer.location?.startsWith('/') === true, `${path}: redirected away to ${answer.location ?? '(none)'}`);
      url = new URL(answer.location, flow.app.baseUrl).toString();
    }
    assert.fail(`${path}: too many redirects`);
  }

  function assertPage(answer: Answer & { readonly path: string }): void {
    assert.match(
      answer.headers.get('content-type') ?? '',
      /^text\/html/,
      `${answer.path} answered ${answer.status} ${answer.html.slice(0, 200)}`,
    );
    assert.match(answer.html, /^<!doctype html>/, answer.path);
    assert.doesNotMatch(answer.html, /"statusCode"|^\s*[{[]/, answer.path);
  }

  it('every payer address answers a page for GET, never JSON: each action of every step, the status, unknown and cut links', async () => {
    const { redirectUrl } = await flow.create();
    const flowPath = new URL(redirectUrl).pathname;
    const token = flowPath.split('/')[2] ?? '';
    const actions = new Set([...PAYER_STEPS.flatMap((step) => Object.keys(step.actions)), ...Object.keys(COMMON_ACTIONS)]);
    // The registry has the actions the issue named (a reload after posting the login, a copied "continue").
    for (const named of ['details', 'continue', 'select-bank', 'code', 'cancel', 'back']) assert.ok(actions.has(named), named);
    const paths = [
      flowPath,
      ...[...actions].map((action) => `${flowPath}/${action}`),
      `${flowPath}/status`,
      `${flowPath}/no-such-action`,
      `${flowPath}/details/more`,
      `/pay/${'A'.repeat(43)}`,
      `/pay/${'A'.repeat(43)}/details`,
      `/pay/${'A'.repeat(43)}/status`,
      `/pay/${token.slice(0, 10)}`,
      '/pay',
      '/pay/',
      '/pay/return',
      '/pay/return/x',
      `/pay/return/00000000-0000-4000-8000-000000000000/${'A'.repeat(43)}`,
    ];
    for (const path of paths) assertPage(await open(path));
    // An action's address shows the payment's current page (here the bank list), the cancel its question.
    assert.equal(headingOf((await open(`${flowPath}/details`)).html), headingOf((await open(flowPath)).html));
    assert.equal(headingOf((await open(`${flowPath}/cancel`)).html), 'Cancel this payment?');
    // Our script still gets its JSON.
    assert.equal(
      (await get(`${redirectUrl}/status`, { accept: 'application/json' })).headers.get('content-type')?.startsWith('application/json'),
      true,
    );

    // The same once the payment is over: every address shows the outcome.
    const confirmation = await get(`${redirectUrl}/cancel`);
    assert.equal((await submit(redirectUrl, confirmation.html, 'cancel')).status, 303);
    for (const path of paths) assertPage(await open(path));
    for (const action of actions) assert.equal(headingOf((await open(`${flowPath}/${action}`)).html), 'Payment cancelled', action);
    // The console's funnel counts the cancel after the confirmation (the only one in this file).
    const scope = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 60_000), clientId: flow.client.clientId };
    assert.equal(await cancelledAfterConfirmation(flow.app.database.db, scope), 1);
  });

  it('the review says what Continue leads to: our login form, the bank’s website, its app or a code on our page', async () => {
    const credentials = await flow.create({ provider: { id: BANKS.hansa } });
    const review = await get(credentials.redirectUrl);
    assert.equal(headingOf(review.html), 'Check your payment');
    assert.match(textOf(review.html), /you enter your Hansa Direktbank Sandbox login details on the next page of ours/);
    assert.doesNotMatch(review.html, /website|banking app/);

    const redirect = await flow.create({ provider: { id: BANKS.rheinland } });
    assert.match(
      textOf((await get(redirect.redirectUrl)).html),
      /you go to Rheinland Sandbox Bank’s website to log in and approve this payment/,
    );

    // A decoupled bank that still needs the payer's user ID: our form comes first there too.
    const midi = await flow.create({ provider: { id: BANKS.midi } });
    assert.match(
      textOf((await get(midi.redirectUrl)).html),
      /you enter your Crédit Sandbox du Midi login details on the next page of ours/,
    );
    // Where the bank has what it needs (a retry after a bank error), the approach's own words.
    const context = pageContext();
    assert.match(
      reviewPage(context, { next: 'decoupled' }),
      /When you continue, Rheinland Sandbox Bank asks you to approve this payment in its banking app\./,
    );
    assert.match(
      reviewPage(context, { next: 'embedded' }),
      /you confirm this payment on the next page with a code from Rheinland Sandbox Bank\./,
    );

    const german = await get(`${credentials.redirectUrl}?lang=de`);
    assert.match(textOf(german.html), /geben Sie auf unserer nächsten Seite Ihre Zugangsdaten für Hansa Direktbank Sandbox ein/);
  });

  it('an empty login form names each field it lacks, linked to the field; the form comes before the payment details', async () => {
    const { redirectUrl } = await flow.create({ provider: { id: BANKS.hansa } });
    const form = await openFlow(redirectUrl, flow.seen);
    assert.deepEqual(
      [...form.html.matchAll(/<input type="(?:text|password)" id="(\w+)"/g)].map((match) => match[1]),
      ['loginId', 'password'],
    );
    // The fields first, the details of the payment after them (on a phone the form is on the first screen).
    assert.ok(form.html.indexOf('id="loginId"') < form.html.indexOf('class="summary"'), 'the form before the summary');
    assert.ok(form.html.indexOf('class="sentence"') < form.html.indexOf('id="loginId"'), 'the payment sentence above the form');
    const empty = await submit(redirectUrl, form.html, 'details', { loginId: '', password: '' });
    assert.equal(empty.status, 422);
    assert.doesNotMatch(empty.html, /Please fill in this field/);
    assert.match(empty.html, /<li><a href="#loginId">Enter your online banking user ID\.<\/a><\/li>/);
    assert.match(empty.html, /<li><a href="#password">Enter your online banking password\.<\/a><\/li>/);
    assert.match(empty.html, /<p class="field-error" id="loginId-error">Enter your online banking user ID\.<\/p>/);
    assert.match(empty.html, /id="loginId"[^>]* aria-describedby="loginId-error" aria-invalid="true"/);
    // The login form asks the script to keep the user ID across its post; the server never writes it back.
    assert.match(empty.html, /<form method="post" action="[^"]*\/details" novalidate data-keep-login>/);
    const typed = await submit(redirectUrl, form.html, 'details', { loginId: 'typed-user-id', password: '' });
    assert.equal(typed.status, 422);
    assert.doesNotMatch(typed.html, /typed-user-id/);
    const french = await get(`${redirectUrl}?lang=fr`);
    const frenchEmpty = await submit(redirectUrl, french.html, 'details', {});
    assert.match(frenchEmpty.html, /Saisissez votre identifiant de banque en ligne\./);
  });

  it('ties Continue to the operator’s terms and names the operator as the payment initiation service provider', async () => {
    const review = await get((await flow.create({ provider: { id: BANKS.rheinland } })).redirectUrl);
    assert.match(
      review.html,
      /<p class="consent">By continuing, you instruct Example Pay, a payment initiation service provider, to initiate this payment from your bank account, and accept its <a href="https:\/\/pay\.example\/terms" target="_blank" rel="noopener noreferrer">terms of use<\/a>\.<\/p><button type="submit" class="primary">Continue<\/button>/,
    );
    const list = await get((await flow.create()).redirectUrl);
    assert.match(list.html, /<p class="consent">By continuing, you instruct Example Pay/);
    const lithuanian = await get((await flow.create({ provider: { id: BANKS.rheinland } }, { 'accept-language': 'lt' })).redirectUrl);
    assert.match(lithuanian.html, /Tęsdami pavedate Example Pay, mokėjimo inicijavimo paslaugų teikėjui/);
    // Without an operator's name or terms, the service is named by what it is, and no link is made up.
    const unnamed = reviewPage(pageContext(), { next: 'redirect' });
    assert.match(
      unnamed,
      /<p class="consent">By continuing, you instruct this payment initiation service to initiate this payment from your bank account\.<\/p>/,
    );
  });

  it('a completed payment’s page continues to the shop by itself once; opened again it shows the outcome and waits', async () => {
    const { paymentId, redirectUrl } = await flow.create({
      provider: { id: BANKS.hansa },
      sender: { credentials: { id: 'alice', password: TEST_PASSWORD } },
    });
    const code = await openFlow(redirectUrl, flow.seen);
    assert.equal(headingOf(code.html), 'Enter your one-time code');
    // Not followed: the first look at the completed page is the test's, below.
    assert.equal((await submit(redirectUrl, code.html, 'code', { otp: '123456' }, flow.seen)).status, 303);
    await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
    const first = await get(redirectUrl, {}, flow.seen);
    assert.equal(headingOf(first.html), 'Payment complete');
    assert.match(first.html, /data-auto-continue="6"/);
    assert.match(first.html, /<noscript><meta http-equiv="refresh" content="6;url=/);
    const again = await get(redirectUrl, {}, flow.seen);
    assert.equal(headingOf(again.html), 'Payment complete');
    assert.doesNotMatch(again.html, /data-auto-continue|http-equiv="refresh"|Taking you back|data-stay/);
    assert.match(
      again.html,
      /<a class="button primary" id="continue" href="https:\/\/merchant\.example\/return\?paymentId=[^"]+">Continue to /,
    );
    await flow.assertPasswordNowhere();
  });

  it('says how the account holder relates to the shop’s name when they differ (branding), in every language', async () => {
    const plain = await get((await flow.create({ provider: { id: BANKS.rheinland } })).redirectUrl);
    assert.match(plain.html, /<dt>Recipient<\/dt><dd>Acme GmbH<\/dd>/);
    const branding = new ClientBrandingStore(flow.app.database.db);
    await branding.update(flow.client.clientId, { displayName: 'Kaffee Rösterei Berlin' });
    const { redirectUrl } = await flow.create({ provider: { id: BANKS.rheinland } });
    const english = await get(redirectUrl);
    assert.match(textOf(english.html), /You are paying €10\.50 to Kaffee Rösterei Berlin/);
    assert.match(english.html, /<dt>Recipient<\/dt><dd>Acme GmbH \(account holder\) receives the money for Kaffee Rösterei Berlin<\/dd>/);
    const german = await get(`${redirectUrl}?lang=de`);
    assert.match(german.html, /<dd>Acme GmbH \(Kontoinhaber\) erhält das Geld für Kaffee Rösterei Berlin<\/dd>/);
  });
});
