/**
 * Operators' second factor apart from HTTP: a code is good within one step either side and only once, and the
 * sealed secret follows a key rotation (`openpis secrets reencrypt` re-seals it like the other secrets at rest).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { generateSecretKeysSetting, parseSecretKeys, SecretBox } from '../../src/crypto/secret-box.js';
import { ConsoleUsers } from '../../src/people/accounts.js';
import { acceptedTotpStep, newTotpSecret, totpCode } from '../../src/people/second-factor.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { resealStoredSecrets } from '../../src/storage/reseal-secrets.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';

const [sqlite] = await testDatabaseKinds();

describe('operators’ second factor', () => {
  it('accepts the code of the step before, now and after, each once; nothing older or newer', () => {
    const secret = newTotpSecret();
    const at = new Date('2026-11-24T10:00:15.000Z');
    const step = Math.floor(at.getTime() / 30_000);
    for (const offset of [-1, 0, 1])
      assert.equal(acceptedTotpStep(secret, totpCode(secret, new Date(at.getTime() + offset * 30_000)), at, null), step + offset);
    for (const offset of [-2, 2])
      assert.equal(acceptedTotpStep(secret, totpCode(secret, new Date(at.getTime() + offset * 30_000)), at, null), undefined);
    assert.equal(acceptedTotpStep(secret, totpCode(secret, at), at, step), undefined, 'used already');
    assert.equal(
      acceptedTotpStep(secret, totpCode(secret, new Date(at.getTime() - 30_000)), at, step),
      undefined,
      'older than the last used',
    );
    assert.equal(acceptedTotpStep(secret, '12345', at, null), undefined);
    assert.equal(acceptedTotpStep(secret, 'abcdef', at, null), undefined);
  });

  describe('with a database', () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    before(async () => {
      if (sqlite === undefined) throw new Error('no database');
      database = await sqlite.create();
      handle = openDatabase(database.config);
      await migrateToLatest(handle.db as unknown as Kysely<unknown>);
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    it('keeps the secret sealed, and readable after the key ring is rotated and re-sealed', async () => {
      const oldRing = generateSecretKeysSetting('old');
      const newRing = generateSecretKeysSetting('new');
      const policy = { attempts: 5, seconds: 900 };
      let clock = new Date('2026-11-24T10:00:00.000Z');
      const before = new ConsoleUsers(handle.db, new SecretBox(parseSecretKeys(oldRing)), policy, () => clock);
      const operator = await before.create({
        email: 'ops@example.com',
        name: 'Ops',
        role: 'operator',
        password: 'a long enough passphrase',
      });
      const { secret } = await before.secondFactorEnrolment(operator.id);
      const stored = await handle.db
        .selectFrom('console_users')
        .select('totp_secret_sealed')
        .where('id', '=', operator.id)
        .executeTakeFirstOrThrow();
      assert.ok(stored.totp_secret_sealed !== null && !stored.totp_secret_sealed.includes(secret));
      assert.equal((await before.confirmSecondFactor(operator.id, totpCode(secret, clock))).outcome, 'accepted');

      const counts = await resealStoredSecrets(handle.db, new SecretBox(parseSecretKeys(`${newRing},${oldRing}`)));
      assert.equal(counts.totpSecrets, 1);
      clock = new Date(clock.getTime() + 60_000);
      const after = new ConsoleUsers(handle.db, new SecretBox(parseSecretKeys(newRing)), policy, () => clock);
      assert.equal((await after.checkSecondFactor(operator.id, totpCode(secret, clock))).outcome, 'accepted');
    });
  });
});
