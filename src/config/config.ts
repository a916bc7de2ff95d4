/**
 * The one place that reads the process environment. Every setting is described once, in the schema of
 * src/config/schema.ts (type, bounds, default, description), and validated against it at start-up, so that a
 * misconfigured service refuses to start with a clear list of problems instead of failing later. `.env.example` and
 * the README's configuration table are written from that schema (`npm run config:docs`).
 */

import { parseSecretKeys, SecretBoxError, type SecretKey } from '../crypto/secret-box.js';
import { displayTextProblem, normalisedDisplayText } from '../domain/display-text.js';
import { parseRetryDelays } from './durations.js';
import { ENVIRONMENT_SCHEMA } from './schema.generated.js';
import type { ConfigSettings } from './schema.js';
import { readSettings, type FormatCheck } from './settings.js';

export type DatabaseConfig = { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

export interface OperatorIdentity {
  readonly name: string | undefined;
  /** E.g. "Example Pay Ltd is authorised by the Financial Conduct Authority (FRN 123456)". */
  readonly regulatoryStatement: string | undefined;
  readonly termsUrl: string | undefined;
  readonly privacyUrl: string | undefined;
}

/** Where a certificate and its key are: a PEM pair, or one PKCS#12 file and its password. */
export type CredentialSource =
  | { readonly kind: 'pem'; readonly certFile: string; readonly keyFile: string }
  | { readonly kind: 'pkcs12'; readonly file: string; readonly password: string };

/** The files of our identity towards the banks, per standard (docs/going-live.md). */
export interface BankIdentitySources {
  /** Berlin Group mutual TLS (QWAC_*). */
  readonly qwac: CredentialSource | undefined;
  /** Berlin Group request signatures (QSEAL_*). */
  readonly qseal: CredentialSource | undefined;
  /** UK Open Banking mutual TLS (OB_TRANSPORT_*). */
  readonly openBankingTransport: CredentialSource | undefined;
  /** The OBSeal certificate of OB_SIGNING_KEY_FILE. */
  readonly openBankingSigningCertFile: string | undefined;
  /** The software statement assertion (OB_SSA_FILE). */
  readonly softwareStatementFile: string | undefined;
  /** CAs trusted for the banks' servers besides Node's own (BANK_CA_FILE). */
  readonly bankCaFile: string | undefined;
  readonly expiryWarningDays: number;
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
  /** Where our certificates and keys towards the banks are (src/identity/). */
  readonly bankIdentity: BankIdentitySources;
  /** Polling of a payment's bank status: first delay, doubling per attempt up to the maximum (ms). */
  /** The bank-status polling schedule (src/flow/polling.ts) and the per-bank budget of background calls. */
  readonly bankStatusPolling: { readonly baseMs: number; readonly maxMs: number; readonly budgetPerSecond: number };
  /**
   * A payment pending at the bank (the bank holds it, the payer's part is over, no final status yet) older than
   * this is shown to the operator: a gauge and one warning per payment (docs/operations.md).
   */
  readonly bankPendingAlertSeconds: number;
  /**
   * How long a run of a payment's flow holds the payment (the flow engine's lease): longer than any run's bank calls
   * with their timeouts, so no second run starts beside a live one; after a crash, how long the payment waits.
   */
  readonly flowLeaseMs: number;
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

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The checks of the schema's `format`s (src/config/schema.ts): values JSON Schema cannot describe. Each returns the
 * problems of a value, whole messages naming the variable; the value is parsed again, without problems, below.
 */
const FORMATS: Readonly<Record<string, FormatCheck>> = {
  'base-url': (value) => problemsOf((problems) => parseBaseUrl(value, problems)),
  'database-url': (value) => problemsOf((problems) => parseDatabaseUrl(value, problems)),
  'http-url': (value, name) => (isHttpUrl(value) ? [] : [`${name} must be an absolute http(s) URL (got "${value}")`]),
  'display-text': (value, name, schema) => {
    // Text shown to payers: one line, no control or format characters, bounded, kept in NFC (src/domain/display-text.ts).
    const problem = displayTextProblem(normalisedDisplayText(value), schema.maxLength ?? Number.POSITIVE_INFINITY);
    return problem === undefined ? [] : [`${name} ${problem}`];
  },
  'payer-link': (value, name) => {
    const problem = payerLinkProblem(value);
    return problem === undefined ? [] : [`${name} ${problem}`];
  },
  'key-id': (value, name) => (/^[\x21-\x7e]{1,128}$/.test(value) ? [] : [`${name} must be 1 to 128 printable characters without spaces`]),
  'port-or-off': (value, name) =>
    value.toLowerCase() === 'off' || (/^\d+$/.test(value) && Number(value) <= 65535)
      ? []
      : [`${name} must be a port number (0: any free one) or off (got "${value}")`],
  delays: (value, name) => problemsOf(() => parseRetryDelaysSetting(value, name)),
  'secret-keys': (value, name) => problemsOf(() => parseSecretKeysSetting(value, name)),
};

/** The problems a parser that throws, or pushes to a list, finds in a value. */
function problemsOf(parse: (problems: string[]) => unknown): string[] {
  const problems: string[] = [];
  try {
    parse(problems);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  return problems;
}

/**
 * The configuration from the process environment, validated against the schema of every setting
 * (src/config/schema.ts): a bad value, or settings that contradict each other, throw a ConfigError listing every
 * problem.
 */
export function loadConfig(env: Environment = process.env): Config {
  const { settings: read, problems } = readSettings(ENVIRONMENT_SCHEMA, env, FORMATS);
  // Validated and coerced by the schema: each value has the type the schema gives it.
  const settings = read as unknown as ConfigSettings;

  // Settings that go together (whether each is set, valid or not), or whose meaning depends on another.
  const isSet = (name: string): boolean => (env[name]?.trim() ?? '') !== '';
  const tls = pairOf(isSet('TLS_CERT_FILE'), isSet('TLS_KEY_FILE'));
  if (tls === 'half') problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither');
  const signingKey = pairOf(isSet('OB_SIGNING_KEY_FILE'), isSet('OB_SIGNING_KEY_ID'));
  if (signingKey === 'half') problems.push('OB_SIGNING_KEY_FILE and OB_SIGNING_KEY_ID go together: set both or neither');
  const credential = (prefix: 'QWAC' | 'QSEAL' | 'OB_TRANSPORT'): CredentialSource | undefined => {
    const pem = pairOf(isSet(`${prefix}_CERT_FILE`), isSet(`${prefix}_KEY_FILE`));
    const pkcs12 = isSet(`${prefix}_P12_FILE`);
    if (pem === 'half') problems.push(`${prefix}_CERT_FILE and ${prefix}_KEY_FILE go together: set both or neither`);
    if (pem !== 'neither' && pkcs12) problems.push(`${prefix}_P12_FILE or ${prefix}_CERT_FILE/${prefix}_KEY_FILE: set one way, not both`);
    if (!pkcs12 && isSet(`${prefix}_P12_PASSWORD`)) problems.push(`${prefix}_P12_PASSWORD is set without ${prefix}_P12_FILE`);
    if (pkcs12) return { kind: 'pkcs12', file: settings[`${prefix}_P12_FILE`]!, password: settings[`${prefix}_P12_PASSWORD`] ?? '' };
    if (pem === 'both') return { kind: 'pem', certFile: settings[`${prefix}_CERT_FILE`]!, keyFile: settings[`${prefix}_KEY_FILE`]! };
    return undefined;
  };
  const bankIdentity: BankIdentitySources = {
    qwac: credential('QWAC'),
    qseal: credential('QSEAL'),
    openBankingTransport: credential('OB_TRANSPORT'),
    openBankingSigningCertFile: settings.OB_SIGNING_CERT_FILE,
    softwareStatementFile: settings.OB_SSA_FILE,
    bankCaFile: settings.BANK_CA_FILE,
    expiryWarningDays: settings.CERTIFICATE_EXPIRY_WARNING_DAYS,
  };
  if (bankIdentity.openBankingSigningCertFile !== undefined && signingKey !== 'both') {
    problems.push('OB_SIGNING_CERT_FILE is the certificate of OB_SIGNING_KEY_FILE: set that key (and OB_SIGNING_KEY_ID) too');
  }
  if (settings.METRICS_TOKEN === undefined && !isLoopbackHost(settings.METRICS_HOST) && settings.METRICS_PORT.toLowerCase() !== 'off') {
    problems.push(
      `METRICS_HOST=${settings.METRICS_HOST} publishes metrics beyond this machine: set METRICS_TOKEN too (scrapers send it as a bearer token)`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const baseUrl = parseBaseUrl(settings.BASE_URL ?? `http://localhost:${settings.PORT}`, []);
  const displayText = (text: string | undefined): string | undefined => (text === undefined ? undefined : normalisedDisplayText(text));
  return {
    port: settings.PORT,
    host: settings.HOST,
    baseUrl,
    tls: tls === 'both' ? { certFile: settings.TLS_CERT_FILE!, keyFile: settings.TLS_KEY_FILE! } : undefined,
    trustProxy: settings.TRUST_PROXY,
    database: parseDatabaseUrl(settings.DATABASE_URL, []),
    logLevel: settings.LOG_LEVEL,
    createDemoClient: settings.CREATE_DEMO_CLIENT,
    rateLimit: { perSecond: settings.RATE_LIMIT_PER_SECOND, burst: settings.RATE_LIMIT_BURST },
    flowDeadlineSeconds: settings.FLOW_DEADLINE_SECONDS,
    providerCatalogueFile: settings.PROVIDER_CATALOGUE_FILE,
    sandboxBank:
      settings.SANDBOX_BANK_URL === undefined
        ? { mode: 'embedded', url: `${baseUrl}${SANDBOX_BANK_MOUNT_PATH}` }
        : { mode: 'external', url: settings.SANDBOX_BANK_URL.replace(/\/+$/, '') },
    sandboxOperatorToken: settings.SANDBOX_OPERATOR_TOKEN,
    operator: {
      name: displayText(settings.OPERATOR_NAME),
      regulatoryStatement: displayText(settings.OPERATOR_REGULATORY_STATEMENT),
      termsUrl: settings.OPERATOR_TERMS_URL,
      privacyUrl: settings.OPERATOR_PRIVACY_URL,
    },
    openBankingSigningKey:
      signingKey === 'both' ? { keyFile: settings.OB_SIGNING_KEY_FILE!, keyId: settings.OB_SIGNING_KEY_ID! } : undefined,
    bankIdentity,
    bankStatusPolling: {
      baseMs: settings.BANK_STATUS_POLL_BASE_MS,
      maxMs: settings.BANK_STATUS_POLL_MAX_MS,
      budgetPerSecond: settings.BANK_POLL_BUDGET_PER_SECOND,
    },
    bankPendingAlertSeconds: settings.BANK_PENDING_ALERT_SECONDS,
    flowLeaseMs: settings.FLOW_LEASE_MS,
    secretKeys: settings.SECRET_KEYS === undefined ? [] : parseSecretKeysSetting(settings.SECRET_KEYS, 'SECRET_KEYS'),
    processRole: settings.PROCESS_ROLE,
    workers: {
      pollIntervalMs: settings.WORKER_POLL_INTERVAL_MS,
      concurrency: settings.WORKER_CONCURRENCY,
      leaseMs: settings.WORKER_LEASE_MS,
    },
    metrics:
      settings.METRICS_PORT.toLowerCase() === 'off'
        ? undefined
        : { host: settings.METRICS_HOST, port: Number(settings.METRICS_PORT), token: settings.METRICS_TOKEN },
    shutdownTimeoutMs: settings.SHUTDOWN_TIMEOUT_MS,
    console: {
      session: {
        idleSeconds: settings.CONSOLE_SESSION_IDLE_MINUTES * 60,
        absoluteSeconds: settings.CONSOLE_SESSION_MAX_HOURS * 60 * 60,
      },
      lockout: {
        attempts: settings.CONSOLE_LOCKOUT_ATTEMPTS,
        seconds: settings.CONSOLE_LOCKOUT_MINUTES * 60,
      },
    },
    bankCallRetentionDays: settings.BANK_CALL_RETENTION_DAYS,
    webhooks: {
      timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
      allowPrivateTargets: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      caFile: settings.WEBHOOK_CA_FILE,
      retryDelaysMs: parseRetryDelaysSetting(settings.WEBHOOK_RETRY_DELAYS, 'WEBHOOK_RETRY_DELAYS'),
      retryScale: settings.WEBHOOK_RETRY_SCALE,
      secretGraceSeconds: settings.WEBHOOK_SECRET_GRACE_SECONDS,
    },
  };
}

/** Two settings that go together: both set, neither, or only one (a problem). */
function pairOf(first: boolean, second: boolean): 'both' | 'neither' | 'half' {
  if (first && second) return 'both';
  return !first && !second ? 'neither' : 'half';
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
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

/** The operator key ring; throws a message naming the setting (e.g. "SECRET_KEYS: key 2 …"). */
function parseSecretKeysSetting(raw: string, name: string): SecretKey[] {
  try {
    return parseSecretKeys(raw);
  } catch (error) {
    throw new Error(`${name}: ${error instanceof SecretBoxError ? error.message : 'is invalid'} (e.g. k1:<openssl rand -base64 32>)`, {
      cause: error,
    });
  }
}

/** A list of retry delays; throws a message naming the setting and the schema's default as an example. */
function parseRetryDelaysSetting(raw: string, name: string): number[] {
  try {
    return parseRetryDelays(raw);
  } catch (error) {
    const example = ENVIRONMENT_SCHEMA.properties.WEBHOOK_RETRY_DELAYS.default;
    throw new Error(`${name} ${error instanceof Error ? error.message : 'is invalid'} (e.g. ${example})`, { cause: error });
  }
}
