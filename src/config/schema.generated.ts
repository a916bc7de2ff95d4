// Written by `npm run config:docs` from src/config/schema.ts: the configuration schema as plain JSON Schema, which
// the loader (src/config/config.ts) reads without loading TypeBox. Do not edit; test/config/schema.test.ts fails
// when it is out of step.
import type { EnvironmentJsonSchema } from './settings.js';

export const ENVIRONMENT_SCHEMA = {
  "type": "object",
  "required": [
    "PORT",
    "HOST",
    "TRUST_PROXY",
    "DATABASE_URL",
    "LOG_LEVEL",
    "CREATE_DEMO_CLIENT",
    "RATE_LIMIT_PER_SECOND",
    "RATE_LIMIT_BURST",
    "FLOW_DEADLINE_SECONDS",
    "CERTIFICATE_EXPIRY_WARNING_DAYS",
    "BANK_STATUS_POLL_BASE_MS",
    "BANK_STATUS_POLL_MAX_MS",
    "BANK_POLL_BUDGET_PER_SECOND",
    "BANK_PENDING_ALERT_SECONDS",
    "FLOW_LEASE_MS",
    "BANK_CALL_RETENTION_DAYS",
    "PROCESS_ROLE",
    "WORKER_POLL_INTERVAL_MS",
    "WORKER_CONCURRENCY",
    "WORKER_LEASE_MS",
    "SHUTDOWN_TIMEOUT_MS",
    "METRICS_HOST",
    "METRICS_PORT",
    "WEBHOOK_TIMEOUT_MS",
    "WEBHOOK_RETRY_DELAYS",
    "WEBHOOK_RETRY_SCALE",
    "WEBHOOK_SECRET_GRACE_SECONDS",
    "WEBHOOK_ALLOW_PRIVATE_TARGETS",
    "CONSOLE_SESSION_IDLE_MINUTES",
    "CONSOLE_SESSION_MAX_HOURS",
    "CONSOLE_LOCKOUT_ATTEMPTS",
    "CONSOLE_LOCKOUT_MINUTES"
  ],
  "properties": {
    "PORT": {
      "type": "integer",
      "minimum": 0,
      "maximum": 65535,
      "default": 8080,
      "description": "HTTP port"
    },
    "HOST": {
      "type": "string",
      "default": "127.0.0.1",
      "description": "Interface to bind (`0.0.0.0` in a container)"
    },
    "BASE_URL": {
      "type": "string",
      "format": "base-url",
      "description": "Public base URL of every link we hand out (redirect URLs, logos); http(s), no query or fragment",
      "x-unset": "`http://localhost:$PORT`"
    },
    "TLS_CERT_FILE": {
      "type": "string",
      "description": "PEM certificate chain: the service terminates TLS itself (with `TLS_KEY_FILE`; set both or neither)",
      "x-unset": "plain HTTP"
    },
    "TLS_KEY_FILE": {
      "type": "string",
      "description": "PEM private key of `TLS_CERT_FILE`",
      "x-unset": "plain HTTP"
    },
    "TRUST_PROXY": {
      "anyOf": [
        {
          "type": "boolean"
        },
        {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      ],
      "default": false,
      "description": "Believe a proxy's `X-Forwarded-Proto`/`-For` (HTTPS is required for production clients unless `BASE_URL` is loopback): `true`, or the proxy's addresses/CIDRs (comma-separated)"
    },
    "DATABASE_URL": {
      "type": "string",
      "format": "database-url",
      "default": "sqlite:data/openpis.sqlite",
      "description": "`sqlite:<path>` (`sqlite::memory:` for a throw-away one) or `postgres://user:pass@host:5432/db`"
    },
    "LOG_LEVEL": {
      "enum": [
        "fatal",
        "error",
        "warn",
        "info",
        "debug",
        "trace",
        "silent"
      ],
      "default": "info",
      "description": "pino level, or `silent`"
    },
    "CREATE_DEMO_CLIENT": {
      "type": "boolean",
      "default": true,
      "description": "Create and print a demo sandbox client on an empty database"
    },
    "RATE_LIMIT_PER_SECOND": {
      "type": "integer",
      "minimum": 1,
      "maximum": 1000000,
      "default": 100,
      "description": "Per-client rate limit: sustained requests per second"
    },
    "RATE_LIMIT_BURST": {
      "type": "integer",
      "minimum": 1,
      "maximum": 1000000,
      "default": 200,
      "description": "Per-client rate limit: the burst allowed on top"
    },
    "FLOW_DEADLINE_SECONDS": {
      "type": "integer",
      "minimum": 10,
      "maximum": 86400,
      "default": 900,
      "description": "Time a payer has to finish before the payment fails with `EXPIRED`"
    },
    "PROVIDER_CATALOGUE_FILE": {
      "type": "string",
      "description": "Your own bank catalogue (JSON, the shape of src/providers/sandbox-catalogue.json); bank addresses must be https (plain http only to this machine)",
      "x-unset": "the built-in sandbox catalogue"
    },
    "SANDBOX_BANK_URL": {
      "type": "string",
      "format": "http-url",
      "description": "Address of a separately started sandbox bank (`npx openpis sandbox-bank --port 8090`); required with `PROCESS_ROLE` `api`/`worker`: processes apart must share one sandbox bank (docs/operations.md#processes)",
      "x-unset": "embedded under `/sandbox-bank`"
    },
    "SANDBOX_OPERATOR_TOKEN": {
      "type": "string",
      "minLength": 16,
      "description": "Operator's bearer token (16+ characters) for the sandbox bank's fault routes and `openpis sandbox faults`",
      "x-unset": "fault injection over HTTP closed"
    },
    "OPERATOR_NAME": {
      "type": "string",
      "format": "display-text",
      "maxLength": 80,
      "description": "Your name as payers see it: \"You are paying … initiated by <name>\" on the review step (at most 80 characters)",
      "x-unset": "left out"
    },
    "OPERATOR_REGULATORY_STATEMENT": {
      "type": "string",
      "format": "display-text",
      "maxLength": 500,
      "description": "One line in every payer page's footer, e.g. who authorises you and your register number (at most 500 characters)",
      "x-unset": "left out"
    },
    "OPERATOR_TERMS_URL": {
      "type": "string",
      "format": "payer-link",
      "description": "Your terms, linked in every payer page's footer (https; http only to this machine)",
      "x-unset": "left out"
    },
    "OPERATOR_PRIVACY_URL": {
      "type": "string",
      "format": "payer-link",
      "description": "Your privacy notice, linked in every payer page's footer (https; http only to this machine)",
      "x-unset": "left out"
    },
    "OB_SIGNING_KEY_FILE": {
      "type": "string",
      "description": "UK Open Banking signing key (PKCS#8 PEM, RSA, PS256): client assertions, request objects, x-jws-signature (with `OB_SIGNING_KEY_ID`; set both or neither). UK banks in production need the registered key",
      "x-unset": "a throw-away key made at start, which the sandbox banks are told"
    },
    "OB_SIGNING_KEY_ID": {
      "type": "string",
      "format": "key-id",
      "description": "The `kid` the banks registered the signing key under (1 to 128 printable characters, no spaces)",
      "x-unset": "a throw-away key made at start, which the sandbox banks are told"
    },
    "QWAC_CERT_FILE": {
      "type": "string",
      "description": "Berlin Group mutual TLS (an eIDAS QWAC in production): PEM certificate (chain, leaf first), with `QWAC_KEY_FILE`",
      "x-unset": "none"
    },
    "QWAC_KEY_FILE": {
      "type": "string",
      "description": "Unencrypted PEM private key of `QWAC_CERT_FILE`",
      "x-unset": "none"
    },
    "QWAC_P12_FILE": {
      "type": "string",
      "description": "Berlin Group mutual TLS (an eIDAS QWAC in production) as one PKCS#12 file instead (RSA key), opened with `QWAC_P12_PASSWORD`",
      "x-unset": "none"
    },
    "QWAC_P12_PASSWORD": {
      "type": "string",
      "description": "Password of `QWAC_P12_FILE`",
      "x-unset": "no password"
    },
    "QSEAL_CERT_FILE": {
      "type": "string",
      "description": "Berlin Group request signatures (an eIDAS QSealC; `keyId` and `TPP-Signature-Certificate` come from it): PEM certificate (chain, leaf first), with `QSEAL_KEY_FILE`",
      "x-unset": "none"
    },
    "QSEAL_KEY_FILE": {
      "type": "string",
      "description": "Unencrypted PEM private key of `QSEAL_CERT_FILE`",
      "x-unset": "none"
    },
    "QSEAL_P12_FILE": {
      "type": "string",
      "description": "Berlin Group request signatures (an eIDAS QSealC; `keyId` and `TPP-Signature-Certificate` come from it) as one PKCS#12 file instead (RSA key), opened with `QSEAL_P12_PASSWORD`",
      "x-unset": "none"
    },
    "QSEAL_P12_PASSWORD": {
      "type": "string",
      "description": "Password of `QSEAL_P12_FILE`",
      "x-unset": "no password"
    },
    "OB_TRANSPORT_CERT_FILE": {
      "type": "string",
      "description": "UK Open Banking mutual TLS, `tls_client_auth` (the OBWAC): PEM certificate (chain, leaf first), with `OB_TRANSPORT_KEY_FILE`",
      "x-unset": "none"
    },
    "OB_TRANSPORT_KEY_FILE": {
      "type": "string",
      "description": "Unencrypted PEM private key of `OB_TRANSPORT_CERT_FILE`",
      "x-unset": "none"
    },
    "OB_TRANSPORT_P12_FILE": {
      "type": "string",
      "description": "UK Open Banking mutual TLS, `tls_client_auth` (the OBWAC) as one PKCS#12 file instead (RSA key), opened with `OB_TRANSPORT_P12_PASSWORD`",
      "x-unset": "none"
    },
    "OB_TRANSPORT_P12_PASSWORD": {
      "type": "string",
      "description": "Password of `OB_TRANSPORT_P12_FILE`",
      "x-unset": "no password"
    },
    "OB_SIGNING_CERT_FILE": {
      "type": "string",
      "description": "The certificate of `OB_SIGNING_KEY_FILE` (the OBSeal), shown with its expiry",
      "x-unset": "the key is shown without one"
    },
    "OB_SSA_FILE": {
      "type": "string",
      "description": "The software statement assertion (a JWT from the Open Banking Directory) sent in dynamic client registration",
      "x-unset": "none: UK banks cannot be registered"
    },
    "BANK_CA_FILE": {
      "type": "string",
      "description": "PEM CA certificates trusted for banks' TLS servers, besides Node's own",
      "x-unset": "Node's own only"
    },
    "CERTIFICATE_EXPIRY_WARNING_DAYS": {
      "type": "integer",
      "minimum": 1,
      "maximum": 365,
      "default": 30,
      "description": "Warn (log, metric, console banner) this many days before one of our certificates towards the banks expires"
    },
    "BANK_STATUS_POLL_BASE_MS": {
      "type": "integer",
      "minimum": 10,
      "maximum": 600000,
      "default": 1000,
      "description": "Bank status polling (ms): every base for the first minute, then doubling up to the cap, ±20 % jitter (docs/state-machine.md, \"Polling\")"
    },
    "BANK_STATUS_POLL_MAX_MS": {
      "type": "integer",
      "minimum": 10,
      "maximum": 86400000,
      "default": 120000,
      "description": "The cap of the bank status polling interval (ms)"
    },
    "BANK_POLL_BUDGET_PER_SECOND": {
      "type": "integer",
      "minimum": 1,
      "maximum": 100000,
      "default": 1000,
      "description": "Background calls one process makes to one bank per second at most: a ceiling against runaway polling; lower it to what a bank's agreement allows"
    },
    "BANK_PENDING_ALERT_SECONDS": {
      "type": "integer",
      "minimum": 1,
      "maximum": 2592000,
      "default": 3600,
      "description": "Age past which a payment still pending at the bank is reported (a gauge and one warning per payment; docs/operations.md)"
    },
    "FLOW_LEASE_MS": {
      "type": "integer",
      "minimum": 5000,
      "maximum": 600000,
      "default": 60000,
      "description": "How long a run of a payment's flow holds the payment against other requests and jobs; it must outlast a run's bank calls with their timeouts. After a crash the payment is taken up again once it lapses (ms)"
    },
    "BANK_CALL_RETENTION_DAYS": {
      "type": "integer",
      "minimum": 1,
      "maximum": 3650,
      "default": 30,
      "description": "Days the records of bank calls (operation, outcome, latency; no bodies) are kept for the console, then pruned hourly (docs/console.md#bank-calls)"
    },
    "PROCESS_ROLE": {
      "enum": [
        "all",
        "api",
        "worker"
      ],
      "default": "all",
      "description": "`all` (API and background workers), `api` (API only) or `worker` (background jobs and webhooks only)"
    },
    "WORKER_POLL_INTERVAL_MS": {
      "type": "integer",
      "minimum": 10,
      "maximum": 60000,
      "default": 500,
      "description": "How often an idle worker looks for due jobs and webhook deliveries (ms)"
    },
    "WORKER_CONCURRENCY": {
      "type": "integer",
      "minimum": 1,
      "maximum": 1000,
      "default": 16,
      "description": "Jobs and deliveries one process runs at once"
    },
    "WORKER_LEASE_MS": {
      "type": "integer",
      "minimum": 1000,
      "maximum": 3600000,
      "default": 60000,
      "description": "How long a claim on a job or delivery lasts; after a crash the work is taken again once it lapses (ms)"
    },
    "SHUTDOWN_TIMEOUT_MS": {
      "type": "integer",
      "minimum": 100,
      "maximum": 600000,
      "default": 10000,
      "description": "On SIGTERM/SIGINT, how long requests and jobs in flight may finish before the process exits anyway (ms); another process takes over what is left once its lease lapses"
    },
    "METRICS_HOST": {
      "type": "string",
      "default": "127.0.0.1",
      "description": "Interface of the Prometheus `/metrics` listener, apart from the API port; any but loopback requires `METRICS_TOKEN`"
    },
    "METRICS_PORT": {
      "type": "string",
      "format": "port-or-off",
      "default": "9464",
      "description": "Port of the `/metrics` listener: `off` turns it off, `0` takes any free port"
    },
    "METRICS_TOKEN": {
      "type": "string",
      "minLength": 16,
      "description": "Bearer token (16+ characters) scrapers must send; required when `METRICS_HOST` is not loopback",
      "x-unset": "no token"
    },
    "WEBHOOK_TIMEOUT_MS": {
      "type": "integer",
      "minimum": 100,
      "maximum": 60000,
      "default": 15000,
      "description": "One delivery attempt's time limit (ms)"
    },
    "WEBHOOK_RETRY_DELAYS": {
      "type": "string",
      "format": "delays",
      "default": "5s,5m,30m,2h,5h,10h,10h",
      "description": "Delays before the 2nd, 3rd … delivery attempt (ms, s, m or h; a bare number is seconds)"
    },
    "WEBHOOK_RETRY_SCALE": {
      "type": "number",
      "minimum": 0.000001,
      "maximum": 1000,
      "default": 1,
      "description": "A factor on every retry delay (below 1 shortens the schedule)"
    },
    "WEBHOOK_SECRET_GRACE_SECONDS": {
      "type": "integer",
      "minimum": 0,
      "maximum": 2592000,
      "default": 86400,
      "description": "How long the previous webhook secret keeps signing after `openpis clients rotate-webhook-secret` (s)"
    },
    "WEBHOOK_ALLOW_PRIVATE_TARGETS": {
      "type": "boolean",
      "default": false,
      "description": "Local development only: deliver to loopback/private addresses (and http to loopback)"
    },
    "WEBHOOK_CA_FILE": {
      "type": "string",
      "description": "Extra CAs (PEM) to trust for webhook receivers (e.g. a local HTTPS receiver)",
      "x-unset": "the system CAs only"
    },
    "CONSOLE_SESSION_IDLE_MINUTES": {
      "type": "integer",
      "minimum": 1,
      "maximum": 1440,
      "default": 30,
      "description": "A console session ends after this many idle minutes (docs/console.md#security)"
    },
    "CONSOLE_SESSION_MAX_HOURS": {
      "type": "integer",
      "minimum": 1,
      "maximum": 168,
      "default": 12,
      "description": "A console session ends this many hours after sign-in"
    },
    "CONSOLE_LOCKOUT_ATTEMPTS": {
      "type": "integer",
      "minimum": 1,
      "maximum": 100,
      "default": 5,
      "description": "Failed sign-ins in a row (passwords and second-factor codes alike) that lock a console account"
    },
    "CONSOLE_LOCKOUT_MINUTES": {
      "type": "integer",
      "minimum": 1,
      "maximum": 1440,
      "default": 15,
      "description": "How long a locked console account stays locked (minutes)"
    },
    "SECRET_KEYS": {
      "type": "string",
      "format": "secret-keys",
      "description": "Operator key ring sealing secrets at rest (webhook signing secrets, payer flow tokens) with AES-256-GCM: `<id>:<base64 of 32 bytes>,…`, the first seals, every key opens. Make a key with `npx openpis secrets generate-key`; production must set it; rotation: docs/operations.md#secrets-at-rest-and-key-rotation",
      "x-unset": "SQLite: a generated key in `secret-keys` beside the database (mode 0600, a warning at start); PostgreSQL refuses to start"
    }
  }
} as const satisfies EnvironmentJsonSchema;
