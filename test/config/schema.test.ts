/**
 * The configuration schema (src/config/schema.ts, docs/adr/0008-configuration-schema.md): what it writes is in step
 * with it, every setting keeps its name and default, and the loader coerces and refuses values as it always has.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { ConfigEnvironment } from '../../src/config/schema.js';
import { ENVIRONMENT_SCHEMA } from '../../src/config/schema.generated.js';
import { readmeWithTable, renderEnvExample, renderGeneratedSchema } from '../../scripts/config-docs.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const OUT_OF_STEP = 'out of step with src/config/schema.ts: run `npm run config:docs`';

/** Every setting the service has read since before the schema; none may be renamed or dropped. */
const SETTINGS = [
  'PORT',
  'HOST',
  'BASE_URL',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'TRUST_PROXY',
  'DATABASE_URL',
  'LOG_LEVEL',
  'CREATE_DEMO_CLIENT',
  'RATE_LIMIT_PER_SECOND',
  'RATE_LIMIT_BURST',
  'FLOW_DEADLINE_SECONDS',
  'FLOW_LEASE_MS',
  'PROVIDER_CATALOGUE_FILE',
  'SANDBOX_BANK_URL',
  'SANDBOX_OPERATOR_TOKEN',
  'OPERATOR_NAME',
  'OPERATOR_REGULATORY_STATEMENT',
  'OPERATOR_TERMS_URL',
  'OPERATOR_PRIVACY_URL',
  'OB_SIGNING_KEY_FILE',
  'OB_SIGNING_KEY_ID',
  ...['QWAC', 'QSEAL', 'OB_TRANSPORT'].flatMap((prefix) =>
    ['CERT_FILE', 'KEY_FILE', 'P12_FILE', 'P12_PASSWORD'].map((name) => `${prefix}_${name}`),
  ),
  'OB_SIGNING_CERT_FILE',
  'OB_SSA_FILE',
  'BANK_CA_FILE',
  'CERTIFICATE_EXPIRY_WARNING_DAYS',
  'BANK_STATUS_POLL_BASE_MS',
  'BANK_STATUS_POLL_MAX_MS',
  'BANK_POLL_BUDGET_PER_SECOND',
  'BANK_PENDING_ALERT_SECONDS',
  'BANK_CALL_RETENTION_DAYS',
  'PROCESS_ROLE',
  'WORKER_POLL_INTERVAL_MS',
  'WORKER_CONCURRENCY',
  'WORKER_LEASE_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'METRICS_HOST',
  'METRICS_PORT',
  'METRICS_TOKEN',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RETRY_DELAYS',
  'WEBHOOK_RETRY_SCALE',
  'WEBHOOK_SECRET_GRACE_SECONDS',
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'WEBHOOK_CA_FILE',
  'CONSOLE_SESSION_IDLE_MINUTES',
  'CONSOLE_SESSION_MAX_HOURS',
  'CONSOLE_LOCKOUT_ATTEMPTS',
  'CONSOLE_LOCKOUT_MINUTES',
  'SECRET_KEYS',
];

const problemsOf = (environment: Record<string, string>): readonly string[] => {
  try {
    loadConfig(environment);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  return [];
};

describe('the configuration schema', () => {
  it('is what the loader reads (src/config/schema.generated.ts)', () => {
    assert.equal(read('src/config/schema.generated.ts'), renderGeneratedSchema(), `src/config/schema.generated.ts is ${OUT_OF_STEP}`);
    assert.deepEqual(ENVIRONMENT_SCHEMA, JSON.parse(JSON.stringify(ConfigEnvironment)));
  });

  it('is what .env.example and the README configuration table say', () => {
    assert.equal(read('.env.example'), renderEnvExample(), `.env.example is ${OUT_OF_STEP}`);
    const readme = read('README.md');
    assert.equal(readme, readmeWithTable(readme), `the README's configuration table is ${OUT_OF_STEP}`);
  });

  it('has every setting, each described; one without a default says what unset means', () => {
    assert.deepEqual(Object.keys(ConfigEnvironment.properties).sort(), [...SETTINGS].sort());
    for (const [name, setting] of Object.entries(ENVIRONMENT_SCHEMA.properties)) {
      assert.ok(setting.description !== undefined && setting.description.length > 0, `${name} has no description`);
      const hasDefault = 'default' in setting;
      assert.equal(hasDefault, ENVIRONMENT_SCHEMA.required.includes(name as never), `${name}: a default exactly when required`);
      if (!hasDefault) assert.ok('x-unset' in setting, `${name} has neither a default nor x-unset`);
    }
  });

  it('keeps every default', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(loadConfig({}))), {
      port: 8080,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:8080',
      trustProxy: false,
      database: { kind: 'sqlite', path: 'data/openpis.sqlite' },
      logLevel: 'info',
      createDemoClient: true,
      rateLimit: { perSecond: 100, burst: 200 },
      flowDeadlineSeconds: 900,
      sandboxBank: { mode: 'embedded', url: 'http://localhost:8080/sandbox-bank' },
      operator: {},
      bankIdentity: { expiryWarningDays: 30 },
      bankStatusPolling: { baseMs: 1000, maxMs: 120000, budgetPerSecond: 1000 },
      bankPendingAlertSeconds: 3600,
      flowLeaseMs: 60000,
      secretKeys: [],
      processRole: 'all',
      workers: { pollIntervalMs: 500, concurrency: 16, leaseMs: 60000 },
      metrics: { host: '127.0.0.1', port: 9464 },
      shutdownTimeoutMs: 10000,
      console: { session: { idleSeconds: 1800, absoluteSeconds: 43200 }, lockout: { attempts: 5, seconds: 900 } },
      bankCallRetentionDays: 30,
      webhooks: {
        timeoutMs: 15000,
        allowPrivateTargets: false,
        retryDelaysMs: [5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000],
        retryScale: 1,
        secretGraceSeconds: 86400,
      },
    });
  });

  it('coerces what operators write: numbers, yes/no in any case, lists, off; blank is unset', () => {
    const config = loadConfig({
      PORT: ' 9000 ',
      HOST: '',
      CREATE_DEMO_CLIENT: 'No',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,',
      WEBHOOK_RETRY_SCALE: '0.5',
      WEBHOOK_RETRY_DELAYS: '1s, 500ms,2m',
      METRICS_PORT: 'OFF',
      SANDBOX_BANK_URL: 'http://localhost:8090//',
      OB_SIGNING_KEY_FILE: 'signing.pem',
      OB_SIGNING_KEY_ID: 'kid-1',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.baseUrl, 'http://localhost:9000');
    assert.equal(config.createDemoClient, false);
    assert.equal(config.webhooks.allowPrivateTargets, true);
    assert.deepEqual(config.trustProxy, ['10.0.0.1', '10.0.0.0/8']);
    assert.equal(config.webhooks.retryScale, 0.5);
    assert.deepEqual(config.webhooks.retryDelaysMs, [1000, 500, 120000]);
    assert.equal(config.metrics, undefined);
    assert.deepEqual(config.sandboxBank, { mode: 'external', url: 'http://localhost:8090' });
    assert.deepEqual(config.openBankingSigningKey, { keyFile: 'signing.pem', keyId: 'kid-1' });
    assert.equal(loadConfig({ TRUST_PROXY: 'YES' }).trustProxy, true);
    assert.equal(loadConfig({ FLOW_LEASE_MS: '15000' }).flowLeaseMs, 15000);
  });

  it('lists every problem at once, in the words it always used', () => {
    assert.deepEqual(
      [
        ...problemsOf({
          PORT: '1e3',
          LOG_LEVEL: 'loud',
          CREATE_DEMO_CLIENT: 'maybe',
          WEBHOOK_RETRY_SCALE: '0',
          METRICS_TOKEN: 'short',
          METRICS_PORT: '99999',
          TLS_KEY_FILE: 'key.pem',
          DATABASE_URL: 'mysql://db',
          BASE_URL: 'ftp://pay.example/?q',
          WEBHOOK_RETRY_DELAYS: '5s,soon',
        }),
      ].sort(),
      [
        'BASE_URL must not carry a query or fragment',
        'BASE_URL must use http or https (got "ftp://pay.example/?q")',
        'CREATE_DEMO_CLIENT must be true or false (got "maybe")',
        'DATABASE_URL must start with sqlite: or postgres:// (or postgresql://)',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        'METRICS_PORT must be a port number (0: any free one) or off (got "99999")',
        'METRICS_TOKEN must be at least 16 characters',
        'PORT must be a whole number from 0 to 65535 (got "1e3")',
        'TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither',
        'WEBHOOK_RETRY_DELAYS "soon" is not a delay like 5s, 5m, 2h or 500ms (e.g. 5s,5m,30m,2h,5h,10h,10h)',
        'WEBHOOK_RETRY_SCALE must be a number from 0.000001 to 1000 (got "0")',
      ],
    );
    assert.deepEqual(problemsOf({ METRICS_HOST: '0.0.0.0' }), [
      'METRICS_HOST=0.0.0.0 publishes metrics beyond this machine: set METRICS_TOKEN too (scrapers send it as a bearer token)',
    ]);
    assert.deepEqual(problemsOf({ OB_SIGNING_KEY_FILE: 'signing.pem', OB_SIGNING_KEY_ID: 'has space' }), [
      'OB_SIGNING_KEY_ID must be 1 to 128 printable characters without spaces',
    ]);
    // Our certificates towards the banks: a PEM pair or a PKCS#12 file, one way each.
    assert.deepEqual(
      [
        ...problemsOf({
          QWAC_CERT_FILE: 'qwac.pem',
          QSEAL_P12_FILE: 'qseal.p12',
          QSEAL_KEY_FILE: 'x.key',
          OB_TRANSPORT_P12_PASSWORD: 'pw',
          OB_SIGNING_CERT_FILE: 'obseal.pem',
        }),
      ].sort(),
      [
        'OB_SIGNING_CERT_FILE is the certificate of OB_SIGNING_KEY_FILE: set that key (and OB_SIGNING_KEY_ID) too',
        'OB_TRANSPORT_P12_PASSWORD is set without OB_TRANSPORT_P12_FILE',
        'QSEAL_CERT_FILE and QSEAL_KEY_FILE go together: set both or neither',
        'QSEAL_P12_FILE or QSEAL_CERT_FILE/QSEAL_KEY_FILE: set one way, not both',
        'QWAC_CERT_FILE and QWAC_KEY_FILE go together: set both or neither',
      ],
    );
    assert.deepEqual(
      loadConfig({ QWAC_P12_FILE: 'qwac.p12', QWAC_P12_PASSWORD: 'pw', QSEAL_CERT_FILE: 'c.pem', QSEAL_KEY_FILE: 'k.pem' }).bankIdentity,
      {
        qwac: { kind: 'pkcs12', file: 'qwac.p12', password: 'pw' },
        qseal: { kind: 'pem', certFile: 'c.pem', keyFile: 'k.pem' },
        openBankingTransport: undefined,
        openBankingSigningCertFile: undefined,
        softwareStatementFile: undefined,
        bankCaFile: undefined,
        expiryWarningDays: 30,
      },
    );
  });
});
