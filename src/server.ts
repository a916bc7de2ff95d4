/**
 * `npm start`: the service on the configured database (SQLite under ./data by default) with the embedded
 * sandbox bank. Listens, prints where, and shuts down cleanly on SIGINT/SIGTERM.
 */
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, createMetrics } from './app.js';
import { ClientService } from './auth/clients.js';
import { ConfigError, httpsRequiredProblem } from './config/config.js';
import { buildMetricsServer } from './observability/routes.js';
import { listenOrExplain, ListenerUnavailableError } from './http/listen.js';
import { embeddedSandboxProblem, openRuntime, type Runtime } from './runtime.js';
import { createBackgroundWorkers } from './background-workers.js';
import { startupBanner } from './start-up-banner.js';
import { loadSandboxFixtures } from '@openpis/sandbox-bank';
import { ConsoleUsers } from './people/accounts.js';

/**
 * Output must never hold the process: a reader that has gone away (EPIPE) or stopped reading (a full pipe) would
 * otherwise crash it, or, with pino's default synchronous destination, spin for ever in its write loop and in the
 * flush it runs on exit. Lines go through Node's asynchronous stdout instead, and write errors are dropped.
 */
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
const logDestination = { write: (line: string): void => void process.stdout.write(line) };

async function main(): Promise<void> {
  // A serving process follows the banks' changes (the CLI's, the console's, another process's) without a restart.
  const runtime = await openRuntime(undefined, { followChanges: true });
  const { config, database } = runtime;
  // Processes apart cannot share a sandbox bank embedded in each of them (docs/operations.md).
  const sandboxProblem = embeddedSandboxProblem(config, runtime.catalogue);
  if (sandboxProblem !== undefined) {
    await database.close();
    throw new ConfigError([sandboxProblem]);
  }
  // Only HTTPS carries payer credentials: refuse to serve production clients from a plain-http address.
  const httpsProblem = httpsRequiredProblem(config.baseUrl);
  if (httpsProblem !== undefined) {
    const production = await database.db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('environment', '=', 'production')
      .where('disabled_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(production.count) > 0) {
      await database.close();
      throw new ConfigError([`${httpsProblem}. This database holds ${Number(production.count)} active production client(s).`]);
    }
  }
  const metrics = createMetrics(database, config);
  const app = await buildApp({ ...runtime, metrics, logDestination });
  logCatalogueImport(runtime.catalogueImport, config.providerCatalogueFile, app.log);
  const workers =
    config.processRole === 'api'
      ? undefined
      : createBackgroundWorkers({
          config,
          database,
          logger: app.log,
          jobHandlers: app.jobHandlers,
          sweep: app.flowSweep,
          metrics,
          workSignal: app.workSignal,
        });

  // Every listener is bound before anything is served or made: a port another process holds (a second service on
  // this machine wants the metrics port too) stops the start with one line naming the setting, and leaves nothing
  // behind (no demo client whose secret nobody saw). The metrics listener first, so the API never serves alone.
  const metricsListener = config.metrics;
  const metricsServer =
    metricsListener === undefined ? undefined : buildMetricsServer({ metrics, token: metricsListener.token, logger: app.log });
  const metricsAddress =
    metricsServer === undefined || metricsListener === undefined
      ? undefined
      : await listenOrExplain(() => metricsServer.listen({ port: metricsListener.port, host: metricsListener.host }), {
          what: 'metrics (Prometheus)',
          host: metricsListener.host,
          port: metricsListener.port,
          fix: 'Set METRICS_PORT to a free port, or METRICS_PORT=off.',
        });
  try {
    await listenOrExplain(() => app.listen({ port: config.port, host: config.host }), {
      what: 'the API',
      host: config.host,
      port: config.port,
      fix: 'Set PORT to a free port (and HOST to an address of this machine).',
    });
  } catch (error) {
    await metricsServer?.close();
    throw error;
  }

  const clients = new ClientService(database.db, runtime.secrets);
  if (runtime.secretKeysWarning !== undefined) app.log.warn(runtime.secretKeysWarning);
  let demo: Awaited<ReturnType<ClientService['create']>> | undefined;
  if (config.createDemoClient && (await clients.count()) === 0) {
    demo = await clients.create({ name: 'demo', environment: 'sandbox' });
  }

  workers?.start();
  const payer = runtime.catalogue.usesSandboxBank ? loadSandboxFixtures().payers[0] : undefined;
  process.stdout.write(
    startupBanner({
      config,
      metricsAddress,
      consoleUsers: await new ConsoleUsers(database.db, runtime.secrets, config.console.lockout).count(),
      sandbox: payer === undefined ? undefined : { url: config.sandboxBank.url, payer },
      demo,
    }),
  );

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
    // The bound: whatever is still running then (a bank or receiver that never answers) is abandoned; its
    // claims lapse after WORKER_LEASE_MS and another process takes the work over.
    setTimeout(() => {
      app.log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out; work in flight is left to lease expiry');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    // Stop taking requests and claiming work; let what is in flight finish; then close the database.
    Promise.all([app.close(), metricsServer?.close(), workers?.stop()])
      // A job that finished after the app closed may have recorded a bank call since: written before the database closes.
      .then(() => app.bankCallRecorder.close())
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
  process.stderr.write(
    `${error instanceof ConfigError || error instanceof ListenerUnavailableError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

/** Says what the start-up import changed, and warns of entries kept as an operator changed them (docs/operations.md). */
function logCatalogueImport(report: Runtime['catalogueImport'], file: string | undefined, logger: FastifyBaseLogger): void {
  const source = file ?? 'the built-in sandbox catalogue';
  if (report.added.length > 0 || report.updated.length > 0) {
    logger.info({ added: report.added, updated: report.updated }, `banks imported from ${source}`);
  }
  for (const id of report.keptOperatorChanges) {
    logger.warn(
      { bankId: id },
      `bank ${id}: ${source} has another entry than the one an operator changed in the database; the operator's is kept ` +
        "(`openpis banks update` takes the file's)",
    );
  }
}
