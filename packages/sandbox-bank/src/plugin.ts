/**
 * The sandbox bank: one Fastify plugin that mounts every standard it speaks (the Berlin Group NextGenPSD2 banks at
 * its root, the UK Open Banking banks under `/uk`), used inside the service and by the stand-alone app of
 * `openpis sandbox-bank`. Each standard is its own encapsulated plugin (berlin-group/, uk-open-banking/).
 */
import type { TlsOptions } from 'node:tls';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import type { SandboxCatalogue } from './shared/catalogue.js';
import { berlinGroupSandboxPlugin, type BerlinGroupSandboxOptions } from './berlin-group/plugin.js';
import type { SandboxFixtures } from './shared/fixtures.js';
import { BODY_LIMIT } from './shared/plumbing.js';
import { UK_SANDBOX_SEGMENT } from './uk-open-banking/index.js';
import { ukSandboxBankPlugin, type UkClientRegistration } from './uk-open-banking/plugin.js';

/**
 * Options of the whole sandbox bank: those of the Berlin Group banks. The UK banks take the public URL (under
 * `/uk`), the test payers and the operator token from them, and keep their own defaults for the rest.
 */
export type SandboxBankOptions = BerlinGroupSandboxOptions & {
  /** Clients the UK banks know from the start (the service registers itself so). */
  readonly ukClients?: readonly UkClientRegistration[];
  /** The directory keys UK software statements must verify against (dynamic client registration). */
  readonly ukDirectoryJwks?: JSONWebKeySet | undefined;
};

export const sandboxBankPlugin: FastifyPluginAsync<SandboxBankOptions> = async (app, options) => {
  // Fastify hands this plugin its own registration options (its prefix among them); pass on only the bank's.
  await app.register(berlinGroupSandboxPlugin, {
    catalogue: options.catalogue,
    publicUrl: options.publicUrl,
    authenticationAttempts: options.authenticationAttempts,
    fixtures: options.fixtures,
    clock: options.clock,
    faults: options.faults,
    scaDeadlineSeconds: options.scaDeadlineSeconds,
    maxResources: options.maxResources,
    operatorToken: options.operatorToken,
    strict: options.strict,
  });
  // The UK Open Banking banks beside them, under /uk (docs/sandbox-bank-uk.md).
  await app.register(ukSandboxBankPlugin, {
    prefix: UK_SANDBOX_SEGMENT,
    publicUrl: `${options.publicUrl.replace(/\/+$/, '')}${UK_SANDBOX_SEGMENT}`,
    operatorToken: options.operatorToken,
    strict: options.strict,
    directoryJwks: options.ukDirectoryJwks,
    ...(options.ukClients === undefined ? {} : { clients: options.ukClients }),
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
  });
};

export interface StandaloneOptions extends SandboxBankOptions {
  /** Fastify logger setting; default off (tests), `startSandboxBank` turns it on. */
  readonly logger?: boolean | { readonly level: string };
  /** Serve HTTPS with this server certificate and key (PEM); required in strict mode. */
  readonly https?: { readonly certificatePem: string; readonly privateKeyPem: string } | undefined;
}

/** A stand-alone sandbox bank with the same routes at the root. */
export function buildSandboxBankApp(options: StandaloneOptions): FastifyInstance {
  const { logger, https, ...pluginOptions } = options;
  if (pluginOptions.strict !== undefined && https === undefined)
    throw new Error('strict mode serves HTTPS only: give the server certificate and key');
  const level = logger === undefined || logger === false ? undefined : logger === true ? 'info' : logger.level;
  const app = Fastify({
    logger:
      level === undefined
        ? false
        : {
            level,
            // Node's asynchronous stdout, not pino's synchronous fd writer, which spins for ever on a full pipe.
            stream: { write: (line: string): void => void process.stdout.write(line) },
            // Page tokens are the payer's session secrets; keep them out of the request log line.
            serializers: {
              req: (request: { method: string; url: string }) => ({ method: request.method, url: redactPageToken(request.url) }),
            },
          },
    ...(https === undefined ? {} : { https: tlsServerOptions(https, pluginOptions.strict) }),
    bodyLimit: BODY_LIMIT,
    // No start-up timer a busy machine can miss (as in the service's app).
    pluginTimeout: 0,
  });
  void app.register(sandboxBankPlugin, pluginOptions);
  return app;
}

/**
 * The TLS server settings: our certificate, and in strict mode a request for the client's certificate. The
 * handshake does not refuse a missing or untrusted one: the bank answers that in its standard's error shape
 * (shared/strict.ts), and the payer's browser, which has none, still reaches the pages.
 */
function tlsServerOptions(https: NonNullable<StandaloneOptions['https']>, strict: SandboxBankOptions['strict']): TlsOptions {
  return {
    cert: https.certificatePem,
    key: https.privateKeyPem,
    ...(strict === undefined ? {} : { requestCert: true, rejectUnauthorized: false, ca: [...strict.clientCaPems] }),
  };
}

/** Starts a stand-alone sandbox bank (the `openpis sandbox-bank` command); resolves once it listens. */
export async function startSandboxBank(options: {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly catalogue: SandboxCatalogue;
  /** See `SandboxBankOptions.authenticationAttempts`. */
  readonly authenticationAttempts: number;
  readonly fixtures?: SandboxFixtures;
  readonly logLevel?: string;
  /** See `SandboxBankOptions.operatorToken`. */
  readonly operatorToken?: string | undefined;
  readonly https?: StandaloneOptions['https'];
  readonly strict?: SandboxBankOptions['strict'];
  readonly ukDirectoryJwks?: JSONWebKeySet | undefined;
}): Promise<FastifyInstance> {
  const app = buildSandboxBankApp({
    https: options.https,
    strict: options.strict,
    ukDirectoryJwks: options.ukDirectoryJwks,
    catalogue: options.catalogue,
    publicUrl: options.publicUrl,
    authenticationAttempts: options.authenticationAttempts,
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
    operatorToken: options.operatorToken,
    logger: { level: options.logLevel ?? 'info' },
  });
  await app.listen({ port: options.port, host: options.host });
  return app;
}

export function redactPageToken(url: string): string {
  return (
    url
      .replace(/\/(sca|decoupled)\/[^/?#]+/, '/$1/[token]')
      // The UK Open Banking banks' payer pages and bank app (docs/sandbox-bank-uk.md).
      .replace(/\/uk\/([a-z0-9-]+)\/(pay|app)\/[^/?#]+/, '/uk/$1/$2/[token]')
  );
}
