/**
 * A port that is taken stops a process before it serves anything, with one line that names the setting to change
 * (two services on one machine both want the metrics port 9464). The service and the stand-alone sandbox bank are
 * started as their commands run them, on a port this test holds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/test-app.js';
import { runToExit } from '../helpers/processes.js';
import { TEST_SECRET_KEYS, testSecretBox } from '../helpers/secret-keys.js';
import { ClientService } from '../../src/auth/clients.js';
import { openDatabase } from '../../src/storage/database.js';

function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : 0 });
    });
  });
}

describe('a port already in use', () => {
  let dir: string;
  let held: { server: Server; port: number };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openpis-listeners-'));
    held = await holdPort();
  });
  after(() => {
    held?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const databasePath = (env: { PORT: string; METRICS_PORT: string }) => join(dir, `${env.PORT}-${env.METRICS_PORT}.sqlite`);
  const service = async (env: { PORT: string; METRICS_PORT: string }) =>
    runToExit(['--import', 'tsx', 'src/server.ts'], {
      DATABASE_URL: `sqlite:${databasePath(env)}`,
      BASE_URL: 'http://127.0.0.1:1',
      LOG_LEVEL: 'info',
      CREATE_DEMO_CLIENT: 'true',
      SECRET_KEYS: TEST_SECRET_KEYS,
      ...env,
    });

  /** The whole of standard error is one line naming `setting`, with no stack trace. */
  function assertOneLine(result: { code: number | null; stdout: string; stderr: string }, setting: RegExp): void {
    assert.equal(result.code, 1, `exit code; stderr: ${result.stderr}`);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line, not:\n${result.stderr}`);
    assert.match(lines[0]!, setting);
    assert.match(lines[0]!, new RegExp(`127\\.0\\.0\\.1:${held.port}`));
    assert.doesNotMatch(result.stderr, /EADDRINUSE|^\s+at /m);
  }

  it('the metrics port: the service names METRICS_PORT (and off) and never served the API', async () => {
    const env = { PORT: String(await freePort()), METRICS_PORT: String(held.port) };
    const result = await service(env);
    assertOneLine(result, /METRICS_PORT.*METRICS_PORT=off/);
    assert.doesNotMatch(result.stdout, /Server listening|openpis is listening/);
    // No demo client was made whose secret the operator never saw: the next start on this database makes and prints it.
    const database = openDatabase({ kind: 'sqlite', path: databasePath(env) });
    try {
      assert.equal(await new ClientService(database.db, testSecretBox()).count(), 0);
    } finally {
      await database.close();
    }
  });

  it('the API port: the service names PORT', async () => {
    const result = await service({ PORT: String(held.port), METRICS_PORT: String(await freePort()) });
    assertOneLine(result, /\bPORT\b/);
    assert.doesNotMatch(result.stdout, /openpis is listening/);
  });

  it('the stand-alone sandbox bank names --port', async () => {
    const result = await runToExit(['bin/openpis.mjs', 'sandbox-bank', '--port', String(held.port)], { LOG_LEVEL: 'warn' });
    assertOneLine(result, /--port/);
  });
});
