/**
 * The hosted summary of a refund to a UK payer (docs/api-decisions.md, "Refunds"): the account as a sort code in pairs
 * and an account number (with the roll number when there is one), labelled as an account, not as an IBAN, in every
 * language; an IBAN recipient as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SUPPORTED_LOCALES } from '../../src/i18n/locale.js';
import { translator } from '../../src/i18n/messages.js';
import { paymentSummary } from '../../src/hosted/layout/layout.js';
import type { AccountView, PageContext } from '../../src/hosted/layout/page-context.js';

/** Text as the pages escape it for HTML. */
const escaped = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function context(locale: (typeof SUPPORTED_LOCALES)[number], recipientAccount: AccountView): PageContext {
  return {
    locale,
    t: translator(locale),
    flowUrl: `/pay/${'A'.repeat(43)}`,
    csrf: () => 'token',
    summary: {
      amount: '5.00',
      currency: 'GBP',
      merchant: 'Acme Ltd',
      recipientName: 'Alice Happy',
      recipientAccount,
      reference: 'Refund 1001',
      bankName: undefined,
      fromIban: undefined,
      refund: true,
    },
    merchant: { name: 'Acme Ltd', logo: undefined, supportUrl: undefined, stylesheetPath: undefined },
    operator: { name: undefined, regulatoryStatement: undefined, termsUrl: undefined, privacyUrl: undefined },
    sandbox: true,
    canGoBack: false,
    twoLogins: false,
    errors: [],
    notice: undefined,
    liveView: '',
  };
}

describe('the hosted summary of a refund to a UK account', () => {
  it('shows the sort code and account number in every language, labelled as an account', () => {
    for (const locale of SUPPORTED_LOCALES) {
      const t = translator(locale);
      const html = paymentSummary(context(locale, { sortCode: '601613', accountNumber: '31926819' })).toString();
      assert.ok(html.includes('60-16-13') && html.includes('31926819'), `${locale}: ${html}`);
      assert.ok(html.includes(`<dt>${escaped(t('summary.recipientAccount'))}</dt>`), `${locale}: ${html}`);
      assert.ok(!html.includes(escaped(t('summary.recipientIban'))), `${locale}: not labelled as an IBAN`);
      const withRoll = paymentSummary(
        context(locale, { sortCode: '601613', accountNumber: '31926819', rollNumber: 'ROLL-0042' }),
      ).toString();
      assert.ok(withRoll.includes('ROLL-0042'), locale);
    }
    assert.ok(
      paymentSummary(context('en', { sortCode: '601613', accountNumber: '31926819' }))
        .toString()
        .includes('Sort code 60-16-13, account 31926819'),
    );
  });

  it('shows an IBAN in groups of four under the IBAN label, as before', () => {
    const html = paymentSummary(context('en', { iban: 'GB29NWBK60161331926819' })).toString();
    assert.ok(
      html.includes("<dt>Recipient's IBAN</dt><dd>GB29 NWBK 6016 1331 9268 19</dd>") || html.includes('GB29 NWBK 6016 1331 9268 19'),
      html,
    );
  });
});
