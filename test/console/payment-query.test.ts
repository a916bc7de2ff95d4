/**
 * The console's payment list query against the benchmark's seed script (a few thousand payments): every filter
 * answers exactly the payments a plain filter over all rows finds, newest first, and walking the pages gives each
 * once. The same seed script fills a million payments in `npm run bench:console`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { listPayments, type PaymentListFilters, type PaymentListPosition } from '../../src/console/payments/queries.js';
import { topLevelStatus, type DetailedStatus } from '../../src/domain/detailed-status.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { seedPayments } from '../../bench/seed-payments.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { testSecretBox } from '../helpers/secret-keys.js';

const PAYMENTS = 2500;

for (const kind of await testDatabaseKinds()) {
  describe(`console payment list query (${kind.name})`, () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let clientIds: string[];
    type Row = {
      id: string;
      client_id: string;
      detailed_status: string;
      provider_id: string | null;
      created_at: string;
      amount: string;
      end_to_end_id: string;
    };
    let all: Row[];

    before(async () => {
      database = await kind.create();
      handle = openDatabase(database.config);
      await migrateToLatest(handle.db as unknown as Kysely<unknown>);
      const clients = new ClientService(handle.db, testSecretBox());
      clientIds = [
        (await clients.create({ name: 'a' })).clientId,
        (await clients.create({ name: 'b' })).clientId,
        (await clients.create({ name: 'c' })).clientId,
      ];
      await seedPayments(handle.db, {
        payments: PAYMENTS,
        clientIds,
        providerIds: ['bank-1', 'bank-2', 'bank-3'],
        newest: new Date('2026-11-01T00:00:00.000Z'),
        seed: 7,
      });
      all = await handle.db
        .selectFrom('payments')
        .select(['id', 'client_id', 'detailed_status', 'provider_id', 'created_at', 'amount', 'end_to_end_id'])
        .execute();
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    /** Every page of a filter, in order. */
    const walk = async (filters: PaymentListFilters, limit = 50): Promise<string[]> => {
      const ids: string[] = [];
      let position: PaymentListPosition | undefined;
      do {
        const page = await listPayments(handle.db, filters, limit, position, kind.name);
        ids.push(...page.rows.map((row) => row.id));
        position = page.next;
      } while (position !== undefined);
      return ids;
    };
    const expected = (keep: (row: Row) => boolean): string[] =>
      all
        .filter(keep)
        .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
        .map((row) => row.id);

    it('seeds the payments asked for, in every status group', () => {
      assert.equal(all.length, PAYMENTS);
      const groups = new Set(all.map((row) => topLevelStatus(row.detailed_status as DetailedStatus)));
      assert.deepEqual([...groups].sort(), ['COMPLETED', 'FAILED', 'PENDING']);
    });

    it('answers each filter with exactly the matching payments, newest first, each once across pages', async () => {
      const [clientA = ''] = clientIds;
      const cases: Array<[string, PaymentListFilters, (row: Row) => boolean]> = [
        ['no filter', {}, () => true],
        ['one client', { clientId: clientA }, (row) => row.client_id === clientA],
        ['failed of every client', { statuses: ['FAILED'] }, (row) => row.detailed_status.endsWith('_FAILED')],
        ['pending or failed of every client', { statuses: ['PENDING', 'FAILED'] }, (row) => !row.detailed_status.endsWith('_COMPLETED')],
        [
          'failed of a client',
          { clientId: clientA, statuses: ['FAILED'] },
          (row) => row.client_id === clientA && row.detailed_status.endsWith('_FAILED'),
        ],
        [
          'detailed status and bank',
          { detailedStatus: 'PAYMENT_EXECUTION_COMPLETED', providerId: 'bank-2' },
          (row) => row.detailed_status === 'PAYMENT_EXECUTION_COMPLETED' && row.provider_id === 'bank-2',
        ],
        [
          'a month',
          { createdFrom: '2026-06-01T00:00:00.000Z', createdBefore: '2026-07-01T00:00:00.000Z' },
          (row) => row.created_at >= '2026-06-01' && row.created_at < '2026-07-01',
        ],
        [
          'amount 100.00 to 200.00',
          { amountMin: 1_000_000, amountMax: 2_000_000 },
          (row) => Number(row.amount) >= 100 && Number(row.amount) <= 200,
        ],
        ['end-to-end prefix', { search: 'order-0000012' }, (row) => row.end_to_end_id.startsWith('order-0000012')],
      ];
      for (const [name, filters, keep] of cases) {
        const want = expected(keep);
        assert.ok(want.length > 0, `${name}: the seed gives matches`);
        assert.deepEqual(await walk(filters, 97), want, name);
      }
    });
  });
}
