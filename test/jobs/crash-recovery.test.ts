/**
 * Kill the service hard (SIGKILL) while payments are moving and webhooks are due, start it again on the same
 * database, and check that nothing was lost: every status record got its webhook and no job is stuck.
 * Runs on the embedded default (SQLite); the bank is a separate sandbox-bank process, as a real bank would be.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ClientService } from '../../src/auth/clients.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { Kysely } from 'kysely';
import { paymentRequest } from '../helpers/payment-requests.js';
import { clientToken, waitFor } from '../helpers/wait.js';
import { startSandboxBank, startService, type RunningProcess } from '../helpers/processes.js';
import { createTestPki, startReceiver, type TestReceiver } from '../webhooks/https-receiver.js';
import { testSecretBox } from '../helpers/secret-keys.js';

const PAYMENTS = 30;

describe('crash recovery', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let bank: RunningProcess;
  let receiver: TestReceiver;
  const services: RunningProcess[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openpis-crash-'));
    const pki = createTestPki();
    writeFileSync(join(dir, 'ca.pem'), pki.caCertificate);
    receiver = await startReceiver(pki);
    bank = await startSandboxBank();
  });

  after(async () => {
    await Promise.all(services.map((service) => service.stop('SIGKILL')));
    await bank?.stop();
    await receiver?.close();
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no webhook and leaves no job stuck when the process is killed mid-flight', async () => {
    const databaseUrl = `sqlite:${join(dir, 'openpis.sqlite')}`;
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'openpis.sqlite') });
    await migrateToLatest(handle.db as unknown as Kysely<unknown>);
    const client = await new ClientService(handle.db, testSecretBox()).create({ name: 'crash', environment: 'sandbox' });
    // A slow receiver keeps deliveries due and in flight when the process dies.
    receiver.routes.set('/hooks', (_request, response) => setTimeout(() => response.writeHead(200).end(), 150));
    const env = {
      DATABASE_URL: databaseUrl,
      SANDBOX_BANK_URL: bank.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: join(dir, 'ca.pem'),
      WEBHOOK_TIMEOUT_MS: '1000',
      WORKER_POLL_INTERVAL_MS: '50',
      WORKER_CONCURRENCY: '2',
      // Claims of the killed process lapse after 2 s, so the restarted one takes them over quickly.
      WORKER_LEASE_MS: '2000',
    };
    const first = await startService(env);
    services.push(first);
    const token = await clientToken(first.url, client);
    const hansa = loadCatalogue(undefined, bank.url)
      .banks('sandbox')
      .find((candidate) => candidate.name === 'Hansa Direktbank Sandbox');
    assert.ok(hansa);

    await Promise.all(
      Array.from({ length: PAYMENTS }, async () => {
        const request = paymentRequest({
          provider: { id: hansa.id },
          amount: 2.5,
          sender: { credentials: { id: 'dave', password: 'sandbox' } },
        });
        (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}/hooks`;
        const response = await fetch(`${first.url}/api/v1/ob/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        assert.equal(response.status, 201);
      }),
    );
    // Let some deliveries happen, then pull the plug while others are due or in flight.
    await waitFor('the first deliveries', async () => (receiver.requests.length >= 5 ? true : undefined));
    await first.stop('SIGKILL');
    const atCrash = await handle.db.selectFrom('webhook_events').select(['state', 'locked_by']).execute();
    const dueAtCrash = atCrash.filter((event) => event.state === 'pending').length;
    assert.ok(dueAtCrash > 0, 'the crash should leave webhooks due');

    const second = await startService(env);
    services.push(second);
    await waitFor(
      'every payment to finish and every webhook to go out',
      async () => {
        const unfinished = await handle.db
          .selectFrom('payments')
          .select('id')
          .where('detailed_status', '!=', 'PAYMENT_EXECUTION_COMPLETED')
          .execute();
        const undelivered = await handle.db.selectFrom('webhook_events').select('id').where('state', '!=', 'delivered').execute();
        return unfinished.length === 0 && undelivered.length === 0 ? true : undefined;
      },
      60_000,
    );

    const records = await handle.db.selectFrom('payment_status_history').select('id').execute();
    const events = await handle.db.selectFrom('webhook_events').select(['id', 'status_record_id', 'locked_by']).execute();
    assert.deepEqual(new Set(events.map((event) => event.status_record_id)), new Set(records.map((record) => record.id)));
    // At least once: every event reached the receiver (an attempt cut off by the kill may arrive twice).
    const receivedIds = new Set(receiver.requests.map((request) => String(request.headers['webhook-id'])));
    for (const event of events) assert.ok(receivedIds.has(event.id), `event ${event.id} never arrived`);
    // Nothing stuck: no job left, no claim left behind.
    assert.deepEqual(await handle.db.selectFrom('jobs').select('id').execute(), []);
    assert.ok(events.every((event) => event.locked_by === null));
  });

  it('on SIGTERM finishes the delivery in flight before it exits', async () => {
    const path = join(dir, 'graceful.sqlite');
    const graceful = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(graceful.db as unknown as Kysely<unknown>);
    const client = await new ClientService(graceful.db, testSecretBox()).create({ name: 'graceful', environment: 'sandbox' });
    let started = 0;
    receiver.routes.set('/slow', (_request, response) => {
      started += 1;
      setTimeout(() => response.writeHead(200).end(), 1500);
    });
    const service = await startService({
      DATABASE_URL: `sqlite:${path}`,
      SANDBOX_BANK_URL: bank.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: join(dir, 'ca.pem'),
      WORKER_POLL_INTERVAL_MS: '20',
    });
    services.push(service);
    try {
      const request = paymentRequest();
      (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}/slow`;
      const response = await fetch(`${service.url}/api/v1/ob/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await clientToken(service.url, client)}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      assert.equal(response.status, 201);
      await waitFor('the delivery to start', async () => (started > 0 ? true : undefined));
      await service.stop('SIGTERM');
      // The process waited for the receiver's answer and recorded it before exiting.
      const [event] = await graceful.db.selectFrom('webhook_events').select(['state', 'locked_by', 'attempts']).execute();
      assert.deepEqual({ ...event, attempts: Number(event?.attempts) }, { state: 'delivered', locked_by: null, attempts: 1 });
      assert.equal(service.child.exitCode, 0);
    } finally {
      await graceful.close();
    }
  });
});
