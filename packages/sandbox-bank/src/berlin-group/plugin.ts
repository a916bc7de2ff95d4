/**
 * The Berlin Group NextGenPSD2 sandbox banks as a Fastify plugin, encapsulated so its parsers, error handler and
 * hooks never touch the host app. The root plugin (../plugin.ts) mounts it beside the UK Open Banking banks.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { SandboxCatalogue } from '../shared/catalogue.js';
import { sandboxBanks } from './banks.js';
import type { BankContext } from './context.js';
import { Xs2aError } from './errors.js';
import { FaultPlan } from '../shared/faults.js';
import { loadSandboxFixtures, type SandboxFixtures } from '../shared/fixtures.js';
import { StatusNotifier } from './notifier.js';
import { registerPayerPages } from './pages.js';
import { SandboxState } from './state.js';
import { normalisePublicUrl, playFaultsAfterActing, registerBodyParsers, releaseHeldRequestsOnClose } from '../shared/plumbing.js';
import { registerFaultControl } from './routes/fault-control.js';
import { trustedCas, type StrictOptions } from '../shared/strict.js';
import { registerXs2aRoutes } from './xs2a-routes.js';

export interface BerlinGroupSandboxOptions {
  readonly catalogue: SandboxCatalogue;
  /** Public base URL of the sandbox bank (no trailing slash); banks live at `{publicUrl}/{slug}`. */
  readonly publicUrl: string;
  /**
   * Wrong passwords, and wrong one-time codes, a bank takes when its catalogue entry sets no `loginAttempts` or
   * `oneTimeCodeAttempts`: the service passes its connectors' default, so the bank and the service count alike.
   */
  readonly authenticationAttempts: number;
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
  /** Strict mode: behave like a live bank (HTTPS client certificates from these CAs, every request signed). */
  readonly strict?: StrictOptions | undefined;
}

export const DEFAULT_SCA_DEADLINE_SECONDS = 15 * 60;
export const DEFAULT_MAX_RESOURCES = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const berlinGroupSandboxPlugin: FastifyPluginAsync<BerlinGroupSandboxOptions> = async (app, options) => {
  const publicUrl = normalisePublicUrl(options.publicUrl, 'sandbox bank');
  const banks = sandboxBanks(options.catalogue, publicUrl, options.authenticationAttempts);
  const state = new SandboxState({
    fixtures: options.fixtures ?? loadSandboxFixtures(),
    clock: options.clock ?? (() => new Date()),
    scaDeadlineMs: (options.scaDeadlineSeconds ?? DEFAULT_SCA_DEADLINE_SECONDS) * 1000,
    maxResources: options.maxResources ?? DEFAULT_MAX_RESOURCES,
    attemptLimits: (slug) =>
      banks.get(slug) ?? { loginAttempts: options.authenticationAttempts, oneTimeCodeAttempts: options.authenticationAttempts },
  });
  const faults = options.faults ?? new FaultPlan();
  const notifier = new StatusNotifier({ state, faults, log: app.log });
  const context: BankContext = {
    state,
    banks,
    faults,
    notifier,
    publicUrl,
    strict: options.strict === undefined ? undefined : trustedCas(options.strict),
    rawBodies: new WeakMap(),
    held: new Set(),
    faultsAfterActing: new WeakMap(),
  };

  // Our own JSON parser keeps the raw bytes (the Digest of a signed request is over them) and accepts an empty
  // body, which the standard uses for "start authorisation" and "update PSU identification".
  await registerBodyParsers(app, context, () => new Xs2aError('FORMAT_ERROR', 'The body is not valid JSON'));

  app.addHook('onRequest', async (request, reply) => {
    const given = request.headers['x-request-id'];
    void reply.header('X-Request-ID', typeof given === 'string' && UUID.test(given) ? given : randomUUID());
  });

  // A call's answer goes first; then what it changed is notified (best effort, never holding the answer back).
  app.addHook('onResponse', async () => notifier.check());
  app.addHook('onClose', async () => notifier.stop());

  releaseHeldRequestsOnClose(app, context);
  playFaultsAfterActing(app, context);

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
    // Bulk payments have routes (they answer SERVICE_INVALID at banks without them); periodic payments none.
    const error = /\/v1\/(bulk-payments|periodic-payments)\//.test(path)
      ? new Xs2aError('SERVICE_INVALID', 'Periodic payments are not offered; bulk payments only where the bank says so')
      : new Xs2aError('RESOURCE_UNKNOWN', 'No such resource at the sandbox bank', { status: 404 });
    return reply.code(error.status).type('application/json').send(error.body());
  });

  registerXs2aRoutes(app, context);
  registerPayerPages(app, context);
  registerFaultControl(app, context, options.operatorToken);
};
