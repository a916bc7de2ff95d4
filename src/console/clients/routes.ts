/**
 * Clients: operators create them, rotate their secret and webhook secret (each shown once, on the answer to the
 * post, never again), disable them, set their scopes and their branding on the payer pages, upload their logo; a
 * member sees their own client, read-only, and no other (404). Every change is audited (src/console/clients/queries.ts).
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { clientNameProblem } from '../../auth/clients.js';
import { isScope } from '../../auth/scopes.js';
import type { BrandingChanges } from '../../branding/client-branding.js';
import { LogoError, MAX_LOGO_FILE_BYTES, processLogo } from '../../branding/logo.js';
import { httpsRequiredProblem } from '../../config/config.js';
import { normalisedDisplayText } from '../../domain/display-text.js';
import type { App } from '../../http/fastify-types.js';
import { admitOperatorsOnly, viewerOf } from '../access.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { allValues, CsrfField, DoneQuery, FormText, IdParam, NoQuery, Repeated, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';
import {
  clientDetails,
  createClient,
  disableClient,
  rotateSecret,
  rotateWebhookSecret,
  saveLogo,
  setScopes,
  updateBranding,
  visibleClient,
  visibleClients,
} from './queries.js';
import { clientListPage, clientPage, secretsShownOnce, type FormOutcome } from './views.js';

async function sendClientList(
  services: ConsoleServices,
  reply: FastifyReply,
  viewer: Viewer,
  outcome: FormOutcome = {},
  status = 200,
): Promise<FastifyReply> {
  const { clients, brandings } = await visibleClients(services, viewer);
  return sendPage(reply, clientListPage({ viewer, navigation: services.navigation, clients, brandings, ...outcome }), status);
}

const ClientListRoute = { querystring: DoneQuery };

async function showClients(
  services: ConsoleServices,
  request: RequestOf<typeof ClientListRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  return sendClientList(services, reply, viewerOf(request), { done: request.query.done });
}

const CreateClientRoute = {
  querystring: NoQuery,
  body: Type.Object({
    ...CsrfField,
    name: Type.Optional(FormText),
    environment: Type.Optional(FormText),
    scopes: Type.Optional(Repeated(FormText)),
  }),
};

async function addClient(
  services: ConsoleServices,
  request: RequestOf<typeof CreateClientRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const name = normalisedDisplayText((request.body.name ?? '').trim());
  const { environment } = request.body;
  const scopes = allValues(request.body.scopes).filter(isScope);
  const problems: string[] = [];
  const nameProblem = clientNameProblem(name);
  if (nameProblem !== undefined) problems.push(`Name ${nameProblem}`);
  if (environment !== 'sandbox' && environment !== 'production') problems.push('Environment: sandbox or production');
  if (scopes.length === 0) problems.push('Scopes: at least one');
  const httpsProblem = environment === 'production' ? httpsRequiredProblem(services.config.baseUrl) : undefined;
  if (httpsProblem !== undefined) problems.push(httpsProblem);
  if (problems.length > 0 || (environment !== 'sandbox' && environment !== 'production'))
    return sendClientList(services, reply, viewer, { problems }, 400);
  const issued = await createClient(services, viewer, { name, environment, scopes });
  const shown = secretsShownOnce(`Client “${name}” created`, [
    ['Client id', issued.clientId],
    ['Client secret', issued.clientSecret],
    ['Webhook secret', issued.webhookSecret],
  ]);
  return sendClientList(services, reply, viewer, { shown }, 201);
}

const ClientParams = Type.Object({ clientId: IdParam });
const ClientRoute = { params: ClientParams, querystring: DoneQuery };

async function sendClientPage(
  services: ConsoleServices,
  request: RequestOf<{ params: typeof ClientParams }>,
  reply: FastifyReply,
  outcome: FormOutcome,
  status = 200,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const client = await visibleClient(services, viewer, request.params.clientId);
  if (client === undefined) return sendNotFound(services, request, reply);
  const { branding, members } = await clientDetails(services, client.clientId);
  const view = {
    viewer,
    navigation: services.navigation,
    client,
    branding,
    members,
    webhookSecretGraceSeconds: services.config.webhooks.secretGraceSeconds,
    ...outcome,
  };
  return sendPage(reply, clientPage(view), status);
}

async function showClient(services: ConsoleServices, request: RequestOf<typeof ClientRoute>, reply: FastifyReply): Promise<FastifyReply> {
  return sendClientPage(services, request, reply, { done: request.query.done });
}

/** An operator's change of a client: done (to the client's page, saying so), or the page with a secret or problems. */
type ClientChange<Body> = (services: ConsoleServices, viewer: Viewer, clientId: string, body: Body) => Promise<FormOutcome>;

function clientChangeHandler<Body>(services: ConsoleServices, change: ClientChange<Body>) {
  return async function changeClient(request: RequestOf<{ params: typeof ClientParams }>, reply: FastifyReply): Promise<FastifyReply> {
    const viewer = viewerOf(request);
    const client = await visibleClient(services, viewer, request.params.clientId);
    if (client === undefined) return sendNotFound(services, request, reply);
    const outcome = await change(services, viewer, client.clientId, request.body as Body);
    if (outcome.done !== undefined) return seeOther(reply, `/console/clients/${client.clientId}?done=${outcome.done}`);
    return sendClientPage(services, request, reply, outcome, outcome.problems !== undefined && outcome.problems.length > 0 ? 400 : 200);
  };
}

const ButtonRoute = { params: ClientParams, querystring: NoQuery, body: Type.Object(CsrfField) };
const ScopesBody = Type.Object({ ...CsrfField, scopes: Type.Optional(Repeated(FormText)) });
const BrandingBody = Type.Object({
  ...CsrfField,
  displayName: Type.Optional(FormText),
  brandColour: Type.Optional(FormText),
  supportUrl: Type.Optional(FormText),
  clear: Type.Optional(Repeated(FormText)),
});
type ScopesForm = { scopes?: string | string[] };
type BrandingForm = { displayName?: string; brandColour?: string; supportUrl?: string; clear?: string | string[] };

const showNewSecret: ClientChange<unknown> = async (services, viewer, clientId) => ({
  shown: secretsShownOnce('New client secret', [['Client secret', await rotateSecret(services, viewer, clientId)]]),
});

const showNewWebhookSecret: ClientChange<unknown> = async (services, viewer, clientId) => ({
  shown: secretsShownOnce('New webhook secret', [['Webhook secret', await rotateWebhookSecret(services, viewer, clientId)]]),
});

const disable: ClientChange<unknown> = async (services, viewer, clientId) => {
  await disableClient(services, viewer, clientId);
  return { done: 'disabled' };
};

const saveScopes: ClientChange<ScopesForm> = async (services, viewer, clientId, body) => {
  const scopes = allValues(body.scopes).filter(isScope);
  if (scopes.length === 0) return { problems: ['Scopes: at least one'] };
  await setScopes(services, viewer, clientId, scopes);
  return { done: 'scopes' };
};

/** The branding form's changes: a field given is set, a field ticked under "Remove" is cleared, an empty one kept. */
function brandingChanges(body: BrandingForm): BrandingChanges {
  const cleared = new Set(allValues(body.clear));
  const pick = (name: 'displayName' | 'brandColour' | 'supportUrl', clear: string): Partial<BrandingChanges> => {
    const given = body[name]?.trim();
    return cleared.has(clear) ? { [name]: null } : given !== undefined && given !== '' ? { [name]: given } : {};
  };
  return {
    ...pick('displayName', 'display-name'),
    ...pick('brandColour', 'brand-colour'),
    ...pick('supportUrl', 'support-url'),
    ...(cleared.has('logo') ? { logo: null } : {}),
  };
}

const saveBranding: ClientChange<BrandingForm> = async (services, viewer, clientId, body) => {
  const problems = await updateBranding(services, viewer, clientId, brandingChanges(body));
  return problems === undefined ? { done: 'branding' } : { problems };
};

// The logo: the same pipeline as `openpis clients branding --logo` (src/branding/logo.ts), which refuses SVG, other
// formats, broken and too large files with its own message; the upload reader cuts a file one byte past its limit.
const LogoRoute = {
  params: ClientParams,
  querystring: NoQuery,
  body: Type.Object({ ...CsrfField, logo: Type.Optional(Type.Unsafe<Buffer>({ type: 'object' })) }),
};

const saveUploadedLogo: ClientChange<{ logo?: Buffer }> = async (services, viewer, clientId, body) => {
  if (!Buffer.isBuffer(body.logo)) return { problems: ['Logo: choose a PNG, JPEG or WebP file'] };
  let logo;
  try {
    logo = await processLogo(body.logo);
  } catch (error) {
    if (error instanceof LogoError) return { problems: [`Logo: ${error.message}`] };
    throw error;
  }
  await saveLogo(services, viewer, clientId, logo);
  return { done: 'logo' };
};

async function registerOperatorForms(operators: App, services: ConsoleServices): Promise<void> {
  admitOperatorsOnly(operators, services);
  operators.post('/clients', { schema: CreateClientRoute }, (request, reply) => addClient(services, request, reply));
  operators.post('/clients/:clientId/rotate-secret', { schema: ButtonRoute }, clientChangeHandler(services, showNewSecret));
  operators.post('/clients/:clientId/rotate-webhook-secret', { schema: ButtonRoute }, clientChangeHandler(services, showNewWebhookSecret));
  operators.post('/clients/:clientId/disable', { schema: ButtonRoute }, clientChangeHandler(services, disable));
  operators.post('/clients/:clientId/scopes', { schema: { ...ButtonRoute, body: ScopesBody } }, clientChangeHandler(services, saveScopes));
  operators.post(
    '/clients/:clientId/branding',
    { schema: { ...ButtonRoute, body: BrandingBody } },
    clientChangeHandler(services, saveBranding),
  );
}

export const clientsSection: ConsoleSectionRoutes = {
  navigation: { id: 'clients', label: 'Clients', path: '/console/clients', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/clients', { schema: ClientListRoute }, (request, reply) => showClients(services, request, reply));
    pages.get('/clients/:clientId', { schema: ClientRoute }, (request, reply) => showClient(services, request, reply));
    await pages.register(async (operators) => registerOperatorForms(operators, services));
  },
  uploads: async (uploads, services) => {
    const limits = { maxFileBytes: MAX_LOGO_FILE_BYTES, files: 1, fields: 1 };
    uploads.post(
      '/clients/:clientId/logo',
      { schema: LogoRoute, config: { consoleSection: 'clients', uploadLimits: limits } },
      clientChangeHandler(services, saveUploadedLogo),
    );
  },
};
