/**
 * What `npm start` prints once it listens: where everything is, and what an operator meets first (the console and
 * how to make its first operator, the sandbox banks' test payers, the demo client's credentials when one was made).
 */
import type { Config } from './config/config.js';

export interface BannerFacts {
  readonly config: Pick<Config, 'baseUrl' | 'processRole' | 'database'>;
  /** `http://host:port` of the metrics listener; undefined when it is off. */
  readonly metricsAddress: string | undefined;
  /** Console users in the database: with none, the banner says how to make the first operator. */
  readonly consoleUsers: number;
  /** The sandbox bank the catalogue reaches, and one of its test payers; undefined when the catalogue reaches none. */
  readonly sandbox:
    { readonly url: string; readonly payer: { readonly psuId: string; readonly password: string; readonly otp: string } } | undefined;
  /** The demo client made at this start (its secrets are shown only now). */
  readonly demo: { readonly clientId: string; readonly clientSecret: string; readonly webhookSecret: string } | undefined;
}

export function startupBanner(facts: BannerFacts): string {
  const { config, demo, sandbox } = facts;
  const servesApi = config.processRole !== 'worker';
  const lines = ['', `openpis is listening on ${config.baseUrl}`];
  if (servesApi) {
    lines.push(`  API reference:  ${config.baseUrl}/docs`, `  Console:        ${config.baseUrl}/console`);
  }
  lines.push(
    `  Metrics:        ${facts.metricsAddress === undefined ? 'off (METRICS_PORT=off)' : `${facts.metricsAddress}/metrics`}`,
    `  Database:       ${config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL'}`,
    `  Role:           ${config.processRole === 'all' ? 'API and workers' : config.processRole === 'api' ? 'API only' : 'workers only'}`,
  );
  if (sandbox !== undefined) {
    lines.push(
      `  Sandbox banks:  ${sandbox.url} (test payers, e.g. ${sandbox.payer.psuId} / password ${sandbox.payer.password} / code ${sandbox.payer.otp}: docs/sandbox-bank.md#test-payers)`,
    );
  }
  if (servesApi && facts.consoleUsers === 0) {
    lines.push(
      '',
      'The console has no users yet. Create the first operator (its password is printed once):',
      `  npx openpis users create --email you@example.com --name "Your Name" --role operator`,
    );
  }
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
  return `${lines.join('\n')}\n\n`;
}
