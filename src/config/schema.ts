/**
 * Every setting of the service, as one TypeBox schema of the process environment: each variable's type, bounds,
 * default and description. The loader (src/config/config.ts) validates the environment against it and coerces the
 * strings (numbers, booleans, lists); `.env.example` and the README's configuration table are written from it by
 * `npm run config:docs` (scripts/write-config-docs.ts), and a test fails when they are out of step.
 *
 * The loader runs in every CLI command, which must not load TypeBox (hundreds of modules; docs/performance.md,
 * test/cli/start-up.test.ts): it reads the same schema as plain JSON Schema from src/config/schema.generated.ts,
 * which the same script writes from this file (docs/adr/0008-configuration-schema.md).
 *
 * Conventions of this schema, which the loader's interpreter (src/config/settings.ts) understands:
 * - a setting with a `default` always has a value; one without is `Type.Optional` and says in `x-unset` what
 *   leaving it unset means;
 * - `format` names a check of the loader's own for values JSON Schema cannot describe (URLs, the key ring, …);
 * - an empty or blank variable counts as unset.
 */
import { Type, type Static, type TOptional, type TSchema, type TString } from 'typebox';

/** What leaving a setting without a default unset means (the README's "Default" column, the comment in .env.example). */
const unset = (text: string): { 'x-unset': string } => ({ 'x-unset': text });

const WHOLE_DAY_SECONDS = 24 * 60 * 60;

const Http = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'HTTP port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Interface to bind (`0.0.0.0` in a container)' }),
  BASE_URL: Type.Optional(
    Type.String({
      format: 'base-url',
      description: 'Public base URL of every link we hand out (redirect URLs, logos); http(s), no query or fragment',
      ...unset('`http://localhost:$PORT`'),
    }),
  ),
  TLS_CERT_FILE: Type.Optional(
    Type.String({
      description: 'PEM certificate chain: the service terminates TLS itself (with `TLS_KEY_FILE`; set both or neither)',
      ...unset('plain HTTP'),
    }),
  ),
  TLS_KEY_FILE: Type.Optional(Type.String({ description: 'PEM private key of `TLS_CERT_FILE`', ...unset('plain HTTP') })),
  TRUST_PROXY: Type.Union([Type.Boolean(), Type.Array(Type.String())], {
    default: false,
    description:
      "Believe a proxy's `X-Forwarded-Proto`/`-For` (HTTPS is required for production clients unless `BASE_URL` is " +
      "loopback): `true`, or the proxy's addresses/CIDRs (comma-separated)",
  }),
});

const Storage = Type.Object({
  DATABASE_URL: Type.String({
    format: 'database-url',
    default: 'sqlite:data/openpis.sqlite',
    description: '`sqlite:<path>` (`sqlite::memory:` for a throw-away one) or `postgres://user:pass@host:5432/db`',
  }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    description: 'pino level, or `silent`',
  }),
  CREATE_DEMO_CLIENT: Type.Boolean({ default: true, description: 'Create and print a demo sandbox client on an empty database' }),
});

const Api = Type.Object({
  RATE_LIMIT_PER_SECOND: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 100,
    description: 'Per-client rate limit: sustained requests per second',
  }),
  RATE_LIMIT_BURST: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 200,
    description: 'Per-client rate limit: the burst allowed on top',
  }),
  FLOW_DEADLINE_SECONDS: Type.Integer({
    minimum: 10,
    maximum: WHOLE_DAY_SECONDS,
    default: 15 * 60,
    description: 'Time a payer has to finish before the payment fails with `EXPIRED`',
  }),
  PROVIDER_CATALOGUE_FILE: Type.Optional(
    Type.String({
      description:
        'Your own bank catalogue (JSON, the shape of src/providers/sandbox-catalogue.json); bank addresses must be https ' +
        '(plain http only to this machine)',
      ...unset('the built-in sandbox catalogue'),
    }),
  ),
});

const Sandbox = Type.Object({
  SANDBOX_BANK_URL: Type.Optional(
    Type.String({
      format: 'http-url',
      description:
        'Address of a separately started sandbox bank (`npx openpis sandbox-bank --port 8090`); required with ' +
        '`PROCESS_ROLE` `api`/`worker`: processes apart must share one sandbox bank (docs/operations.md#processes)',
      ...unset('embedded under `/sandbox-bank`'),
    }),
  ),
  SANDBOX_OPERATOR_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: "Operator's bearer token (16+ characters) for the sandbox bank's fault routes and `openpis sandbox faults`",
      ...unset('fault injection over HTTP closed'),
    }),
  ),
});

const Operator = Type.Object({
  OPERATOR_NAME: Type.Optional(
    Type.String({
      format: 'display-text',
      maxLength: 80,
      description: 'Your name as payers see it: "You are paying … initiated by <name>" on the review step (at most 80 characters)',
      ...unset('left out'),
    }),
  ),
  OPERATOR_REGULATORY_STATEMENT: Type.Optional(
    Type.String({
      format: 'display-text',
      maxLength: 500,
      description: "One line in every payer page's footer, e.g. who authorises you and your register number (at most 500 characters)",
      ...unset('left out'),
    }),
  ),
  OPERATOR_TERMS_URL: Type.Optional(
    Type.String({
      format: 'payer-link',
      description: "Your terms, linked in every payer page's footer (https; http only to this machine)",
      ...unset('left out'),
    }),
  ),
  OPERATOR_PRIVACY_URL: Type.Optional(
    Type.String({
      format: 'payer-link',
      description: "Your privacy notice, linked in every payer page's footer (https; http only to this machine)",
      ...unset('left out'),
    }),
  ),
});

const UkOpenBanking = Type.Object({
  OB_SIGNING_KEY_FILE: Type.Optional(
    Type.String({
      description:
        'UK Open Banking signing key (PKCS#8 PEM, RSA, PS256): client assertions, request objects, x-jws-signature ' +
        '(with `OB_SIGNING_KEY_ID`; set both or neither). UK banks in production need the registered key',
      ...unset('a throw-away key made at start, which the sandbox banks are told'),
    }),
  ),
  OB_SIGNING_KEY_ID: Type.Optional(
    Type.String({
      format: 'key-id',
      description: 'The `kid` the banks registered the signing key under (1 to 128 printable characters, no spaces)',
      ...unset('a throw-away key made at start, which the sandbox banks are told'),
    }),
  ),
});

/** A certificate with its key towards the banks: a PEM pair, or one PKCS#12 file with its password. */
type CredentialSettingNames<P extends string> = `${P}_CERT_FILE` | `${P}_KEY_FILE` | `${P}_P12_FILE` | `${P}_P12_PASSWORD`;

function credentialSettings<P extends string>(prefix: P, what: string): { [Name in CredentialSettingNames<P>]: TOptional<TString> } {
  const unsetText = unset('none');
  // The computed names are exactly CredentialSettingNames<P>, which TypeScript cannot see through the template strings.
  return {
    [`${prefix}_CERT_FILE`]: Type.Optional(
      Type.String({ description: `${what}: PEM certificate (chain, leaf first), with \`${prefix}_KEY_FILE\``, ...unsetText }),
    ),
    [`${prefix}_KEY_FILE`]: Type.Optional(
      Type.String({ description: `Unencrypted PEM private key of \`${prefix}_CERT_FILE\``, ...unsetText }),
    ),
    [`${prefix}_P12_FILE`]: Type.Optional(
      Type.String({ description: `${what} as one PKCS#12 file instead (RSA key), opened with \`${prefix}_P12_PASSWORD\``, ...unsetText }),
    ),
    [`${prefix}_P12_PASSWORD`]: Type.Optional(Type.String({ description: `Password of \`${prefix}_P12_FILE\``, ...unset('no password') })),
  } as { [Name in CredentialSettingNames<P>]: TOptional<TString> };
}

const BankIdentity = Type.Object({
  ...credentialSettings('QWAC', 'Berlin Group mutual TLS (an eIDAS QWAC in production)'),
  ...credentialSettings('QSEAL', 'Berlin Group request signatures (an eIDAS QSealC; `keyId` and `TPP-Signature-Certificate` come from it)'),
  ...credentialSettings('OB_TRANSPORT', 'UK Open Banking mutual TLS, `tls_client_auth` (the OBWAC)'),
  OB_SIGNING_CERT_FILE: Type.Optional(
    Type.String({
      description: 'The certificate of `OB_SIGNING_KEY_FILE` (the OBSeal), shown with its expiry',
      ...unset('the key is shown without one'),
    }),
  ),
  OB_SSA_FILE: Type.Optional(
    Type.String({
      description: 'The software statement assertion (a JWT from the Open Banking Directory) sent in dynamic client registration',
      ...unset('none: UK banks cannot be registered'),
    }),
  ),
  BANK_CA_FILE: Type.Optional(
    Type.String({ description: "PEM CA certificates trusted for banks' TLS servers, besides Node's own", ...unset("Node's own only") }),
  ),
  CERTIFICATE_EXPIRY_WARNING_DAYS: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 30,
    description: 'Warn (log, metric, console banner) this many days before one of our certificates towards the banks expires',
  }),
});

const Banks = Type.Object({
  BANK_STATUS_POLL_BASE_MS: Type.Integer({
    minimum: 10,
    maximum: 600_000,
    default: 1000,
    description:
      'Bank status polling (ms): every base for the first minute, then doubling up to the cap, ±20 % jitter (docs/state-machine.md, "Polling")',
  }),
  BANK_STATUS_POLL_MAX_MS: Type.Integer({
    minimum: 10,
    maximum: 24 * 60 * 60_000,
    default: 2 * 60_000,
    description: 'The cap of the bank status polling interval (ms)',
  }),
  BANK_POLL_BUDGET_PER_SECOND: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 1000,
    description:
      "Background calls one process makes to one bank per second at most: a ceiling against runaway polling; lower it to what a bank's agreement allows",
  }),
  BANK_PENDING_ALERT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 30 * WHOLE_DAY_SECONDS,
    default: 60 * 60,
    description: 'Age past which a payment still pending at the bank is reported (a gauge and one warning per payment; docs/operations.md)',
  }),
  FLOW_LEASE_MS: Type.Integer({
    minimum: 5000,
    maximum: 600_000,
    default: 60_000,
    description:
      "How long a run of a payment's flow holds the payment against other requests and jobs; it must outlast a run's bank calls with their timeouts. After a crash the payment is taken up again once it lapses (ms)",
  }),
  BANK_CALL_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 30,
    description:
      'Days the records of bank calls (operation, outcome, latency; no bodies) are kept for the console, then pruned hourly (docs/console.md#bank-calls)',
  }),
});

const Processes = Type.Object({
  PROCESS_ROLE: Type.Enum(['all', 'api', 'worker'], {
    default: 'all',
    description: '`all` (API and background workers), `api` (API only) or `worker` (background jobs and webhooks only)',
  }),
  WORKER_POLL_INTERVAL_MS: Type.Integer({
    minimum: 10,
    maximum: 60_000,
    default: 500,
    description: 'How often an idle worker looks for due jobs and webhook deliveries (ms)',
  }),
  WORKER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1000, default: 16, description: 'Jobs and deliveries one process runs at once' }),
  WORKER_LEASE_MS: Type.Integer({
    minimum: 1000,
    maximum: 3_600_000,
    default: 60_000,
    description: 'How long a claim on a job or delivery lasts; after a crash the work is taken again once it lapses (ms)',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 10_000,
    description:
      'On SIGTERM/SIGINT, how long requests and jobs in flight may finish before the process exits anyway (ms); another process takes over what is left once its lease lapses',
  }),
});

const Metrics = Type.Object({
  METRICS_HOST: Type.String({
    default: '127.0.0.1',
    description: 'Interface of the Prometheus `/metrics` listener, apart from the API port; any but loopback requires `METRICS_TOKEN`',
  }),
  METRICS_PORT: Type.String({
    format: 'port-or-off',
    default: '9464',
    description: 'Port of the `/metrics` listener: `off` turns it off, `0` takes any free port',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'Bearer token (16+ characters) scrapers must send; required when `METRICS_HOST` is not loopback',
      ...unset('no token'),
    }),
  ),
});

const Webhooks = Type.Object({
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 15_000,
    description: "One delivery attempt's time limit (ms)",
  }),
  WEBHOOK_RETRY_DELAYS: Type.String({
    format: 'delays',
    default: '5s,5m,30m,2h,5h,10h,10h',
    description: 'Delays before the 2nd, 3rd … delivery attempt (ms, s, m or h; a bare number is seconds)',
  }),
  WEBHOOK_RETRY_SCALE: Type.Number({
    minimum: 0.000001,
    maximum: 1000,
    default: 1,
    description: 'A factor on every retry delay (below 1 shortens the schedule)',
  }),
  WEBHOOK_SECRET_GRACE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 30 * WHOLE_DAY_SECONDS,
    default: WHOLE_DAY_SECONDS,
    description: 'How long the previous webhook secret keeps signing after `openpis clients rotate-webhook-secret` (s)',
  }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({
    default: false,
    description: 'Local development only: deliver to loopback/private addresses (and http to loopback)',
  }),
  WEBHOOK_CA_FILE: Type.Optional(
    Type.String({
      description: 'Extra CAs (PEM) to trust for webhook receivers (e.g. a local HTTPS receiver)',
      ...unset('the system CAs only'),
    }),
  ),
});

const Console = Type.Object({
  CONSOLE_SESSION_IDLE_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 24 * 60,
    default: 30,
    description: 'A console session ends after this many idle minutes (docs/console.md#security)',
  }),
  CONSOLE_SESSION_MAX_HOURS: Type.Integer({
    minimum: 1,
    maximum: 7 * 24,
    default: 12,
    description: 'A console session ends this many hours after sign-in',
  }),
  CONSOLE_LOCKOUT_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 5,
    description: 'Failed sign-ins in a row (passwords and second-factor codes alike) that lock a console account',
  }),
  CONSOLE_LOCKOUT_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 24 * 60,
    default: 15,
    description: 'How long a locked console account stays locked (minutes)',
  }),
});

const Secrets = Type.Object({
  SECRET_KEYS: Type.Optional(
    Type.String({
      format: 'secret-keys',
      description:
        'Operator key ring sealing secrets at rest (webhook signing secrets, payer flow tokens) with AES-256-GCM: ' +
        '`<id>:<base64 of 32 bytes>,…`, the first seals, every key opens. Make a key with `npx openpis secrets generate-key`; ' +
        'production must set it; rotation: docs/operations.md#secrets-at-rest-and-key-rotation',
      ...unset('SQLite: a generated key in `secret-keys` beside the database (mode 0600, a warning at start); PostgreSQL refuses to start'),
    }),
  ),
});

/** The settings in the order they are documented, in sections. */
export const CONFIG_SECTIONS = [
  { title: 'HTTP', settings: Http },
  { title: 'Database, logs and the demo client', settings: Storage },
  { title: 'The payment API', settings: Api },
  { title: 'The sandbox bank', settings: Sandbox },
  { title: 'Who you are, as payers see it on the hosted pages', settings: Operator },
  { title: 'UK Open Banking', settings: UkOpenBanking },
  { title: 'Our identity towards the banks: certificates and keys', settings: BankIdentity },
  { title: 'Banks: status polling, pending payments, records of calls', settings: Banks },
  { title: 'Processes and background workers', settings: Processes },
  { title: 'Prometheus metrics', settings: Metrics },
  { title: 'Webhooks', settings: Webhooks },
  { title: 'The console', settings: Console },
  { title: 'Secrets at rest', settings: Secrets },
] as const;

/** The process environment the service reads: every setting, by its variable's name. */
export const ConfigEnvironment = Type.Object({
  ...Http.properties,
  ...Storage.properties,
  ...Api.properties,
  ...Sandbox.properties,
  ...Operator.properties,
  ...UkOpenBanking.properties,
  ...BankIdentity.properties,
  ...Banks.properties,
  ...Processes.properties,
  ...Metrics.properties,
  ...Webhooks.properties,
  ...Console.properties,
  ...Secrets.properties,
});

/** The settings once validated and coerced: numbers, booleans and lists where the schema says so. */
export type ConfigSettings = Static<typeof ConfigEnvironment>;

/** A setting's schema as the docs read it. */
export type SettingSchema = TSchema & { readonly description?: string; readonly default?: unknown; readonly 'x-unset'?: string };
