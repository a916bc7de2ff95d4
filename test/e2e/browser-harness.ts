/**
 * The real browser of the payer-journey tests: Debian's Chromium through playwright-core, a stand-in shop that
 * receives the payer at the end, every response body captured (for the password check), and an axe-core check
 * of our pages. Skipped when Chromium is absent, unless OPENPIS_REQUIRE_BROWSER=1.
 */
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { WAIT_BOUND_MS } from '../helpers/wait.js';

export const CHROMIUM = '/usr/bin/chromium';

/** The two viewports every page is checked and shown at: a laptop and a phone. */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const;
const available = existsSync(CHROMIUM);
const required = process.env['OPENPIS_REQUIRE_BROWSER'] === '1';
export const browserSkip: string | false = !available && !required ? `${CHROMIUM} is not installed` : false;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Shop {
  readonly url: string;
  readonly landings: string[];
  close(): Promise<void>;
}

/** The client's site: where `metadata.redirectUri` points. */
export async function startShop(): Promise<Shop> {
  const landings: string[] = [];
  const server: Server = createServer((request, response) => {
    landings.push(request.url ?? '');
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><title>Shop</title><h1>Back at the shop</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, landings, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Chromium, headless. `trustedServerCertificates`: PEM server certificates (of a test CA) the browser accepts as it
 * accepts a publicly trusted one, by their public keys (`--ignore-certificate-errors-spki-list`): this machine's
 * Chromium has no tool to add a CA to its store, and every other certificate is still checked.
 */
export async function launchBrowser(options: { readonly trustedServerCertificates?: readonly string[] } = {}): Promise<Browser> {
  assert.ok(available, `${CHROMIUM} is required (OPENPIS_REQUIRE_BROWSER=1)`);
  const trusted = (options.trustedServerCertificates ?? []).map((pem) =>
    createHash('sha256')
      .update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64'),
  );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      ...(trusted.length === 0 ? [] : [`--ignore-certificate-errors-spki-list=${trusted.join(',')}`]),
    ],
  });
}

/** A fresh page whose every response body is pushed to `seen`. */
export async function openPage(browser: Browser, seen: string[], locale = 'en-GB'): Promise<Page> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  page.on('response', (response) => {
    response.text().then(
      (body) => seen.push(body),
      () => undefined,
    );
  });
  return page;
}

export interface AxeFinding {
  readonly page: string;
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
}

/** Whether the page moves on by itself: a waiting page following the status, a completed page continuing. */
async function selfMoving(page: Page): Promise<boolean> {
  return (await page.locator('main[data-status-url], a[data-auto-continue]').count()) > 0;
}

/**
 * Runs axe-core on the current page; returns its violations of every impact. A page that moves on by itself (a
 * waiting page reloads when the status changes; the completed page continues to the shop) could be pulled from
 * under a slow check, so it is checked as a still copy: the same document at the same address, served to a second
 * page whose script is held back. A navigation that still cuts a check short runs the check again on the page as
 * it is then.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      // A page that moved under a check once (a shop's page reloading itself by its Refresh header, say) is checked
      // as a still copy from then on: on a busy machine the check can take longer than the page stays.
      return attempt > 1 || (await selfMoving(page)) ? await axeOnStillCopy(page) : await axeRun(page);
    } catch (error) {
      const navigated =
        error instanceof Error && /Execution context was destroyed|navigation|navigating|axe is not defined/i.test(error.message);
      if (!navigated || attempt >= 5) throw error;
      await page.waitForLoadState('load');
    }
  }
}

/**
 * Holds the page's clock from now on (Playwright's fake timers, paused), so a page that moves on by itself (the
 * completed page's countdown to the shop) waits while the test checks it, however long a busy machine takes.
 */
export async function holdClock(page: Page): Promise<void> {
  await page.clock.install();
  await page.clock.pauseAt(new Date(Date.now() + 1000));
}

/**
 * With the clock held, lets it run one second at a time until `target` shows: the timers of the pages on the way
 * (a waiting page's status checks) fire, and a page that moves on by itself has run at most a second of its own
 * countdown when `target` shows.
 */
export async function runClockUntilVisible(page: Page, target: Locator, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  while (!(await target.isVisible())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_BOUND_MS} ms waiting for ${what}`);
    await page.clock.runFor(1000);
    // Real time for what the step started (a status request, a navigation) to arrive.
    await page.waitForTimeout(100);
  }
}

/** axe-core on the page at both viewports (its own size restored after); each finding names the width it was seen at. */
export async function axeViolationsAtViewports(page: Page): Promise<AxeFinding[]> {
  const own = page.viewportSize();
  const found: AxeFinding[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const finding of await axeViolations(page)) found.push({ ...finding, page: `${finding.page} @${viewport.width}` });
  }
  if (own !== null) await page.setViewportSize(own);
  return found;
}

async function axeOnStillCopy(page: Page): Promise<AxeFinding[]> {
  const url = page.url();
  const html = await page.content();
  // A context of its own, at the page's size: the page's own may hold a fake clock (holdClock), under which axe's
  // timers would never fire.
  const browser = page.context().browser();
  assert.ok(browser !== null, 'the page belongs to a launched browser');
  const viewport = page.viewportSize();
  const context = await browser.newContext(viewport === null ? {} : { viewport });
  const copy = await context.newPage();
  try {
    await copy.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    await copy.route('**/pay/assets/*.js', (route) => route.abort());
    await copy.goto(url);
    return await axeRun(copy);
  } finally {
    await context.close();
  }
}

async function axeRun(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol, so our CSP (no script at all) does not stop the checker.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<Array<{ id: string; impact: string | null; help: string }>>(
    'axe.run(document, { resultTypes: ["violations"] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help })))',
  );
  const url = new URL(page.url()).pathname.replace(/\/pay\/[^/]+/, '/pay/<token>');
  return violations.map((violation) => ({ page: url, ...violation }));
}

interface Closable {
  close(): Promise<void>;
}

/**
 * Starts the parts of a browser test together. If one fails, the ones that started are closed before the error is
 * thrown: a failed set-up must fail the file, not leave a server or a browser holding the process open.
 */
export async function startAll<const T extends readonly Promise<Closable>[]>(
  parts: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(parts);
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure !== undefined) {
    await Promise.all(settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value.close().catch(() => undefined)] : [])));
    throw failure.reason;
  }
  return settled.map((result) => (result as PromiseFulfilledResult<Closable>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/**
 * Signs a person into the console in the browser: the password, then a code of their authenticator, enrolling it the
 * first time (its key read off the enrolment page). Returns the key, to give back for the person's next sign-ins.
 * Ends on the page the console opens after signing in.
 */
export async function signInToConsole(
  page: Page,
  baseUrl: string,
  email: string,
  options: { readonly key?: string; readonly password?: string } = {},
): Promise<string> {
  const { freshTotpCode, PASSWORD } = await import('../console/console-http.js');
  await page.goto(`${baseUrl}/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(options.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/sign-in\/(enrol|code)/);
  const enrolling = /\/console\/sign-in\/enrol/.test(page.url());
  const key = enrolling ? (await page.locator('code.mono').first().innerText()).replace(/ /g, '') : options.key;
  if (key === undefined) throw new Error(`${email} has an authenticator already: give its key`);
  await page.getByLabel(/Code/).fill(await freshTotpCode(key));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
  return key;
}
