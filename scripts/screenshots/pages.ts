/**
 * The payer pages `npm run screenshots` renders, each reached through a real flow against the in-process app (the
 * same app and sandbox banks the browser tests use). To add a page, add an entry: a name (its folder under
 * screenshots/), what it shows, and how a payer gets there. Steps use CSS selectors, never texts, so one entry
 * works in every language.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/storage/schema.js';
import { formRefundBulk } from '../../src/flow/refund-bulks.js';
import {
  approveAtSandboxBank,
  approvedAtRheinland,
  click,
  loginAndCodeAtHansa,
  newPaymentLink,
  newRefund,
  pastReview,
  type ScreenshotContext,
  type ScreenshotPage,
} from './scene.js';
import { BANKS, TEST_PASSWORD } from '../../test/e2e/flow-harness.js';
import { handoverLinkOf } from '../../test/hosted/handover-link.js';

const NEMUNAS = 'dae5f840-0eb1-4585-a0cc-3aca700d5e2b';

/** At Hansa (embedded): past the review, the login form filled in and sent. */
async function hansaLogin(context: ScreenshotContext, password: string): Promise<void> {
  await pastReview(context, BANKS.hansa);
  await context.page.locator('#loginId').fill('alice');
  await context.page.locator('#password').fill(password);
  await click(context.page, 'form button.primary');
}

export const SCREENSHOT_PAGES: readonly ScreenshotPage[] = [
  {
    name: 'bank-selection',
    description: 'Bank selection (hosted mode): two countries offered, Germany preselected, popular banks first',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { preferences: { countryCodes: { list: ['DE', 'FR', 'LT', 'LV', 'EE'], default: 'DE' } } } });
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'bank-selection-search',
    description: 'Bank selection: "baltic" typed with all countries chosen (the group name finds its banks)',
    async open({ page, create }) {
      const { redirectUrl } = await create();
      await page.goto(`${redirectUrl}?country=ALL`);
      await page.locator('#q').pressSequentially('baltic');
    },
  },
  {
    name: 'bank-selection-no-match',
    description: 'Bank selection: a search that finds nothing',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { preferences: { countryCodes: { list: ['DE', 'FR'], default: 'DE' } } } });
      await page.goto(redirectUrl);
      await page.locator('#q').pressSequentially('zzz');
    },
  },
  {
    name: 'bank-selection-unbranded',
    description: 'Bank selection for a client without branding: the recipient name stands in',
    async open({ page, createUnbranded }) {
      const { redirectUrl } = await createUnbranded({ provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } } });
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'bank-selection-all-countries',
    description: 'Bank selection, every country: the popular banks, then one collapsed group per country (short on a phone)',
    async open({ page, create }) {
      const { redirectUrl } = await create({
        provider: { preferences: { countryCodes: { list: ['DE', 'FR', 'ES', 'IT', 'NL', 'LT', 'LV', 'EE', 'PL'] } } },
      });
      await page.goto(`${redirectUrl}?country=ALL`);
    },
  },
  {
    name: 'bank-selection-remembered-problems',
    description: 'Bank selection: the bank chosen last for this shop first, a bank failing now marked and sorted last',
    async open({ page, create, database }) {
      const first = await create({ provider: { preferences: { countryCodes: { list: ['DE', 'FR'], default: 'DE' } } } });
      await page.goto(first.redirectUrl);
      await click(page, `button.bank[value="${BANKS.hansa}"]`);
      const { redirectUrl } = await create({ provider: { preferences: { countryCodes: { list: ['DE', 'FR'], default: 'DE' } } } });
      // Rheinland failing now: three calls without an answer in the last minutes (gone again once the page is shown).
      const ids = [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000000${String(n)}`);
      await database.deleteFrom('bank_calls').where('id', 'in', ids).execute();
      await database
        .insertInto('bank_calls')
        .values(ids.map((id, index) => ({ id, at: new Date(Date.now() - (index + 1) * 1000).toISOString(), bank_id: BANKS.rheinland, client_id: null, payment_id: null, operation: 'initiatePayment', outcome: 'unavailable' as const, http_status: null, latency_ms: 30_000 })))
        .execute();
      try {
        await page.goto(redirectUrl);
      } finally {
        await database.deleteFrom('bank_calls').where('id', 'in', ids).execute();
      }
    },
  },
  {
    name: 'handover-offer',
    description: 'Desktop to phone: the bank list offers a QR code to finish on the phone (shown on wide screens only)',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } } });
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'handover-taken-over',
    description: "Desktop to phone: the desktop's page once the phone took the flow over (no input; it follows the payment)",
    async open({ page, create, database, baseUrl }) {
      const { paymentId, redirectUrl } = await create({ provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } } });
      await page.goto(redirectUrl);
      // The phone scans the code.
      await fetch(await handoverLinkOf(database, baseUrl, paymentId), { redirect: 'manual' });
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'handover-used',
    description: 'Desktop to phone: the QR code opened a second time (the payment goes on on the device that opened it first)',
    async open({ page, create, database, baseUrl }) {
      const { paymentId, redirectUrl } = await create({ provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } } });
      await page.goto(redirectUrl);
      const link = await handoverLinkOf(database, baseUrl, paymentId);
      await fetch(link, { redirect: 'manual' });
      await page.goto(link);
    },
  },
  {
    name: 'review',
    description: 'Review before the bank is called (custom mode, Rheinland Sandbox Bank)',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { id: BANKS.rheinland } });
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'at-bank',
    description: "At the bank: the payer came back to our link while the bank's page waits",
    async open(context) {
      const { redirectUrl } = await pastReview(context, BANKS.rheinland);
      await context.page.goto(redirectUrl);
    },
  },
  {
    name: 'followup-data',
    description: 'Login details for an embedded bank (Hansa Direktbank Sandbox)',
    async open(context) {
      await pastReview(context, BANKS.hansa);
    },
  },
  {
    name: 'followup-data-refused',
    description: 'Login details refused by the bank: the error and the attempts left',
    async open(context) {
      await hansaLogin(context, `${TEST_PASSWORD}-wrong`);
    },
  },
  {
    name: 'sca-method',
    description: 'Choice of the confirmation method (several offered by the bank)',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { id: BANKS.hansa }, sender: { credentials: { id: 'carla', password: TEST_PASSWORD } } });
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'one-time-code',
    description: 'The one-time code',
    async open(context) {
      await hansaLogin(context, TEST_PASSWORD);
      await context.page.locator('#otp').waitFor();
    },
  },
  {
    name: 'one-time-code-wrong',
    description: 'A wrong one-time code: the error and the attempts left',
    async open(context) {
      await hansaLogin(context, TEST_PASSWORD);
      await context.page.locator('#otp').fill('111111');
      await click(context.page, 'form button.primary');
    },
  },
  {
    name: 'decoupled',
    description: "Decoupled approval: waiting for the bank's app (Crédit Sandbox du Midi)",
    async open(context) {
      await pastReview(context, BANKS.midi);
      await context.page.locator('#loginId').fill('alice');
      await click(context.page, 'form button.primary');
    },
  },
  {
    name: 'account-selection',
    description: 'The account to pay from, chosen on our page (Nemunas Sandbox Bank)',
    async open(context) {
      await pastReview(context, NEMUNAS);
      await approveAtSandboxBank(context.page, 'bob');
      await context.page.locator('input[type=radio]').first().waitFor();
    },
  },
  {
    name: 'outcome-completed',
    description: 'Outcome: the payment is complete (Continue, and the automatic continue the payer can stop)',
    async open(context) {
      await approvedAtRheinland(context, 'alice', 'PAYMENT_EXECUTION_COMPLETED');
    },
  },
  {
    name: 'outcome-processing',
    description: 'Outcome: approved, the bank is still processing (its status answers fail: test payer julia)',
    async open(context) {
      await approvedAtRheinland(context, 'julia', undefined);
    },
  },
  {
    name: 'outcome-failed-funds',
    description: 'Outcome: the bank declined for lack of funds (test payer erik, 100 EUR)',
    async open(context) {
      await approvedAtRheinland(context, 'erik', 'PAYMENT_EXECUTION_FAILED', { amount: 100 });
    },
  },
  {
    name: 'outcome-failed-retry',
    description: 'Outcome: declined for lack of funds at a bank the payer chose (hosted mode), with "Pay with another bank"',
    async open(context) {
      const { paymentId, redirectUrl } = await context.create({
        amount: 100,
        provider: { preferences: { countryCodes: { list: ['DE'], default: 'DE' } } },
      });
      await context.page.goto(redirectUrl);
      await click(context.page, `button.bank[value="${BANKS.rheinland}"]`);
      await approveAtSandboxBank(context.page, 'erik');
      await context.waitFor(paymentId, 'PAYMENT_EXECUTION_FAILED');
      await context.page.goto(redirectUrl);
      await context.page.locator('#retry').waitFor();
    },
  },
  {
    name: 'cancel-confirmation',
    description: 'Cancel: "Cancel this payment?", asked before anything is cancelled (the login form\'s cancel link)',
    async open(context) {
      await pastReview(context, BANKS.hansa);
      await click(context.page, '.cancel-link a');
    },
  },
  {
    name: 'outcome-cancelled',
    description: 'Outcome: the payer cancelled on our page and confirmed; the cancelled page with the way back to the shop',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { id: BANKS.rheinland } });
      await page.goto(redirectUrl);
      await click(page, '.cancel-link a');
      await click(page, 'form[action$="/cancel"] button');
    },
  },
  {
    name: 'outcome-completed-reopened',
    description: 'Outcome: a completed payment\'s link opened again (no automatic continue, the button back to the shop)',
    async open(context) {
      await approvedAtRheinland(context, 'alice', 'PAYMENT_EXECUTION_COMPLETED');
      await context.page.goto(context.page.url());
    },
  },
  {
    name: 'front-door',
    description: 'The front door (/): what the service is',
    async open({ page, baseUrl }) {
      await page.goto(`${baseUrl}/`);
    },
  },
  {
    name: 'error-invalid-link',
    description: 'An unknown or used-up link (404)',
    async open({ page, baseUrl }) {
      await page.goto(`${baseUrl}/pay/${'A'.repeat(43)}`);
    },
  },
  {
    name: 'error-expired-form',
    description: 'A form without a valid token (403)',
    async open({ page, create }) {
      const { redirectUrl } = await create({ provider: { id: BANKS.rheinland } });
      await page.goto(redirectUrl);
      // A stale or forged token, as an old tab or another site would send it.
      await page.locator('form:has(button.primary) input[name=csrf]').evaluate((input: unknown) => {
        (input as { value: string }).value = 'forged';
      });
      await click(page, 'button.primary');
    },
  },
  {
    name: 'processing',
    description: 'Waiting while the bank works on an answer (another request holds the payment)',
    async open({ page, create, database }) {
      const { paymentId, redirectUrl } = await create({ provider: { id: BANKS.rheinland } });
      await page.goto(redirectUrl);
      // What a slow bank call in another request looks like to the payer: the payment is held (its lease) for a minute.
      await holdPayment(database, paymentId, 60_000);
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'error-unexpected',
    description: 'An unexpected error of ours (500)',
    async open({ page, create, database }) {
      const { paymentId, redirectUrl } = await create({ provider: { id: BANKS.rheinland } });
      // A payment whose stored flow state cannot be read: the page's handler fails as any unexpected error would.
      await database.updateTable('payments').set({ flow_state: '{' }).where('id', '=', paymentId).execute();
      await page.goto(redirectUrl);
    },
  },
  {
    name: 'payment-link',
    description: "A payment link's page (/link/<slug>): the payment and Continue to pay",
    async open(context) {
      const link = await newPaymentLink(context);
      await context.page.goto(link.url);
    },
  },
  {
    name: 'payment-link-paid',
    description: 'A single-use payment link once paid (here through our pages at Hansa): it takes no more payments',
    async open(context) {
      const link = await newPaymentLink(context, { provider: { id: BANKS.hansa } });
      await context.page.goto(link.url);
      await click(context.page, '#continue');
      // The link names the bank: its payment starts at our review, then our login and code pages.
      await click(context.page, 'button.primary');
      await loginAndCodeAtHansa(context.page);
      await waitForLinkStatus(context, link.paymentLinkId, 'PAID');
      await context.page.goto(link.url);
    },
  },
  {
    name: 'payment-link-expired',
    description: 'A payment link past its expiresAt',
    async open(context) {
      const link = await newPaymentLink(context);
      // As if its 24 hours were over: the page closes it as EXPIRED when it reads it.
      await context.database
        .updateTable('payment_links')
        .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .where('id', '=', link.paymentLinkId)
        .execute();
      await context.page.goto(link.url);
    },
  },
  {
    name: 'payment-link-deactivated',
    description: 'A payment link the merchant deactivated',
    async open(context) {
      const link = await newPaymentLink(context);
      await context.api('POST', `/api/v1/ob/payment-links/${link.paymentLinkId}/deactivate`);
      await context.page.goto(link.url);
    },
  },
  {
    name: 'refund-bank-selection',
    description: "A refund's first page: the merchant's approver chooses the bank to refund the customer from",
    async open(context) {
      const { redirectUrl } = await newRefund(context);
      await context.page.goto(`${redirectUrl}?country=DE`);
    },
  },
  {
    name: 'refund-bulk-bank-selection',
    description: 'Three refunds approved together: their total and each refund, and only the banks that make bulk payments',
    async open(context) {
      const refunds = [await newRefund(context, 'Dave Payer'), await newRefund(context, 'Erika Mustermann'), await newRefund(context, 'Jonas Berg')];
      const formed = await formRefundBulk(context.database, {
        refundIds: refunds.map((refund) => refund.paymentId),
        clientScope: context.clientId,
        now: new Date(),
      });
      if (formed.kind !== 'formed') throw new Error(`no bulk: ${formed.refusal.message}`);
      await context.page.goto(`${refunds[0]?.redirectUrl ?? ''}?country=DE`);
    },
  },
  {
    name: 'refund-one-time-code',
    description: "A refund at Hansa: the approver's one-time code (Confirm refund)",
    async open(context) {
      const { redirectUrl } = await newRefund(context);
      await context.page.goto(`${redirectUrl}?country=DE`);
      await click(context.page, `button[name="providerId"][value="${BANKS.hansa}"]`);
      await context.page.locator('#loginId').fill('alice');
      await context.page.locator('#password').fill(TEST_PASSWORD);
      await click(context.page, 'form button.primary');
      await context.page.locator('#otp').waitFor();
    },
  },
  {
    name: 'refund-outcome-completed',
    description: 'A refund approved at Hansa: complete, the customer named as who was refunded',
    async open(context) {
      const { paymentId, redirectUrl } = await newRefund(context);
      await context.page.goto(`${redirectUrl}?country=DE`);
      await click(context.page, `button[name="providerId"][value="${BANKS.hansa}"]`);
      await loginAndCodeAtHansa(context.page);
      await context.waitFor(paymentId, 'PAYMENT_EXECUTION_COMPLETED');
      await context.page.goto(redirectUrl);
    },
  },
  {
    name: 'refund-cancel-confirmation',
    description: "A refund's cancel question (Cancel this refund?)",
    async open(context) {
      const { redirectUrl } = await newRefund(context);
      await context.page.goto(`${redirectUrl}/cancel`);
    },
  },
];

/** Reads the link through the API until its status is `status` (its payment completes in the background). */
async function waitForLinkStatus(context: ScreenshotContext, paymentLinkId: string, status: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const link = (await context.api('GET', `/api/v1/ob/payment-links/${paymentLinkId}`)) as { status: string };
    if (link.status === status) return;
    if (Date.now() > deadline) throw new Error(`payment link ${paymentLinkId} still ${link.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Marks a payment as held by another request until `ms` from now (the engine's lease in its flow state). */
async function holdPayment(database: Kysely<Database>, paymentId: string, ms: number): Promise<void> {
  const row = await database.selectFrom('payments').select('flow_state').where('id', '=', paymentId).executeTakeFirstOrThrow();
  const state = row.flow_state === null ? {} : (JSON.parse(row.flow_state) as Record<string, unknown>);
  const held = { ...state, leaseUntil: new Date(Date.now() + ms).toISOString() };
  await database.updateTable('payments').set({ flow_state: JSON.stringify(held) }).where('id', '=', paymentId).execute();
}
