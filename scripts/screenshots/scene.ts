/**
 * What every screenshot entry works with (the run's context, the entry's shape, the console's signed-in people) and
 * the payer's steps that both the payer pages (pages.ts) and the console pages (console-pages.ts) take. A file of
 * its own so those two import it and not each other.
 */
import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import type { Locale } from '../../src/i18n/locale.js';
import type { Database } from '../../src/storage/schema.js';
import { BANKS, TEST_PASSWORD } from '../../test/e2e/flow-harness.js';
import { paymentLinkRequest } from '../../test/helpers/payment-link-requests.js';
import { storedPaymentRow } from '../../test/helpers/payment-rows.js';

export interface ScreenshotContext {
  readonly page: Page;
  readonly baseUrl: string;
  /** Creates a payment (hosted mode unless `provider.id` is given) in the language of this run; its flow link. */
  create(overrides?: Record<string, unknown>): Promise<{ paymentId: string; redirectUrl: string }>;
  /** Waits until the payment's detailed status is `status` (the bank's answers arrive in the background). */
  waitFor(paymentId: string, status: string): Promise<void>;
  /** Creates a payment for the client without branding. */
  createUnbranded(overrides?: Record<string, unknown>): Promise<{ paymentId: string; redirectUrl: string }>;
  /** A call of the API as the branded client (payment links, refunds); its JSON answer, or an error if not 2xx. */
  api(method: 'GET' | 'POST', path: string, json?: Record<string, unknown>): Promise<unknown>;
  /** The branded client's id. */
  readonly clientId: string;
  /** The app's database (the console pages read what they need to open). */
  readonly database: Kysely<Database>;
  /** The console's operator and member (console pages only). */
  readonly console?: ConsoleScene;
}

export interface ScreenshotPage {
  /** Folder name: letters, digits and dashes. */
  readonly name: string;
  readonly description: string;
  /** The languages to take it in (default: all five). */
  readonly locales?: readonly Locale[];
  /** Leaves `context.page` showing the page. */
  open(context: ScreenshotContext): Promise<void>;
}

export interface ConsoleScene {
  /** Gives the page a signed-in session of the operator or the member. */
  signIn(page: Page, who: 'operator' | 'member'): Promise<void>;
  readonly clientId: string;
  readonly operatorId: string;
  readonly memberId: string;
}

export async function click(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForLoadState('load'), page.locator(selector).first().click()]);
}

/** The sandbox bank's own pages (Berlin Group redirect, always in English): log in and approve, to come back to us. */
export async function approveAtSandboxBank(page: Page, psuId: string): Promise<void> {
  await page.locator('#psuId').fill(psuId);
  await page.locator('#password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: /^(Approve|Share|Continue)$/ }).first().click();
  const otp = page.getByLabel('One-time code');
  if (!(await otp.isVisible())) await page.getByRole('button', { name: /^(Approve|Continue)$/ }).first().click();
  await otp.fill('123456');
  await page.getByRole('button', { name: 'Confirm' }).click();
}

/** A custom-mode payment at `bank`: its review page, and past it with Continue (to the bank, or our next form). */
export async function pastReview(context: ScreenshotContext, bank: string, overrides: Record<string, unknown> = {}): Promise<{ paymentId: string; redirectUrl: string }> {
  const created = await context.create({ provider: { id: bank }, ...overrides });
  await context.page.goto(created.redirectUrl);
  await click(context.page, 'button.primary');
  return created;
}

/** At Rheinland (redirect): approved at the sandbox bank by `psuId`, then, once the bank says so, our outcome page. */
export async function approvedAtRheinland(context: ScreenshotContext, psuId: string, final: string | undefined, overrides: Record<string, unknown> = {}): Promise<void> {
  const { paymentId, redirectUrl } = await pastReview(context, BANKS.rheinland, overrides);
  await approveAtSandboxBank(context.page, psuId);
  if (final === undefined) {
    await context.page.waitForURL((url) => url.pathname.startsWith('/pay/'));
    return;
  }
  await context.waitFor(paymentId, final);
  await context.page.goto(redirectUrl);
}

/** alice's account at the sandbox banks: the merchant's account of the refunds here, so alice can approve them. */
const MERCHANT_IBAN = 'DE54500105171000007919';

/**
 * A refund of 7.50 EUR of a completed 25.00 EUR payment (stored as the flow leaves it, its payer known) into the
 * branded client's account at the sandbox banks; its flow link is the approver's.
 */
export async function newRefund(context: ScreenshotContext, payerName = 'Dave Payer'): Promise<{ paymentId: string; redirectUrl: string }> {
  const original = storedPaymentRow(context.clientId, new Date().toISOString(), {
    detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
    amount: '25.00',
    recipient: JSON.stringify({
      account: { number: { type: 'IBAN', value: MERCHANT_IBAN } },
      name: 'Acme Outdoor GmbH',
      address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
    }),
    remittance: JSON.stringify({ value: `Order ${nextOrderNumber()}`, truncate: false }),
    payer: JSON.stringify({ account: { type: 'IBAN', value: 'DE76500105171000031676' }, name: payerName }),
  });
  await context.database.insertInto('payments').values(original).execute();
  return (await context.api('POST', `/api/v1/ob/payments/${original.id}/refunds`, {
    amount: '7.50',
    reference: 'Refund order 1001 returned tent',
    metadata: { redirectUri: 'https://acme.example/refunds/done', endToEndId: `refund-${original.id.slice(0, 20)}` },
  })) as { paymentId: string; redirectUrl: string };
}

let orders = 1000;
function nextOrderNumber(): number {
  orders += 1;
  return orders;
}

/** A payment link of the branded client (single-use, 24 hours, unless `overrides` say otherwise). */
export async function newPaymentLink(context: ScreenshotContext, overrides: Record<string, unknown> = {}): Promise<{ paymentLinkId: string; url: string }> {
  return (await context.api(
    'POST',
    '/api/v1/ob/payment-links',
    paymentLinkRequest({
      reference: `invoice-2026-${String(nextOrderNumber())}`,
      recipient: { account: { number: { type: 'IBAN', value: 'DE89370400440532013000' } }, name: 'Acme Outdoor GmbH', address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' } },
      amount: 89.9,
      remittanceInformation: { type: 'UNSTRUCTURED', value: 'Invoice 2026-042 hiking boots' },
      metadata: { redirectUri: 'https://acme.example/thanks' },
      ...overrides,
    }),
  )) as { paymentLinkId: string; url: string };
}

/** At Hansa (embedded) on our pages: the login form filled in as alice and sent, then the one-time code. */
export async function loginAndCodeAtHansa(page: Page): Promise<void> {
  await page.locator('#loginId').fill('alice');
  await page.locator('#password').fill(TEST_PASSWORD);
  await click(page, 'form button.primary');
  await page.locator('#otp').fill('123456');
  await click(page, 'form button.primary');
}
