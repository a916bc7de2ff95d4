/**
 * The container image's steps as data, in one place: the Dockerfile and compose.yaml must say the same
 * (test/ship/container-files.test.ts), and test/ship/image-steps.test.ts performs them without a container engine.
 */

/** The build stage: what it copies from the clone, then its commands (in /app). */
export const BUILD_STAGE = {
  copies: [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'scripts/build.mjs',
    'packages/sandbox-bank',
    'src',
  ],
  commands: ['npm ci --workspaces=false --ignore-scripts --no-audit --no-fund', 'npm run build'],
} as const;

/** The dependencies stage: the manifests only, then the production install (scripts off: the root's `prepare` builds). */
export const DEPENDENCIES_STAGE = {
  copies: ['package.json', 'package-lock.json'],
  commands: ['npm ci --omit=dev --workspaces=false --ignore-scripts --no-audit --no-fund', 'npm rebuild --workspaces=false'],
} as const;

/**
 * The final stage's contents: from the clone, from the dependencies stage, from the build stage. The sandbox banks'
 * package (its manifest and compiled code) sits where the install's link node_modules/@openpis/sandbox-bank points.
 */
export const FINAL_STAGE = {
  fromClone: ['package.json', 'package-lock.json', 'packages/sandbox-bank/package.json', 'bin'],
  fromDependencies: ['node_modules'],
  fromBuild: ['dist', 'packages/sandbox-bank/dist'],
} as const;

/** The image's settings (ENV); the test changes HOST to loopback and the ports to free ones, nothing else. */
export const IMAGE_ENV = { HOST: '0.0.0.0', PORT: '8080', DATABASE_URL: 'sqlite:/data/openpis.sqlite' } as const;
export const SERVICE_PORT = 8080;
export const SANDBOX_BANK_PORT = 8090;
export const SANDBOX_BANK_HOST_NAME = 'sandbox-bank';
export const RUN_AS_USER = 'node';

/** The service (the image's CMD): every process role runs it. */
export const SERVICE_COMMAND = ['node', '--enable-source-maps', 'dist/server.js'] as const;
/** The operator CLI in the image. */
export const CLI_COMMAND = ['node', '--enable-source-maps', 'bin/openpis.mjs'] as const;
export const ROLES = ['api', 'worker'] as const;

/** The stand-alone sandbox bank's command, for a host, port and public address. */
export function sandboxBankCommand(host: string, port: number, publicUrl: string): string[] {
  return [...CLI_COMMAND, 'sandbox-bank', '--host', host, '--port', String(port), '--public-url', publicUrl];
}

/** The settings compose.yaml's environment file must provide (deploy/openpis.env.example lists them). */
export const SECRET_SETTINGS = ['DATABASE_URL', 'SECRET_KEYS', 'SANDBOX_OPERATOR_TOKEN', 'BASE_URL'] as const;
