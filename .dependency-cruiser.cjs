/**
 * Import boundaries of the source tree, checked by dependency-cruiser in `npm test` (scripts/check-boundaries.mjs).
 *
 * The top-level folders of src/ form layers; a folder may import only the folders listed for it below, all of them
 * lower, so imports point one way and no two folders can import each other, directly or round a loop. The
 * shared domain (statuses, failure codes, the payment, money, reference data) is at the bottom and imports nothing
 * of ours. docs/architecture.md draws the layers. Inside a folder, and in scripts/, bench/ and test/ (which
 * `npm run check:boundaries` reads too), no two files import each other round a loop either (`no-circular`).
 *
 * The sandbox banks are a workspace package of their own (packages/sandbox-bank, `@openpis/sandbox-bank`): it imports
 * nothing of the service, the service reaches it only through its entry point (`import … from '@openpis/sandbox-bank'`,
 * which tsconfig.json maps to packages/sandbox-bank/src/index.ts), and only the composition root (the files at the
 * top of src/) and the folders in SANDBOX_BANK_IMPORTERS do.
 */
const LAYERS = {
  // The bottom: no imports of ours.
  domain: [],
  crypto: [],
  http: ['domain'],
  i18n: ['domain'],
  config: ['crypto', 'domain'],
  // Our certificates and keys towards the banks, read from the operator's files, and each bank's credentials made of
  // them for the connectors (the connectors get PEM and keys, never this module).
  identity: ['connectors', 'config', 'domain'],
  // Infrastructure and the banks.
  storage: ['config', 'crypto', 'domain'],
  jobs: ['storage', 'config', 'domain'],
  connectors: ['domain', 'crypto', 'http'],
  // The banks' catalogue, kept in the database (bank-store.ts) with their secrets sealed (crypto).
  providers: ['connectors', 'domain', 'http', 'auth', 'storage', 'crypto'],
  webhooks: ['storage', 'jobs', 'config', 'crypto', 'domain', 'http'],
  auth: ['storage', 'webhooks', 'config', 'crypto', 'domain', 'http'],
  // A client's branding on the payer's pages (name, logo, colour, support link), stored with the client.
  branding: ['storage', 'config', 'crypto', 'domain'],
  // The console's people: accounts, sessions, second factor, the audit log.
  people: ['storage', 'config', 'crypto', 'domain'],
  observability: ['identity', 'connectors', 'providers', 'webhooks', 'storage', 'jobs', 'config', 'domain', 'http'],
  // The go-live tools (`openpis banks register`, `openpis banks check`): our identity, the bank list, the connectors.
  'bank-onboarding': ['identity', 'connectors', 'providers', 'config', 'crypto', 'domain'],
  // The flow engine above them.
  flow: ['connectors', 'providers', 'storage', 'jobs', 'webhooks', 'config', 'crypto', 'domain'],
  // Scenario payments of the sandbox (`openpis trigger`, the console's Sandbox page): made through the service's API.
  'sandbox-scenarios': ['auth', 'providers', 'storage', 'config', 'crypto', 'domain'],
  // HTTP routes, pages and the command line on top (a process's background workers are put together at the top of
  // src/, in background-workers.ts, with the other composition-root files).
  payments: [
    'flow',
    'i18n',
    'connectors',
    'providers',
    'auth',
    'observability',
    'storage',
    'jobs',
    'webhooks',
    'config',
    'crypto',
    'domain',
    'http',
  ],
  hosted: ['flow', 'branding', 'connectors', 'providers', 'i18n', 'config', 'crypto', 'domain', 'http'],
  // The console's pages borrow the payer pages' escaping template and same-origin check (src/hosted/html.ts, security.ts).
  // The Sandbox page names the sandbox banks' fault operations (from @openpis/sandbox-bank, SANDBOX_BANK_IMPORTERS).
  // The Sandbox page also starts scenario payments (src/sandbox-scenarios).
  // The Banks page runs the go-live check of `openpis banks check` (src/bank-onboarding).
  console: [
    'payment-links',
    'bank-onboarding',
    'hosted',
    'identity',
    'people',
    'flow',
    'branding',
    'providers',
    'sandbox-scenarios',
    'auth',
    'webhooks',
    'storage',
    'config',
    'crypto',
    'domain',
    'http',
  ],
  // Payment links: their API routes and the payer's page of a link, which starts a payment in the hosted flow (the
  // payment-building rules of src/payments, the page layout of src/hosted). Their storage and status writer are in
  // src/flow (the flow pays a link in the commit its payment completes in).
  'payment-links': [
    'payments',
    'hosted',
    'flow',
    'branding',
    'i18n',
    'auth',
    'providers',
    'storage',
    'jobs',
    'webhooks',
    'config',
    'crypto',
    'domain',
    'http',
  ],
  // The API as one plugin: the token, providers, payments, payment links and event feed routes, health and readiness.
  api: ['payment-links', 'payments', 'providers', 'auth', 'observability', 'flow', 'webhooks', 'storage', 'http'],
  cli: [
    'payment-links',
    'bank-onboarding',
    'identity',
    'people',
    'sandbox-scenarios',
    'flow',
    'branding',
    'providers',
    'auth',
    'webhooks',
    'storage',
    'config',
    'crypto',
    'domain',
    'http',
  ],
};

/**
 * The folders of src/ that may import the sandbox banks' package besides the composition root (src/*.ts, which mounts
 * it and tells the console's Sandbox page the fault operations): the command line, the composition root of the
 * stand-alone sandbox bank (`openpis sandbox-bank`).
 */
const SANDBOX_BANK_IMPORTERS = ['cli'];

const folders = Object.keys(LAYERS);
const escapeDashes = (name) => name.replace(/[-]/g, '\\-');

module.exports = {
  forbidden: [
    ...folders.map((folder) => ({
      name: `layer-${folder}`,
      severity: 'error',
      comment: `src/${folder} may import only: ${LAYERS[folder].length === 0 ? 'nothing of ours' : LAYERS[folder].join(', ')} (.dependency-cruiser.cjs)`,
      from: { path: `^src/${escapeDashes(folder)}/` },
      to: {
        path: '^src/',
        pathNot: [
          `^src/${escapeDashes(folder)}/`,
          ...LAYERS[folder].map((allowed) => `^src/${escapeDashes(allowed)}/`),
          // The command line opens the service's runtime (database, catalogue, keys) like the server does.
          ...(folder === 'cli' ? ['^src/runtime[.]ts$'] : []),
        ],
      },
    })),
    {
      name: 'no-unknown-folder',
      severity: 'error',
      comment: 'Every top-level folder of src/ has its place in LAYERS (.dependency-cruiser.cjs)',
      from: { path: '^src/[^/]+/', pathNot: folders.map((folder) => `^src/${escapeDashes(folder)}/`) },
      to: {},
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'No two top-level folders import each other, directly or round a loop',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { circular: true, path: '^src/[^/]+$' },
    },
    {
      name: 'sandbox-bank-stands-alone',
      severity: 'error',
      comment:
        "The sandbox banks' package imports nothing of the service, its tests or tools: what it needs comes in as options (packages/sandbox-bank/src/index.ts)",
      from: { path: '^packages/sandbox-bank/' },
      to: { path: '^(src|test|scripts|bench|examples|packages/(?!sandbox-bank/))' },
    },
    {
      name: 'sandbox-bank-interface',
      severity: 'error',
      comment:
        "The service reaches the sandbox banks' package only through its entry point, `@openpis/sandbox-bank` (packages/sandbox-bank/src/index.ts), never a file inside it",
      from: { path: '^src/' },
      to: { path: '^packages/sandbox-bank/', pathNot: '^packages/sandbox-bank/src/index[.]ts$' },
    },
    {
      name: 'sandbox-bank-importers',
      severity: 'error',
      comment: `Only the composition root (src/*.ts) and src/${SANDBOX_BANK_IMPORTERS.join(', src/')} import the sandbox banks' package (.dependency-cruiser.cjs)`,
      from: { path: '^src/[^/]+/', pathNot: SANDBOX_BANK_IMPORTERS.map((folder) => `^src/${escapeDashes(folder)}/`) },
      to: { path: '^packages/sandbox-bank/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No file reaches itself round a loop of imports, inside a folder or across (type-only imports count): files in a loop are one concern, or what they share wants a file of its own',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-tests-in-source',
      severity: 'error',
      comment: 'Source never imports test code',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
