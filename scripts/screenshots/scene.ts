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

export interface ScreenshotContext {
  readonly page: Page;
  readonly baseUrl: string;
  /** Creates a payment (hosted mode unless `provider.id` is given) in the language of this run; its flow link. */
  create(overrides?: Record<string, unknown>): Promise<{ paymentId: string; redirectUrl: string }>;
  /** Waits until the payment's detailed status is `status` (the bank's answers arrive in the background). */
  waitFor(paymentId: string, status: string): Promise<void>;
  /** Creates a payment for the client without branding. */
  createUnbranded(overrides?: Record<string, unknown>): Promise<{ paymentId: string; redirectUrl: string }>;
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
