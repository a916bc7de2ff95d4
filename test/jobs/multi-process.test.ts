/**
 * Two service processes against one PostgreSQL: 200 payments driven to completion, every status record's
 * webhook delivered once, and no job run twice. The bank is a separate sandbox-bank process, so both service
 * processes see the same bank state, as they would a real bank.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ClientService } from '../../src/auth/clients.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { testDatabaseKinds, type TestDatabase } from '../helpers/databases.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { clientToken, waitFor } from '../helpers/wait.js';
import { startSandboxBank, startService, type RunningProcess } from '../helpers/processes.js';
import { createTestPki, startReceiver, type TestReceiver } from '../webhooks/https-receiver.js';
import { testSecretBox } from '../helpers/secret-keys.js';

const postgres = (await testDatabaseKinds()).find((kind) => kind.name === 'postgres');
const PAYMENTS = 200;

/** Sums a counter's samples with the given labels from a Prometheus text exposition. */
function counter(text: string, name: string, labels: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && labels.split(',').every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe('several service processes on one PostgreSQL', { skip: postgres === undefined ? 'PostgreSQL not available' : false }, () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let bank: RunningProcess;
  let services: RunningProcess[] = [];
  let receiver: TestReceiver;
  let dir: string;

  before(async () => {
    assert.ok(postgres);
    database = await postgres.create();
    const pki = createTestPki();
    dir = mkdtempSync(join(tmpdir(), 'openpis-mp-'));
    writeFileSync(join(dir, 'ca.pem'), pki.caCertificate);
    receiver = await startReceiver(pki);
    bank = await startSandboxBank();
    const url = database.config.kind === 'postgres' ? database.config.url : '';
    const env = {
      DATABASE_URL: url,
      SANDBOX_BANK_URL: bank.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: join(dir, 'ca.pem'),
      WORKER_POLL_INTERVAL_MS: '100',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    };
    // Started one after the other: the second finds the migrations applied by the first.
    services = [await startService(env), await startService(env)];
    handle = openDatabase(database.config);
  });

  after(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await bank?.stop();
    await receiver?.close();
    await handle?.close();
    await database?.drop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it(`completes ${PAYMENTS} payments with every webhook delivered once and no job run twice`, async () => {
    receiver.routes.set('/hooks', (_request, response) => response.writeHead(204).end());
    const client = await new ClientService(handle.db, testSecretBox()).create({ name: 'multi', environment: 'sandbox' });
    const tokens = await Promise.all(services.map((service) => clientToken(service.url, client)));
    // An embedded bank with the payer's credentials in the request and a payer who needs no SCA step: the
    // flow runs in the creation request up to execution, and the workers take it from there.
    const hansa = loadCatalogue(undefined, bank.url)
      .banks('sandbox')
      .find((candidate) => candidate.name === 'Hansa Direktbank Sandbox');
    assert.ok(hansa);

    const paymentIds: string[] = [];
    for (let batch = 0; batch < PAYMENTS / 20; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const which = (batch * 20 + index) % services.length;
          const request = paymentRequest({
            provider: { id: hansa.id },
            amount: 1,
            sender: { credentials: { id: 'dave', password: 'sandbox' } },
          });
          (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}/hooks`;
          const response = await fetch(`${services[which]?.url}/api/v1/ob/payments`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens[which]}`, 'content-type': 'application/json' },
            body: JSON.stringify(request),
          });
          assert.equal(response.status, 201, await response.clone().text());
          return ((await response.json()) as { paymentId: string }).paymentId;
        }),
      );
      paymentIds.push(...created);
    }

    await waitFor(
      'every payment to complete',
      async () => {
        const rows = await handle.db.selectFrom('payments').select(['detailed_status']).execute();
        const unfinished = rows.filter((row) => row.detailed_status !== 'PAYMENT_EXECUTION_COMPLETED');
        return rows.length === PAYMENTS && unfinished.length === 0 ? true : undefined;
      },
      120_000,
    );
    await waitFor(
      'every webhook to be delivered',
      async () => {
        const pending = await handle.db.selectFrom('webhook_events').select('id').where('state', '!=', 'delivered').execute();
        return pending.length === 0 ? true : undefined;
      },
      60_000,
    );

    // One event per status record, each delivered exactly once, verified with the client's secret.
    const records = await handle.db.selectFrom('payment_status_history').select(['id', 'payment_id']).execute();
    const events = await handle.db.selectFrom('webhook_events').select(['status_record_id', 'attempts', 'id']).execute();
    assert.equal(events.length, records.length);
    assert.deepEqual(new Set(events.map((event) => event.status_record_id)), new Set(records.map((record) => record.id)));
    assert.ok(
      events.every((event) => Number(event.attempts) === 1),
      'an event was attempted more than once',
    );
    const deliveries = receiver.requests.filter((request) => request.path === '/hooks');
    assert.equal(deliveries.length, records.length);
    assert.equal(new Set(deliveries.map((request) => request.headers['webhook-id'])).size, records.length);
    const verifier = new Webhook(client.webhookSecret);
    for (const delivery of deliveries.slice(0, 20)) {
      verifier.verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      });
    }

    // Both processes did work, no job remains, and each payment's status job finished once in all.
    const metrics = await Promise.all(services.map(async (service) => (await fetch(`${service.metricsUrl}/metrics`)).text()));
    const done = metrics.map((text) => counter(text, 'openpis_jobs_finished_total', 'kind="bank-status",result="done"'));
    const attempts = metrics.map((text) => counter(text, 'openpis_webhook_attempts_total', 'outcome="delivered"'));
    assert.equal(
      done.reduce((a, b) => a + b, 0),
      PAYMENTS,
    );
    assert.equal(
      attempts.reduce((a, b) => a + b, 0),
      records.length,
    );
    assert.ok(
      attempts.every((count) => count > 0),
      `webhook work split ${attempts.join('/')}`,
    );
    assert.deepEqual(await handle.db.selectFrom('jobs').select('id').execute(), []);
  });
});
