/**
 * Payment links: the list with the creation form, a link's page (its QR code, its payments) and deactivation behind
 * a confirmation. A member sees and makes only their client's links (another client's is not found, 404); an operator
 * chooses the client. Creation goes through the API's rules (src/payment-links/validation.ts) for the client's
 * environment; creating, viewing and deactivating are audited.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { qrCodeSvg } from '../../hosted/handover/page.js';
import { paymentLinkUrl } from '../../payment-links/payment-link-service.js';
import { validatePaymentLinkCreation } from '../../payment-links/validation.js';
import { ApiError } from '../../http/errors.js';
import { viewerOf } from '../access.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { CsrfField, DoneQuery, FormText, IdParam, NoQuery, QueryText, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';
import { paymentLinkListPage, paymentLinkPage, type LinkForm } from './views.js';

const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FORM_FIELDS = [
  'client',
  'reference',
  'amount',
  'currency',
  'scheme',
  'remittance',
  'recipientName',
  'iban',
  'street',
  'building',
  'postCode',
  'city',
  'country',
  'redirectUri',
  'webhookUrl',
  'hours',
  'reusable',
] as const;

const ListRoute = { querystring: Type.Object({ after: Type.Optional(QueryText) }) };
const CreateRoute = {
  querystring: NoQuery,
  body: Type.Object({ ...CsrfField, ...Object.fromEntries(FORM_FIELDS.map((name) => [name, Type.Optional(FormText)])) }),
};
const LinkRoute = { params: Type.Object({ linkId: IdParam }), querystring: DoneQuery };
const DeactivateRoute = {
  params: Type.Object({ linkId: IdParam }),
  querystring: NoQuery,
  body: Type.Object({ ...CsrfField, confirm: Type.Optional(FormText) }),
};

/** The client a link is made for: a member's own, or the operator's choice. */
async function clientFor(services: ConsoleServices, viewer: Viewer, chosen: string | undefined) {
  const clients = await services.clients.list();
  const clientId = viewer.clientScope ?? chosen;
  return clients.find((client) => client.clientId === clientId);
}

async function clientNames(services: ConsoleServices): Promise<Map<string, string>> {
  return new Map((await services.clients.list()).map((client) => [client.clientId, client.name]));
}

async function showList(
  services: ConsoleServices,
  viewer: Viewer,
  reply: FastifyReply,
  after: string | undefined,
  form: LinkForm,
  problems: readonly string[],
) {
  const position = decodeAfter(after);
  const clients = viewer.clientScope === undefined ? await services.clients.list() : [];
  const names = await clientNames(services);
  const found = await services.paymentLinkStore.listVisible(viewer.clientScope, PAGE_SIZE + 1, position);
  const links = found.slice(0, PAGE_SIZE).map((link) => ({ ...link, clientName: names.get(link.clientId) ?? link.clientId }));
  const last = links[links.length - 1];
  const nextLink =
    found.length > PAGE_SIZE && last !== undefined
      ? `/console/payment-links?after=${encodeURIComponent(Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url'))}`
      : undefined;
  return sendPage(
    reply,
    paymentLinkListPage({ viewer, navigation: services.navigation, links, clients, problems, form, nextLink }),
    problems.length > 0 ? 400 : 200,
  );
}

function decodeAfter(after: string | undefined): { createdAt: string; id: string } | undefined {
  if (after === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string' && UUID.test(value[1]))
      return { createdAt: value[0], id: value[1] };
  } catch {
    // An address edited by hand: the first page.
  }
  return undefined;
}

/** The API's request body from the console's form. */
function requestOf(form: LinkForm, now: Date): Record<string, unknown> {
  const hours = Number(form.hours ?? '24');
  const amount = Number(form.amount ?? '');
  return {
    paymentScheme: { name: form.scheme === 'DOMESTIC' ? 'DOMESTIC' : 'SEPA' },
    recipient: {
      account: { number: { type: 'IBAN', value: form.iban ?? '' } },
      name: form.recipientName ?? '',
      address: {
        country: (form.country ?? '').toUpperCase(),
        city: form.city ?? '',
        streetName: form.street ?? '',
        buildingNumber: form.building ?? '',
        postCode: form.postCode ?? '',
      },
    },
    amount: Number.isFinite(amount) ? amount : form.amount,
    currency: (form.currency ?? '').toUpperCase(),
    remittanceInformation: { type: 'UNSTRUCTURED', value: form.remittance ?? '' },
    metadata: {
      redirectUri: form.redirectUri ?? '',
      ...(form.webhookUrl === undefined || form.webhookUrl === '' ? {} : { webhookUrl: form.webhookUrl }),
    },
    reference: form.reference ?? '',
    ...(Number.isFinite(hours) && hours > 0 ? { expiresAt: new Date(now.getTime() + hours * 3600_000).toISOString() } : {}),
    reusable: form.reusable === 'yes',
  };
}

async function createLink(services: ConsoleServices, request: RequestOf<typeof CreateRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const body = request.body as Readonly<Record<string, string | undefined>>;
  const form: LinkForm = Object.fromEntries(FORM_FIELDS.flatMap((name) => (body[name] === undefined ? [] : [[name, body[name].trim()]])));
  const client = await clientFor(services, viewer, form.client);
  if (client === undefined) return showList(services, viewer, reply, undefined, form, ['Client: choose one from the list']);
  const now = services.now();
  const result = validatePaymentLinkCreation(
    requestOf(form, now),
    {
      environment: client.environment,
      catalogue: services.catalogue,
      allowPrivateWebhookTargets: services.config.webhooks.allowPrivateTargets,
    },
    now,
  );
  if (result.kind === 'invalid') return showList(services, viewer, reply, undefined, form, result.violations);
  if (result.kind === 'unknown-provider') return showList(services, viewer, reply, undefined, form, ['The bank is unknown']);
  try {
    const link = await services.paymentLinkService.create(client, result.link);
    await services.audit.record(viewer.actor, {
      action: 'payment_link.created',
      clientId: client.clientId,
      target: link.id,
      details: { reference: link.reference },
    });
    return seeOther(reply, `/console/payment-links/${link.id}?done=created`);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 409) return showList(services, viewer, reply, undefined, form, [error.message]);
    throw error;
  }
}

async function showLink(
  services: ConsoleServices,
  request: RequestOf<typeof LinkRoute>,
  reply: FastifyReply,
  problems: readonly string[] = [],
  status = 200,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const found = UUID.test(request.params.linkId)
    ? await services.paymentLinkStore.findVisible(request.params.linkId, viewer.clientScope)
    : undefined;
  if (found === undefined) return sendNotFound(services, request, reply);
  const link = await services.paymentLinkStore.current(found);
  await services.audit.record(viewer.actor, { action: 'payment_link.viewed', clientId: link.clientId, target: link.id });
  const url = paymentLinkUrl(services.config.baseUrl, link);
  const page = paymentLinkPage({
    viewer,
    navigation: services.navigation,
    link,
    clientName: (await clientNames(services)).get(link.clientId) ?? link.clientId,
    url,
    qr: await qrCodeSvg(url),
    payments: await services.paymentLinkStore.paymentsOf(link),
    done: request.query.done,
    problems,
  });
  return sendPage(reply, page, status);
}

async function deactivateLink(
  services: ConsoleServices,
  request: RequestOf<typeof DeactivateRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const found = UUID.test(request.params.linkId)
    ? await services.paymentLinkStore.findVisible(request.params.linkId, viewer.clientScope)
    : undefined;
  if (found === undefined) return sendNotFound(services, request, reply);
  if (request.body.confirm !== 'yes')
    return showLink(services, { ...request, query: {} } as unknown as RequestOf<typeof LinkRoute>, reply, ['Tick the box to confirm'], 400);
  const link = await services.paymentLinkStore.close(found, 'DEACTIVATED');
  if (link.status === 'DEACTIVATED')
    await services.audit.record(viewer.actor, { action: 'payment_link.deactivated', clientId: link.clientId, target: link.id });
  return seeOther(reply, `/console/payment-links/${link.id}${link.status === 'DEACTIVATED' ? '?done=deactivated' : ''}`);
}

export const paymentLinksSection: ConsoleSectionRoutes = {
  navigation: { id: 'payment-links', label: 'Payment links', path: '/console/payment-links', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/payment-links', { schema: ListRoute }, (request, reply) =>
      showList(services, viewerOf(request), reply, request.query.after, {}, []),
    );
    pages.post('/payment-links', { schema: CreateRoute }, (request, reply) => createLink(services, request, reply));
    pages.get('/payment-links/:linkId', { schema: LinkRoute }, (request, reply) => showLink(services, request, reply));
    pages.post('/payment-links/:linkId/deactivate', { schema: DeactivateRoute }, (request, reply) =>
      deactivateLink(services, request, reply),
    );
  },
};
