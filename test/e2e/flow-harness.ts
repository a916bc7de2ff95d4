/**
 * Shared by the payer-journey tests: the real app with its workers and the embedded sandbox bank whose test payers
 * all get a password unique to this run (so a test can prove it appears nowhere), a client, payment creation,
 * and the checks every journey ends with: the status history, and the password absent from every table, every
 * log line and every response seen.
 */
import type { Connectors } from '../../src/connectors/index.js';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { loadSandboxFixtures, type SandboxFixtures } from '@openpis/sandbox-bank';
import type { TestDatabaseKind } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { WAIT_BOUND_MS } from '../helpers/wait.js';

/** Every test payer's password in these tests: random per run, so any trace of it is ours. */
export const TEST_PASSWORD = `pw-${randomBytes(9).toString('base64url')}`;

export function fixturesWithPassword(password: string): SandboxFixtures {
  const fixtures = loadSandboxFixtures();
  return { payers: fixtures.payers.map((payer) => ({ ...payer, password })) };
}

/** Provider ids of the built-in sandbox catalogue. */
export const BANKS = {
  rheinland: '7f7bc6ab-95fd-468a-8fce-7c465d98906d',
  hansa: '495d948e-1ce8-45f5-b49a-4e988781ec0d',
  lumiere: 'fc0bb353-190d-4d4f-a624-4a1133c08dbd',
  midi: '86e87cdd-4278-441e-82a1-19200e3ff821',
  sol: '88718d92-3879-4c9e-9599-ad0553c1d494',
  italia: 'ef73abfd-e3fe-47b4-a3f6-8e651627e17a',
  lietuva: '07a864f0-2814-4a5d-b464-c5f15b5473d5',
} as const;

export interface FlowHarness {
  readonly app: TestApp;
  readonly client: TestClient;
  /** Every response body the test saw (API and pages), for the password check. */
  readonly seen: string[];
  create(
    overrides?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ paymentId: string; redirectUrl: string; status: string; body: string }>;
  history(paymentId: string): Promise<Array<{ detailedStatus: string; status: string; failureReasons: Array<{ code: string }> | null }>>;
  /** Polls the latest status until `done` says so (short intervals, bounded). */
  waitFor(paymentId: string, done: (detailedStatus: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Bank calls so far that carried the test password (embedded logins through our pages or the API). */
  passwordsHandedToBank(): number;
  /**
   * Asserts the password is in no table, no log line and no response seen; first, that a payer logged in with it
   * (else the scan proves nothing, and the test passes only when an earlier one logged in): through us to the bank
   * (counted at the connectors), or, with `loggedIn: 'at the bank'`, on the bank's own page (the test saw that).
   */
  assertPasswordNowhere(options?: { readonly loggedIn?: 'through us' | 'at the bank' }): Promise<void>;
  close(): Promise<void>;
}

export async function startFlowHarness(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: { readonly wrapConnectors?: (connectors: Connectors) => Connectors } = {},
): Promise<FlowHarness> {
  let passwordsHandedToBank = 0;
  const countPasswords = (connectors: Connectors): Connectors => ({
    for: (settings, caller) => watchForPassword(connectors.for(settings, caller), () => (passwordsHandedToBank += 1)),
    close: () => connectors.close(),
  });
  const app = await startTestApp(kind, {
    env: { LOG_LEVEL: 'info', WORKER_POLL_INTERVAL_MS: '50', ...env },
    workers: true,
    sandboxFixtures: fixturesWithPassword(TEST_PASSWORD),
    wrapConnectors: (connectors) => countPasswords(options.wrapConnectors === undefined ? connectors : options.wrapConnectors(connectors)),
  });
  const client = await app.createClient();
  const token = await client.token();
  const seen: string[] = [];
  const harness: FlowHarness = {
    app,
    client,
    seen,
    async create(overrides = {}, headers = {}) {
      const response = await app.request('/api/v1/ob/payments', { method: 'POST', token, json: paymentRequest(overrides), headers });
      const body = await response.text();
      seen.push(body);
      assert.equal(response.status, 201, body);
      const parsed = JSON.parse(body) as { paymentId: string; redirectUrl: string; status: string };
      return { ...parsed, body };
    },
    async history(paymentId) {
      const response = await app.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token });
      const body = await response.text();
      seen.push(body);
      assert.equal(response.status, 200, body);
      return JSON.parse(body) as Array<{ detailedStatus: string; status: string; failureReasons: Array<{ code: string }> | null }>;
    },
    async waitFor(paymentId, done, timeoutMs = WAIT_BOUND_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await app.request(`/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { token });
        const body = await response.text();
        seen.push(body);
        const latest = JSON.parse(body) as { detailedStatus: string };
        if (done(latest.detailedStatus)) return latest.detailedStatus;
        if (Date.now() > deadline) throw new Error(`payment ${paymentId} still ${latest.detailedStatus} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    passwordsHandedToBank: () => passwordsHandedToBank,
    async assertPasswordNowhere(options = {}) {
      if ((options.loggedIn ?? 'through us') === 'through us') {
        assert.ok(passwordsHandedToBank > 0, 'no payer logged in with the test password through us: the scan would prove nothing');
      }
      const db = app.database.db;
      for (const table of [
        'clients',
        'access_tokens',
        'payments',
        'payment_status_history',
        'webhook_events',
        'webhook_attempts',
        'jobs',
      ] as const) {
        const rows = await db.selectFrom(table).selectAll().execute();
        assert.ok(!JSON.stringify(rows).includes(TEST_PASSWORD), `the password is in table ${table}`);
      }
      // Any other table a later migration adds is dumped too.
      const tables =
        app.database.kind === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
          : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(db);
      for (const { name } of tables.rows) {
        const rows = await sql`select * from ${sql.table(name)}`.execute(db);
        assert.ok(!JSON.stringify(rows.rows).includes(TEST_PASSWORD), `the password is in table ${name}`);
      }
      assert.ok(app.logs.length > 0, 'logs were captured');
      assert.ok(!app.logs.some((line) => line.includes(TEST_PASSWORD)), 'the password is in the logs');
      assert.ok(!seen.some((body) => body.includes(TEST_PASSWORD)), 'the password is in a response');
    },
    close: () => app.close(),
  };
  return harness;
}

/**
 * The connector with every operation (and capability's operation) watched: `seen` is told of each call whose
 * arguments carry the test password. Nothing of the arguments is kept.
 */
function watchForPassword<T extends object>(operations: T, seen: () => void): T {
  return new Proxy(operations, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string') return value;
      if (typeof value === 'object' && value !== null && (property === 'embedded' || property === 'accountInformation'))
        return watchForPassword(value, seen);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        let text: string | undefined;
        try {
          text = JSON.stringify(args);
        } catch {
          text = undefined; // Not plain data: not a login either.
        }
        if (text?.includes(TEST_PASSWORD) === true) seen();
        return (value as (...callArgs: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The `detailedStatus` values of a history, in order. */
export function statuses(history: ReadonlyArray<{ detailedStatus: string }>): string[] {
  return history.map((record) => record.detailedStatus);
}

export const HOSTED_PREFIX = ['PROVIDER_SELECTION_REDIRECT_PENDING', 'PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING'];

/** Phases 2–5 for a bank that needs nothing more from the payer. */
export const PLAIN_TO_REGISTRATION = [
  'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING',
  'SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING',
  'SENDER_ACCOUNT_REQUIRED_CHECK_PENDING',
  'PAYMENT_REGISTRATION_PENDING',
  'PAYMENT_CONSENT_REQUIRED_CHECK_PENDING',
];

/**
 * On a Berlin Group sandbox bank's own pages (Rheinland and its like): logs in as `psuId`, approves (past the account or
 * method step a bank shows first) and confirms with the sandbox's one-time code; the bank then sends the browser back.
 */
export async function approveAtSandboxBank(page: Page, psuId: string, password: string = TEST_PASSWORD): Promise<void> {
  await page.getByLabel('User ID').fill(psuId);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page
    .getByRole('button', { name: /^(Approve|Continue)$/ })
    .first()
    .click();
  const otp = page.getByLabel('One-time code');
  if (!(await otp.isVisible()))
    await page
      .getByRole('button', { name: /^(Approve|Continue)$/ })
      .first()
      .click();
  await otp.fill('123456');
  await page.getByRole('button', { name: 'Confirm' }).click();
}
