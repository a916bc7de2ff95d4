/**
 * Seeds a database with many payments for the console list benchmark (`npm run bench:console`): multi-row inserts
 * of 500 rows, each batch in one transaction, spread over `clients` clients, the past year, the sandbox catalogue's
 * banks, amounts from 0.01 to 5000.00 EUR, and statuses in the proportions of a pay-by-bank checkout (mostly
 * completed, a fifth failed, some pending). Rows carry what the list reads; the flow token is a placeholder (the
 * list never opens it) and no status history is written (the list does not read it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { DETAILED_STATUSES, topLevelStatus, type DetailedStatus } from '../src/domain/detailed-status.js';
import { scaledAmount } from '../src/domain/money.js';
import type { Database } from '../src/storage/schema.js';

export interface SeedOptions {
  readonly payments: number;
  readonly clientIds: readonly string[];
  readonly providerIds: readonly string[];
  /** The newest payment's time; the oldest is a year before. */
  readonly newest: Date;
  /** The same seed gives the same clients, banks, times, amounts and statuses (ids are random). */
  readonly seed?: number;
  readonly onProgress?: (done: number) => void;
}

/** Rows per INSERT statement (30 columns: within both databases' parameter limits). */
const BATCH = 500;
/** Rows per transaction: commits (and SQLite's fsyncs) are the cost, not statements. */
const TRANSACTION = 20 * BATCH;
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const FAILED = DETAILED_STATUSES.filter((status) => topLevelStatus(status) === 'FAILED');
const PENDING = DETAILED_STATUSES.filter((status) => topLevelStatus(status) === 'PENDING');

/** A small, fast, seedable generator (mulberry32): the seed decides every row. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedPayments(db: Kysely<Database>, options: SeedOptions): Promise<void> {
  const next = random(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const recipient = JSON.stringify({ name: 'Acme GmbH', account: { number: { type: 'IBAN', value: 'DE89370400440532013000' } } });
  const remittance = JSON.stringify({ type: 'UNSTRUCTURED', value: 'Invoice' });
  for (let chunk = 0; chunk < options.payments; chunk += TRANSACTION) {
    await db.transaction().execute(async (trx) => {
      for (let start = chunk; start < Math.min(chunk + TRANSACTION, options.payments); start += BATCH) {
        await trx
          .insertInto('payments')
          .values(batchRows(start, Math.min(start + BATCH, options.payments)))
          .execute();
      }
    });
    options.onProgress?.(Math.min(chunk + TRANSACTION, options.payments));
  }

  function batchRows(from: number, to: number): Insertable<Database['payments']>[] {
    const rows: Insertable<Database['payments']>[] = [];
    for (let index = from; index < to; index += 1) {
      const roll = next();
      const status: DetailedStatus = roll < 0.72 ? 'PAYMENT_EXECUTION_COMPLETED' : roll < 0.92 ? pick(FAILED) : pick(PENDING);
      const created = new Date(options.newest.getTime() - Math.floor(next() * YEAR_MS)).toISOString();
      const amount = `${Math.floor(next() * 5000)}.${String(Math.floor(next() * 100)).padStart(2, '0')}`;
      const positive = amount === '0.00' ? '0.01' : amount;
      const id = randomUUID();
      rows.push({
        id,
        client_id: pick(options.clientIds),
        environment: 'sandbox' as const,
        end_to_end_id: `order-${String(index).padStart(8, '0')}`,
        mode: 'hosted' as const,
        provider_id: pick(options.providerIds),
        provider_preferences: null,
        payment_scheme: 'SEPA' as const,
        scheme_mode: null,
        fee_paid_by: null,
        amount: positive,
        amount_scaled: scaledAmount(positive) ?? null,
        currency: 'EUR',
        sender: null,
        recipient,
        remittance,
        redirect_uri: 'https://shop.example/return',
        webhook_url: null,
        psu_ip_address: '203.0.113.7',
        psu_user_agent: 'Mozilla/5.0',
        locale: null,
        flow_token_hash: randomBytes(32).toString('hex'),
        flow_token_sealed: 'seeded:not-a-token',
        provider_payment_id: `bank-${id.slice(0, 8)}`,
        detailed_status: status,
        failure_reasons: null,
        version: 1,
        created_at: created,
        updated_at: created,
        flow_expires_at: created,
        flow_state: null,
        retry_of: null,
        retry_allowed: 0,
      });
    }
    return rows;
  }
}
