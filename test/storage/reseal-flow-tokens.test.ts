/**
 * Sealing the payer's flow tokens in place (src/storage/reseal-secrets.ts), with more payments than one page:
 * start-up seals only plain values, `openpis secrets reencrypt` also those under an older key, every value keeps
 * opening to the same token, and a second pass finds nothing left to do.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { generateSecretKeysSetting, isSealed, parseSecretKeys, SecretBox } from '../../src/crypto/secret-box.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { flowTokenContext } from '../../src/crypto/sealing-contexts.js';
import { resealStoredSecrets } from '../../src/storage/reseal-secrets.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';

const PLAIN = 1_200;
const UNDER_OLD_KEY = 1_300;

for (const kind of await testDatabaseKinds()) {
  describe(`re-sealing flow tokens page by page [${kind.name}]`, () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    const oldSetting = generateSecretKeysSetting('old');
    const oldBox = new SecretBox(parseSecretKeys(oldSetting));
    // The new key is active; the old one still opens what it sealed.
    const ring = new SecretBox(parseSecretKeys(`${generateSecretKeysSetting('new')},${oldSetting}`));
    const tokens = new Map<string, string>();

    before(async () => {
      database = await kind.create();
      handle = openDatabase(database.config);
      await migrateToLatest(handle.db as unknown as Kysely<unknown>);
      const at = '2026-01-01T00:00:00.000Z';
      await handle.db
        .insertInto('clients')
        .values({
          id: 'c1',
          name: 'c1',
          environment: 'sandbox',
          scopes: '',
          secret_hash: '',
          webhook_secret: ring.seal('whsec_x', 'clients.webhook_secret:c1'),
          created_at: at,
          updated_at: at,
          disabled_at: null,
        })
        .execute();
      const rows = Array.from({ length: PLAIN + UNDER_OLD_KEY }, (_, index) => {
        const id = `p-${String(index).padStart(5, '0')}`;
        const token = randomBytes(32).toString('base64url');
        tokens.set(id, token);
        return {
          id,
          client_id: 'c1',
          environment: 'sandbox' as const,
          end_to_end_id: id,
          mode: 'hosted' as const,
          provider_id: null,
          provider_preferences: null,
          payment_scheme: 'SEPA' as const,
          scheme_mode: null,
          fee_paid_by: null,
          amount: '1.00',
          currency: 'EUR',
          sender: null,
          recipient: '{}',
          remittance: '{}',
          redirect_uri: 'https://merchant.example/return',
          webhook_url: null,
          psu_ip_address: '192.0.2.1',
          psu_user_agent: 'test',
          locale: null,
          flow_token_hash: id,
          // The first payments plain (as migration 0004 left them), the rest sealed under the old key.
          flow_token_sealed: index < PLAIN ? token : oldBox.seal(token, flowTokenContext(id)),
          provider_payment_id: null,
          detailed_status: 'PAYMENT_EXECUTION_COMPLETED',
          failure_reasons: null,
          version: 1,
          created_at: at,
          updated_at: at,
          flow_expires_at: at,
          flow_state: null,
          retry_of: null,
          retry_allowed: 0,
          amount_scaled: 10000,
        };
      });
      for (let from = 0; from < rows.length; from += 500)
        await handle.db
          .insertInto('payments')
          .values(rows.slice(from, from + 500))
          .execute();
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    const stored = async () => handle.db.selectFrom('payments').select(['id', 'flow_token_sealed']).orderBy('id').execute();

    it('seals the plain ones at start-up and leaves those under the old key', async () => {
      const counts = await resealStoredSecrets(handle.db, ring, { onlyPlain: true });
      assert.equal(counts.flowTokens, PLAIN);
      for (const row of await stored()) {
        assert.ok(isSealed(row.flow_token_sealed), row.id);
        assert.match(row.flow_token_sealed, row.id < `p-${String(PLAIN).padStart(5, '0')}` ? /^v1\.new\./ : /^v1\.old\./);
      }
      assert.equal((await resealStoredSecrets(handle.db, ring, { onlyPlain: true })).flowTokens, 0);
    });

    it('re-encrypts the rest under the active key, every token opening to itself', async () => {
      assert.equal((await resealStoredSecrets(handle.db, ring)).flowTokens, UNDER_OLD_KEY);
      const rows = await stored();
      assert.equal(rows.length, PLAIN + UNDER_OLD_KEY);
      for (const row of rows) {
        assert.match(row.flow_token_sealed, /^v1\.new\./);
        assert.equal(ring.open(row.flow_token_sealed, flowTokenContext(row.id)), tokens.get(row.id));
      }
      assert.equal((await resealStoredSecrets(handle.db, ring)).flowTokens, 0);
    });
  });
}
