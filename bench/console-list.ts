/**
 * `npm run bench:console`: the console's payment list (src/console/payments/queries.ts) on a database of a
 * million payments, on SQLite and on PostgreSQL. Seeds a fresh database of each (bench/seed-payments.ts), runs
 * ANALYZE as an operator would, then times each filter combination several times, as an operator (every client)
 * and as a member (one client), and prints a Markdown table for docs/performance.md.
 *
 *   npm run bench:console                          # both databases, 1,000,000 payments
 *   BENCH_PAYMENTS=100000 npm run bench:console    # fewer
 *   BENCH_DATABASES=sqlite npm run bench:console   # one of them
 * PostgreSQL: OPENPIS_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test); a database of its own is
 * created and dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { ClientService } from '../src/auth/clients.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { loadConfig, type DatabaseConfig } from '../src/config/config.js';
import { listPayments, type PaymentListFilters, type PaymentListPosition } from '../src/console/payments/queries.js';
import { loadCatalogue } from '../src/providers/catalogue.js';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import type { Database } from '../src/storage/schema.js';
import { TEST_SECRET_KEYS } from '../test/helpers/secret-keys.js';
import { seedPayments } from './seed-payments.js';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000);
const CLIENTS = 20;
const RUNS = 7;
const PAGE = 50;
const NEWEST = new Date('2026-11-01T00:00:00.000Z');
const POSTGRES_URL = process.env.OPENPIS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Case {
  readonly name: string;
  readonly filters: (
    clientId: string | undefined,
    sample: { paymentId: string; endToEndId: string; providerId: string },
  ) => PaymentListFilters;
  /** Pages to walk (keyset), timing the last. */
  readonly pages?: number;
}

const CASES: readonly Case[] = [
  { name: 'first page, no filter', filters: (clientId) => ({ ...(clientId === undefined ? {} : { clientId }) }) },
  { name: 'status FAILED', filters: (clientId) => ({ ...(clientId === undefined ? {} : { clientId }), statuses: ['FAILED'] }) },
  {
    name: 'detailed status + bank',
    filters: (clientId, sample) => ({
      ...(clientId === undefined ? {} : { clientId }),
      detailedStatus: 'PAYMENT_EXECUTION_COMPLETED',
      providerId: sample.providerId,
    }),
  },
  {
    name: 'one month',
    filters: (clientId) => ({
      ...(clientId === undefined ? {} : { clientId }),
      createdFrom: '2026-06-01T00:00:00.000Z',
      createdBefore: '2026-07-01T00:00:00.000Z',
    }),
  },
  {
    name: 'amount 100.00–200.00',
    filters: (clientId) => ({ ...(clientId === undefined ? {} : { clientId }), amountMin: 1_000_000, amountMax: 2_000_000 }),
  },
  {
    name: 'amount 4999.00–4999.99 (rare)',
    filters: (clientId) => ({ ...(clientId === undefined ? {} : { clientId }), amountMin: 49_990_000, amountMax: 49_999_900 }),
  },
  {
    name: 'FAILED + bank + month + amount',
    filters: (clientId, sample) => ({
      ...(clientId === undefined ? {} : { clientId }),
      statuses: ['FAILED'],
      providerId: sample.providerId,
      createdFrom: '2026-03-01T00:00:00.000Z',
      createdBefore: '2026-04-01T00:00:00.000Z',
      amountMin: 500_000,
      amountMax: 30_000_000,
    }),
  },
  {
    name: 'end-to-end id prefix search',
    filters: (clientId, sample) => ({ ...(clientId === undefined ? {} : { clientId }), search: sample.endToEndId.slice(0, 12) }),
  },
  { name: 'payment id', filters: (clientId, sample) => ({ ...(clientId === undefined ? {} : { clientId }), paymentId: sample.paymentId }) },
  { name: '10th page (keyset)', filters: (clientId) => ({ ...(clientId === undefined ? {} : { clientId }) }), pages: 10 },
];

interface Timing {
  readonly median: number;
  readonly max: number;
  readonly rows: number;
}

async function time(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', filters: PaymentListFilters, pages: number): Promise<Timing> {
  const samples: number[] = [];
  let rows = 0;
  for (let run = 0; run < RUNS; run += 1) {
    let position: PaymentListPosition | undefined;
    let elapsed = 0;
    for (let pageIndex = 0; pageIndex < pages; pageIndex += 1) {
      const started = performance.now();
      const page = await listPayments(db, filters, PAGE, position, dialect);
      elapsed = performance.now() - started;
      rows = page.rows.length;
      position = page.next;
      if (position === undefined) break;
    }
    samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)] ?? 0, max: samples.at(-1) ?? 0, rows };
}

async function withDatabase<T>(kind: 'sqlite' | 'postgres', work: (config: DatabaseConfig) => Promise<T>): Promise<T> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'openpis-bench-'));
    try {
      return await work({ kind: 'sqlite', path: join(dir, 'bench.sqlite') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const name = `openpis_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return await work({ kind: 'postgres', url: url.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function benchmark(kind: 'sqlite' | 'postgres'): Promise<void> {
  await withDatabase(kind, async (config) => {
    const database = openDatabase(config);
    try {
      await migrateToLatest(database.db as unknown as Kysely<unknown>);
      const secrets = new SecretBox(loadConfig({ SECRET_KEYS: TEST_SECRET_KEYS }).secretKeys);
      const clientService = new ClientService(database.db, secrets);
      const clientIds: string[] = [];
      for (let index = 0; index < CLIENTS; index += 1) clientIds.push((await clientService.create({ name: `client ${index}` })).clientId);
      const providerIds = loadCatalogue(undefined, 'http://127.0.0.1:8080/sandbox-bank')
        .banks('sandbox')
        .map((bank) => bank.id);
      // A throw-away database: seeding need not survive a power cut, and a large cache keeps the random-order
      // index inserts in memory. The timed queries run afterwards with the database as the service opens it.
      if (kind === 'sqlite') {
        await sql`PRAGMA synchronous = OFF`.execute(database.db);
        await sql`PRAGMA cache_size = -262144`.execute(database.db);
      } else {
        await sql`SET synchronous_commit = off`.execute(database.db);
      }
      const seedStarted = performance.now();
      await seedPayments(database.db, {
        payments: PAYMENTS,
        clientIds,
        providerIds,
        newest: NEWEST,
        onProgress: (done) => {
          if (done % 100_000 === 0) process.stderr.write(`${kind}: ${done} payments seeded\n`);
        },
      });
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      if (kind === 'sqlite') {
        await sql`PRAGMA synchronous = FULL`.execute(database.db);
        await sql`PRAGMA cache_size = -2000`.execute(database.db);
      }
      await sql`ANALYZE`.execute(database.db);
      const sampleRow = await database.db
        .selectFrom('payments')
        .select(['id', 'end_to_end_id', 'provider_id', 'client_id'])
        .orderBy('created_at', 'desc')
        .limit(1)
        .offset(Math.floor(PAYMENTS / 2))
        .executeTakeFirstOrThrow();
      const sample = { paymentId: sampleRow.id, endToEndId: sampleRow.end_to_end_id, providerId: sampleRow.provider_id ?? '' };
      process.stdout.write(
        `\n### ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${PAYMENTS.toLocaleString('en')} payments, ${CLIENTS} clients (seeded in ${seedSeconds.toFixed(0)} s)\n\n`,
      );
      process.stdout.write('| Query (page of 50) | Operator: median / max ms (rows) | Member: median / max ms (rows) |\n|---|---|---|\n');
      for (const entry of CASES) {
        const operator = await time(database.db, kind, entry.filters(undefined, sample), entry.pages ?? 1);
        const member = await time(database.db, kind, entry.filters(sampleRow.client_id, sample), entry.pages ?? 1);
        const cell = (timing: Timing): string => `${timing.median.toFixed(1)} / ${timing.max.toFixed(1)} (${timing.rows})`;
        process.stdout.write(`| ${entry.name} | ${cell(operator)} | ${cell(member)} |\n`);
      }
    } finally {
      await database.close();
    }
  });
}

const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
for (const kind of ['sqlite', 'postgres'] as const) {
  if (databases.includes(kind)) await benchmark(kind);
}
