/**
 * The sandbox bank as a Fastify plugin (mounted inside the service, encapsulated so its parsers, error handler and
 * hooks never touch the host app) and as a stand-alone app for `openpis sandbox-bank`.
 */
import { randomUUID } from 'node:crypto';
import formBody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import { DEFAULT_AUTHENTICATION_ATTEMPTS, type ProviderCatalogue } from '../providers/catalogue.js';
import { sandboxBanks } from './banks.js';
import { requireBank, type BankContext } from './context.js';
import { Xs2aError } from './errors.js';
import { FaultPlan, FaultRuleSchema } from './faults.js';
import { loadSandboxFixtures, type SandboxFixtures } from './fixtures.js';
import { registerPayerPages } from './pages.js';
import { SandboxState } from './state.js';
import { operatorTokenCheck } from './operator-token.js';
import { registerXs2aRoutes } from './xs2a-routes.js';
import { ukSandboxBankPlugin } from './uk-open-banking/plugin.js';

export interface SandboxBankOptions {
  readonly catalogue: ProviderCatalogue;
  /** Public base URL of the sandbox bank (no trailing slash); banks live at `{publicUrl}/{slug}`. */
  readonly publicUrl: string;
  /** Test payers; default: the built-in `fixtures/test-payers.json`. */
  readonly fixtures?: SandboxFixtures;
  /** Source of "now" for expiry and settlement timing; default: the system clock. */
  readonly clock?: () => Date;
  /** Fault rules the caller keeps a handle on; default: an empty plan (still fillable over HTTP). */
  readonly faults?: FaultPlan;
  /** Time the payer has to finish SCA before the payment or consent is rejected; default 15 minutes. */
  readonly scaDeadlineSeconds?: number;
  /** Most payments plus consents held in memory; default 10 000 (oldest finished evicted first). */
  readonly maxResources?: number;
  /**
   * The operator's credential for fault injection over HTTP (`/<slug>/sandbox/faults`), sent as a bearer token.
   * Faults hit every client of the bank, so only the operator may set them; unset: the HTTP control is closed.
   */
  readonly operatorToken?: string | undefined;
}

export const DEFAULT_SCA_DEADLINE_SECONDS = 15 * 60;
export const DEFAULT_MAX_RESOURCES = 10_000;
const BODY_LIMIT = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const checkFaultRule = Compile(FaultRuleSchema);

export const sandboxBankPlugin: FastifyPluginAsync<SandboxBankOptions> = async (app, options) => {
  let publicUrl: string;
  try {
    publicUrl = new URL(options.publicUrl).toString().replace(/\/+$/, '');
  } catch {
    throw new Error(`sandbox bank publicUrl must be an absolute URL (got "${options.publicUrl}")`);
  }
  const banks = sandboxBanks(options.catalogue, publicUrl);
  const state = new SandboxState({
    fixtures: options.fixtures ?? loadSandboxFixtures(),
    clock: options.clock ?? (() => new Date()),
    scaDeadlineMs: (options.scaDeadlineSeconds ?? DEFAULT_SCA_DEADLINE_SECONDS) * 1000,
    maxResources: options.maxResources ?? DEFAULT_MAX_RESOURCES,
    attemptLimits: (slug) => banks.get(slug) ?? { loginAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS, oneTimeCodeAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS },
  });
  const context: BankContext = {
    state,
    banks,
    faults: options.faults ?? new FaultPlan(),
    publicUrl,
    rawBodies: new WeakMap(),
    held: new Set(),
  };

  await app.register(formBody, { bodyLimit: 64 * 1024 });

  // Our own JSON parser keeps the raw bytes (the Digest of a signed request is over them) and accepts an empty
  // body, which the standard uses for "start authorisation" and "update PSU identification".
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
    context.rawBodies.set(request, raw);
    if (raw.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(raw.toString('utf8')) as unknown);
    } catch {
      done(new Xs2aError('FORMAT_ERROR', 'The body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const given = request.headers['x-request-id'];
    void reply.header('X-Request-ID', typeof given === 'string' && UUID.test(given) ? given : randomUUID());
  });

  app.addHook('preClose', async () => {
    for (const release of [...context.held]) release();
  });

  app.setErrorHandler((error: FastifyError | Xs2aError, request, reply) => {
    if (error instanceof Xs2aError) return reply.code(error.status).type('application/json').send(error.body());
    const status = error.statusCode ?? 500;
    if (status === 415) return reply.code(415).send();
    if (status >= 400 && status < 500) {
      const text = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The body is too large' : 'The request is malformed';
      return reply.code(400).type('application/json').send(new Xs2aError('FORMAT_ERROR', text).body());
    }
    request.log.error({ err: error }, 'sandbox bank error');
    // The standard defines no body for 500.
    return reply.code(500).send();
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const error = /\/v1\/(bulk-payments|periodic-payments)\//.test(path)
      ? new Xs2aError('SERVICE_INVALID', 'Only single payments (/v1/payments) are offered')
      : new Xs2aError('RESOURCE_UNKNOWN', 'No such resource at the sandbox bank', { status: 404 });
    return reply.code(error.status).type('application/json').send(error.body());
  });

  registerXs2aRoutes(app, context);
  registerPayerPages(app, context);
  registerFaultControl(app, context, options.operatorToken);
};

/**
 * Fault injection over HTTP; exists only in the sandbox. A rule makes calls of every client of the bank fail, so
 * every fault route requires the operator token (SANDBOX_OPERATOR_TOKEN) as a bearer token.
 */
function registerFaultControl(app: FastifyInstance, context: BankContext, operatorToken: string | undefined): void {
  type Params = { slug: string };
  const isOperator = operatorTokenCheck(operatorToken);
  const operatorOnly = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const check = isOperator(request);
    if (check.allowed) return;
    const error = new Xs2aError('TOKEN_INVALID', check.message);
    await reply.code(error.status).header('www-authenticate', 'Bearer').type('application/json').send(error.body());
  };
  app.post<{ Params: Params }>('/:slug/sandbox/faults', { onRequest: operatorOnly }, async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null) throw new Xs2aError('FORMAT_ERROR', 'Send a JSON fault rule');
    const rule: unknown = { ...body, bank: bank.slug };
    if ('bank' in body && body.bank !== bank.slug) throw new Xs2aError('FORMAT_ERROR', 'bank must match the path');
    if (!checkFaultRule.Check(rule)) {
      const first = checkFaultRule.Errors(rule)[0];
      throw new Xs2aError('FORMAT_ERROR', `${first?.instancePath || 'rule'} ${first?.message ?? 'is invalid'}`);
    }
    const id = context.faults.inject(rule);
    return reply.code(201).send({ id, ...rule });
  });
  app.get<{ Params: Params }>('/:slug/sandbox/faults', { onRequest: operatorOnly }, async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    return reply.send({ faults: context.faults.list(bank.slug) });
  });
  app.delete<{ Params: Params }>('/:slug/sandbox/faults', { onRequest: operatorOnly }, async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    context.faults.clear(bank.slug);
    return reply.code(204).send();
  });
  app.delete<{ Params: Params & { id: string } }>('/:slug/sandbox/faults/:id', { onRequest: operatorOnly }, async (request, reply) => {
    requireBank(context, request.params.slug);
    if (!context.faults.remove(request.params.id)) throw new Xs2aError('RESOURCE_UNKNOWN', 'No such fault rule', { status: 404 });
    return reply.code(204).send();
  });
}

export interface StandaloneOptions extends SandboxBankOptions {
  /** Fastify logger setting; default off (tests), `startSandboxBank` turns it on. */
  readonly logger?: boolean | { readonly level: string };
}

/** A stand-alone sandbox bank with the same routes at the root. */
export function buildSandboxBankApp(options: StandaloneOptions): FastifyInstance {
  const { logger, ...pluginOptions } = options;
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
    bodyLimit: BODY_LIMIT,
  });
  void app.register(sandboxBankPlugin, pluginOptions);
  // The UK Open Banking banks beside them, under /uk (docs/sandbox-bank-uk.md).
  void app.register(ukSandboxBankPlugin, { prefix: '/uk', publicUrl: `${pluginOptions.publicUrl.replace(/\/+$/, '')}/uk`, operatorToken: pluginOptions.operatorToken, ...(pluginOptions.fixtures === undefined ? {} : { fixtures: pluginOptions.fixtures }) });
  return app;
}

/** Starts a stand-alone sandbox bank (the `openpis sandbox-bank` command); resolves once it listens. */
export async function startSandboxBank(options: {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly catalogue: ProviderCatalogue;
  readonly fixtures?: SandboxFixtures;
  readonly logLevel?: string;
  /** See `SandboxBankOptions.operatorToken`. */
  readonly operatorToken?: string | undefined;
}): Promise<FastifyInstance> {
  const app = buildSandboxBankApp({
    catalogue: options.catalogue,
    publicUrl: options.publicUrl,
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
    operatorToken: options.operatorToken,
    logger: { level: options.logLevel ?? 'info' },
  });
  await app.listen({ port: options.port, host: options.host });
  return app;
}

export function redactPageToken(url: string): string {
  return url
    .replace(/\/(sca|decoupled)\/[^/?#]+/, '/$1/[token]')
    // The UK Open Banking banks' payer pages and bank app (docs/sandbox-bank-uk.md).
    .replace(/\/uk\/([a-z0-9-]+)\/(pay|app)\/[^/?#]+/, '/uk/$1/$2/[token]');
}
