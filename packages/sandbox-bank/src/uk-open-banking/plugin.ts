/**
 * The UK Open Banking sandbox banks as one Fastify plugin, encapsulated like the Berlin Group sandbox (its own
 * parsers, error handler and hooks). Mounted by default under `/sandbox-bank/uk` beside the Berlin Group banks, and
 * stand-alone in `openpis sandbox-bank` under `/uk`. See docs/sandbox-bank-uk.md.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { Compile } from 'typebox/compile';
import { FaultPlan } from '../shared/faults.js';
import { loadSandboxFixtures, type SandboxFixtures } from '../shared/fixtures.js';
import { operatorTokenCheck } from '../shared/operator-token.js';
import { trustedCas, checkClientCertificate, type StrictOptions, type TrustedCas } from '../shared/strict.js';
import { normalisePublicUrl, playFaultsAfterActing, registerBodyParsers, releaseHeldRequestsOnClose } from '../shared/plumbing.js';
import { ukSandboxBanks } from './banks.js';
import { interactionId, sendSigned, type UkContext } from './context.js';
import { OAuthError, ObError, Unauthenticated } from './errors.js';
import { UkFaultRuleSchema, type UkFaultRule } from './faults.js';
import { bankKeyOf, type BankKey } from './jws.js';
import { registerOAuthRoutes } from './oauth-routes.js';
import { registerUkPayerPages } from './pages.js';
import { registerPispRoutes } from './pisp-routes.js';
import { UkSandboxState } from './state.js';

export interface UkClientRegistration {
  readonly clientId: string;
  readonly jwks: JSONWebKeySet;
  readonly redirectUris?: readonly string[];
  /** `http://openbanking.org.uk/iss` of its message signatures; default the client id. */
  readonly signingIssuer?: string;
}

export interface UkSandboxBankOptions {
  /** Public base URL of the UK sandbox (no trailing slash); bank issuers are `{publicUrl}/{slug}`. */
  readonly publicUrl: string;
  /** Test payers; default the Berlin Group sandbox's built-in ones. */
  readonly fixtures?: SandboxFixtures;
  readonly clock?: () => Date;
  readonly faults?: FaultPlan<UkFaultRule>;
  /** Clients known from the start (besides those registered over `POST /{slug}/register`). */
  readonly clients?: readonly UkClientRegistration[];
  /** Trust anchors accepted in request signatures (`http://openbanking.org.uk/tan`); default `openbanking.org.uk`. */
  readonly trustAnchors?: readonly string[];
  /** Time the payer has to authorise a consent; default 15 minutes. */
  readonly authorisationDeadlineSeconds?: number;
  /** Most consents (with their payments) held in memory; default 10 000, oldest finished evicted first. */
  readonly maxConsents?: number;
  /** The operator's credential for fault injection over HTTP (SANDBOX_OPERATOR_TOKEN); unset: fault routes refuse. */
  readonly operatorToken?: string | undefined;
  /**
   * The directory's public keys: a software statement in dynamic client registration must verify against one
   * (docs/sandbox-bank-uk.md, "Client registration"). Unset: DCR requests are refused (`unapproved_software_statement`).
   */
  readonly directoryJwks?: JSONWebKeySet | undefined;
  /** Strict mode: behave like a live bank (HTTPS client certificates from these CAs; clients only through DCR). */
  readonly strict?: StrictOptions | undefined;
}

const checkFaultRule = Compile(UkFaultRuleSchema);

export const ukSandboxBankPlugin: FastifyPluginAsync<UkSandboxBankOptions> = async (app, options) => {
  const publicUrl = normalisePublicUrl(options.publicUrl, 'UK sandbox bank');
  const state = new UkSandboxState({
    fixtures: options.fixtures ?? loadSandboxFixtures(),
    clock: options.clock ?? (() => new Date()),
    authorisationDeadlineMs: (options.authorisationDeadlineSeconds ?? 15 * 60) * 1000,
    maxConsents: options.maxConsents ?? 10_000,
  });
  // Strict mode knows only clients registered through dynamic client registration.
  if (options.strict !== undefined && (options.clients ?? []).length > 0) throw new Error('strict mode takes no pre-registered UK clients');
  for (const client of options.clients ?? []) {
    state.registerClient({
      clientId: client.clientId,
      jwks: client.jwks,
      redirectUris: client.redirectUris ?? [],
      signingIssuer: client.signingIssuer ?? client.clientId,
    });
  }
  const banks = ukSandboxBanks();
  // RSA key generation takes a while, far longer on a busy machine: started now, awaited by the first request that
  // signs, never by start-up (which once failed under load with "Plugin did not start in time").
  const keys = new Map<string, Promise<BankKey>>();
  for (const bank of banks.values()) {
    const key = bankKeyOf(bank.slug);
    // A failure surfaces in the requests that await the key; not as an unhandled rejection here.
    key.catch(() => undefined);
    keys.set(bank.slug, key);
  }
  const context: UkContext = {
    state,
    banks,
    keys,
    faults: options.faults ?? new FaultPlan<UkFaultRule>(),
    publicUrl,
    trustAnchors: options.trustAnchors ?? ['openbanking.org.uk'],
    strict: options.strict === undefined ? undefined : trustedCas(options.strict),
    directoryKeys: options.directoryJwks === undefined ? undefined : createLocalJWKSet(options.directoryJwks),
    rawBodies: new WeakMap(),
    held: new Set(),
    faultsAfterActing: new WeakMap(),
  };

  // Keep the raw bytes: the request's detached signature is over them.
  await registerBodyParsers(app, context, () => new ObError('UK.OBIE.Resource.InvalidFormat', 'The body is not valid JSON'));
  // A dynamic client registration request is a JWT (RFC 7591 with the UK profile's signed request).
  app.addContentTypeParser('application/jwt', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
  releaseHeldRequestsOnClose(app, context);
  playFaultsAfterActing(app, context);
  if (context.strict !== undefined) requireClientCertificates(app, context, context.strict);

  app.setErrorHandler(async (error: FastifyError | ObError | OAuthError | Unauthenticated, request, reply) => {
    const id = interactionId(request);
    if (error instanceof Unauthenticated)
      return reply.code(401).header('x-fapi-interaction-id', id).header('WWW-Authenticate', 'Bearer').send();
    if (error instanceof OAuthError) {
      return reply
        .code(error.status)
        .header('Cache-Control', 'no-store')
        .send({ error: error.error, error_description: error.description });
    }
    const bank = bankFromUrl(context, request.url);
    if (error instanceof ObError) {
      if (bank === undefined) return reply.code(error.status).header('x-fapi-interaction-id', id).send(error.body(randomUUID()));
      return sendSigned(context, bank, request, reply, error.status, error.body(randomUUID()));
    }
    const status = error.statusCode ?? 500;
    if (status === 415) return reply.code(415).header('x-fapi-interaction-id', id).send();
    if (status >= 400 && status < 500) {
      const problem = new ObError(
        'UK.OBIE.Resource.InvalidFormat',
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The body is too large' : 'The request is malformed',
      );
      return reply.code(400).header('x-fapi-interaction-id', id).send(problem.body(randomUUID()));
    }
    request.log.error({ err: error }, 'UK sandbox bank error');
    return reply
      .code(500)
      .header('x-fapi-interaction-id', id)
      .send(new ObError('UK.OBIE.UnexpectedError', 'Unexpected error', 500).body(randomUUID()));
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).header('x-fapi-interaction-id', interactionId(request)).send());

  registerOAuthRoutes(app, context);
  registerPispRoutes(app, context);
  registerUkPayerPages(app, context);
  registerFaultControl(app, context, options.operatorToken);
};

/** The routes a TPP's software calls (not the payer's browser): the registration, token and CIBA endpoints, the API. */
const TPP_ROUTE = /\/:slug\/(register|token|backchannel-authentication|open-banking)(\/|$)/;

/**
 * Strict mode: every call of the TPP's software comes with a TLS client certificate from a trusted CA, refused
 * otherwise in the endpoint's own error shape (OAuth's, RFC 7591's, or a signed `OBErrorResponse1`).
 */
function requireClientCertificates(app: FastifyInstance, context: UkContext, cas: TrustedCas): void {
  app.addHook('preHandler', async (request) => {
    const route = TPP_ROUTE.exec(request.routeOptions.url ?? '')?.[1];
    if (route === undefined) return;
    const check = checkClientCertificate(request, cas, context.state.now());
    if (check.ok) return;
    const text = `Mutual TLS: ${check.text}`;
    if (route === 'open-banking') throw new ObError('UK.OBIE.Header.Invalid', text, 403);
    if (route === 'register') throw new OAuthError('unapproved_software_statement', text, 400);
    throw new OAuthError('invalid_client', text, 401);
  });
}

/** The bank a request's path names (`…/{slug}/…` right after the plugin's prefix). */
function bankFromUrl(context: UkContext, url: string) {
  const path = url.split('?')[0] ?? '';
  for (const segment of path.split('/')) {
    const bank = context.banks.get(segment);
    if (bank !== undefined) return bank;
  }
  return undefined;
}

/** Fault injection over HTTP, the same routes and rule shape as the Berlin Group sandbox's. */
function registerFaultControl(app: FastifyInstance, context: UkContext, operatorToken: string | undefined): void {
  type Params = { slug: string };
  const known = (slug: string): boolean => context.banks.has(slug);
  const isOperator = operatorTokenCheck(operatorToken);
  app.addHook('onRequest', async (request, reply) => {
    if (!/\/sandbox\/faults(\/|$|\?)/.test(request.url)) return;
    const check = isOperator(request);
    if (check.allowed) return;
    // A sandbox control route, not part of the standard: a plain JSON refusal.
    await reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized', message: check.message });
  });
  app.post<{ Params: Params }>('/:slug/sandbox/faults', async (request, reply) => {
    if (!known(request.params.slug)) return reply.code(404).send();
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null) throw new ObError('UK.OBIE.Resource.InvalidFormat', 'Send a JSON fault rule');
    if ('bank' in body && body.bank !== request.params.slug) throw new ObError('UK.OBIE.Field.Invalid', 'bank must match the path');
    const rule: unknown = { ...body, bank: request.params.slug };
    if (!checkFaultRule.Check(rule)) {
      const first = checkFaultRule.Errors(rule)[0];
      throw new ObError('UK.OBIE.Field.Invalid', `${first?.instancePath || 'rule'} ${first?.message ?? 'is invalid'}`);
    }
    const id = context.faults.inject(rule);
    return reply.code(201).send({ id, ...rule });
  });
  app.get<{ Params: Params }>('/:slug/sandbox/faults', async (request, reply) => {
    if (!known(request.params.slug)) return reply.code(404).send();
    return reply.send({ faults: context.faults.list(request.params.slug) });
  });
  app.delete<{ Params: Params }>('/:slug/sandbox/faults', async (request, reply) => {
    if (!known(request.params.slug)) return reply.code(404).send();
    context.faults.clear(request.params.slug);
    return reply.code(204).send();
  });
  app.delete<{ Params: Params & { id: string } }>('/:slug/sandbox/faults/:id', async (request, reply) => {
    if (!known(request.params.slug) || !context.faults.remove(request.params.id)) return reply.code(404).send();
    return reply.code(204).send();
  });
}
