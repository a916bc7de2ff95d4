/**
 * `npm run screenshots`: every payer page of SCREENSHOT_PAGES (pages.ts) in the five languages and every console page
 * of CONSOLE_SCREENSHOT_PAGES (console-pages.ts, in English) at 1280×800 and 390×844, into screenshots/ (git-ignored) with an index.html to open in a browser. Runs the real app in this process
 * on SQLite with the embedded sandbox banks, a branded client (display name, logo, brand colour, support link) and
 * an operator identity, and Debian's Chromium (`/usr/bin/chromium`) through playwright-core.
 *
 *   npm run screenshots                    # everything
 *   npm run screenshots -- bank-selection  # only pages whose name contains one of the arguments
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { ClientBrandingStore } from '../../src/branding/client-branding.js';
import { processLogo } from '../../src/branding/logo.js';
import { SUPPORTED_LOCALES, type Locale } from '../../src/i18n/locale.js';
import { escapeHtml } from '../../src/http/escape-html.js';
import { launchBrowser, startShop, VIEWPORTS } from '../../test/e2e/browser-harness.js';
import { startFlowHarness } from '../../test/e2e/flow-harness.js';
import { paymentRequest } from '../../test/helpers/payment-requests.js';
import { testDatabaseKinds } from '../../test/helpers/databases.js';
import { SCREENSHOT_PAGES } from './pages.js';
import type { ScreenshotContext } from './scene.js';
import { CONSOLE_SCREENSHOT_PAGES, prepareConsole } from './console-pages.js';


const OUTPUT = resolve('screenshots');

/** A stand-in merchant logo: drawn here, then taken through the same pipeline an operator's upload goes through. */
async function demoLogo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="120" viewBox="0 0 360 120"><rect x="8" y="16" width="88" height="88" rx="20" fill="#0f766e"/><path d="M32 84 L52 36 L72 84 M40 66 H64" stroke="#fff" stroke-width="9" fill="none" stroke-linecap="round" stroke-linejoin="round"/><text x="116" y="80" font-family="DejaVu Sans, Arial, sans-serif" font-size="52" font-weight="700" fill="#0f172a">acme</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const pages = [...SCREENSHOT_PAGES, ...CONSOLE_SCREENSHOT_PAGES].filter((entry) => filters.length === 0 || filters.some((filter) => entry.name.includes(filter)));
  if (pages.length === 0) throw new Error(`No page matches ${filters.join(', ')}`);
  const [sqlite] = await testDatabaseKinds();
  if (sqlite === undefined) throw new Error('no database');
  const flow = await startFlowHarness(sqlite, {
    LOG_LEVEL: 'warn',
    OPERATOR_NAME: 'Example Pay',
    OPERATOR_REGULATORY_STATEMENT: 'Example Pay Ltd is a payment initiation service provider authorised by the Example Financial Authority (register no. 123456).',
    OPERATOR_TERMS_URL: 'https://pay.example/terms',
    OPERATOR_PRIVACY_URL: 'https://pay.example/privacy',
  });
  const browser = await launchBrowser();
  // The shop the payer returns to (`metadata.redirectUri`), so a page that sends the payer on lands somewhere real.
  const shopServer = await startShop();
  try {
    await new ClientBrandingStore(flow.app.database.db).update(flow.client.clientId, {
      displayName: 'Acme Outdoor',
      brandColour: '#0f766e',
      supportUrl: 'https://acme.example/help',
      logo: await processLogo(await demoLogo()),
    });
    const consoleScene = await prepareConsole(flow);
    const unbranded = await flow.app.createClient({ name: 'plain shop' });
    const unbrandedToken = await unbranded.token();
    const brandedToken = await flow.client.token();
    const shop = `${shopServer.url}/return`;
    for (const entry of pages) rmSync(join(OUTPUT, entry.name), { recursive: true, force: true });
    const made: Array<{ name: string; description: string; files: Array<{ locale: Locale; viewport: string; file: string }>; error?: string }> = [];
    for (const entry of pages) {
      const files: Array<{ locale: Locale; viewport: string; file: string }> = [];
      let error: string | undefined;
      for (const locale of entry.locales ?? SUPPORTED_LOCALES) {
        const context = await browser.newContext({ locale, viewport: VIEWPORTS[0] });
        const page = await context.newPage();
        const metadata = () => ({ redirectUri: shop, psuIpAddress: '203.0.113.7', psuUserAgent: 'Mozilla/5.0', endToEndId: `shot-${randomUUID()}` });
        const screenshotContext: ScreenshotContext = {
          page,
          baseUrl: flow.app.baseUrl,
          database: flow.app.database.db,
          console: consoleScene,
          clientId: flow.client.clientId,
          api: async (method, path, json) => {
            const response = await flow.app.request(path, {
              method,
              token: brandedToken,
              ...(json === undefined ? {} : { json }),
              headers: { 'accept-language': locale },
            });
            const text = await response.text();
            if (!response.ok) throw new Error(`${method} ${path} answered ${response.status} ${text}`);
            return text === '' ? undefined : (JSON.parse(text) as unknown);
          },
          create: async (overrides = {}) => flow.create({ metadata: metadata(), ...overrides }, { 'accept-language': locale }),
          waitFor: async (paymentId, status) => {
            await flow.waitFor(paymentId, (current) => current === status);
          },
          createUnbranded: async (overrides = {}) => {
            const response = await flow.app.request('/api/v1/ob/payments', {
              method: 'POST',
              token: unbrandedToken,
              json: paymentRequest({ metadata: metadata(), ...overrides }),
              headers: { 'accept-language': locale },
            });
            if (response.status !== 201) throw new Error(`payment creation failed: ${response.status} ${await response.text()}`);
            return (await response.json()) as { paymentId: string; redirectUrl: string };
          },
        };
        try {
          await entry.open(screenshotContext);
          await page.waitForLoadState('load');
          for (const viewport of VIEWPORTS) {
            await page.setViewportSize({ width: viewport.width, height: viewport.height });
            const file = join(entry.name, `${locale}-${viewport.name}.png`);
            mkdirSync(join(OUTPUT, entry.name), { recursive: true });
            await page.screenshot({ path: join(OUTPUT, file), fullPage: true });
            files.push({ locale, viewport: `${viewport.name} ${viewport.width}×${viewport.height}`, file });
          }
        } catch (failure) {
          error = `${locale}: ${failure instanceof Error ? failure.message : String(failure)}`;
          process.stderr.write(`${entry.name} ${error}\n`);
        } finally {
          await context.close();
        }
      }
      made.push({ name: entry.name, description: entry.description, files, ...(error === undefined ? {} : { error }) });
      process.stdout.write(`${entry.name}: ${files.length} screenshots\n`);
    }
    // The index lists every page on disk, payer and console pages: those of this run, and those an earlier (filtered)
    // run left.
    const listed = [...SCREENSHOT_PAGES, ...CONSOLE_SCREENSHOT_PAGES].map(
      (entry) =>
        made.find((rendered) => rendered.name === entry.name) ?? {
          name: entry.name,
          description: entry.description,
          files: (entry.locales ?? SUPPORTED_LOCALES).flatMap((locale) =>
            VIEWPORTS.map((viewport) => ({ locale, viewport: `${viewport.name} ${viewport.width}×${viewport.height}`, file: join(entry.name, `${locale}-${viewport.name}.png`) })),
          ).filter((shot) => existsSync(join(OUTPUT, shot.file))),
        },
    ).filter((entry) => entry.files.length > 0 || 'error' in entry);
    mkdirSync(OUTPUT, { recursive: true });
    writeFileSync(join(OUTPUT, 'index.html'), indexHtml(listed));
    process.stdout.write(`Open ${join(OUTPUT, 'index.html')}\n`);
    if (made.some((entry) => entry.error !== undefined)) process.exitCode = 1;
  } finally {
    await browser.close();
    await shopServer.close();
    await flow.close();
  }
}

function indexHtml(made: ReadonlyArray<{ name: string; description: string; files: ReadonlyArray<{ locale: string; viewport: string; file: string }>; error?: string }>): string {
  const sections = made
    .map(
      (entry) => `<section id="${escapeHtml(entry.name)}"><h2>${escapeHtml(entry.name)}</h2><p>${escapeHtml(entry.description)}</p>${
        entry.error === undefined ? '' : `<p class="error">Failed: ${escapeHtml(entry.error)}</p>`
      }<div class="shots">${entry.files
        .map((shot) => `<figure><a href="${escapeHtml(shot.file)}"><img src="${escapeHtml(shot.file)}" alt="${escapeHtml(`${entry.name}, ${shot.locale}, ${shot.viewport}`)}" loading="lazy"></a><figcaption>${escapeHtml(shot.locale)} · ${escapeHtml(shot.viewport)}</figcaption></figure>`)
        .join('')}</div></section>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>openpis pages</title><style>
body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem;background:#f3f4f6;color:#111827}
nav a{margin-right:1rem}.shots{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
figure{margin:0;background:#fff;padding:.5rem;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
img{display:block;width:260px;height:auto;border:1px solid #e5e7eb}.error{color:#b91c1c;font-weight:600}
</style></head><body><h1>openpis payer and console pages</h1><p>Generated by <code>npm run screenshots</code> (docs/README.md). Click a picture for full size.</p>
<nav>${made.map((entry) => `<a href="#${escapeHtml(entry.name)}">${escapeHtml(entry.name)}</a>`).join('')}</nav>
${sections}</body></html>`;
}

await main();
