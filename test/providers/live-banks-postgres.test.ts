/**
 * Banks changed while two service processes run on one PostgreSQL database (docs/adr/0011-banks-in-the-database.md):
 * a bank added, renamed, disabled or replaced with `openpis banks …` reaches both processes' providers list without a
 * restart, and a payment creation naming a disabled or replaced bank answers as docs/api-decisions.md ("Retired
 * provider ids") says. Each process is `src/server.ts` as the service starts, with its own bank registry; the waits
 * are bounded generously and never asserted as timing. A payment already at a bank that is then disabled still
 * finishes there.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ClientService } from '../../src/auth/clients.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startSandboxBank, startService, type RunningProcess } from '../helpers/processes.js';
import { TEST_SECRET_KEYS, testSecretBox } from '../helpers/secret-keys.js';
import { clientToken, waitFor } from '../helpers/wait.js';
import { completeBankPages } from '../connectors/helpers/psu-browser.js';
import { get, submit } from '../hosted/http-payer.js';
import { berlinGroupEntry } from './bank-entries.js';

const run = promisify(execFile);
const postgres = (await testDatabaseKinds()).find((kind) => kind.name === 'postgres');

interface ListedProvider {
  readonly id: string;
  readonly name: string;
  readonly subsidiaries?: ListedProvider[];
}

describe(
  'banks changed while two service processes run on PostgreSQL',
  { skip: postgres === undefined ? 'PostgreSQL not available' : false },
  () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let bank: RunningProcess;
    let services: RunningProcess[] = [];
    let tokens: string[] = [];
    let folder: string;
    let databaseUrl: string;

    const cli = async (...args: string[]): Promise<string> =>
      (
        await run(process.execPath, [...CLI_ARGS, ...args], {
          env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SECRET_KEYS: TEST_SECRET_KEYS },
        })
      ).stdout;
    const file = (name: string, value: unknown): string => {
      const path = join(folder, name);
      writeFileSync(path, JSON.stringify(value));
      return path;
    };
    /** Every bank (subsidiaries too) one process lists to a sandbox client. */
    const listed = async (index: number): Promise<ListedProvider[]> => {
      const response = await fetch(`${services[index]?.url}/api/v1/capabilities/providers`, {
        headers: { authorization: `Bearer ${tokens[index]}` },
      });
      assert.equal(response.status, 200);
      const providers = (await response.json()) as ListedProvider[];
      return providers.flatMap((provider) => [provider, ...(provider.subsidiaries ?? [])]);
    };
    /** Waits until every process's list satisfies `holds`. */
    const untilBoth = async (what: string, holds: (providers: ListedProvider[]) => boolean): Promise<void> => {
      for (const index of services.keys()) {
        await waitFor(`process ${index}: ${what}`, async () => (holds(await listed(index)) ? true : undefined));
      }
    };
    const create = async (index: number, providerId: string): Promise<Response> =>
      fetch(`${services[index]?.url}/api/v1/ob/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[index]}`, 'content-type': 'application/json' },
        body: JSON.stringify(paymentRequest({ provider: { id: providerId } })),
      });

    before(async () => {
      assert.ok(postgres);
      database = await postgres.create();
      assert.ok(database.config.kind === 'postgres');
      databaseUrl = database.config.url;
      folder = mkdtempSync(join(tmpdir(), 'openpis-live-banks-'));
      bank = await startSandboxBank();
      const env = {
        DATABASE_URL: databaseUrl,
        SANDBOX_BANK_URL: bank.url,
        WORKER_POLL_INTERVAL_MS: '100',
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      };
      // One after the other: the second finds the migrations and the imported catalogue of the first.
      services = [await startService(env), await startService(env)];
      handle = openDatabase(database.config);
      const client = await new ClientService(handle.db, testSecretBox()).create({ name: 'live banks', environment: 'sandbox' });
      tokens = await Promise.all(services.map((service) => clientToken(service.url, client)));
    });

    after(async () => {
      await Promise.all(services.map((service) => service.stop()));
      await bank?.stop();
      await handle?.close();
      await database?.drop();
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    });

    it('an added bank is listed by both processes, and a new name reaches both', async () => {
      const entry = berlinGroupEntry({ monogram: 'LIV', name: 'Live Added Bank' });
      const id = String(entry.id);
      for (const index of services.keys()) assert.ok(!(await listed(index)).some((provider) => provider.id === id));
      await cli('banks', 'add', file('added.json', entry));
      await untilBoth('the added bank listed', (providers) =>
        providers.some((provider) => provider.id === id && provider.name === 'Live Added Bank'),
      );
      for (const index of services.keys()) assert.equal((await create(index, id)).status, 201);

      await cli('banks', 'update', id, file('renamed.json', { ...entry, name: 'Live Renamed Bank' }));
      await untilBoth('the new name listed', (providers) =>
        providers.some((provider) => provider.id === id && provider.name === 'Live Renamed Bank'),
      );
    });

    it('a disabled bank leaves both lists, and a creation naming it answers 404 at both', async () => {
      const entry = berlinGroupEntry({ monogram: 'LIX', name: 'Live Disabled Bank' });
      const id = String(entry.id);
      await cli('banks', 'add', file('to-disable.json', entry));
      await untilBoth('the bank listed', (providers) => providers.some((provider) => provider.id === id));
      await cli('banks', 'disable', id);
      await untilBoth('the disabled bank gone', (providers) => !providers.some((provider) => provider.id === id));
      for (const index of services.keys()) {
        const response = await create(index, id);
        assert.equal(response.status, 404);
        assert.match(await response.text(), new RegExp(`Provider ${id} not found`));
      }
    });

    it('a replaced bank leaves both lists for its replacement, and a creation naming it goes to the replacement', async () => {
      const old = berlinGroupEntry({ monogram: 'LVA', name: 'Live Old Bank' });
      const successor = berlinGroupEntry({ monogram: 'LVB', name: 'Live Successor Bank' });
      const oldId = String(old.id);
      const successorId = String(successor.id);
      await cli('banks', 'add', file('old.json', old));
      await cli('banks', 'add', file('successor.json', successor));
      await untilBoth('both banks listed', (providers) =>
        [oldId, successorId].every((id) => providers.some((provider) => provider.id === id)),
      );
      await cli('banks', 'replace', oldId, successorId);
      await untilBoth(
        'the successor listed, the old bank gone',
        (providers) => providers.some((provider) => provider.id === successorId) && !providers.some((provider) => provider.id === oldId),
      );
      for (const index of services.keys()) {
        const response = await create(index, oldId);
        assert.equal(response.status, 201, await response.clone().text());
        const { paymentId } = (await response.json()) as { paymentId: string };
        const row = await handle.db.selectFrom('payments').select('provider_id').where('id', '=', paymentId).executeTakeFirstOrThrow();
        assert.equal(row.provider_id, successorId);
      }
      // A replacement that is itself disabled: the old id answers 404 too.
      await cli('banks', 'disable', successorId);
      await untilBoth('the disabled successor gone', (providers) => !providers.some((provider) => provider.id === successorId));
      for (const index of services.keys()) assert.equal((await create(index, oldId)).status, 404);
    });

    it('a payment at a bank that is then disabled still completes there', async () => {
      const entry = berlinGroupEntry({ monogram: 'LVF', name: 'Live In-flight Bank' });
      const id = String(entry.id);
      await cli('banks', 'add', file('in-flight.json', entry));
      await untilBoth('the bank listed', (providers) => providers.some((provider) => provider.id === id));
      const created = await create(0, id);
      assert.equal(created.status, 201, await created.clone().text());
      const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
      const review = await get(redirectUrl);
      const continued = await submit(redirectUrl, review.html, 'continue');
      assert.equal(continued.status, 303);

      // The payer is at the bank when the bank is disabled; the service learns of it before the payer returns.
      await cli('banks', 'disable', id);
      await untilBoth('the disabled bank gone', (providers) => !providers.some((provider) => provider.id === id));
      const atBank = await completeBankPages(new URL(continued.location ?? '', redirectUrl).href, {
        psuId: 'alice',
        password: 'sandbox',
        otp: '123456',
      });
      const callback = atBank.redirectedTo ?? '';
      assert.ok(callback.includes(`/pay/return/${paymentId}/`), callback);
      assert.equal((await get(callback)).status, 303);
      const finished = await waitFor('the payment to finish', async () => {
        const row = await handle.db.selectFrom('payments').select('detailed_status').where('id', '=', paymentId).executeTakeFirstOrThrow();
        return /_(COMPLETED|FAILED|REJECTED|CANCELLED|EXPIRED)$/.test(row.detailed_status) ? row.detailed_status : undefined;
      });
      assert.equal(finished, 'PAYMENT_EXECUTION_COMPLETED');
    });
  },
);
