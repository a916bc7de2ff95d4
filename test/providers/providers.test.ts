import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface Provider {
  id: string;
  name: string;
  countryCode: string;
  logoUrl: string;
  iconUrl: string;
  paymentSchemes: string[];
  requiredPaymentFields: string[];
  subsidiaries?: Provider[];
}

for (const kind of await testDatabaseKinds()) {
  describe(`providers API [${kind.name}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await startTestApp(kind);
      token = await (await t.createClient()).token('providers:read');
    });
    after(() => t.close());

    const list = async (query = '', bearer = token) => t.request(`/api/v1/capabilities/providers${query}`, { token: bearer });

    it('lists the sandbox banks with the spec fields and caching headers', async () => {
      const response = await list();
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'private, max-age=3600');
      assert.match(response.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]+"$/);
      const providers = (await response.json()) as Provider[];
      const all = providers.flatMap((provider) => [provider, ...(provider.subsidiaries ?? [])]);
      for (const provider of all) {
        assert.deepEqual(
          Object.keys(provider)
            .filter((key) => key !== 'subsidiaries')
            .sort(),
          ['countryCode', 'iconUrl', 'id', 'logoUrl', 'name', 'paymentSchemes', 'requiredPaymentFields'],
        );
        assert.ok(provider.logoUrl.startsWith(`${t.baseUrl}/assets/providers/${provider.id}/`));
      }
      const banks = all.filter((provider) => provider.subsidiaries === undefined);
      assert.ok(banks.length >= 12, `${banks.length} banks`);
      assert.ok(new Set(banks.map((bank) => bank.countryCode)).size >= 6);
      assert.ok(
        providers.some((provider) => (provider.subsidiaries?.length ?? 0) > 1),
        'a bank group',
      );
      for (const field of ['SENDER_ACCOUNT', 'SENDER_PROVIDER_CREDENTIALS_ID', 'SENDER_PROVIDER_CREDENTIALS_PASSWORD']) {
        assert.ok(
          banks.some((bank) => bank.requiredPaymentFields.includes(field)),
          field,
        );
      }
      assert.ok(
        banks.some((bank) => bank.paymentSchemes.length === 1 && bank.paymentSchemes[0] === 'DOMESTIC' && bank.countryCode === 'PL'),
      );
    });

    it('serves the logos and icons it links to', async () => {
      const [first] = (await (await list()).json()) as Provider[];
      assert.ok(first);
      for (const url of [first.logoUrl, first.iconUrl]) {
        const image = await fetch(url);
        assert.equal(image.status, 200);
        assert.equal(image.headers.get('content-type'), 'image/svg+xml');
        const svg = await image.text();
        assert.match(svg, /^<svg /);
        assert.ok(svg.includes(`aria-label="${first.name}"`));
      }
      assert.equal((await fetch(`${t.baseUrl}/assets/providers/00000000-0000-4000-8000-000000000000/logo.svg`)).status, 404);
    });

    it('filters by country and by payment scheme, keeping a group for its matching subsidiaries', async () => {
      const lithuanian = (await (await list('?countryCode=LT')).json()) as Provider[];
      assert.ok(lithuanian.length > 0);
      for (const provider of lithuanian) {
        if (provider.subsidiaries === undefined) assert.equal(provider.countryCode, 'LT');
        else assert.ok(provider.subsidiaries.every((subsidiary) => subsidiary.countryCode === 'LT'));
      }
      const domestic = (await (await list('?paymentScheme=DOMESTIC')).json()) as Provider[];
      assert.ok(domestic.length > 0);
      assert.ok(domestic.every((provider) => provider.paymentSchemes.includes('DOMESTIC')));
      const none = (await (await list('?countryCode=US')).json()) as Provider[];
      assert.deepEqual(none, []);
      const bad = await list('?countryCode=XX');
      assert.equal(bad.status, 400);
      assert.equal(
        ((await bad.json()) as { message: string }).message,
        'countryCode must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      const lowerCase = await list('?countryCode=de');
      assert.equal(lowerCase.status, 400);
      assert.equal(
        ((await lowerCase.json()) as { message: string }).message,
        'countryCode must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await list();
      const etag = first.headers.get('etag');
      assert.ok(etag);
      const again = await t.request('/api/v1/capabilities/providers', { token, headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      // RFC 9110 §15.4.5: no content, so no Content-Type or Content-Length of one; the validators and caching headers stay.
      assert.equal(again.headers.get('content-type'), null);
      assert.equal(again.headers.get('content-length'), null);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('cache-control'), 'private, max-age=3600');
      assert.equal(again.headers.get('vary'), 'Authorization');
      const weak = await t.request('/api/v1/capabilities/providers', { token, headers: { 'if-none-match': `"other", W/${etag}` } });
      assert.equal(weak.status, 304);
      const other = await t.request('/api/v1/capabilities/providers?countryCode=DE', { token, headers: { 'if-none-match': etag } });
      assert.equal(other.status, 200);
    });

    it('lists only the caller environment: a production client sees no sandbox bank', async () => {
      const production = await t.createClient({ environment: 'production' });
      const providers = (await (await list('', await production.token())).json()) as Provider[];
      assert.deepEqual(providers, []);
    });

    it('needs providers:read (403) and a token (401)', async () => {
      const client = await t.createClient({ scopes: ['payments:read', 'payments:write'] });
      const response = await list('', await client.token());
      assert.equal(response.status, 403);
      assert.equal((await t.request('/api/v1/capabilities/providers')).status, 401);
    });
  });
}
