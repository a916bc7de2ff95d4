/**
 * What a refund's hosted pages say (docs/api-decisions.md, "Refunds"): they speak to the merchant's approver paying a
 * customer back, not to a payer. Over HTTP, a refund's approver meets "Cancel refund", the customer named as who is
 * refunded and no "your next payment" on the bank list, the login, code, cancel and outcome pages, in every language;
 * and every page a refund can show, rendered with the words the pages pick for it (`pageTranslator`), says none of
 * a payment's words that a refund's replace, in every language, while a payment's pages still say them.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { accountSelectionPage } from '../../src/hosted/account-selection/page.js';
import { atBankPage } from '../../src/hosted/at-bank/page.js';
import { bankSelectionPage } from '../../src/hosted/bank-selection/page.js';
import { cancelConfirmationPage } from '../../src/hosted/cancel/page.js';
import { decoupledPage } from '../../src/hosted/decoupled/page.js';
import { followupDataPage } from '../../src/hosted/followup-data/page.js';
import { handoverOffer, takenOverPage } from '../../src/hosted/handover/page.js';
import { html } from '../../src/hosted/html.js';
import { standalonePage } from '../../src/hosted/layout/layout.js';
import type { PageContext } from '../../src/hosted/layout/page-context.js';
import { oneTimeCodePage } from '../../src/hosted/one-time-code/page.js';
import { outcomePage, type FailureGroup } from '../../src/hosted/outcome/page.js';
import { pageTranslator } from '../../src/hosted/payer-pages.js';
import { processingPage } from '../../src/hosted/processing/page.js';
import { reviewPage } from '../../src/hosted/review/page.js';
import { scaMethodPage } from '../../src/hosted/sca-method/page.js';
import { senderLoginPage } from '../../src/hosted/sender-login/page.js';
import { SUPPORTED_LOCALES, type Locale } from '../../src/i18n/locale.js';
import { CATALOGUES, REFUND_KEY_PREFIX } from '../../src/i18n/messages.js';
import { BANKS, TEST_PASSWORD, startFlowHarness, type FlowHarness } from '../e2e/flow-harness.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { get, headingOf, submit, submitAndFollow, type Answer } from './http-payer.js';

const [sqlite] = await testDatabaseKinds();

/** alice's account at the sandbox banks: the merchant's here, paid into by the payment and the refund's sender. */
const MERCHANT_IBAN = 'DE54500105171000007919';
const CUSTOMER = 'Dave Payer';

/** The text of a page without its markup (entities of our escaping read back). */
function textOf(page: string): string {
  return page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * What a refund's page must never say in `locale`: the wording of each payment text that a refund's text replaces
 * (its parts between placeholders that the refund's text does not share), e.g. "Cancel payment", "for your next
 * payment to".
 */
function paymentOnlyWords(locale: Locale): string[] {
  const catalogue = CATALOGUES[locale] as Readonly<Record<string, string>>;
  const words = new Set<string>();
  for (const [key, refundText] of Object.entries(catalogue)) {
    if (!key.startsWith(REFUND_KEY_PREFIX)) continue;
    const paymentText = catalogue[key.slice(REFUND_KEY_PREFIX.length)] ?? '';
    for (const part of paymentText.split(/\{\w+\}/)) {
      const words_ = part.trim().replace(/^[,.:;–]\s*/, '');
      if (words_.length >= 6 && !refundText.includes(words_)) words.add(words_);
    }
  }
  return [...words];
}

/** A page's text and its attributes' values (labels such as a bank button's `aria-label`). */
function wordsOf(page: string): string {
  return textOf(page.replace(/<[^>]*>/g, (tag) => ` ${[...tag.matchAll(/="([^"]*)"/g)].map((match) => match[1] ?? '').join(' ')} `));
}

function assertSaysNoPaymentWords(page: string, locale: Locale, what: string): void {
  const text = wordsOf(page);
  for (const words of paymentOnlyWords(locale)) assert.ok(!text.includes(words), `${what} (${locale}) says a payment's "${words}"`);
}

describe('what a refund’s pages say', () => {
  describe('over HTTP, as the approver meets them', () => {
    let flow: FlowHarness;
    before(async () => {
      assert.ok(sqlite);
      flow = await startFlowHarness(sqlite, { BANK_STATUS_POLL_BASE_MS: '50', BANK_STATUS_POLL_MAX_MS: '200' });
    });
    after(() => flow?.close());

    /** A refund of a completed payment of `CUSTOMER` into the merchant's account (stored as the flow leaves it). */
    async function newRefund(amount: string): Promise<{ paymentId: string; redirectUrl: string }> {
      const row = storedPaymentRow(flow.client.clientId, new Date().toISOString(), {
        detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
        amount: '10.00',
        recipient: JSON.stringify({
          account: { number: { type: 'IBAN', value: MERCHANT_IBAN } },
          name: 'Acme GmbH',
          address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
        }),
        payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE76500105171000031676' }, name: CUSTOMER }),
      });
      await flow.app.database.db.insertInto('payments').values(row).execute();
      const response = await flow.app.request(`/api/v1/ob/payments/${row.id}/refunds`, {
        method: 'POST',
        token: await flow.client.token(),
        json: {
          amount,
          reference: 'Refund order 1001',
          metadata: { redirectUri: 'https://merchant.example/refunds/done', endToEndId: `refund-${randomUUID()}` },
        },
      });
      const body = await response.text();
      assert.equal(response.status, 201, body);
      return JSON.parse(body) as { paymentId: string; redirectUrl: string };
    }

    it('the bank list and the cancel question speak of the refund and its customer, in every language', async () => {
      const { redirectUrl } = await newRefund('4.00');
      const list = await get(redirectUrl);
      assert.equal(list.status, 200);
      assert.equal(headingOf(list.html), 'Choose your bank');
      const text = textOf(list.html);
      assert.match(text, /You are refunding €4\.00 to Dave Payer\./);
      assert.match(list.html, /<a href="[^"]+\/cancel">Cancel refund<\/a>/);
      assert.match(text, /remembers it for the next refund or payment of Acme GmbH/);
      assert.match(list.html, /aria-label="Refund with Rheinland Sandbox Bank"/);
      assert.doesNotMatch(text, /Cancel payment|your next payment|Pay with|You are paying/);
      assertSaysNoPaymentWords(list.html, 'en', 'the bank list');
      for (const locale of SUPPORTED_LOCALES) {
        assertSaysNoPaymentWords((await get(`${redirectUrl}?lang=${locale}`)).html, locale, 'the bank list');
        assertSaysNoPaymentWords((await get(`${redirectUrl}/cancel?lang=${locale}`)).html, locale, 'the cancel question');
      }
      assert.match((await get(`${redirectUrl}?lang=de`)).html, />Erstattung abbrechen</);

      const question = await get(`${redirectUrl}/cancel?lang=en`);
      assert.equal(headingOf(question.html), 'Cancel this refund?');
      assert.match(
        textOf(question.html),
        /Nothing has been refunded\. If you cancel, you go back to Acme GmbH without refunding Dave Payer\./,
      );
      assert.match(question.html, /Yes, cancel the refund/);
      assert.match(question.html, /No, go on with the refund/);

      assert.equal((await submit(redirectUrl, question.html, 'cancel')).status, 303);
      const cancelled = await get(`${redirectUrl}?lang=en`);
      assert.equal(headingOf(cancelled.html), 'Refund cancelled');
      assert.match(
        textOf(cancelled.html),
        /You cancelled the refund\. Nothing was refunded\. You can go back to Acme GmbH and start a new refund\./,
      );
      for (const locale of SUPPORTED_LOCALES)
        assertSaysNoPaymentWords((await get(`${redirectUrl}?lang=${locale}`)).html, locale, 'the cancelled outcome');
    });

    it('the login, code and outcome pages of a refund approved through our pages', async () => {
      const { paymentId, redirectUrl } = await newRefund('2.50');
      const list = await get(redirectUrl);
      const login = await submitAndFollow(redirectUrl, list.html, 'select-bank', { providerId: BANKS.hansa }, flow.seen);
      assert.equal(headingOf(login.html), 'Hansa Direktbank Sandbox needs a few details', login.html.slice(0, 2000));
      assert.match(textOf(login.html), /You are refunding €2\.50 to Dave Payer from your account at Hansa Direktbank Sandbox\./);
      assert.match(textOf(login.html), /to initiate this refund from your bank account/);
      assertSaysNoPaymentWords(login.html, 'en', 'the login page');
      const code = await submitAndFollow(redirectUrl, login.html, 'details', { loginId: 'alice', password: TEST_PASSWORD }, flow.seen);
      assert.equal(headingOf(code.html), 'Enter your one-time code', code.html.slice(0, 2000));
      assert.match(code.html, /<button type="submit" class="primary">Confirm refund<\/button>/);
      assertSaysNoPaymentWords(code.html, 'en', 'the code page');
      assert.equal((await submit(redirectUrl, code.html, 'code', { otp: '123456' }, flow.seen)).status, 303);
      await flow.waitFor(paymentId, (status) => status === 'PAYMENT_EXECUTION_COMPLETED');
      const outcome: Answer = await get(redirectUrl, {}, flow.seen);
      assert.equal(headingOf(outcome.html), 'Refund complete');
      assert.match(textOf(outcome.html), /Your bank has paid the refund to Dave Payer\./);
      assert.match(outcome.html, /<dt>Refunded to<\/dt><dd>Dave Payer<\/dd>/);
      for (const locale of SUPPORTED_LOCALES)
        assertSaysNoPaymentWords((await get(`${redirectUrl}?lang=${locale}`, {}, flow.seen)).html, locale, 'the completed outcome');
      await flow.assertPasswordNowhere();
    });
  });

  describe('every page a refund can show, in every language', () => {
    const refund = {
      refundOf: randomUUID(),
      recipient: { name: CUSTOMER, account: { type: 'IBAN' as const, number: { type: 'IBAN' as const, value: 'DE76500105171000031676' } } },
    };

    function contextOf(locale: Locale, kind: 'refund' | 'payment'): PageContext {
      return {
        locale,
        t: pageTranslator(locale, kind === 'refund' ? refund : { ...refund, refundOf: null }),
        flowUrl: `/pay/${'A'.repeat(43)}`,
        csrf: () => 'token',
        summary: {
          amount: '7.50',
          currency: 'EUR',
          merchant: 'Acme GmbH',
          recipientName: kind === 'refund' ? CUSTOMER : 'Acme GmbH',
          recipientAccount: { iban: 'DE76500105171000031676' },
          reference: 'Refund order 1001',
          bankName: 'Rheinland Sandbox Bank',
          fromIban: MERCHANT_IBAN,
          ...(kind === 'refund' ? { refund: true } : {}),
        },
        merchant: { name: 'Acme GmbH', logo: undefined, supportUrl: undefined, stylesheetPath: undefined },
        operator: { name: 'Example Pay', regulatoryStatement: undefined, termsUrl: 'https://pay.example/terms', privacyUrl: undefined },
        sandbox: true,
        canGoBack: true,
        twoLogins: true,
        errors: [{ field: 'iban', message: 'required' }],
        notice: undefined,
        liveView: 'x',
      };
    }

    const bank = { id: BANKS.rheinland, name: 'Rheinland Sandbox Bank', countryCode: 'DE', iconPath: '/x.svg', searchText: 'rheinland' };
    const deadline = new Date(Date.now() + 600_000).toISOString();
    const FAILURES: readonly FailureGroup[] = ['cancelled', 'expired', 'authentication', 'consent', 'funds', 'bank', 'technical'];
    const PAGES: ReadonlyArray<readonly [string, (context: PageContext) => string]> = [
      [
        'bank selection',
        (context) =>
          bankSelectionPage(context, {
            countries: ['DE'],
            country: 'DE',
            search: '',
            lastBank: { ...bank, problems: false },
            popular: [],
            banks: [{ ...bank, id: BANKS.hansa, name: 'Hansa', problems: true }],
          }),
      ],
      ['login', (context) => senderLoginPage(context, { needs: { loginId: true, password: true }, again: false })],
      ['follow-up data', (context) => followupDataPage(context, { needs: { loginId: true, password: true, senderIban: true } })],
      [
        'account choice',
        (context) => accountSelectionPage(context, { accounts: [{ iban: MERCHANT_IBAN, currency: 'EUR', name: 'Acme' }] }),
      ],
      ['SCA method', (context) => scaMethodPage(context, { methods: [{ id: 'sms', type: 'SMS_OTP', bankText: undefined }] })],
      ['at the bank', (context) => atBankPage(context, { bankUrl: 'https://bank.example/', purpose: 'payment' })],
      ['at the bank, consent', (context) => atBankPage(context, { bankUrl: 'https://bank.example/', purpose: 'consent' })],
      [
        'one-time code',
        (context) =>
          oneTimeCodePage(context, { methodType: 'SMS_OTP', methodText: undefined, challengeText: undefined, numeric: true, maxLength: 6 }),
      ],
      ['decoupled', (context) => decoupledPage(context, { sandboxAppUrl: 'https://bank.example/app', deadline, minutesLeft: 10 })],
      ...(['credentials', 'redirect', 'decoupled', 'embedded'] as const).map(
        (next) => [`review (${next})`, (context: PageContext) => reviewPage(context, { next })] as const,
      ),
      ['processing', (context) => processingPage(context)],
      ['cancel question', (context) => cancelConfirmationPage(context)],
      ['taken over by a phone', (context) => takenOverPage(context)],
      [
        'hand-over offer',
        (context) => reviewPage({ ...context, handover: handoverOffer(context, html`<svg></svg>`) }, { next: 'redirect' }),
      ],
      [
        'hand-over link used again',
        (context) => standalonePage(context.locale, 'handover.usedHeading', 'handover.usedIntro', context.operator, context.t),
      ],
      ...(['completed', 'processing'] as const).map(
        (kind) =>
          [
            `outcome ${kind}`,
            (context: PageContext) =>
              outcomePage(context, {
                kind,
                failure: undefined,
                continueUrl: 'https://merchant.example/',
                autoContinueSeconds: 6,
                retry: false,
              }),
          ] as const,
      ),
      ...FAILURES.map(
        (failure) =>
          [
            `outcome failed (${failure})`,
            (context: PageContext) =>
              outcomePage(context, {
                kind: 'failed',
                failure,
                continueUrl: 'https://merchant.example/',
                autoContinueSeconds: undefined,
                retry: false,
              }),
          ] as const,
      ),
    ];

    it('says none of a payment’s words a refund’s replace; a payment’s pages still say them', () => {
      for (const locale of SUPPORTED_LOCALES) {
        const paymentWordsSeen = new Set<string>();
        for (const [name, render] of PAGES) {
          assertSaysNoPaymentWords(render(contextOf(locale, 'refund')), locale, name);
          const paymentText = wordsOf(render(contextOf(locale, 'payment')));
          for (const words of paymentOnlyWords(locale)) if (paymentText.includes(words)) paymentWordsSeen.add(words);
        }
        // The check is worth something: the same pages of a payment say all of those words (but the consent lines of
        // an operator without a name or terms, which these pages, of a named operator with terms, do not show).
        const consentLines = Object.entries(CATALOGUES[locale])
          .filter(([key]) => key.startsWith('consent.'))
          .map(([, text]) => text);
        const unseen = paymentOnlyWords(locale).filter(
          (words) => !paymentWordsSeen.has(words) && !consentLines.some((line) => line.includes(words)),
        );
        assert.deepEqual(unseen, [], `${locale}: payment words no page of a payment says`);
      }
    });

    it('names the refund and its customer in English at each step', () => {
      const render = (name: string): string => {
        const page = PAGES.find(([candidate]) => candidate === name)?.[1];
        assert.ok(page !== undefined, name);
        return page(contextOf('en', 'refund'));
      };
      const say = (name: string): string => textOf(render(name));
      const list = render('bank selection');
      assert.match(list, /aria-label="Refund with Rheinland Sandbox Bank"/);
      assert.match(list, /aria-label="Refund with Hansa \(having problems right now\)"/);
      assert.match(say('follow-up data'), /IBAN of the account to refund from/);
      assert.match(say('follow-up data'), /Enter the IBAN of the account to refund from\./);
      assert.match(say('account choice'), /Choose the account to refund from .*Refund from this account/);
      assert.match(say('at the bank'), /Approve the refund at Rheinland Sandbox Bank/);
      assert.match(say('at the bank'), /Your bank shows you the refund and asks you to approve it\./);
      assert.match(say('at the bank, consent'), /so that you can choose the one to refund from/);
      assert.match(say('one-time code'), /Confirm refund/);
      assert.match(say('decoupled'), /Approve the refund in your banking app/);
      assert.match(say('review (redirect)'), /Check your refund .*log in and approve this refund\./);
      assert.match(
        say('review (redirect)'),
        /You are refunding €7\.50 to Dave Payer from your account at Rheinland Sandbox Bank, initiated by Example Pay\./,
      );
      assert.match(say('review (redirect)'), /Refund details/);
      assert.match(say('review (redirect)'), /then to approve the refund\./);
      assert.match(say('processing'), /We are processing your refund/);
      assert.match(say('hand-over offer'), /finish the refund there/);
      assert.match(render('hand-over offer'), /aria-label="QR code of a link to this refund"/);
      assert.match(say('hand-over link used again'), /This refund continues on another device/);
      assert.equal(headingOf(render('outcome completed')), 'Refund complete');
      assert.match(say('outcome completed'), /Your bank has paid the refund to Dave Payer\. Amount €7\.50 Refunded to Dave Payer/);
      assert.equal(headingOf(render('outcome processing')), 'Your bank is processing the refund');
      assert.match(say('outcome processing'), /You approved the refund\./);
      assert.equal(headingOf(render('outcome failed (expired)')), 'Refund not completed');
      assert.match(
        say('outcome failed (expired)'),
        /The time to finish the refund ran out\. Nothing was refunded\. Go back to Acme GmbH to start a new refund\./,
      );
      assert.equal(headingOf(render('outcome failed (cancelled)')), 'Refund cancelled');
      assert.match(say('outcome failed (cancelled)'), /You cancelled the refund\./);
      // Refunds approved together: the customers are counted, not the leader's named for all.
      const bulk = pageTranslator('en', refund, 2);
      assert.equal(bulk('outcome.completed.lead'), 'Your bank has paid the refund to 3 customers.');
      assert.equal(pageTranslator('de', refund, 2)('outcome.completed.lead'), 'Ihre Bank hat die Erstattung an 3 Kunden ausgeführt.');
      for (const [name] of PAGES) assert.doesNotMatch(say(name), /Cancel payment|your next payment|You are paying/, name);
    });
  });
});
