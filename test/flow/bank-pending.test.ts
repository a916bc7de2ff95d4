/**
 * Which payments count as pending at the bank, and past the alert age: the query the gauge reads on every scrape
 * must say what the in-memory test the jobs use says, on both databases.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { BankPendingReport, isPendingAtBank } from '../../src/flow/bank-pending.js';
import type { DetailedStatus } from '../../src/domain/detailed-status.js';
import { paymentFromRow } from '../../src/flow/payment-rows.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { PaymentsTable } from '../../src/storage/schema.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { storedPaymentRow } from '../helpers/payment-rows.js';
import { testSecretBox } from '../helpers/secret-keys.js';

const secrets = testSecretBox();

const NOW = new Date('2026-11-21T12:00:00.000Z');
const ALERT_AFTER_SECONDS = 3600;
const ago = (seconds: number): string => new Date(NOW.getTime() - seconds * 1000).toISOString();

interface Variant {
  readonly name: string;
  readonly status: DetailedStatus;
  readonly createdSecondsAgo: number;
  /** The flow deadline, in seconds from NOW (negative: passed). */
  readonly deadlineIn: number;
  readonly bankHoldsIt: boolean;
  readonly overdue: boolean;
  readonly pending: boolean;
}

const VARIANTS: readonly Variant[] = [
  {
    name: 'executing for 2 h',
    status: 'PAYMENT_EXECUTION_PENDING',
    createdSecondsAgo: 7200,
    deadlineIn: -6300,
    bankHoldsIt: true,
    pending: true,
    overdue: true,
  },
  {
    name: 'executing for 10 min',
    status: 'PAYMENT_EXECUTION_PENDING',
    createdSecondsAgo: 600,
    deadlineIn: 300,
    bankHoldsIt: true,
    pending: true,
    overdue: false,
  },
  {
    name: 'bank answer open past the deadline, 3 h',
    status: 'PAYMENT_CONSENT_CALLBACK_PROCESSING_PENDING',
    createdSecondsAgo: 10_800,
    deadlineIn: -9900,
    bankHoldsIt: true,
    pending: true,
    overdue: true,
  },
  {
    name: 'payer at the bank, deadline not passed',
    status: 'PAYMENT_CONSENT_REDIRECT_PENDING',
    createdSecondsAgo: 7200,
    deadlineIn: 60,
    bankHoldsIt: true,
    pending: false,
    overdue: false,
  },
  {
    name: 'never reached the bank, past the deadline',
    status: 'PAYMENT_REGISTRATION_PENDING',
    createdSecondsAgo: 7200,
    deadlineIn: -6300,
    bankHoldsIt: false,
    pending: false,
    overdue: false,
  },
  {
    name: 'completed',
    status: 'PAYMENT_EXECUTION_COMPLETED',
    createdSecondsAgo: 86_400,
    deadlineIn: -85_500,
    bankHoldsIt: true,
    pending: false,
    overdue: false,
  },
  {
    name: 'failed at execution',
    status: 'PAYMENT_EXECUTION_FAILED',
    createdSecondsAgo: 86_400,
    deadlineIn: -85_500,
    bankHoldsIt: true,
    pending: false,
    overdue: false,
  },
];

function row(clientId: string, variant: Variant): PaymentsTable {
  const id = randomUUID();
  return storedPaymentRow(clientId, ago(0), {
    id,
    provider_payment_id: variant.bankHoldsIt ? `bank-${id}` : null,
    detailed_status: variant.status,
    created_at: ago(variant.createdSecondsAgo),
    flow_expires_at: new Date(NOW.getTime() + variant.deadlineIn * 1000).toISOString(),
  });
}

for (const kind of await testDatabaseKinds()) {
  describe(`payments pending at the bank [${kind.name}]`, () => {
    let testDatabase: TestDatabase;
    let database: DatabaseHandle;
    const rows: Array<{ variant: Variant; row: PaymentsTable }> = [];

    before(async () => {
      testDatabase = await kind.create();
      database = openDatabase(testDatabase.config);
      await migrateToLatest(database.db as unknown as Kysely<unknown>);
      const { clientId } = await new ClientService(database.db, secrets).create({ name: 'pending' });
      for (const variant of VARIANTS) rows.push({ variant, row: row(clientId, variant) });
      await database.db
        .insertInto('payments')
        .values(rows.map((entry) => entry.row))
        .execute();
    });
    after(async () => {
      await database?.close();
      await testDatabase?.drop();
    });

    it('the in-memory test: bank holds it, not final, execution reached or the flow deadline passed', () => {
      for (const { variant, row: stored } of rows) {
        assert.equal(isPendingAtBank(paymentFromRow(stored, secrets), NOW), variant.pending, variant.name);
      }
    });

    it('the gauge query counts the same payments past the alert age, and finds the oldest pending one', async () => {
      const report = await new BankPendingReport(database.db, ALERT_AFTER_SECONDS, () => NOW).overdue();
      assert.equal(report.overdue, VARIANTS.filter((variant) => variant.overdue).length);
      assert.equal(report.oldestCreatedAt, ago(10_800));
    });
  });
}
