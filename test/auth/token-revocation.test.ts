/**
 * Verified tokens are cached in memory (src/auth/token-cache.ts), yet disabling a client or rotating its secret
 * stops its tokens at once: in the process that did it, and in another service process on the same database
 * (SQLite file or PostgreSQL). Each case first shows the cache is really used: a token row deleted behind its back
 * (no revocation announced) still authenticates, so a 401 after the revocation is the revocation's doing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { sha256Hex } from '../../src/crypto/hashes.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { startSandboxBank, startService, type RunningProcess } from '../helpers/processes.js';
import { testSecretBox } from '../helpers/secret-keys.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { clientToken } from '../helpers/wait.js';

/** An authenticated read: 404 (no such payment) with a valid token, 401 without one. */
async function statusOfRead(serviceUrl: string, token: string): Promise<number> {
  const response = await fetch(`${serviceUrl}/api/v1/archive/payment-statuses/latest?paymentId=${randomUUID()}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  return response.status;
}

/** Deletes the token's row without announcing a revocation: only a cache can still accept the token. */
async function deleteTokenRowQuietly(database: DatabaseHandle, token: string): Promise<void> {
  await database.db.deleteFrom('access_tokens').where('token_hash', '=', sha256Hex(token)).execute();
}

const REVOCATIONS = [
  { name: 'disabling the client', revoke: (clients: ClientService, clientId: string) => clients.disable(clientId) },
  {
    name: 'rotating its secret',
    revoke: (clients: ClientService, clientId: string) => clients.rotateSecret(clientId).then(() => undefined),
  },
];

for (const kind of await testDatabaseKinds()) {
  describe(`token revocation with cached verifications [${kind.name}]`, () => {
    describe('in the process that revokes', () => {
      let t: TestApp;
      before(async () => {
        t = await startTestApp(kind);
      });
      after(async () => t?.close());

      for (const { name, revoke } of REVOCATIONS) {
        it(`stops a cached token at once on ${name}`, async () => {
          const client = await t.createClient();
          const cachedToken = await client.token();
          const otherToken = await client.token();
          assert.equal(await statusOfRead(t.baseUrl, cachedToken), 404);
          await deleteTokenRowQuietly(t.database, cachedToken);
          assert.equal(await statusOfRead(t.baseUrl, cachedToken), 404, 'the verification is served from the cache');
          assert.equal(await statusOfRead(t.baseUrl, otherToken), 404);

          await revoke(t.clients, client.clientId);
          assert.equal(await statusOfRead(t.baseUrl, cachedToken), 401);
          assert.equal(await statusOfRead(t.baseUrl, otherToken), 401);
        });
      }
    });

    describe('in another process on the same database', () => {
      let database: TestDatabase;
      let handle: DatabaseHandle;
      let service: RunningProcess;
      let bank: RunningProcess;
      before(async () => {
        database = await kind.create();
        handle = openDatabase(database.config);
        await migrateToLatest(handle.db as unknown as Kysely<unknown>);
        const url = database.config.kind === 'postgres' ? database.config.url : `sqlite:${database.config.path}`;
        // An API-only process reaches a sandbox bank of its own (the embedded one is for a process of every role).
        bank = await startSandboxBank();
        service = await startService({ DATABASE_URL: url, PROCESS_ROLE: 'api', SANDBOX_BANK_URL: bank.url });
      });
      after(async () => {
        await service?.stop();
        await bank?.stop();
        await handle?.close();
        await database?.drop();
      });

      /** Gets a token from the other process and shows that process serves it from its cache. */
      async function cachedTokenOf(client: { clientId: string; clientSecret: string }): Promise<string> {
        const token = await clientToken(service.url, client);
        assert.equal(await statusOfRead(service.url, token), 404);
        await deleteTokenRowQuietly(handle, token);
        assert.equal(await statusOfRead(service.url, token), 404, 'the verification is served from the other process’s cache');
        return token;
      }

      it('stops the other process’s cached tokens at once on rotating the secret, every time', async () => {
        const clients = new ClientService(handle.db, testSecretBox());
        const client = await clients.create({ name: 'rotated elsewhere' });
        let secret = client.clientSecret;
        // Several rounds: a revocation that reached the other process late would let one of them through.
        for (let round = 1; round <= 5; round += 1) {
          const token = await cachedTokenOf({ clientId: client.clientId, clientSecret: secret });
          secret = (await clients.rotateSecret(client.clientId)).clientSecret;
          assert.equal(await statusOfRead(service.url, token), 401, `round ${round}`);
        }
      });

      it('stops the other process’s cached token at once on disabling the client', async () => {
        const clients = new ClientService(handle.db, testSecretBox());
        const client = await clients.create({ name: 'disabled elsewhere' });
        const token = await cachedTokenOf(client);
        await clients.disable(client.clientId);
        assert.equal(await statusOfRead(service.url, token), 401);
      });
    });
  });
}
