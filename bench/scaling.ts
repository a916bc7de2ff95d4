/**
 * `npm run bench:scaling`: the bounded runs behind docs/scaling.md, on PostgreSQL (DATABASE_URL; a fresh database
 * per part, dropped afterwards) with the sandbox bank as a process of its own, as a real bank would be.
 *
 * 1. roles      payer-less journeys driven to completion by 1 process doing everything, then by N API processes
 *               (PROCESS_ROLE=api) and M worker processes (PROCESS_ROLE=worker) on the same database.
 * 2. backlog    SCALING_BACKLOG (100,000) due bank-status jobs behind a slow bank (every status call delayed
 *               SCALING_BANK_DELAY_MS), drained by M worker processes; drained per second, queue depth and age,
 *               for at most SCALING_DRAIN_SECONDS. SCALING_BACKLOG_REAL (2,000) of them are real journeys
 *               created through the API; the rest are copies of those made in the database (see `copyPayments`).
 * 3. storm      journeys whose webhooks go to 10 receivers of which 2 always answer 500: lag of the healthy
 *               receivers' deliveries, the due queue while it lasts, and whether every payment's events reached
 *               the healthy receivers in order.
 *
 * Everything listens on loopback; every part is bounded in count and time. SCALING_QUICK=1 shrinks every part.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../src/storage/schema.js';
import { parseDatabaseUrl } from '../src/config/config.js';
import { openDatabase, type DatabaseHandle } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import { ClientService } from '../src/auth/clients.js';
import { flowTokenContext } from '../src/crypto/sealing-contexts.js';
import { freePort } from '../test/helpers/test-app.js';
import { createTestPki, startReceiver } from '../test/webhooks/https-receiver.js';
import { TEST_SECRET_KEYS, testSecretBox } from '../test/helpers/secret-keys.js';
import { hansaProviderId, payerlessJourneyRequest, percentile, sleep, startChild, withFreshPostgres, type Child } from './shared.js';

const QUICK = process.env.SCALING_QUICK === '1';
const ADMIN_URL = process.env.DATABASE_URL;
if (ADMIN_URL?.startsWith('postgres') !== true) throw new Error('bench/scaling.ts needs DATABASE_URL=postgres://…');
const JOURNEYS = Number(process.env.SCALING_JOURNEYS ?? (QUICK ? 100 : 1_000));
const API_PROCESSES = Number(process.env.SCALING_API ?? 2);
const WORKER_PROCESSES = Number(process.env.SCALING_WORKERS ?? 2);
// Real payments waiting at the bank, each created through the API (copies of a few made in SQL did not complete:
// docs/scaling.md), so the backlog is as large as creation allows in the time.
const BACKLOG = Number(process.env.SCALING_BACKLOG ?? (QUICK ? 2_000 : 100_000));
const BACKLOG_REAL = Math.min(BACKLOG, Number(process.env.SCALING_BACKLOG_REAL ?? (QUICK ? 200 : 2_000)));
const BANK_DELAY_MS = Number(process.env.SCALING_BANK_DELAY_MS ?? 200);
const DRAIN_SECONDS = Number(process.env.SCALING_DRAIN_SECONDS ?? (QUICK ? 60 : 240));
const STORM_PAYMENTS = Number(process.env.SCALING_STORM_PAYMENTS ?? (QUICK ? 100 : 1_000));
const WORKER_CONCURRENCY = process.env.SCALING_WORKER_CONCURRENCY ?? '64';
const PARTS = new Set((process.env.SCALING_ONLY ?? 'roles,backlog,storm').split(','));
const SANDBOX_OPERATOR_TOKEN = 'scaling-run-operator-token';

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const load = (): string =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

interface Started extends Child {
  readonly url: string;
}

async function start(args: string[], env: Record<string, string>, port: number, ready: RegExp): Promise<Started> {
  return { ...(await startChild(args, env, ready)), url: `http://127.0.0.1:${port}` };
}

async function startBank(): Promise<Started> {
  const port = await freePort();
  return start(
    ['--import', 'tsx', 'src/cli/run.ts', 'sandbox-bank', '--port', String(port), '--public-url', `http://127.0.0.1:${port}`],
    { LOG_LEVEL: 'warn', SANDBOX_OPERATOR_TOKEN },
    port,
    /Sandbox bank listening/,
  );
}

async function startService(
  role: 'all' | 'api' | 'worker',
  databaseUrl: string,
  bankUrl: string,
  env: Record<string, string> = {},
): Promise<Started> {
  const port = await freePort();
  return start(
    ['--import', 'tsx', 'src/server.ts'],
    {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      METRICS_PORT: 'off',
      DATABASE_URL: databaseUrl,
      SANDBOX_BANK_URL: bankUrl,
      PROCESS_ROLE: role,
      LOG_LEVEL: 'warn',
      CREATE_DEMO_CLIENT: 'false',
      SECRET_KEYS: TEST_SECRET_KEYS,
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      BANK_STATUS_POLL_BASE_MS: '200',
      WORKER_POLL_INTERVAL_MS: '200',
      WORKER_CONCURRENCY,
      ...env,
    },
    port,
    /openpis is listening[\s\S]*Role:[^\n]*\n/,
  );
}

async function withFreshDatabase(work: (url: string, handle: DatabaseHandle) => Promise<void>): Promise<void> {
  await withFreshPostgres(ADMIN_URL ?? '', async (url) => {
    const handle = openDatabase(parseDatabaseUrl(url, []));
    try {
      await migrateToLatest(handle.db as unknown as Kysely<unknown>);
      await work(url, handle);
    } finally {
      await handle.close();
    }
  });
}

async function tokenFor(serviceUrl: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const response = await fetch(`${serviceUrl}/api/v1/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (response.status !== 200) throw new Error(`token: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Creates `count` payer-less journeys spread over the API processes, 50 at a time. */
async function createJourneys(
  apis: readonly Started[],
  tokens: readonly string[],
  providerId: string,
  count: number,
  webhookUrl?: (index: number) => string,
): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        const which = index % apis.length;
        const request = payerlessJourneyRequest(providerId, webhookUrl?.(index));
        const response = await fetch(`${apis[which]?.url}/api/v1/ob/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[which]}`, 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        const body = await response.text();
        if (response.status !== 201) throw new Error(`creation answered ${response.status}: ${body}`);
        // In creation order, so ids[index] is the payment created with `webhookUrl(index)`.
        ids[index] = (JSON.parse(body) as { paymentId: string }).paymentId;
      }
    }),
  );
  return ids;
}

async function openPayments(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('detailed_status', 'not in', ['PAYMENT_EXECUTION_COMPLETED'])
    .where('detailed_status', 'not like', '%FAILED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function completionFigures(handle: DatabaseHandle): Promise<{ completed: number; spanSeconds: number; p50: number; p99: number }> {
  const rows = await handle.db
    .selectFrom('payment_status_history')
    .select(['payment_id', 'sequence', 'detailed_status', 'created_at'])
    .execute();
  const first = new Map<string, number>();
  const done = new Map<string, number>();
  for (const row of rows) {
    if (Number(row.sequence) === 1) first.set(row.payment_id, Date.parse(row.created_at));
    if (row.detailed_status === 'PAYMENT_EXECUTION_COMPLETED') done.set(row.payment_id, Date.parse(row.created_at));
  }
  const durations = [...done].map(([id, at]) => at - (first.get(id) ?? at)).sort((a, b) => a - b);
  const spanSeconds = (Math.max(...done.values()) - Math.min(...first.values())) / 1000;
  return { completed: done.size, spanSeconds, p50: percentile(durations, 50), p99: percentile(durations, 99) };
}

async function roles(): Promise<void> {
  const bank = await startBank();
  try {
    for (const [apiCount, workerCount] of [
      [1, 0],
      [API_PROCESSES, WORKER_PROCESSES],
    ] as const) {
      await withFreshDatabase(async (url, handle) => {
        // Started one after the other: the migrations are applied once.
        const apis: Started[] = [];
        const workers: Started[] = [];
        try {
          if (workerCount === 0) apis.push(await startService('all', url, bank.url));
          else {
            for (let i = 0; i < apiCount; i += 1) apis.push(await startService('api', url, bank.url));
            for (let i = 0; i < workerCount; i += 1) workers.push(await startService('worker', url, bank.url));
          }
          const client = await new ClientService(handle.db, testSecretBox()).create({ name: 'scaling' });
          const tokens = await Promise.all(apis.map((api) => tokenFor(api.url, client)));
          const loadBefore = load();
          const started = Date.now();
          await createJourneys(apis, tokens, hansaProviderId(), JOURNEYS);
          const createdSeconds = (Date.now() - started) / 1000;
          const deadline = Date.now() + 300_000;
          while ((await openPayments(handle)) > 0 && Date.now() < deadline) await sleep(250);
          const figures = await completionFigures(handle);
          const layout = workerCount === 0 ? '1 process (API and workers)' : `${apiCount} API + ${workerCount} worker processes`;
          say(
            `| ${layout} | ${JOURNEYS} | ${createdSeconds.toFixed(1)} | ${figures.completed} | ${(figures.completed / figures.spanSeconds).toFixed(0)} | ${figures.p50} / ${figures.p99} | ${loadBefore} → ${load()} |`,
          );
        } finally {
          await Promise.all([...apis, ...workers].map((process) => process.stop()));
        }
      });
    }
  } finally {
    await bank.stop();
  }
}

/**
 * Copies of the open payments (each with its status records and jobs), `count` in all, so a backlog of 100,000
 * needs only a few thousand journeys through the API. A copy is a payment of its own: a fresh id, endToEndId and
 * flow token (sealed under its own id, as the service seals it), its jobs unclaimed. It keeps the bank's payment
 * of its original, which the bank answers for (the sandbox bank has executed it), so each copy's bank-status job
 * does what a real one does: asks the bank, records the outcome, ends.
 */
async function copyPayments(handle: DatabaseHandle, count: number): Promise<void> {
  if (count <= 0) return;
  const originals = await handle.db
    .selectFrom('payments')
    .selectAll()
    .where('detailed_status', 'not in', ['PAYMENT_EXECUTION_COMPLETED', 'PAYMENT_EXECUTION_FAILED'])
    .execute();
  if (originals.length === 0) throw new Error('no open payment to copy for the backlog');
  const history = await handle.db.selectFrom('payment_status_history').selectAll().execute();
  const jobs = await handle.db.selectFrom('jobs').selectAll().execute();
  const byKey = <T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> => {
    const grouped = new Map<string, T[]>();
    for (const row of rows) grouped.set(keyOf(row), [...(grouped.get(keyOf(row)) ?? []), row]);
    return grouped;
  };
  const historyOf = byKey(history, (record) => record.payment_id);
  const jobsOf = byKey(jobs, (job) => job.subject_id);
  const box = testSecretBox();
  const batch = 500;
  for (let from = 0; from < count; from += batch) {
    const payments: Insertable<Database['payments']>[] = [];
    const records: (typeof history)[number][] = [];
    const copiedJobs: (typeof jobs)[number][] = [];
    for (let i = from; i < Math.min(count, from + batch); i += 1) {
      const original = originals[i % originals.length];
      if (original === undefined) continue;
      const id = randomUUID();
      payments.push({
        ...original,
        id,
        end_to_end_id: `copy-${i}`,
        flow_token_hash: randomUUID(),
        flow_token_sealed: box.seal(randomUUID(), flowTokenContext(id)),
        amount_scaled: original.amount_scaled === null ? null : Number(original.amount_scaled),
      });
      for (const record of historyOf.get(original.id) ?? []) records.push({ ...record, id: randomUUID(), payment_id: id });
      for (const job of jobsOf.get(original.id) ?? [])
        copiedJobs.push({ ...job, id: randomUUID(), subject_id: id, locked_by: null, locked_until: null });
    }
    await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('payments').values(payments).execute();
      await trx.insertInto('payment_status_history').values(records).execute();
      if (copiedJobs.length > 0) await trx.insertInto('jobs').values(copiedJobs).execute();
    });
  }
}

/** Delays every payment-status call of the Hansa sandbox bank. */
async function slowBank(bankUrl: string, delayMs: number): Promise<void> {
  const response = await fetch(`${bankUrl}/hansa/sandbox/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ operations: ['getPaymentStatus'], fault: { kind: 'delay', delayMs } }),
  });
  if (response.status !== 201) throw new Error(`fault injection answered ${response.status}: ${await response.text()}`);
}

async function backlog(): Promise<void> {
  const bank = await startBank();
  try {
    await withFreshDatabase(async (url, handle) => {
      // Real payments waiting at the bank: created by an API-only process, so no worker polls them yet.
      const api = await startService('api', url, bank.url);
      const client = await new ClientService(handle.db, testSecretBox()).create({ name: 'backlog' });
      try {
        await createJourneys([api], [await tokenFor(api.url, client)], hansaProviderId(), BACKLOG_REAL);
      } finally {
        await api.stop();
      }
      const copiedAt = Date.now();
      await copyPayments(handle, BACKLOG - BACKLOG_REAL);
      say(
        `(backlog: ${BACKLOG_REAL} journeys created through the API, ${BACKLOG - BACKLOG_REAL} copies of them made in ${((Date.now() - copiedAt) / 1000).toFixed(0)} s)`,
      );
      const db = handle.db as unknown as Kysely<unknown>;
      await sql`UPDATE jobs SET run_at = ${new Date().toISOString()} WHERE kind = 'bank-status'`.execute(db);
      await sql`ANALYZE`.execute(db);
      const due = async () => {
        const row = await handle.db
          .selectFrom('jobs')
          .select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.min('run_at').as('oldest')])
          .where('kind', '=', 'bank-status')
          .where('run_at', '<=', new Date().toISOString())
          .executeTakeFirstOrThrow();
        return { due: Number(row.n), oldestAgeSeconds: row.oldest === null ? 0 : (Date.now() - Date.parse(row.oldest)) / 1000 };
      };
      const total = await handle.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('kind', '=', 'bank-status')
        .executeTakeFirstOrThrow();
      await slowBank(bank.url, BANK_DELAY_MS);
      say(
        `\nBacklog: ${Number(total.n)} bank-status jobs due, the bank answering each status call after ${BANK_DELAY_MS} ms, ${WORKER_PROCESSES} worker processes × concurrency ${WORKER_CONCURRENCY}; load ${load()}`,
      );
      say(
        '| seconds | jobs left | due | oldest due (s) | completed payments | drained/s since last | load |\n|---|---|---|---|---|---|---|',
      );
      const workers: Started[] = [];
      try {
        for (let i = 0; i < WORKER_PROCESSES; i += 1) workers.push(await startService('worker', url, bank.url));
        const started = Date.now();
        let lastLeft = Number(total.n);
        let lastAt = started;
        for (;;) {
          await sleep(QUICK ? 5_000 : 15_000);
          const left = Number(
            (
              await handle.db
                .selectFrom('jobs')
                .select((eb) => eb.fn.countAll<string>().as('n'))
                .where('kind', '=', 'bank-status')
                .executeTakeFirstOrThrow()
            ).n,
          );
          const { due: dueNow, oldestAgeSeconds } = await due();
          const completed = Number(
            (
              await handle.db
                .selectFrom('payments')
                .select((eb) => eb.fn.countAll<string>().as('n'))
                .where('detailed_status', '=', 'PAYMENT_EXECUTION_COMPLETED')
                .executeTakeFirstOrThrow()
            ).n,
          );
          const now = Date.now();
          say(
            `| ${((now - started) / 1000).toFixed(0)} | ${left} | ${dueNow} | ${oldestAgeSeconds.toFixed(0)} | ${completed} | ${((lastLeft - left) / ((now - lastAt) / 1000)).toFixed(0)} | ${load()} |`,
          );
          lastLeft = left;
          lastAt = now;
          if (left === 0 || now - started > DRAIN_SECONDS * 1000) break;
        }
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    });
  } finally {
    await bank.stop();
  }
}

async function storm(dir: string): Promise<void> {
  const pki = createTestPki();
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pki.caCertificate);
  const receiver = await startReceiver(pki);
  const RECEIVERS = 10;
  const FAILING = new Set([3, 7]);
  const received = new Map<string, number[]>();
  const healthyLatencies: number[] = [];
  let failedAnswers = 0;
  for (let r = 0; r < RECEIVERS; r += 1) {
    receiver.routes.set(`/r${r}`, (request, response) => {
      if (FAILING.has(r)) {
        failedAnswers += 1;
        response.writeHead(500).end();
        return;
      }
      response.writeHead(204).end();
      const body = JSON.parse(request.body) as { data: { paymentId: string; createdAt: string; statusId: string } };
      healthyLatencies.push(Date.now() - Date.parse(body.data.createdAt));
      const list = received.get(body.data.paymentId) ?? [];
      list.push(Date.parse(body.data.createdAt));
      received.set(body.data.paymentId, list);
    });
  }
  const bank = await startBank();
  try {
    await withFreshDatabase(async (url, handle) => {
      const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CA_FILE: caFile };
      const api = await startService('api', url, bank.url, env);
      const workers: Started[] = [];
      try {
        for (let i = 0; i < WORKER_PROCESSES; i += 1) workers.push(await startService('worker', url, bank.url, env));
        const client = await new ClientService(handle.db, testSecretBox()).create({ name: 'storm' });
        const token = await tokenFor(api.url, client);
        const lag: string[] = [];
        let sampling = true;
        const sampler = (async () => {
          const started = Date.now();
          while (sampling) {
            const row = await handle.db
              .selectFrom('webhook_events')
              .select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.min('next_attempt_at').as('oldest')])
              .where('state', '=', 'pending')
              .where('next_attempt_at', '<=', new Date().toISOString())
              .executeTakeFirstOrThrow();
            lag.push(
              `| ${((Date.now() - started) / 1000).toFixed(0)} | ${row.n} | ${row.oldest === null ? 0 : ((Date.now() - Date.parse(row.oldest)) / 1000).toFixed(1)} | ${load()} |`,
            );
            await sleep(QUICK ? 2_000 : 5_000);
          }
        })();
        const ids = await createJourneys(
          [api],
          [token],
          hansaProviderId(),
          STORM_PAYMENTS,
          (index) => `${receiver.origin}/r${index % RECEIVERS}`,
        );
        const deadline = Date.now() + 300_000;
        while ((await openPayments(handle)) > 0 && Date.now() < deadline) await sleep(250);
        // Every healthy receiver's events delivered (the failing ones keep retrying on their schedule).
        const healthyIds = ids.filter((_, index) => !FAILING.has(index % RECEIVERS));
        while (Date.now() < deadline) {
          const row = await handle.db
            .selectFrom('webhook_events')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('subject_id', 'in', healthyIds)
            .where('state', '!=', 'delivered')
            .executeTakeFirstOrThrow();
          if (Number(row.n) === 0) break;
          await sleep(250);
        }
        sampling = false;
        await sampler;
        const outOfOrder = [...received.values()].filter((times) =>
          times.some((time, index) => index > 0 && time < (times[index - 1] ?? 0)),
        ).length;
        const sorted = [...healthyLatencies].sort((a, b) => a - b);
        say(
          `\nWebhook storm: ${ids.length} journeys over ${RECEIVERS} receivers, 2 of them always answering 500; ${WORKER_PROCESSES} worker processes. ` +
            `Healthy receivers: ${sorted.length} deliveries to ${received.size} payments, status time to receiver p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted[sorted.length - 1] ?? 0} ms; ` +
            `payments whose events arrived out of order: ${outOfOrder}. Failing receivers answered 500 ${failedAnswers} times.`,
        );
        say('| seconds | due deliveries | oldest due (s) | load |\n|---|---|---|---|');
        for (const line of lag) say(line);
      } finally {
        await Promise.all([api, ...workers].map((process) => process.stop()));
      }
    });
  } finally {
    await bank.stop();
    await receiver.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'openpis-scaling-'));
try {
  say(`node ${process.version}, load average at start ${load()}`);
  if (PARTS.has('roles')) {
    say(
      `\nJourneys to COMPLETED on one PostgreSQL, sandbox bank in its own process:\n| layout | journeys | created in (s) | completed | completed/s | creation→completed p50 / p99 ms | load before → after |\n|---|---|---|---|---|---|---|`,
    );
    await roles();
  }
  if (PARTS.has('backlog')) await backlog();
  if (PARTS.has('storm')) await storm(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
