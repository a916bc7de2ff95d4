/**
 * Who is paid and by whom, and a bank list that finds the bank at once, in a real browser: in English and German,
 * at 1280×800 and 390×844. The merchant's logo and name in the header (or the recipient's name without branding),
 * the brand colour on the primary button with AA contrast kept (also for a pale colour), the payment sentence, the
 * operator's statement and links; the list filtering as the payer types, a new country applied at once, popular
 * banks first, a group found by its name, the first bank in the first screen; the same list without JavaScript.
 * axe-core finds no violation at all (any impact) on these pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { ClientBrandingStore } from '../../src/branding/client-branding.js';
import { contrastRatio } from '../../src/branding/colour.js';
import { processLogo } from '../../src/branding/logo.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import type { TestClient } from '../helpers/test-app.js';
import {
  type AxeFinding,
  axeViolations,
  browserSkip,
  launchBrowser,
  type Shop,
  startAll,
  startShop,
  VIEWPORTS,
} from './browser-harness.js';
import { BANKS, startFlowHarness, type FlowHarness } from './flow-harness.js';

const [sqlite] = await testDatabaseKinds();

const TEXTS = {
  en: {
    hostedSentence: 'You are paying €10.50 to Acme Outdoor, initiated by Example Pay.',
    reviewSentence: 'You are paying €10.50 to Acme Outdoor from your account at Rheinland Sandbox Bank, initiated by Example Pay.',
    unbrandedSentence: 'You are paying €10.50 to Acme GmbH, initiated by Example Pay.',
    oneFound: '1 bank found.',
    noMatch: 'No bank matches your search.',
    allCountries: 'Search in all countries',
    terms: 'Terms',
    privacy: 'Privacy',
    support: 'Help from Acme Outdoor',
    operator: 'Payment initiation by Example Pay.',
    choose: (bank: string) => `Pay with ${bank}`,
  },
  de: {
    hostedSentence: 'Sie zahlen 10,50 € an Acme Outdoor, ausgelöst durch Example Pay.',
    reviewSentence: 'Sie zahlen 10,50 € an Acme Outdoor von Ihrem Konto bei Rheinland Sandbox Bank, ausgelöst durch Example Pay.',
    unbrandedSentence: 'Sie zahlen 10,50 € an Acme GmbH, ausgelöst durch Example Pay.',
    oneFound: '1 Bank gefunden.',
    noMatch: 'Keine Bank passt zu Ihrer Suche.',
    allCountries: 'In allen Ländern suchen',
    terms: 'AGB',
    privacy: 'Datenschutz',
    support: 'Hilfe von Acme Outdoor',
    operator: 'Zahlungsauslösung durch Example Pay.',
    choose: (bank: string) => `Mit ${bank} bezahlen`,
  },
} as const;

type Language = keyof typeof TEXTS;

/** Text as read, with the narrow and no-break spaces Intl puts in amounts made plain. */
function plain(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
}

/** The names on the visible bank buttons, in order. */
async function visibleBanks(page: Page): Promise<string[]> {
  return page.locator('button.bank:visible').allInnerTexts();
}

describe('branding and bank selection in a browser', { skip: browserSkip || (sqlite === undefined ? 'no database' : false) }, () => {
  let flow: FlowHarness;
  let browser: Browser;
  let shop: Shop;
  let branding: ClientBrandingStore;
  let plainClient: TestClient;
  const findings: AxeFinding[] = [];

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    [flow, browser, shop] = await startAll([
      startFlowHarness(sqlite, {
        OPERATOR_NAME: 'Example Pay',
        OPERATOR_REGULATORY_STATEMENT: 'Example Pay Ltd is authorised by the Example Financial Authority (register no. 123456).',
        OPERATOR_TERMS_URL: 'https://pay.example/terms',
        OPERATOR_PRIVACY_URL: 'https://pay.example/privacy',
      }),
      launchBrowser(),
      startShop(),
    ]);
    branding = new ClientBrandingStore(flow.app.database.db);
    // A wide logo (a wordmark): it stands for the name in the header.
    const logo = await processLogo(
      await sharp({ create: { width: 600, height: 200, channels: 3, background: '#0f766e' } })
        .png()
        .toBuffer(),
    );
    await branding.update(flow.client.clientId, {
      displayName: 'Acme Outdoor',
      brandColour: '#0f766e',
      supportUrl: 'https://acme.example/help',
      logo,
    });
    plainClient = await flow.app.createClient({ name: 'plain shop' });
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
    await flow?.close();
  });

  const metadata = () => ({
    redirectUri: `${shop.url}/return`,
    psuIpAddress: '203.0.113.7',
    psuUserAgent: 'Mozilla/5.0',
    endToEndId: `brand-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  });

  async function open(
    language: Language,
    viewport: (typeof VIEWPORTS)[number],
    url: string,
    options: { javaScript?: boolean } = {},
  ): Promise<Page> {
    const context = await browser.newContext({
      locale: language,
      viewport: { width: viewport.width, height: viewport.height },
      javaScriptEnabled: options.javaScript ?? true,
    });
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  async function a11y(page: Page, label: string): Promise<void> {
    findings.push(...(await axeViolations(page)).map((finding) => ({ ...finding, page: `${finding.page} (${label})` })));
  }

  for (const language of ['en', 'de'] as const) {
    const text = TEXTS[language];
    for (const viewport of VIEWPORTS) {
      const at = `${language}, ${viewport.width}×${viewport.height}`;

      it(`bank list: the merchant, the sentence, popular banks first in the first screen, filtering as one types, a group by its name, a country at once (${at})`, async () => {
        const { redirectUrl } = await flow.create(
          { provider: { preferences: { countryCodes: { list: ['DE', 'FR', 'LT', 'LV', 'EE'], default: 'DE' } } }, metadata: metadata() },
          { 'accept-language': language },
        );
        const page = await open(language, viewport, redirectUrl);
        // Who is paid: the wordmark logo says the name (its text alternative), served by us and cached for long.
        const logo = page.locator('header img');
        assert.equal(await logo.getAttribute('alt'), 'Acme Outdoor');
        const logoPath = (await logo.getAttribute('src')) ?? '';
        assert.match(logoPath, /^\/pay\/assets\/logos\/[0-9a-f]{64}\.png$/);
        const loaded = await logo.evaluate((image: unknown) => {
          const { complete, naturalWidth } = image as { complete: boolean; naturalWidth: number };
          return complete && naturalWidth > 0;
        });
        assert.ok(loaded, 'the logo loaded under the page CSP');
        const logoResponse = await fetch(`${flow.app.baseUrl}${logoPath}`);
        assert.equal(logoResponse.headers.get('content-type'), 'image/png');
        assert.equal(logoResponse.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.match(await page.title(), /Acme Outdoor$/);
        assert.equal(plain(await page.locator('.sentence').innerText()), text.hostedSentence);
        // By whom: the operator's statement and links, the merchant's help.
        assert.match(plain(await page.locator('footer').innerText()), new RegExp(`${text.operator} Example Pay Ltd is authorised`));
        assert.equal(await page.getByRole('link', { name: text.terms, exact: true }).getAttribute('href'), 'https://pay.example/terms');
        assert.equal(await page.getByRole('link', { name: text.privacy }).getAttribute('href'), 'https://pay.example/privacy');
        assert.equal(await page.getByRole('link', { name: text.support }).getAttribute('href'), 'https://acme.example/help');

        // Popular first (Rheinland has a rank; Hansa would come first by name), and in the first screen.
        assert.deepEqual(await visibleBanks(page), ['Rheinland Sandbox Bank', 'Hansa Direktbank Sandbox']);
        const first = await page.locator('button.bank').first().boundingBox();
        assert.ok(
          first !== null && first.y >= 0 && first.y + first.height <= viewport.height,
          `first bank at ${JSON.stringify(first)} in a ${viewport.height} px screen`,
        );
        // With our script the Search button is not needed: typing filters at once.
        assert.equal(await page.locator('form.filters button[type=submit]').isVisible(), false);
        await a11y(page, `bank list, ${at}`);

        const url = page.url();
        await page.locator('#q').pressSequentially('hansa');
        assert.deepEqual(await visibleBanks(page), ['Hansa Direktbank Sandbox']);
        assert.equal(await page.locator('#bank-count').innerText(), text.oneFound);
        assert.equal(page.url(), url, 'filtered in the page, no round trip');
        await a11y(page, `bank list filtered, ${at}`);

        // The Baltic group's banks are in other countries: none here, and a way to search them all.
        await page.locator('#q').fill('');
        await page.locator('#q').pressSequentially('baltic');
        assert.deepEqual(await visibleBanks(page), []);
        assert.equal(await page.locator('#bank-count').innerText(), text.noMatch);
        await Promise.all([page.waitForURL(/country=ALL/), page.getByRole('link', { name: text.allCountries }).click()]);
        assert.deepEqual((await visibleBanks(page)).sort(), [
          'Baltic Sandbox Bank Eesti',
          'Baltic Sandbox Bank Latvija',
          'Baltic Sandbox Bank Lietuva',
        ]);
        await a11y(page, `bank list, a group by its name, ${at}`);

        // A new country applies as soon as it is chosen; France's popular bank comes first.
        await page.locator('#q').fill('');
        await Promise.all([page.waitForURL(/country=FR/), page.locator('#country').selectOption('FR')]);
        assert.deepEqual(await visibleBanks(page), ['Crédit Sandbox du Midi', 'Banque Lumière Sandbox']);
        await page.getByRole('button', { name: text.choose('Crédit Sandbox du Midi') }).waitFor();
        await page.context().close();
      });

      it(`review: the whole sentence, the brand colour on the button with AA contrast, a pale colour adjusted (${at})`, async () => {
        const { redirectUrl } = await flow.create(
          { provider: { id: BANKS.rheinland }, metadata: metadata() },
          { 'accept-language': language },
        );
        const page = await open(language, viewport, redirectUrl);
        assert.equal(plain(await page.locator('.sentence').innerText()), text.reviewSentence);
        const button = page.locator('button.primary');
        const computed = (property: 'backgroundColor' | 'color' | 'boxShadow'): Promise<string> =>
          button.evaluate((element: unknown, name: string) => {
            const style = (globalThis as unknown as { getComputedStyle(element: unknown): Record<string, string> }).getComputedStyle(
              element,
            );
            return style[name] ?? '';
          }, property);
        const colours = async (): Promise<[string, string]> => [await computed('backgroundColor'), await computed('color')];
        assert.deepEqual(await colours(), ['rgb(15, 118, 110)', 'rgb(255, 255, 255)']);
        const stylesheet = (await page.locator('link[rel=stylesheet][href*="/brand-"]').getAttribute('href')) ?? '';
        const css = await fetch(`${flow.app.baseUrl}${stylesheet}`);
        assert.equal(css.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        await a11y(page, `review, ${at}`);

        // A pale yellow brand colour: black text keeps the contrast, and the button gets an outline.
        await branding.update(flow.client.clientId, { brandColour: '#ffee55' });
        try {
          await page.reload();
          const [background, color] = await colours();
          assert.equal(background, 'rgb(255, 238, 85)');
          assert.equal(color, 'rgb(0, 0, 0)');
          assert.ok(contrastRatio('#ffee55', '#000000') >= 4.5);
          assert.notEqual(await computed('boxShadow'), 'none');
          await a11y(page, `review, pale brand colour, ${at}`);
        } finally {
          await branding.update(flow.client.clientId, { brandColour: '#0f766e' });
        }
        await page.context().close();
      });
    }
  }

  it('a client without branding: the recipient name in the header and the sentence, our colours, the operator still named (de, 390×844)', async () => {
    const token = await plainClient.token();
    const response = await flow.app.request('/api/v1/ob/payments', {
      method: 'POST',
      token,
      json: paymentRequest({ metadata: metadata() }),
      headers: { 'accept-language': 'de' },
    });
    assert.equal(response.status, 201);
    const { redirectUrl } = (await response.json()) as { redirectUrl: string };
    const mobile = VIEWPORTS[1];
    const page = await open('de', mobile, redirectUrl);
    assert.equal(await page.locator('header .merchant').innerText(), 'Acme GmbH');
    assert.equal(await page.locator('header img').count(), 0);
    assert.equal(await page.locator('link[href*="/brand-"]').count(), 0);
    assert.equal(plain(await page.locator('.sentence').innerText()), TEXTS.de.unbrandedSentence);
    assert.equal(await page.getByRole('link', { name: 'Hilfe von' }).count(), 0);
    await a11y(page, 'bank list without branding');
    await page.context().close();
  });

  for (const language of ['en', 'de'] as const) {
    it(`without JavaScript the GET form filters on the server: the Search button, a group by its name (${language}, 390×844)`, async () => {
      const { redirectUrl } = await flow.create({ metadata: metadata() }, { 'accept-language': language });
      const page = await open(language, VIEWPORTS[1], redirectUrl, { javaScript: false });
      const search = page.locator('form.filters button[type=submit]');
      assert.equal(await search.isVisible(), true);
      await page.locator('#country').selectOption('ALL');
      await page.locator('#q').fill('baltic');
      await Promise.all([page.waitForURL(/q=baltic/), search.click()]);
      assert.deepEqual((await visibleBanks(page)).sort(), [
        'Baltic Sandbox Bank Eesti',
        'Baltic Sandbox Bank Latvija',
        'Baltic Sandbox Bank Lietuva',
      ]);
      // (axe-core needs script to run: the same page with script is checked above.)
      await page.context().close();
    });
  }

  it('no accessibility violation of any impact on these pages (axe-core)', () => {
    assert.deepEqual(findings, []);
  });
});
