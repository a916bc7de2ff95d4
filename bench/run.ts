/**
 * `npm run bench`: payment creation and latest-status reads, ours against a bare Fastify server doing the same
 * database work, with autocannon at 50 connections. SQLite always; PostgreSQL too when DATABASE_URL points
 * there. The servers run as child processes so the load generator does not share their event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../test/helpers/test-app.js';
import { paymentRequest } from '../test/helpers/payment-requests.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function startProcess(script: string, env: Record<string, string>, readyPattern: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (readyPattern.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
}

async function load(options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
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

async function createPayments(url: string, headers: Record<string, string>, count: number, idField: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(paymentRequest()) });
    ids.push(((await response.json()) as Record<string, string>)[idField] ?? '');
  }
  return ids;
}

function readRequests(pathOf: (id: string) => string, ids: string[], headers: Record<string, string>): autocannon.Options['requests'] {
  let next = 0;
  return [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: pathOf(ids[(next += 1) % ids.length] ?? '') }) }];
}

async function benchDatabase(name: string, databaseUrl: string): Promise<void> {
  const ourPort = await freePort();
  const ours = await startProcess('src/server.ts', { PORT: String(ourPort), DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', CREATE_DEMO_CLIENT: 'true', RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' }, /clientSecret:\s+\S+/);
  const clientId = /clientId:\s+(\S+)/.exec(ours.output())?.[1] ?? '';
  const clientSecret = /clientSecret:\s+(\S+)/.exec(ours.output())?.[1] ?? '';
  const base = `http://127.0.0.1:${ourPort}`;
  const tokenResponse = await fetch(`${base}/api/v1/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
  const auth = { authorization: `Bearer ${token}` };

  const ourCreate = await load({ url: base, requests: creationRequests('/api/v1/ob/payments', auth) });
  const ourIds = await createPayments(`${base}/api/v1/ob/payments`, auth, 200, 'paymentId');
  const ourRead = await load({ url: base, requests: readRequests((id) => `/api/v1/archive/payment-statuses/latest?paymentId=${id}`, ourIds, auth) });
  ours.child.kill('SIGTERM');

  const barePort = await freePort();
  const bareDatabaseUrl = databaseUrl.startsWith('sqlite:') ? `${databaseUrl}-bare` : databaseUrl;
  const bare = await startProcess('bench/bare-server.ts', { PORT: String(barePort), DATABASE_URL: bareDatabaseUrl }, /ready/);
  const bareBase = `http://127.0.0.1:${barePort}`;
  const bareCreate = await load({ url: bareBase, requests: creationRequests('/payments', {}) });
  const bareIds = await createPayments(`${bareBase}/payments`, {}, 200, 'paymentId');
  const bareRead = await load({ url: bareBase, requests: readRequests((id) => `/latest?paymentId=${id}`, bareIds, {}) });
  bare.child.kill('SIGTERM');

  const row = (label: string, our: Figures, baseline: Figures) =>
    `| ${name} | ${label} | ${our.requestsPerSecond.toFixed(0)} | ${our.p50} / ${our.p99} | ${baseline.requestsPerSecond.toFixed(0)} | ${baseline.p50} / ${baseline.p99} | ${(our.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} | ${our.non2xx} |`;
  process.stdout.write(`${row('create payment', ourCreate, bareCreate)}\n${row('latest status', ourRead, bareRead)}\n`);
}

process.stdout.write(`${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, node ${process.version}\n\n`);
process.stdout.write('| database | operation | ours req/s | ours p50 / p99 ms | bare req/s | bare p50 / p99 ms | ours ÷ bare | ours non-2xx |\n|---|---|---|---|---|---|---|---|\n');

const dir = mkdtempSync(join(tmpdir(), 'openpis-bench-'));
try {
  await benchDatabase('SQLite', `sqlite:${join(dir, 'bench.sqlite')}`);
  const postgresUrl = process.env.DATABASE_URL;
  if (postgresUrl?.startsWith('postgres')) {
    // A fresh database for the run; the bare server adds its own client row beside ours.
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const name = `openpis_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    try {
      await benchDatabase('PostgreSQL', url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
