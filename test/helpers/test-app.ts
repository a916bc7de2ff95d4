/**
 * Starts the real app on a loopback port with a database of its own, and gives tests what they need to
 * call it as a client would: clients, tokens, and a small fetch wrapper.
 */
import { createServer } from 'node:net';
import type { Kysely } from 'kysely';
import { buildApp, createMetrics } from '../../src/app.js';
import { buildMetricsServer } from '../../src/observability/routes.js';
import { ClientService, type IssuedClientCredentials } from '../../src/auth/clients.js';
import type { Scope } from '../../src/auth/scopes.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { App } from '../../src/http/fastify-types.js';
import { BankRegistry } from '../../src/providers/bank-registry.js';
import { importConfiguredCatalogue } from '../../src/runtime.js';
import { loadCatalogue, type Environment, type ProviderCatalogue } from '../../src/providers/catalogue.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { Connectors } from '../../src/connectors/index.js';
import type { SandboxFixtures } from '@openpis/sandbox-bank';
import { createBackgroundWorkers } from '../../src/background-workers.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import type { TestDatabaseKind } from './databases.js';
import { TEST_SECRET_KEYS } from './secret-keys.js';

export interface TestClient extends IssuedClientCredentials {
  /** A fresh access token (all the client's scopes unless others are asked for). */
  token(scope?: string): Promise<string>;
}

export interface TestApp {
  readonly app: App;
  readonly baseUrl: string;
  /** Origin of the app's metrics listener (`GET /metrics`), apart from the API port as in production. */
  readonly metricsUrl: string;
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly catalogue: ProviderCatalogue;
  /** The registry the app reads its banks from, when started with `banksInDatabase`. */
  readonly bankRegistry: BankRegistry | undefined;
  readonly clients: ClientService;
  /** Every log line the app wrote (set LOG_LEVEL in `env` to see more than warnings). */
  readonly logs: string[];
  createClient(options?: { environment?: Environment; scopes?: Scope[]; name?: string }): Promise<TestClient>;
  /** fetch against the app: `path` is relative to the base URL. */
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startTestApp(
  kind: TestDatabaseKind,
  options: {
    env?: Record<string, string>;
    now?: () => Date;
    /** Run the background workers (bank-status polling, expiry, webhooks) as `npm start` does. */
    workers?: boolean;
    /** Test payers of the embedded sandbox bank (e.g. with a password unique to the test). */
    sandboxFixtures?: SandboxFixtures;
    /** Wraps the bank connectors the engine uses (to record what it hands them). */
    wrapConnectors?: (connectors: Connectors) => Connectors;
    /** Banks in the database, as the service keeps them: the catalogue file imported, a bank registry serving them. */
    banksInDatabase?: boolean;
  } = {},
): Promise<TestApp> {
  const testDatabase = await kind.create();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config: Config = {
    ...loadConfig({
      PORT: String(port),
      BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      SANDBOX_OPERATOR_TOKEN: 'sandbox-operator-token-for-tests',
      SECRET_KEYS: TEST_SECRET_KEYS,
      ...options.env,
    }),
    database: testDatabase.config,
  };
  const database = openDatabase(config.database);
  await migrateToLatest(database.db as unknown as Kysely<unknown>);
  const catalogue = loadCatalogue(config.providerCatalogueFile, config.sandboxBank.url);
  const bankRegistry = options.banksInDatabase === true ? await importCatalogueIntoRegistry(config, database) : undefined;
  const logs: string[] = [];
  const metrics = createMetrics(database, config, options.now);
  const app = await buildApp({
    config,
    database,
    catalogue: bankRegistry ?? catalogue,
    metrics,
    logDestination: { write: (line) => void logs.push(line) },
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.sandboxFixtures === undefined ? {} : { sandboxFixtures: options.sandboxFixtures }),
    ...(options.wrapConnectors === undefined ? {} : { wrapConnectors: options.wrapConnectors }),
  });
  const metricsServer = buildMetricsServer({ metrics });
  app.addHook('onClose', async () => metricsServer.close());
  await app.listen({ port, host: '127.0.0.1' });
  const metricsPort = await freePort();
  await metricsServer.listen({ port: metricsPort, host: '127.0.0.1' });
  const workers =
    options.workers === true
      ? createBackgroundWorkers({
          config,
          database,
          logger: app.log,
          jobHandlers: app.jobHandlers,
          sweep: app.flowSweep,
          ...(options.now === undefined ? {} : { now: options.now }),
        })
      : undefined;
  workers?.start();
  const clients = new ClientService(database.db, new SecretBox(config.secretKeys));

  const request: TestApp['request'] = (path, init = {}) => {
    const { token, json, headers, ...rest } = init;
    const allHeaders = new Headers(headers);
    if (token !== undefined) allHeaders.set('authorization', `Bearer ${token}`);
    if (json !== undefined) allHeaders.set('content-type', 'application/json');
    return fetch(`${baseUrl}${path}`, {
      ...rest,
      headers: allHeaders,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  };

  return {
    app,
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    config,
    database,
    catalogue,
    bankRegistry,
    clients,
    logs,
    request,
    async createClient(clientOptions = {}) {
      const issued = await clients.create({
        name: clientOptions.name ?? 'test client',
        environment: clientOptions.environment ?? 'sandbox',
        ...(clientOptions.scopes === undefined ? {} : { scopes: clientOptions.scopes }),
      });
      return {
        ...issued,
        async token(scope?: string) {
          const body = new URLSearchParams({ grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) });
          const response = await fetch(`${baseUrl}/api/v1/auth/token`, {
            method: 'POST',
            headers: {
              authorization: `Basic ${Buffer.from(`${issued.clientId}:${issued.clientSecret}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body,
          });
          if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
          return ((await response.json()) as { access_token: string }).access_token;
        },
      };
    },
    async close() {
      // The database is dropped even when stopping something before it failed.
      try {
        await workers?.stop();
        await app.close();
        await bankRegistry?.close();
      } finally {
        await database.close().finally(() => testDatabase.drop());
      }
    },
  };
}

/** Adds a fault rule to the embedded sandbox bank's `slug` bank, as the operator (docs/sandbox-bank.md). */
export async function injectSandboxFault(
  app: Pick<TestApp, 'baseUrl' | 'config'>,
  slug: string,
  rule: Record<string, unknown>,
): Promise<Response> {
  return fetch(`${app.baseUrl}/sandbox-bank/${slug}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.config.sandboxOperatorToken}` },
    body: JSON.stringify(rule),
  });
}

/** Imports the configured catalogue file into the database (as the service does at start) and opens a registry. */
async function importCatalogueIntoRegistry(config: Config, database: DatabaseHandle): Promise<BankRegistry> {
  const secrets = new SecretBox(config.secretKeys);
  await importConfiguredCatalogue({ config, database, secrets });
  return BankRegistry.open({ db: database.db, box: secrets, sandboxBankUrl: config.sandboxBank.url, pollMs: 0 });
}
