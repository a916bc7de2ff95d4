/**
 * The one place that reads the process environment. Every setting is validated at start-up so that a
 * misconfigured service refuses to start with a clear list of problems instead of failing later.
 * Every variable is listed, with its default, in `.env.example` and the README.
 */

import { parseSecretKeys, SecretBoxError, type SecretKey } from '../crypto/secret-box.js';
import { displayTextProblem, normalisedDisplayText } from '../domain/display-text.js';
import { parseRetryDelays } from './durations.js';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

export interface OperatorIdentity {
  readonly name: string | undefined;
  /** E.g. "Example Pay Ltd is authorised by the Financial Conduct Authority (FRN 123456)". */
  readonly regulatoryStatement: string | undefined;
  readonly termsUrl: string | undefined;
  readonly privacyUrl: string | undefined;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  /** TCP port the HTTP server listens on. */
  readonly port: number;
  /** Interface the HTTP server binds to. */
  readonly host: string;
  /** Public base URL of the service, without a trailing slash; used in every URL we hand out. */
  readonly baseUrl: string;
  /** Certificate chain and private key (PEM files) to terminate TLS in this process; unset: plain HTTP. */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined;
  /**
   * Whether the X-Forwarded-* headers of a proxy in front are believed (the protocol above all, for HSTS):
   * `true` for any peer, a list of addresses/CIDRs for those peers only, `false` (default) for none.
   */
  readonly trustProxy: boolean | readonly string[];
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  /** Create and print a demo sandbox client when the database has no clients yet. */
  readonly createDemoClient: boolean;
  /** Requests per second a client may make before it gets 429, and the burst it may use up front. */
  readonly rateLimit: { readonly perSecond: number; readonly burst: number };
  /** How long a payer has to finish the flow before the payment fails with EXPIRED. */
  readonly flowDeadlineSeconds: number;
  /** Path of an operator-supplied provider catalogue; unset: the built-in sandbox catalogue. */
  readonly providerCatalogueFile: string | undefined;
  /**
   * The sandbox bank. `embedded`: mounted in this process under `/sandbox-bank` (the default);
   * `external`: reached at `url` (a sandbox bank started with `openpis sandbox-bank`), not mounted here.
   */
  readonly sandboxBank: { readonly mode: 'embedded' | 'external'; readonly url: string };
  /**
   * The sandbox operator's bearer token for fault injection over HTTP (`/sandbox-bank/<bank>/sandbox/faults`, and
   * `openpis sandbox faults`); unset: fault injection over HTTP is closed.
   */
  readonly sandboxOperatorToken: string | undefined;
  /**
   * The operator (the licensed payment initiation provider running this service) as payers see it: named in the
   * review sentence ("… initiated by <name>"), its regulatory statement and links in every page's footer. Each part
   * is optional; a page leaves out what is not set.
   */
  readonly operator: OperatorIdentity;
  /**
   * The operator's UK Open Banking signing key (a PKCS#8 PEM file, RSA for PS256, and the `kid` the banks know it by):
   * client assertions, request objects and message signatures. Unset: a throw-away key made at start, which only the
   * sandbox banks can know (they are told it); UK banks in production need the registered key.
   */
  readonly openBankingSigningKey: { readonly keyFile: string; readonly keyId: string } | undefined;
  /** Polling of a payment's bank status: first delay, doubling per attempt up to the maximum (ms). */
  /** The bank-status polling schedule (src/flow/polling.ts) and the per-bank budget of background calls. */
  readonly bankStatusPolling: { readonly baseMs: number; readonly maxMs: number; readonly budgetPerSecond: number };
  /**
   * A payment pending at the bank (the bank holds it, the payer's part is over, no final status yet) older than
   * this is shown to the operator: a gauge and one warning per payment (docs/operations.md).
   */
  readonly bankPendingAlertSeconds: number;
  /** `all`: API and workers (default); `api`: HTTP API only; `worker`: background jobs only (plus health and metrics). */
  readonly processRole: 'all' | 'api' | 'worker';
  readonly workers: {
    /** How often an idle worker looks for due jobs and webhook events (ms). */
    readonly pollIntervalMs: number;
    /** Jobs and deliveries run at once by one process. */
    readonly concurrency: number;
    /** How long a claim lasts: after a crash, another process takes the work once it lapses (ms). */
    readonly leaseMs: number;
  };
  /**
   * The Prometheus metrics listener, apart from the API port; unset: no metrics listener (METRICS_PORT=off).
   * Bound to loopback by default; another interface requires `token`, sent by the scraper as a bearer token.
   */
  readonly metrics: { readonly host: string; readonly port: number; readonly token: string | undefined } | undefined;
  /**
   * How long a stopping process (SIGTERM/SIGINT) lets the work in flight finish before it exits anyway (ms);
   * what is left is taken over by another process when its lease lapses.
   */
  readonly shutdownTimeoutMs: number;
  /**
   * The operator key ring that seals secrets at rest (SECRET_KEYS; first = active, every key opens). Empty when
   * unset: then the runtime uses a key file beside the SQLite database and refuses PostgreSQL
   * (src/runtime.ts, docs/adr/0005-secrets-at-rest.md).
   */
  readonly secretKeys: readonly SecretKey[];
  /** The console (docs/console.md): session lifetimes and the lock-out after failed sign-ins. */
  readonly console: {
    readonly session: { readonly idleSeconds: number; readonly absoluteSeconds: number };
    readonly lockout: { readonly attempts: number; readonly seconds: number };
  };
  /** How long the records of bank calls are kept (the console's bank health and a payment's bank calls). */
  readonly bankCallRetentionDays: number;
  readonly webhooks: {
    /** A delivery attempt's time limit (decisions §4: 15 s). */
    readonly timeoutMs: number;
    /** Deliver to loopback/private addresses too. For local development only. */
    readonly allowPrivateTargets: boolean;
    /** PEM bundle of extra CAs to trust for receivers (e.g. a local HTTPS receiver in tests). */
    readonly caFile: string | undefined;
    /** Delays before the 2nd, 3rd … attempt (ms). */
    readonly retryDelaysMs: readonly number[];
    /** Multiplies every retry delay; below 1 shortens the schedule (tests, drills). */
    readonly retryScale: number;
    /** How long the previous webhook secret keeps signing after a rotation (s). */
    readonly secretGraceSeconds: number;
  };
}

/** Path under which the embedded sandbox bank is mounted. */
export const SANDBOX_BANK_MOUNT_PATH = '/sandbox-bank';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Environment = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Environment = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const decimal = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  /** A shared secret chosen by the operator: long enough not to be guessed. */
  const secretToken = (name: string): string | undefined => {
    const raw = read(name);
    if (raw !== undefined && raw.length < 16) problems.push(`${name} must be at least 16 characters`);
    return raw;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const found = allowed.find((value) => value === raw);
    if (found === undefined) problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return found ?? fallback;
  };

  /** Text shown to payers: one line, no control or format characters, bounded, kept in NFC (src/domain/display-text.ts). */
  const displayText = (name: string, maxLength: number): string | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    const text = normalisedDisplayText(raw);
    const problem = displayTextProblem(text, maxLength);
    if (problem !== undefined) problems.push(`${name} ${problem}`);
    return text;
  };
  /** A link shown to payers. */
  const link = (name: string): string | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    const problem = payerLinkProblem(raw);
    if (problem !== undefined) problems.push(`${name} ${problem}`);
    return raw;
  };

  const port = integer('PORT', 8080, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';

  const baseUrl = parseBaseUrl(read('BASE_URL') ?? `http://localhost:${port}`, problems);
  const database = parseDatabaseUrl(read('DATABASE_URL'), problems);
  const tlsCertFile = read('TLS_CERT_FILE');
  const tlsKeyFile = read('TLS_KEY_FILE');
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither');

  const logLevelRaw = read('LOG_LEVEL') ?? 'info';
  const logLevel = LOG_LEVELS.find((level) => level === logLevelRaw);
  if (logLevel === undefined) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}")`);

  const config: Config = {
    port,
    host,
    baseUrl,
    tls: tlsCertFile === undefined || tlsKeyFile === undefined ? undefined : { certFile: tlsCertFile, keyFile: tlsKeyFile },
    trustProxy: parseTrustProxy(read('TRUST_PROXY')),
    database,
    logLevel: logLevel ?? 'info',
    createDemoClient: boolean('CREATE_DEMO_CLIENT', true),
    rateLimit: {
      perSecond: integer('RATE_LIMIT_PER_SECOND', 100, 1, 1_000_000),
      burst: integer('RATE_LIMIT_BURST', 200, 1, 1_000_000),
    },
    flowDeadlineSeconds: integer('FLOW_DEADLINE_SECONDS', 15 * 60, 10, 24 * 60 * 60),
    providerCatalogueFile: read('PROVIDER_CATALOGUE_FILE'),
    sandboxBank: parseSandboxBank(read('SANDBOX_BANK_URL'), baseUrl, problems),
    sandboxOperatorToken: secretToken('SANDBOX_OPERATOR_TOKEN'),
    operator: {
      name: displayText('OPERATOR_NAME', 80),
      regulatoryStatement: displayText('OPERATOR_REGULATORY_STATEMENT', 500),
      termsUrl: link('OPERATOR_TERMS_URL'),
      privacyUrl: link('OPERATOR_PRIVACY_URL'),
    },
    openBankingSigningKey: parseSigningKey(read('OB_SIGNING_KEY_FILE'), read('OB_SIGNING_KEY_ID'), problems),
    bankStatusPolling: {
      baseMs: integer('BANK_STATUS_POLL_BASE_MS', 1000, 10, 600_000),
      maxMs: integer('BANK_STATUS_POLL_MAX_MS', 2 * 60_000, 10, 24 * 60 * 60_000),
      budgetPerSecond: integer('BANK_POLL_BUDGET_PER_SECOND', 1000, 1, 100_000),
    },
    bankPendingAlertSeconds: integer('BANK_PENDING_ALERT_SECONDS', 60 * 60, 1, 30 * 24 * 60 * 60),
    secretKeys: parseSecretKeysSetting(read('SECRET_KEYS'), problems),
    processRole: oneOf('PROCESS_ROLE', ['all', 'api', 'worker'] as const, 'all'),
    workers: {
      pollIntervalMs: integer('WORKER_POLL_INTERVAL_MS', 500, 10, 60_000),
      concurrency: integer('WORKER_CONCURRENCY', 16, 1, 1000),
      leaseMs: integer('WORKER_LEASE_MS', 60_000, 1000, 3_600_000),
    },
    metrics: parseMetricsListener(read('METRICS_HOST'), read('METRICS_PORT'), secretToken('METRICS_TOKEN'), problems),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    console: {
      session: {
        idleSeconds: integer('CONSOLE_SESSION_IDLE_MINUTES', 30, 1, 24 * 60) * 60,
        absoluteSeconds: integer('CONSOLE_SESSION_MAX_HOURS', 12, 1, 7 * 24) * 60 * 60,
      },
      lockout: {
        attempts: integer('CONSOLE_LOCKOUT_ATTEMPTS', 5, 1, 100),
        seconds: integer('CONSOLE_LOCKOUT_MINUTES', 15, 1, 24 * 60) * 60,
      },
    },
    bankCallRetentionDays: integer('BANK_CALL_RETENTION_DAYS', 30, 1, 3650),
    webhooks: {
      timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000),
      allowPrivateTargets: boolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
      caFile: read('WEBHOOK_CA_FILE'),
      retryDelaysMs: parseRetryDelaysSetting(read('WEBHOOK_RETRY_DELAYS'), problems),
      retryScale: decimal('WEBHOOK_RETRY_SCALE', 1, 0.000001, 1000),
      secretGraceSeconds: integer('WEBHOOK_SECRET_GRACE_SECONDS', 24 * 60 * 60, 0, 30 * 24 * 60 * 60),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function parseBaseUrl(raw: string, problems: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`BASE_URL must be an absolute http(s) URL (got "${raw}")`);
    return raw;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`BASE_URL must use http or https (got "${raw}")`);
  }
  if (url.search !== '' || url.hash !== '') problems.push('BASE_URL must not carry a query or fragment');
  return url.toString().replace(/\/+$/, '');
}

function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || ['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  return raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/**
 * Payer credentials travel only over HTTPS: a plain-http BASE_URL is for trying the service on this machine
 * (loopback) or with sandbox clients only. Returns why a production client may not be served, or undefined.
 */
export function httpsRequiredProblem(baseUrl: string): string | undefined {
  const url = new URL(baseUrl);
  if (url.protocol === 'https:' || isLoopbackHost(url.hostname)) return undefined;
  return (
    `BASE_URL ${baseUrl} is not https: production clients send payers here with their bank credentials, which travel ` +
    'only over HTTPS. Set BASE_URL to the https address, and terminate TLS in the service (TLS_CERT_FILE, TLS_KEY_FILE) ' +
    'or in a proxy in front of it (TRUST_PROXY); see the README, "Running in production"'
  );
}

/** The Prometheus exporter convention's port for a node process. */
const DEFAULT_METRICS_PORT = 9464;

function parseMetricsListener(host: string | undefined, port: string | undefined, token: string | undefined, problems: string[]): Config['metrics'] {
  if (port?.toLowerCase() === 'off') return undefined;
  let portNumber = DEFAULT_METRICS_PORT;
  if (port !== undefined) {
    if (!/^\d+$/.test(port) || Number(port) > 65535) problems.push(`METRICS_PORT must be a port number (0: any free one) or off (got "${port}")`);
    else portNumber = Number(port);
  }
  const bindHost = host ?? '127.0.0.1';
  if (token === undefined && !isLoopbackHost(bindHost)) {
    problems.push(`METRICS_HOST=${bindHost} publishes metrics beyond this machine: set METRICS_TOKEN too (scrapers send it as a bearer token)`);
  }
  return { host: bindHost, port: portNumber, token };
}

/**
 * Why a URL cannot be a link on the payer's pages (undefined when it can): an absolute https URL (http only to
 * this machine, for trials), without user or password in it. Shared by the operator's links and clients' support links.
 */
export function payerLinkProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `must be an absolute https URL (got "${raw}")`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return `must be an https URL (http only to this machine) (got "${raw}")`;
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (raw.length > 2000) return 'must be at most 2000 characters';
  return undefined;
}

/** Loopback names and addresses: what only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function parseSecretKeysSetting(raw: string | undefined, problems: string[]): SecretKey[] {
  if (raw === undefined) return [];
  try {
    return parseSecretKeys(raw);
  } catch (error) {
    problems.push(`SECRET_KEYS: ${error instanceof SecretBoxError ? error.message : 'is invalid'} (e.g. k1:<openssl rand -base64 32>)`);
    return [];
  }
}

const DEFAULT_RETRY_DELAYS = '5s,5m,30m,2h,5h,10h,10h';

function parseRetryDelaysSetting(raw: string | undefined, problems: string[]): number[] {
  try {
    return parseRetryDelays(raw ?? DEFAULT_RETRY_DELAYS);
  } catch (error) {
    problems.push(`WEBHOOK_RETRY_DELAYS ${error instanceof Error ? error.message : 'is invalid'} (e.g. ${DEFAULT_RETRY_DELAYS})`);
    return parseRetryDelays(DEFAULT_RETRY_DELAYS);
  }
}

function parseSandboxBank(raw: string | undefined, baseUrl: string, problems: string[]): Config['sandboxBank'] {
  if (raw === undefined) return { mode: 'embedded', url: `${baseUrl}${SANDBOX_BANK_MOUNT_PATH}` };
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    problems.push(`SANDBOX_BANK_URL must be an absolute http(s) URL (got "${raw}")`);
  }
  return { mode: 'external', url: raw.replace(/\/+$/, '') };
}

/** Unset: SQLite under ./data. `sqlite:<path>` or `sqlite::memory:`; `postgres://…` or `postgresql://…`. */
export function parseDatabaseUrl(raw: string | undefined, problems: string[]): DatabaseConfig {
  if (raw === undefined) return { kind: 'sqlite', path: 'data/openpis.sqlite' };
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === '') problems.push('DATABASE_URL sqlite: needs a file path, e.g. sqlite:data/openpis.sqlite');
    return { kind: 'sqlite', path };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      problems.push('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: raw };
  }
  problems.push('DATABASE_URL must start with sqlite: or postgres:// (or postgresql://)');
  return { kind: 'sqlite', path: 'data/openpis.sqlite' };
}

function parseSigningKey(keyFile: string | undefined, keyId: string | undefined, problems: string[]): Config['openBankingSigningKey'] {
  if (keyFile === undefined && keyId === undefined) return undefined;
  if (keyFile === undefined || keyId === undefined) {
    problems.push('OB_SIGNING_KEY_FILE and OB_SIGNING_KEY_ID go together: set both or neither');
    return undefined;
  }
  if (!/^[\x21-\x7e]{1,128}$/.test(keyId)) problems.push('OB_SIGNING_KEY_ID must be 1 to 128 printable characters without spaces');
  return { keyFile, keyId };
}
