/**
 * `npm run bench`: every figure of the performance targets in one run (docs/performance.md).
 *
 * 1. ceiling   a bare Fastify "hello world": what this machine serves at all.
 * 2. api       payment creation and latest-status reads, ours against a bare Fastify server doing the same
 *              database work (bench/bare-server.ts), with autocannon; SQLite, and PostgreSQL when DATABASE_URL
 *              points there (a fresh database, dropped afterwards).
 * 3. million   the same two operations of ours on a database into which BENCH_SEED_PAYMENTS payments (1,000,000)
 *              were seeded with batched inserts, against the api part's fresh database: both servers warmed up,
 *              then BENCH_MILLION_ROUNDS (5) rounds measuring them in turn; the median ratio and every round's.
 * 4. journeys  payer-less embedded journeys (Hansa sandbox bank in the process, payer `dave`, credentials in the
 *              request) driven to PAYMENT_EXECUTION_COMPLETED on SQLite: completed per second, creation-to-
 *              completed p50/p99.
 * 5. webhooks  journeys created at BENCH_WEBHOOK_RATE (200) payments/s with a webhookUrl on a local HTTPS
 *              receiver: delivery latency from the status record's time to the receiver's answer.
 * 6. processes on PostgreSQL: creation and latest status on one API process, then on two sharing the load.
 *
 * Every run is bounded in count and time, and everything listens on loopback. BENCH_QUICK=1 shortens every part
 * (the smoke test in test/bench runs it for about a second a part); BENCH_ONLY=api,journeys picks parts
 * and BENCH_DATABASES=sqlite or postgres the databases of api and million;
 * BENCH_JSON=file also writes the figures as JSON; BENCH_PROFILE_DIR=dir runs our server with --cpu-prof.
 * The servers run as child processes, so the load generator does not share their event loop.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql, type Kysely } from 'kysely';
import { parseDatabaseUrl } from '../src/config/config.js';
import { isDetailedStatus, isFinal } from '../src/domain/detailed-status.js';
import { openDatabase, type DatabaseHandle } from '../src/storage/database.js';
import { latestEventPosition, takeEventPositions } from '../src/storage/event-counters.js';
import { freePort } from '../test/helpers/test-app.js';
import { createTestPki, startReceiver } from '../test/webhooks/https-receiver.js';
import { paymentRequest } from '../test/helpers/payment-requests.js';
import { TEST_SECRET_KEYS, testSecretBox } from '../test/helpers/secret-keys.js';
import { hansaProviderId, payerlessJourneyRequest, percentile, sleep, startChild, withFreshPostgres, type Child } from './shared.js';

const QUICK = process.env.BENCH_QUICK === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 10));
const CONNECTIONS = 50;
/** Rounds of the million part, fresh and seeded measured in turn; its figure is their median ratio. */
const MILLION_ROUNDS = Number(process.env.BENCH_MILLION_ROUNDS ?? (QUICK ? 1 : 5));
/** Seconds of load on each server of the million part before it is measured. */
const WARMUP_SECONDS = QUICK ? 1 : 3;
const SEED_PAYMENTS = Number(process.env.BENCH_SEED_PAYMENTS ?? (QUICK ? 2_000 : 1_000_000));
/** Seeding PostgreSQL is far slower on a small machine (every row through its indexes and WAL); it may be set apart. */
const SEED_PAYMENTS_POSTGRES = Number(process.env.BENCH_SEED_PAYMENTS_POSTGRES ?? SEED_PAYMENTS);
const JOURNEYS = Number(process.env.BENCH_JOURNEYS ?? (QUICK ? 20 : 3_000));
const WEBHOOK_RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? (QUICK ? 20 : 200));
const WEBHOOK_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? (QUICK ? 1 : 10));
/**
 * What the webhooks part creates at its rate: hosted payments (one status each, so a delivery per payment: the
 * target's "200 payments/s"), or with BENCH_WEBHOOK_JOURNEYS=1 whole payer-less journeys (every status of each,
 * about eight deliveries a payment; above this machine's journey capacity at 200/s they queue).
 */
const WEBHOOK_JOURNEYS = process.env.BENCH_WEBHOOK_JOURNEYS === '1';
/** The longest any part waits for background work to finish. */
const DRAIN_TIMEOUT_MS = QUICK ? 60_000 : 300_000;
const PARTS = new Set((process.env.BENCH_ONLY ?? 'ceiling,api,million,journeys,webhooks,processes').split(','));
/** Which databases the api and million parts measure: BENCH_DATABASES=postgres measures PostgreSQL on its own. */
const DATABASES = new Set((process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(','));
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** The hand measurement of issue 13 used this bank-status poll base; the default (2 s) would set the journey pace. */
const JOURNEY_ENV = { BANK_STATUS_POLL_BASE_MS: '200', WORKER_POLL_INTERVAL_MS: '100' };

interface Figures {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
}

interface Results {
  startedAt: string;
  node: string;
  cpus: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
  quick: boolean;
  secondsPerRun: number;
  ceiling?: Figures;
  api: { database: string; operation: string; ours: Figures; bare: Figures; ratio: number }[];
  /** fresh, seededFigures: the median round's figures; ratio: the median of roundRatios. */
  million: {
    database: string;
    operation: string;
    seeded: number;
    fresh: Figures;
    seededFigures: Figures;
    ratio: number;
    roundRatios: number[];
    rounds: { fresh: Figures; seeded: Figures }[];
  }[];
  journeys?: JourneyFigures;
  webhooks?: WebhookFigures;
  processes: { database: string; operation: string; one: Figures; two: Figures; ratio: number }[];
}

interface JourneyFigures {
  payments: number;
  completed: number;
  creationSeconds: number;
  firstCreatedToLastCompletedSeconds: number;
  completedPerSecond: number;
  creationToCompletedP50Ms: number;
  creationToCompletedP99Ms: number;
  unfinished: Unfinished;
  /** Our final status held against the bank's own (issue 22): journeys not final, and any that contradict the bank. */
  truth: BankTruth;
  /** CPU burners that ran beside the service (BENCH_CPU_BURNERS). */
  cpuBurners: number;
}

interface BankTruth {
  notFinal: { paymentId: string; status: string; bankStatus: string }[];
  contradicting: { paymentId: string; status: string; bankStatus: string }[];
}

interface WebhookFigures {
  paymentsPerSecond: number;
  payments: number;
  deliveries: number;
  undelivered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  kind: 'payments' | 'journeys';
  unfinished?: Unfinished;
}

const results: Results = {
  startedAt: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadAverageAtStart: loadavg(),
  quick: QUICK,
  secondsPerRun: SECONDS,
  api: [],
  million: [],
  processes: [],
};

const say = (line: string): void => void process.stdout.write(`${line}\n`);

type Started = Child;

function startProcess(script: string, env: Record<string, string>, readyPattern: RegExp, nodeArgs: string[] = []): Promise<Started> {
  return startChild([...nodeArgs, '--import', 'tsx', script], env, readyPattern);
}

interface Ours {
  readonly base: string;
  readonly process: Started;
}

/** Our service as `npm start` runs it (rate limits out of the way, warnings only in the log). */
async function startOurs(databaseUrl: string, env: Record<string, string> = {}): Promise<Ours> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startProcess(
    'src/server.ts',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: base,
      METRICS_PORT: 'off',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      CREATE_DEMO_CLIENT: 'true',
      SECRET_KEYS: TEST_SECRET_KEYS,
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      ...env,
    },
    /openpis is listening[^\n]*\n[\s\S]*Role:[^\n]*\n/,
    PROFILE_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`],
  );
  return { base, process: started };
}

/** The demo client's token, from the credentials a fresh database's first start prints. */
async function demoToken(ours: Ours): Promise<{ clientId: string; authorization: Record<string, string> }> {
  const clientId = /clientId:\s+(\S+)/.exec(ours.process.output())?.[1] ?? '';
  const clientSecret = /clientSecret:\s+(\S+)/.exec(ours.process.output())?.[1] ?? '';
  const response = await fetch(`${ours.base}/api/v1/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (response.status !== 200) throw new Error(`token request failed with ${response.status}: ${await response.text()}`);
  const token = ((await response.json()) as { access_token: string }).access_token;
  return { clientId, authorization: { authorization: `Bearer ${token}` } };
}

async function load(options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** Two loads at once, each with half the connections; their sums. */
async function loadBoth(first: autocannon.Options, second: autocannon.Options): Promise<Figures> {
  const half = Math.max(1, Math.floor(CONNECTIONS / 2));
  const [a, b] = await Promise.all([load({ ...first, connections: half }), load({ ...second, connections: half })]);
  return {
    requestsPerSecond: a.requestsPerSecond + b.requestsPerSecond,
    requests: a.requests + b.requests,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    non2xx: a.non2xx + b.non2xx,
  };
}

function creationRequests(path: string, headers: Record<string, string>): autocannon.Options['requests'] {
  return [
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...headers },
      // A fresh endToEndId for every request, as a real client would send.
      setupRequest: (request) => ({ ...request, body: JSON.stringify(paymentRequest()) }),
    },
  ];
}

async function createPayments(url: string, headers: Record<string, string>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(paymentRequest()),
    });
    ids.push(((await response.json()) as { paymentId: string }).paymentId);
  }
  return ids;
}

function readRequests(pathOf: (id: string) => string, ids: string[], headers: Record<string, string>): autocannon.Options['requests'] {
  let next = 0;
  return [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: pathOf(ids[(next += 1) % ids.length] ?? '') }) }];
}

const figuresCell = (figures: Figures): string => `${figures.requestsPerSecond.toFixed(0)} | ${figures.p50} / ${figures.p99}`;

async function ceiling(): Promise<void> {
  const port = await freePort();
  const bare = await startProcess('bench/bare-server.ts', { PORT: String(port), HELLO_ONLY: 'true' }, /ready/);
  try {
    results.ceiling = await load({ url: `http://127.0.0.1:${port}/hello` });
  } finally {
    await bare.stop();
  }
  say(
    `\nBare Fastify "hello world" (the machine's ceiling): ${results.ceiling.requestsPerSecond.toFixed(0)} req/s, p50 / p99 ${results.ceiling.p50} / ${results.ceiling.p99} ms`,
  );
}

/** Creation and latest status, ours against bare; answers the demo client's token on our database. */
async function api(name: string, databaseUrl: string, bareDatabaseUrl: string): Promise<Record<string, string>> {
  const ours = await startOurs(databaseUrl);
  const { authorization } = await demoToken(ours);
  let ourCreate: Figures;
  let ourRead: Figures;
  try {
    ourCreate = await load({ url: ours.base, requests: creationRequests('/api/v1/ob/payments', authorization) });
    const ourIds = await createPayments(`${ours.base}/api/v1/ob/payments`, authorization, 200);
    ourRead = await load({
      url: ours.base,
      requests: readRequests((id) => `/api/v1/archive/payment-statuses/latest?paymentId=${id}`, ourIds, authorization),
    });
  } finally {
    await ours.process.stop();
  }

  const barePort = await freePort();
  const bare = await startProcess('bench/bare-server.ts', { PORT: String(barePort), DATABASE_URL: bareDatabaseUrl }, /ready/);
  const bareBase = `http://127.0.0.1:${barePort}`;
  let bareCreate: Figures;
  let bareRead: Figures;
  try {
    bareCreate = await load({ url: bareBase, requests: creationRequests('/payments', {}) });
    const bareIds = await createPayments(`${bareBase}/payments`, {}, 200);
    bareRead = await load({ url: bareBase, requests: readRequests((id) => `/latest?paymentId=${id}`, bareIds, {}) });
  } finally {
    await bare.stop();
  }
  results.api.push({
    database: name,
    operation: 'create payment',
    ours: ourCreate,
    bare: bareCreate,
    ratio: ourCreate.requestsPerSecond / bareCreate.requestsPerSecond,
  });
  results.api.push({
    database: name,
    operation: 'latest status',
    ours: ourRead,
    bare: bareRead,
    ratio: ourRead.requestsPerSecond / bareRead.requestsPerSecond,
  });
  say(
    `(${name}: ${results.api
      .slice(-2)
      .map((row) => `${row.operation} ours ${figuresCell(row.ours)} bare ${figuresCell(row.bare)} ratio ${row.ratio.toFixed(2)}`)
      .join('; ')}; load ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')})`,
  );
  return authorization;
}

/** Our server on one database, with its demo client's token and payments to read. */
interface Measured {
  readonly ours: Ours;
  readonly authorization: Record<string, string>;
  readonly readIds: string[];
}

/**
 * Creation and latest status on a database of SEED_PAYMENTS seeded payments against one without them.
 *
 * Both databases get a server of their own, side by side, each warmed up first; then MILLION_ROUNDS rounds measure
 * them in turn, the order swapped every round (fresh, seeded; seeded, fresh; ...). The figure is the median of the
 * rounds' seeded ÷ fresh ratios, and every round's ratio is reported. One run of each, minutes apart, is not a
 * measurement on this machine: with no payments seeded at all, single runs gave "seeded ÷ fresh" creation ratios
 * from 1.05 to 1.42 (docs/performance.md), so a 10 % target needs the two measured under the same conditions.
 */
async function million(name: string, freshUrl: string, seededUrl: string, freshAuthorization?: Record<string, string>): Promise<void> {
  if (!PARTS.has('million')) return;
  // The seeded database gets its demo client from its server's first start; the payments are written beside it.
  const setup = await startOurs(seededUrl);
  const { clientId, authorization: seededAuthorization } = await demoToken(setup).finally(() => setup.process.stop());
  const handle = openDatabase(parseDatabaseUrl(seededUrl, []));
  const seedCount = handle.kind === 'postgres' ? SEED_PAYMENTS_POSTGRES : SEED_PAYMENTS;
  try {
    const seededAt = Date.now();
    await seedPayments(handle, clientId, seedCount);
    say(`(${name}: seeded ${seedCount} payments in ${((Date.now() - seededAt) / 1000).toFixed(1)} s)`);
    if (handle.kind === 'postgres') {
      // A database that has lived with a million payments has long been vacuumed, analysed and checkpointed; a bulk
      // load just made is not, and autovacuum and the checkpoint of its WAL would otherwise run during the
      // measurement.
      await sql`VACUUM ANALYZE`.execute(handle.db);
      await sql`CHECKPOINT`.execute(handle.db);
    }
  } finally {
    await handle.close();
  }

  const prepare = async (url: string, authorization?: Record<string, string>): Promise<Measured> => {
    const ours = await startOurs(url);
    try {
      const token = authorization ?? (await demoToken(ours)).authorization;
      const readIds = await createPayments(`${ours.base}/api/v1/ob/payments`, token, 200);
      return { ours, authorization: token, readIds };
    } catch (error) {
      await ours.process.stop();
      throw error;
    }
  };
  // The api part's database is the fresh one (it holds only the payments of its own runs), with the token it had.
  const fresh = await prepare(freshUrl, freshAuthorization);
  let seeded: Measured | undefined;
  try {
    seeded = await prepare(seededUrl, seededAuthorization);
    const create = (side: Measured, seconds = SECONDS) =>
      load({ url: side.ours.base, duration: seconds, requests: creationRequests('/api/v1/ob/payments', side.authorization) });
    const read = (side: Measured, seconds = SECONDS) =>
      load({
        url: side.ours.base,
        duration: seconds,
        requests: readRequests((id) => `/api/v1/archive/payment-statuses/latest?paymentId=${id}`, side.readIds, side.authorization),
      });
    // Warm-up: each server's first seconds under load (compilation, caches, connection pools) are not its speed.
    for (const side of [fresh, seeded]) {
      await create(side, WARMUP_SECONDS);
      await read(side, WARMUP_SECONDS);
    }
    for (const [operation, measure] of [
      ['create payment', create],
      ['latest status', read],
    ] as const) {
      const rounds: { fresh: Figures; seeded: Figures; ratio: number }[] = [];
      for (let round = 0; round < MILLION_ROUNDS; round += 1) {
        const freshFirst = round % 2 === 0;
        const firstFigures = await measure(freshFirst ? fresh : seeded);
        const secondFigures = await measure(freshFirst ? seeded : fresh);
        const [freshFigures, seededFigures] = freshFirst ? [firstFigures, secondFigures] : [secondFigures, firstFigures];
        rounds.push({
          fresh: freshFigures,
          seeded: seededFigures,
          ratio: seededFigures.requestsPerSecond / freshFigures.requestsPerSecond,
        });
      }
      const median = medianRound(rounds);
      results.million.push({
        database: name,
        operation,
        seeded: seedCount,
        fresh: median.fresh,
        seededFigures: median.seeded,
        ratio: median.ratio,
        roundRatios: rounds.map((round) => round.ratio),
        rounds,
      });
    }
    say(
      `(${name} seeded: ${results.million
        .slice(-2)
        .map(
          (row) =>
            `${row.operation} median ratio ${row.ratio.toFixed(2)} (rounds ${row.rounds.map((round) => `${round.seeded.requestsPerSecond.toFixed(0)} ÷ ${round.fresh.requestsPerSecond.toFixed(0)}`).join(', ')})`,
        )
        .join('; ')}; load ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})`,
    );
  } finally {
    await Promise.all([fresh.ours.process.stop(), seeded?.ours.process.stop()]);
  }
}

/** The round whose ratio is the median (the lower middle one of an even count). */
function medianRound<T extends { ratio: number }>(rounds: readonly T[]): T {
  const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no rounds were measured');
  return middle;
}

/**
 * Finished payments of one client, written straight into the tables in batches (one statement per batch and
 * table): the payment, its completed status record and its feed event, as the service would have left them.
 */
async function seedPayments(handle: DatabaseHandle, clientId: string, count: number): Promise<void> {
  const db = handle.db as unknown as Kysely<unknown>;
  const batch = 50_000;
  const base = await latestEventPosition(handle.db, clientId);
  const at = '2026-01-01T00:00:00.000Z';
  // A sealed value under the active key, so start-up finds nothing to seal; seeded flows are never opened.
  const sealedFlowToken = testSecretBox().seal('seeded', 'seeded');
  const series = (from: number, to: number) =>
    handle.kind === 'postgres'
      ? sql`SELECT i FROM generate_series(${from}::int, ${to}::int) AS s(i)`
      : sql`WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to}) SELECT i FROM s`;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await handle.db.transaction().execute(async (trx) => {
      const seed = (id: string) => sql.raw(`'seed-${id}-' || CAST(i AS TEXT)`);
      await sql`
        INSERT INTO payments (id, client_id, environment, end_to_end_id, mode, provider_id, provider_preferences, payment_scheme, scheme_mode,
          fee_paid_by, amount, currency, sender, recipient, remittance, redirect_uri, webhook_url, psu_ip_address, psu_user_agent, locale,
          flow_token_hash, flow_token_sealed, provider_payment_id, detailed_status, failure_reasons, version, created_at, updated_at, flow_expires_at)
        SELECT ${seed('p')}, ${clientId}, 'sandbox', ${seed('e2e')}, 'hosted', NULL, NULL, 'SEPA', NULL, NULL, '10.50', 'EUR', NULL,
          '{"name":"Acme GmbH"}', '{"type":"UNSTRUCTURED","value":"seed"}', 'https://merchant.example/return', NULL, '203.0.113.7', 'seed', NULL,
          ${seed('flow')}, ${sealedFlowToken}, NULL, 'PAYMENT_EXECUTION_COMPLETED', NULL, 1, ${at}, ${at}, ${at}
        FROM (${series(from, to)}) AS n`.execute(trx);
      await sql`
        INSERT INTO payment_status_history (id, client_id, payment_id, sequence, detailed_status, failure_reasons, created_at)
        SELECT ${seed('s')}, ${clientId}, ${seed('p')}, 1, 'PAYMENT_EXECUTION_COMPLETED', NULL, ${at}
        FROM (${series(from, to)}) AS n`.execute(trx);
      await sql`
        INSERT INTO events (id, client_id, position, type, subject_type, subject_id, body, created_at)
        SELECT ${seed('ev')}, ${clientId}, ${base} + i, 'payment.status.updated', 'payment', ${seed('p')}, '{}', ${at}
        FROM (${series(from, to)}) AS n`.execute(trx);
    });
  }
  if (count > 0) await handle.db.transaction().execute((trx) => takeEventPositions(trx, clientId, count));
  if (handle.kind === 'postgres') await sql`ANALYZE`.execute(db);
}

async function createJourney(ours: Ours, authorization: Record<string, string>, request: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${ours.base}/api/v1/ob/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authorization },
    body: JSON.stringify(request),
  });
  const body = await response.text();
  if (response.status !== 201) throw new Error(`journey creation answered ${response.status}: ${body}`);
  return (JSON.parse(body) as { paymentId: string }).paymentId;
}

/** Waits (bounded) until none of the payments is open any more; returns how many completed. */
async function waitForFinal(handle: DatabaseHandle, paymentIds: readonly string[]): Promise<number> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const rows = await handle.db
      .selectFrom('payments')
      .select(['detailed_status'])
      .where('id', 'in', [...paymentIds])
      .execute();
    const completed = rows.filter((row) => row.detailed_status === 'PAYMENT_EXECUTION_COMPLETED').length;
    const final = rows.filter((row) => isDetailedStatus(row.detailed_status) && isFinal(row.detailed_status)).length;
    if (final >= paymentIds.length || Date.now() > deadline) return completed;
    await sleep(200);
  }
}

/**
 * What became of the journeys that did not end: how many stand at each status, and the bank calls made for them
 * that found the bank unavailable or failed (from the bank-call records, written out when the server stops). A
 * journey whose bank call got no answer within the request waits for the payer (the password is not kept), so
 * under an overloaded machine this says whether the bank's answers were late, or something else held them.
 */
async function unfinishedJourneys(handle: DatabaseHandle, paymentIds: readonly string[]): Promise<Unfinished> {
  const rows = await handle.db
    .selectFrom('payments')
    .select(['id', 'detailed_status'])
    .where('id', 'in', [...paymentIds])
    .execute();
  const open = rows.filter((row) => !(isDetailedStatus(row.detailed_status) && isFinal(row.detailed_status)));
  const byStatus: Record<string, number> = {};
  for (const row of open) byStatus[row.detailed_status] = (byStatus[row.detailed_status] ?? 0) + 1;
  const failedCalls: Record<string, number> = {};
  if (open.length > 0) {
    const calls = await handle.db
      .selectFrom('bank_calls')
      .select(['operation', 'outcome', 'latency_ms'])
      .where(
        'payment_id',
        'in',
        open.map((row) => row.id),
      )
      .where('outcome', '!=', 'ok')
      .execute();
    for (const call of calls) {
      const key = `${call.operation} ${call.outcome} (${Math.round(Number(call.latency_ms) / 1000)} s)`;
      failedCalls[key] = (failedCalls[key] ?? 0) + 1;
    }
  }
  return { open: open.length, byStatus, failedCalls };
}

interface Unfinished {
  open: number;
  byStatus: Record<string, number>;
  failedCalls: Record<string, number>;
}

function unfinishedText(unfinished: Unfinished): string {
  if (unfinished.open === 0) return 'none left open';
  return `${unfinished.open} left open (${JSON.stringify(unfinished.byStatus)}; their failed bank calls: ${JSON.stringify(unfinished.failedCalls)})`;
}

/** Busy loops beside the service (BENCH_CPU_BURNERS, default 0): a loaded machine, as live banks' answers meet it. */
const CPU_BURNERS = Number(process.env.BENCH_CPU_BURNERS ?? 0);

function startCpuBurners(count: number): () => void {
  const burners = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'const end = Date.now() + 30 * 60 * 1000; while (Date.now() < end) {}'], { stdio: 'ignore' }),
  );
  return () => {
    for (const burner of burners) burner.kill('SIGKILL');
  };
}

/**
 * Each journey's status held against the bank's own status for its payment, read from the embedded sandbox bank
 * (Hansa) while the service still runs: COMPLETED must be a settled payment (ACSC, ACCC) and anything else not.
 */
async function bankTruth(ours: Ours, handle: DatabaseHandle, paymentIds: readonly string[]): Promise<BankTruth> {
  const rows = await handle.db
    .selectFrom('payments')
    .select(['id', 'detailed_status', 'provider_payment_id'])
    .where('id', 'in', [...paymentIds])
    .execute();
  const truth: BankTruth = { notFinal: [], contradicting: [] };
  for (let index = 0; index < rows.length; index += 20) {
    await Promise.all(
      rows.slice(index, index + 20).map(async (row) => {
        let bankStatus = 'none (never registered)';
        if (row.provider_payment_id !== null) {
          const response = await fetch(
            `${ours.base}/sandbox-bank/hansa/v1/payments/sepa-credit-transfers/${encodeURIComponent(row.provider_payment_id)}/status`,
            {
              headers: { 'x-request-id': randomUUID(), accept: 'application/json' },
            },
          );
          bankStatus = response.ok
            ? String(((await response.json()) as { transactionStatus?: string }).transactionStatus)
            : `HTTP ${response.status}`;
        }
        const final = isDetailedStatus(row.detailed_status) && isFinal(row.detailed_status);
        const settled = bankStatus === 'ACSC' || bankStatus === 'ACCC';
        const entry = { paymentId: row.id, status: row.detailed_status, bankStatus };
        if (!final) truth.notFinal.push(entry);
        else if (row.detailed_status.endsWith('_COMPLETED') !== settled) truth.contradicting.push(entry);
      }),
    );
  }
  return truth;
}

function truthText(truth: BankTruth): string {
  const list = (entries: BankTruth['notFinal']): string =>
    entries
      .slice(0, 20)
      .map((entry) => `${entry.paymentId} ${entry.status} / bank ${entry.bankStatus}`)
      .join('; ');
  return (
    `${truth.notFinal.length} not final${truth.notFinal.length === 0 ? '' : ` (${list(truth.notFinal)})`}, ` +
    `${truth.contradicting.length} contradicting the bank${truth.contradicting.length === 0 ? '' : ` (${list(truth.contradicting)})`}`
  );
}

async function journeys(dir: string): Promise<void> {
  const databaseUrl = `sqlite:${join(dir, 'journeys.sqlite')}`;
  const ours = await startOurs(databaseUrl, JOURNEY_ENV);
  const handle = openDatabase(parseDatabaseUrl(databaseUrl, []));
  const stopBurners = startCpuBurners(CPU_BURNERS);
  try {
    const { authorization } = await demoToken(ours);
    const providerId = hansaProviderId();
    const ids: string[] = [];
    let next = 0;
    const createdStart = Date.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < JOURNEYS) {
          next += 1;
          ids.push(await createJourney(ours, authorization, payerlessJourneyRequest(providerId)));
        }
      }),
    );
    const creationSeconds = (Date.now() - createdStart) / 1000;
    const completed = await waitForFinal(handle, ids);
    // Times from the records themselves: the first record's time to the completed record's time.
    const rows = await handle.db
      .selectFrom('payment_status_history')
      .select(['payment_id', 'sequence', 'detailed_status', 'created_at'])
      .where('payment_id', 'in', ids)
      .execute();
    const firstAt = new Map<string, number>();
    const completedAt = new Map<string, number>();
    for (const row of rows) {
      if (Number(row.sequence) === 1) firstAt.set(row.payment_id, Date.parse(row.created_at));
      if (row.detailed_status === 'PAYMENT_EXECUTION_COMPLETED') completedAt.set(row.payment_id, Date.parse(row.created_at));
    }
    const durations = [...completedAt].map(([id, at]) => at - (firstAt.get(id) ?? at)).sort((a, b) => a - b);
    const start = Math.min(...firstAt.values());
    const end = Math.max(...completedAt.values());
    const span = (end - start) / 1000;
    stopBurners();
    const truth = await bankTruth(ours, handle, ids);
    // The bank-call records are written out as the server stops.
    await ours.process.stop();
    results.journeys = {
      payments: ids.length,
      completed,
      creationSeconds,
      firstCreatedToLastCompletedSeconds: span,
      completedPerSecond: completed / span,
      creationToCompletedP50Ms: percentile(durations, 50),
      creationToCompletedP99Ms: percentile(durations, 99),
      unfinished: await unfinishedJourneys(handle, ids),
      truth,
      cpuBurners: CPU_BURNERS,
    };
  } finally {
    stopBurners();
    await handle.close();
    await ours.process.stop();
  }
  const j = results.journeys;
  say(
    `\nJourneys to COMPLETED (SQLite, embedded Hansa bank, payer dave, credentials in the request, ${CONNECTIONS} at once, BANK_STATUS_POLL_BASE_MS=200): ` +
      `${j.completed} of ${j.payments} completed; created in ${j.creationSeconds.toFixed(1)} s; first created to last completed ${j.firstCreatedToLastCompletedSeconds.toFixed(1)} s = ` +
      `${j.completedPerSecond.toFixed(0)} completed/s; creation to completed p50 ${j.creationToCompletedP50Ms} ms, p99 ${j.creationToCompletedP99Ms} ms; ` +
      `${unfinishedText(j.unfinished)}; ${j.cpuBurners} CPU burners beside it; against the bank: ${truthText(j.truth)}`,
  );
}

async function webhooks(dir: string): Promise<void> {
  const pki = createTestPki();
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pki.caCertificate);
  const receiver = await startReceiver(pki);
  const latencies: number[] = [];
  receiver.routes.set('/hooks', (request, response) => {
    response.writeHead(204).end();
    const body = JSON.parse(request.body) as { data: { createdAt: string } };
    latencies.push(Date.now() - Date.parse(body.data.createdAt));
  });
  const databaseUrl = `sqlite:${join(dir, 'webhooks.sqlite')}`;
  const ours = await startOurs(databaseUrl, { ...JOURNEY_ENV, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CA_FILE: caFile });
  const handle = openDatabase(parseDatabaseUrl(databaseUrl, []));
  try {
    const { authorization } = await demoToken(ours);
    const providerId = hansaProviderId();
    const total = WEBHOOK_RATE * WEBHOOK_SECONDS;
    const started = Date.now();
    const creations: Promise<string>[] = [];
    // Open loop: one creation every 1/rate s, whatever the answers' pace.
    for (let i = 0; i < total; i += 1) {
      const due = started + (i * 1000) / WEBHOOK_RATE;
      if (due > Date.now()) await sleep(due - Date.now());
      const webhookUrl = `${receiver.origin}/hooks`;
      const request = WEBHOOK_JOURNEYS
        ? payerlessJourneyRequest(providerId, webhookUrl)
        : paymentRequest({ metadata: { ...(paymentRequest().metadata as object), webhookUrl } });
      creations.push(createJourney(ours, authorization, request));
    }
    const ids = await Promise.all(creations);
    if (WEBHOOK_JOURNEYS) await waitForFinal(handle, ids);
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    let pending = Number.POSITIVE_INFINITY;
    while (Date.now() < deadline) {
      const row = await handle.db
        .selectFrom('webhook_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
      pending = Number(row.n);
      if (pending === 0) break;
      await sleep(200);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    await ours.process.stop();
    results.webhooks = {
      paymentsPerSecond: WEBHOOK_RATE,
      payments: ids.length,
      deliveries: sorted.length,
      undelivered: pending,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted[sorted.length - 1] ?? 0,
      kind: WEBHOOK_JOURNEYS ? 'journeys' : 'payments',
      ...(WEBHOOK_JOURNEYS ? { unfinished: await unfinishedJourneys(handle, ids) } : {}),
    };
  } finally {
    await handle.close();
    await ours.process.stop();
    await receiver.close();
  }
  const w = results.webhooks;
  say(
    `\nWebhooks at ${w.paymentsPerSecond} ${w.kind === 'journeys' ? 'journeys (as above)' : 'hosted payments'}/s for ${WEBHOOK_SECONDS} s (HTTPS receiver on loopback): ${w.deliveries} deliveries, ${w.undelivered} undelivered; ` +
      `status record time to receiver: p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms, max ${w.maxMs} ms${w.unfinished === undefined ? '' : `; journeys: ${unfinishedText(w.unfinished)}`}`,
  );
}

/** One API process, then two on the same PostgreSQL database, sharing the same load. */
async function processes(name: string, databaseUrl: string): Promise<void> {
  // API processes apart share one stand-alone sandbox bank (an embedded one is refused with split roles).
  const bankPort = await freePort();
  const bankUrl = `http://127.0.0.1:${bankPort}`;
  const bank = await startChild(
    ['bin/openpis.mjs', 'sandbox-bank', '--port', String(bankPort), '--public-url', bankUrl],
    { LOG_LEVEL: 'warn' },
    /Sandbox bank listening/,
  );
  const first = await startOurs(databaseUrl, { PROCESS_ROLE: 'api', SANDBOX_BANK_URL: bankUrl });
  const second = await startOurs(databaseUrl, { PROCESS_ROLE: 'api', SANDBOX_BANK_URL: bankUrl });
  try {
    const { authorization } = await demoToken(first);
    const ids = await createPayments(`${first.base}/api/v1/ob/payments`, authorization, 200);
    const reads = () => readRequests((id) => `/api/v1/archive/payment-statuses/latest?paymentId=${id}`, ids, authorization);
    const oneCreate = await load({ url: first.base, requests: creationRequests('/api/v1/ob/payments', authorization) });
    const twoCreate = await loadBoth(
      { url: first.base, requests: creationRequests('/api/v1/ob/payments', authorization) },
      { url: second.base, requests: creationRequests('/api/v1/ob/payments', authorization) },
    );
    const oneRead = await load({ url: first.base, requests: reads() });
    const twoRead = await loadBoth({ url: first.base, requests: reads() }, { url: second.base, requests: reads() });
    results.processes.push({
      database: name,
      operation: 'create payment',
      one: oneCreate,
      two: twoCreate,
      ratio: twoCreate.requestsPerSecond / oneCreate.requestsPerSecond,
    });
    results.processes.push({
      database: name,
      operation: 'latest status',
      one: oneRead,
      two: twoRead,
      ratio: twoRead.requestsPerSecond / oneRead.requestsPerSecond,
    });
    say(
      `(${name} processes: ${results.processes.map((row) => `${row.operation} one ${figuresCell(row.one)} two ${figuresCell(row.two)}`).join('; ')}; load ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})`,
    );
  } finally {
    await Promise.all([first.process.stop(), second.process.stop(), bank.stop()]);
  }
}

function report(): void {
  say(
    `\n${CONNECTIONS} connections, ${SECONDS} s per run, node ${results.node}, ${results.cpus} cores, load average at start ${results.loadAverageAtStart.map((n) => n.toFixed(2)).join(' ')}, at end ${(results.loadAverageAtEnd ?? []).map((n) => n.toFixed(2)).join(' ')}`,
  );
  if (results.api.length > 0) {
    say(
      '\n| database | operation | ours req/s | ours p50 / p99 ms | bare req/s | bare p50 / p99 ms | ours ÷ bare | ours non-2xx |\n|---|---|---|---|---|---|---|---|',
    );
    for (const row of results.api)
      say(
        `| ${row.database} | ${row.operation} | ${figuresCell(row.ours)} | ${figuresCell(row.bare)} | ${row.ratio.toFixed(2)} | ${row.ours.non2xx} |`,
      );
  }
  if (results.million.length > 0) {
    say(
      '\n| database | operation | fresh req/s | fresh p50 / p99 ms | seeded payments | seeded req/s | seeded p50 / p99 ms | seeded ÷ fresh (median) | every round |\n|---|---|---|---|---|---|---|---|---|',
    );
    for (const row of results.million) {
      say(
        `| ${row.database} | ${row.operation} | ${figuresCell(row.fresh)} | ${row.seeded} | ${figuresCell(row.seededFigures)} | ${row.ratio.toFixed(2)} | ${row.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')} |`,
      );
    }
  }
  if (results.processes.length > 0) {
    say(
      '\n| database | operation | one process req/s | p50 / p99 ms | two processes req/s | p50 / p99 ms | two ÷ one |\n|---|---|---|---|---|---|---|',
    );
    for (const row of results.processes)
      say(`| ${row.database} | ${row.operation} | ${figuresCell(row.one)} | ${figuresCell(row.two)} | ${row.ratio.toFixed(2)} |`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'openpis-bench-'));
try {
  if (PARTS.has('ceiling')) await ceiling();
  const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
  if (PARTS.has('api') || PARTS.has('million')) {
    const sqlitePath = join(dir, 'bench.sqlite');
    if (DATABASES.has('sqlite')) {
      const authorization = PARTS.has('api') ? await api('SQLite', `sqlite:${sqlitePath}`, `sqlite:${sqlitePath}-bare`) : undefined;
      await million('SQLite', `sqlite:${sqlitePath}`, `sqlite:${sqlitePath}-seeded`, authorization);
    }
    if (postgresUrl !== undefined && DATABASES.has('postgres')) {
      // Ours, the bare server and the seeded database each get a database of their own, as on SQLite.
      await withFreshPostgres(postgresUrl, (ourUrl) =>
        withFreshPostgres(postgresUrl, async (bareUrl) => {
          const authorization = PARTS.has('api') ? await api('PostgreSQL', ourUrl, bareUrl) : undefined;
          await withFreshPostgres(postgresUrl, (seededUrl) => million('PostgreSQL', ourUrl, seededUrl, authorization));
        }),
      );
    }
  }
  if (PARTS.has('journeys')) await journeys(dir);
  if (PARTS.has('webhooks')) await webhooks(dir);
  if (PARTS.has('processes') && postgresUrl !== undefined) await withFreshPostgres(postgresUrl, (url) => processes('PostgreSQL', url));
  results.loadAverageAtEnd = loadavg();
  report();
  if (process.env.BENCH_JSON !== undefined) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
