/**
 * `npm start`: the service on the configured database (SQLite under ./data by default) with the embedded
 * sandbox bank. Listens, prints where, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp, createMetrics } from './app.js';
import { ClientService } from './auth/clients.js';
import { ConfigError } from './config/config.js';
import { openRuntime } from './runtime.js';
import { createBackgroundWorkers } from './workers/background.js';

async function main(): Promise<void> {
  const runtime = await openRuntime();
  const { config, database } = runtime;
  const metrics = createMetrics(database, config);
  const app = await buildApp({ ...runtime, metrics });
  const workers =
    config.processRole === 'api'
      ? undefined
      : createBackgroundWorkers({ config, database, logger: app.log, jobHandlers: app.jobHandlers, metrics });

  const clients = new ClientService(database.db, runtime.secrets);
  if (runtime.secretKeysWarning !== undefined) app.log.warn(runtime.secretKeysWarning);
  let demo: Awaited<ReturnType<ClientService['create']>> | undefined;
  if (config.createDemoClient && (await clients.count()) === 0) {
    demo = await clients.create({ name: 'demo', environment: 'sandbox' });
  }

  await app.listen({ port: config.port, host: config.host });
  workers?.start();
  const lines = [
    '',
    `openpis is listening on ${config.baseUrl}`,
    `  API reference:  ${config.baseUrl}/docs`,
    `  Database:       ${config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL'}`,
    `  Role:           ${config.processRole === 'all' ? 'API and workers' : config.processRole === 'api' ? 'API only' : 'workers only'}`,
  ];
  if (demo !== undefined) {
    // Shown once: only a hash of the secret is stored.
    lines.push(
      '',
      'A demo sandbox client was created (shown only this once):',
      `  clientId:      ${demo.clientId}`,
      `  clientSecret:  ${demo.clientSecret}`,
      `  webhookSecret: ${demo.webhookSecret}`,
      '',
      'Get a token:',
      `  curl -s -u '${demo.clientId}:${demo.clientSecret}' -d grant_type=client_credentials ${config.baseUrl}/api/v1/auth/token`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests and claiming work; let what is in flight finish; then close the database.
    Promise.all([app.close(), workers?.stop()])
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
