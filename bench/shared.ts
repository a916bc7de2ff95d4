/** What bench/run.ts and bench/scaling.ts share: child processes, a fresh PostgreSQL database, small helpers. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadCatalogue } from '../src/providers/catalogue.js';
import { paymentRequest } from '../test/helpers/payment-requests.js';

export interface Child {
  readonly child: ChildProcess;
  /** The start of the process's output (credentials it printed) and a tail (errors). */
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Runs `node <args>` and resolves once its output matches `ready` (at most 90 s). */
export function startChild(args: readonly string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not start:\n${output.slice(-3000)}`));
    }, 90_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.length > 200_000) output = output.slice(0, 20_000) + output.slice(-20_000);
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({
          child,
          output: () => output,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node ${args.join(' ')} exited (${code}) before it was ready:\n${output.slice(-3000)}`));
    });
  });
}

/** A fresh PostgreSQL database next to `adminUrl` for `work`, dropped afterwards. */
export async function withFreshPostgres(adminUrl: string, work: (url: string) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `openpis_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** The Hansa sandbox bank's provider id (the catalogue's ids do not depend on the bank's URL). */
export function hansaProviderId(): string {
  const hansa = loadCatalogue(undefined, 'http://127.0.0.1:1')
    .banks('sandbox')
    .find((bank) => bank.name === 'Hansa Direktbank Sandbox');
  if (hansa === undefined) throw new Error('the Hansa sandbox bank is not in the catalogue');
  return hansa.id;
}

/**
 * A payer-less embedded journey: the sandbox payer dave (who needs no one-time code) with his credentials in the
 * request. A cent each: dave holds 1,000.00 EUR in the bank of each server process, so no run of the bench meets an
 * insufficient-funds rejection (which would end journeys failed rather than completed).
 */
export function payerlessJourneyRequest(providerId: string, webhookUrl?: string): Record<string, unknown> {
  const request = paymentRequest({
    provider: { id: providerId },
    amount: 0.01,
    sender: { credentials: { id: 'dave', password: 'sandbox' } },
  });
  if (webhookUrl !== undefined) (request.metadata as Record<string, unknown>).webhookUrl = webhookUrl;
  return request;
}

/** The p-th percentile of ascending `sorted` (nearest rank); 0 when empty. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
