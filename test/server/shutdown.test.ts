/**
 * Shutdown is bounded whatever is in flight and wherever the output goes: the service is started as `npm start`
 * runs it, its output's reader goes away, and SIGTERM must end the process within SHUTDOWN_TIMEOUT_MS. The test
 * timeouts are the bound (plus a generous start-up margin for a loaded machine), not timing assertions.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { ClientService } from '../../src/auth/clients.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { testSecretBox } from '../helpers/secret-keys.js';
import { paymentRequest } from '../helpers/payment-requests.js';
import { startService, type RunningProcess } from '../helpers/processes.js';
import { clientToken, waitFor } from '../helpers/wait.js';
import { createTestPki, startReceiver, type TestReceiver } from '../webhooks/https-receiver.js';

describe('shutdown', () => {
  let dir: string;
  let receiver: TestReceiver;
  const services: RunningProcess[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openpis-shutdown-'));
    const pki = createTestPki();
    writeFileSync(join(dir, 'ca.pem'), pki.caCertificate);
    receiver = await startReceiver(pki);
  });

  after(async () => {
    await Promise.all(services.map((service) => service.stop('SIGKILL')));
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A service on a fresh SQLite file whose one payment's webhook goes to `route`; resolves once it is in flight. */
  async function serviceWithDeliveryInFlight(name: string, route: string, env: Record<string, string>) {
    const path = join(dir, `${name}.sqlite`);
    const setup = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(setup.db as unknown as Kysely<unknown>);
    const client = await new ClientService(setup.db, testSecretBox()).create({ name, environment: 'sandbox' });
    await setup.close();
    let started = 0;
    const answers: Array<() => void> = [];
    receiver.routes.set(route, (_request, response) => {
      started += 1;
      answers.push(() => response.writeHead(200).end());
    });
    const service = await startService({
      DATABASE_URL: `sqlite:${path}`,
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: join(dir, 'ca.pem'),
      WEBHOOK_TIMEOUT_MS: '60000',
      WORKER_POLL_INTERVAL_MS: '20',
      ...env,
    });
    services.push(service);
    const request = paymentRequest();
    (request.metadata as Record<string, unknown>).webhookUrl = `${receiver.origin}${route}`;
    const response = await fetch(`${service.url}/api/v1/ob/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await clientToken(service.url, client)}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    assert.equal(response.status, 201);
    await waitFor('the delivery to start', async () => (started > 0 ? true : undefined));
    return { service, path, answer: () => answers.forEach((send) => send()) };
  }

  /** The harness that read the output is gone: nobody reads the pipes any more. */
  function dropOutputReader(service: RunningProcess): void {
    service.child.stdout?.destroy();
    service.child.stderr?.destroy();
  }

  const exited = (service: RunningProcess) =>
    service.child.exitCode !== null || service.child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => service.child.once('exit', () => resolve()));

  it('ends within SHUTDOWN_TIMEOUT_MS when a delivery never finishes and the output reader is gone, leaving it to lease expiry', async () => {
    const { service, path } = await serviceWithDeliveryInFlight('stuck', '/never', { SHUTDOWN_TIMEOUT_MS: '1000' });
    dropOutputReader(service);
    service.child.kill('SIGTERM');
    await exited(service);
    assert.equal(service.child.signalCode, null, 'the process exits by itself, not killed');
    assert.equal(service.child.exitCode, 1, 'a shutdown cut short by the bound says so in its exit code');
    // The delivery was left claimed: another process takes it over when the lease lapses.
    const handle = openDatabase({ kind: 'sqlite', path });
    try {
      const [event] = await handle.db.selectFrom('webhook_events').select(['state', 'locked_by']).execute();
      assert.equal(event?.state, 'pending');
      assert.notEqual(event?.locked_by, null);
    } finally {
      await handle.close();
    }
  });

  it('still finishes the work in flight, and exits 0, when the output reader is gone', async () => {
    const { service, path, answer } = await serviceWithDeliveryInFlight('graceful', '/later', { SHUTDOWN_TIMEOUT_MS: '20000' });
    dropOutputReader(service);
    service.child.kill('SIGTERM');
    // Shutdown logs while the delivery is still in flight; the closed pipe must not end or stall the process.
    setTimeout(answer, 500);
    await exited(service);
    assert.equal(service.child.exitCode, 0);
    const handle = openDatabase({ kind: 'sqlite', path });
    try {
      const [event] = await handle.db.selectFrom('webhook_events').select(['state', 'locked_by']).execute();
      assert.deepEqual(event, { state: 'delivered', locked_by: null });
    } finally {
      await handle.close();
    }
  });

  it('ends when the output reader is still there but has stopped reading (a full pipe)', async () => {
    const service = await startService({ LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '1000' });
    services.push(service);
    service.child.stdout?.pause();
    service.child.stderr?.pause();
    // Each request logs two lines: enough of them fill the pipe and the reader's buffer.
    for (let batch = 0; batch < 40; batch += 1) {
      await Promise.all(Array.from({ length: 25 }, () => fetch(`${service.url}/healthz`).then((response) => response.arrayBuffer())));
    }
    service.child.kill('SIGTERM');
    await exited(service);
    assert.equal(service.child.signalCode, null, 'the process exits by itself, not killed');
  });
});
