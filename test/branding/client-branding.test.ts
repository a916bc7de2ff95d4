/**
 * Branding as stored (migration 0005_client_branding), on SQLite and PostgreSQL: set, read, partly changed,
 * cleared; the logo found by its hash only; every value checked before it is stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { ClientService } from '../../src/auth/clients.js';
import { BrandingClientNotFoundError, BrandingError, ClientBrandingStore, clientLogoPath } from '../../src/branding/client-branding.js';
import { processLogo } from '../../src/branding/logo.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { parseSecretKeys } from '../../src/crypto/secret-box.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { TEST_SECRET_KEYS } from '../helpers/secret-keys.js';

for (const kind of await testDatabaseKinds()) {
  describe(`client branding [${kind.name}]`, () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let store: ClientBrandingStore;
    let clients: ClientService;
    before(async () => {
      database = await kind.create();
      handle = openDatabase(database.config);
      assert.ok((await migrateToLatest(handle.db as unknown as Kysely<unknown>)).includes('0005_client_branding'));
      store = new ClientBrandingStore(handle.db);
      clients = new ClientService(handle.db, new SecretBox(parseSecretKeys(TEST_SECRET_KEYS)));
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    it('a new client has no branding', async () => {
      const { clientId } = await clients.create({ name: 'plain' });
      assert.deepEqual(await store.get(clientId), {
        clientId,
        displayName: undefined,
        brandColour: undefined,
        supportUrl: undefined,
        logo: undefined,
      });
    });

    it('stores every part, changes one without the others, clears one, and serves the logo by its hash only', async () => {
      const { clientId } = await clients.create({ name: 'acme' });
      const logo = await processLogo(
        await sharp({ create: { width: 300, height: 100, channels: 3, background: '#0f766e' } })
          .jpeg()
          .toBuffer(),
      );
      const stored = await store.update(clientId, {
        displayName: '  Acme Outdoor ',
        brandColour: '#0A5',
        supportUrl: 'https://acme.example/help',
        logo,
      });
      assert.deepEqual(stored, {
        clientId,
        displayName: 'Acme Outdoor',
        brandColour: '#00aa55',
        supportUrl: 'https://acme.example/help',
        logo: { sha256: logo.sha256, width: 300, height: 100 },
      });
      assert.ok((await store.logoPng(logo.sha256))?.equals(logo.png));
      assert.equal(clientLogoPath(logo.sha256), `/pay/assets/logos/${logo.sha256}.png`);

      assert.equal((await store.update(clientId, { brandColour: '#112233' })).displayName, 'Acme Outdoor');
      const cleared = await store.update(clientId, { logo: null, supportUrl: null });
      assert.deepEqual([cleared.logo, cleared.supportUrl, cleared.brandColour], [undefined, undefined, '#112233']);
      assert.equal(await store.logoPng(logo.sha256), undefined);
      assert.equal(await store.logoPng('not-a-hash'), undefined);
      assert.equal((await store.list()).find((branding) => branding.clientId === clientId)?.displayName, 'Acme Outdoor');
    });

    it('refuses invisible formatting characters in display and client names, and keeps them in NFC (issue 23 item 6)', async () => {
      const { clientId } = await clients.create({ name: 'formatting' });
      for (const spoof of ['Acme \u202Eemca', 'Ac\u200Bme', 'Acme\u2067']) {
        await assert.rejects(
          store.update(clientId, { displayName: spoof }),
          /display name must not contain invisible formatting characters/,
          JSON.stringify(spoof),
        );
        await assert.rejects(
          clients.create({ name: spoof }),
          /name must not contain invisible formatting characters/,
          JSON.stringify(spoof),
        );
      }
      assert.equal((await store.update(clientId, { displayName: 'Cafe\u0301 Acme' })).displayName, 'Caf\u00e9 Acme');
      const created = await clients.create({ name: 'Cafe\u0301 Client' });
      assert.equal((await clients.list()).find((client) => client.clientId === created.clientId)?.name, 'Caf\u00e9 Client');
    });

    it('refuses bad values with every problem, and an unknown client', async () => {
      const { clientId } = await clients.create({ name: 'strict' });
      await assert.rejects(
        store.update(clientId, { displayName: 'two\nlines', brandColour: 'teal', supportUrl: 'http://acme.example/help' }),
        (error: unknown) =>
          error instanceof BrandingError &&
          error.problems.length === 3 &&
          /display name must be one line/.test(error.message) &&
          /hex colour/.test(error.message) &&
          /support URL must be an https URL/.test(error.message),
      );
      await assert.rejects(store.update(clientId, { displayName: 'x'.repeat(81) }), /at most 80 characters/);
      await assert.rejects(store.update(clientId, { supportUrl: 'https://user:pw@acme.example/' }), /user name or password/);
      assert.equal((await store.update(clientId, { supportUrl: 'http://127.0.0.1:3000/help' })).supportUrl, 'http://127.0.0.1:3000/help');
      await assert.rejects(store.update('00000000-0000-4000-8000-000000000000', { displayName: 'Nobody' }), BrandingClientNotFoundError);
    });
  });
}
