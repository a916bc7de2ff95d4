/**
 * Payments: the list (filters, search, pages of 50, newest first) and a payment's page (facts, the whole status
 * timeline with the time between records and the failure reasons, the bank calls, the webhook deliveries with
 * every attempt and a one-click redeliver). A member sees only their client's payments: another client's payment
 * is not found (404), by address and by search alike. Viewing a payment, searching and redelivering are audited.
 */
import type { FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import { isDetailedStatus } from '../../domain/detailed-status.js';
import { scaledAmount } from '../../domain/money.js';
import { viewerOf } from '../access.js';
import { bankNames } from '../bank-names.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { allValues, CsrfField, DoneQuery, IdParam, NoQuery, QueryText, Repeated, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import type { Viewer } from '../viewer.js';
import { decodePosition, encodePosition, listPayments, paymentRecords, visiblePayment, type PaymentListFilters } from './queries.js';
import { paymentListPage, paymentPage, TOP_LEVEL } from './views.js';

const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const PaymentListQuery = Type.Object({
  q: Type.Optional(QueryText),
  status: Type.Optional(Repeated(QueryText)),
  from: Type.Optional(QueryText),
  to: Type.Optional(QueryText),
  detailed: Type.Optional(QueryText),
  bank: Type.Optional(QueryText),
  client: Type.Optional(QueryText),
  min: Type.Optional(QueryText),
  max: Type.Optional(QueryText),
  e2e: Type.Optional(QueryText),
  id: Type.Optional(QueryText),
  after: Type.Optional(QueryText),
});
type ListQuery = Static<typeof PaymentListQuery>;
type TextFilter = Exclude<keyof ListQuery, 'status' | 'after'>;

interface ParsedFilters {
  readonly filters: PaymentListFilters;
  readonly problems: string[];
  /** The filters as given, to refill the form and build the next page's link. */
  readonly echo: URLSearchParams;
}

/** The list's filters from the address; what cannot be read is a problem said on the page (400), not a filter. */
function parseFilters(viewer: Viewer, query: ListQuery): ParsedFilters {
  const problems: string[] = [];
  const echo = new URLSearchParams();
  const text = (name: TextFilter): string | undefined => {
    const value = query[name]?.trim();
    if (value === undefined || value === '') return undefined;
    echo.set(name, value);
    return value;
  };
  const statuses = allValues(query.status).filter((value): value is (typeof TOP_LEVEL)[number] =>
    (TOP_LEVEL as readonly string[]).includes(value),
  );
  for (const status of statuses) echo.append('status', status);
  const [detailed, client, bank, from, to, min, max, paymentId, endToEndId, search] = (
    ['detailed', 'client', 'bank', 'from', 'to', 'min', 'max', 'id', 'e2e', 'q'] as const
  ).map(text);
  const amountMin = min === undefined ? undefined : scaledAmount(min);
  const amountMax = max === undefined ? undefined : scaledAmount(max);
  if (detailed !== undefined && !isDetailedStatus(detailed)) problems.push('Detailed status: choose one from the list');
  if (from !== undefined && !DATE.test(from)) problems.push('From: a date (YYYY-MM-DD)');
  if (to !== undefined && !DATE.test(to)) problems.push('To: a date (YYYY-MM-DD)');
  if (min !== undefined && amountMin === undefined) problems.push('Amount from: a number such as 10 or 10.50');
  if (max !== undefined && amountMax === undefined) problems.push('Amount to: a number such as 10 or 10.50');
  if (paymentId !== undefined && !UUID.test(paymentId)) problems.push('Payment id: a UUID such as 3f0c…-…');
  const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
  const filters: PaymentListFilters = {
    // A member's own client, whatever the address says; an operator's choice of client, or every client.
    ...(viewer.clientScope !== undefined ? { clientId: viewer.clientScope } : client !== undefined ? { clientId: client } : {}),
    ...(statuses.length > 0 ? { statuses } : {}),
    ...(detailed !== undefined && isDetailedStatus(detailed) ? { detailedStatus: detailed } : {}),
    ...(bank !== undefined ? { providerId: bank } : {}),
    ...(from !== undefined && DATE.test(from) ? { createdFrom: `${from}T00:00:00.000Z` } : {}),
    ...(to !== undefined && DATE.test(to) ? { createdBefore: dayAfter(to) } : {}),
    ...(amountMin !== undefined ? { amountMin } : {}),
    ...(amountMax !== undefined ? { amountMax } : {}),
    ...(endToEndId !== undefined ? { endToEndId } : {}),
    ...(paymentId !== undefined && UUID.test(paymentId) ? { paymentId } : {}),
    ...(search !== undefined ? { search } : {}),
  };
  return { filters, problems, echo };
}

const PaymentListRoute = { querystring: PaymentListQuery };

async function showPaymentList(
  services: ConsoleServices,
  request: RequestOf<typeof PaymentListRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const { query } = request;
  const { filters, problems, echo } = parseFilters(viewer, query);
  const after = decodePosition(query.after);
  const clients = viewer.clientScope === undefined ? await services.clients.list() : [];
  const result =
    problems.length > 0 ? { rows: [], next: undefined } : await listPayments(services.db, filters, PAGE_SIZE, after, services.databaseKind);
  if (echo.toString() !== '')
    await services.audit.record(viewer.actor, {
      action: 'payments.searched',
      clientId: viewer.clientScope ?? null,
      details: { filters: echo.toString() },
    });
  const nextLink =
    result.next === undefined
      ? undefined
      : `/console/payments?${new URLSearchParams([...echo.entries(), ['after', encodePosition(result.next)]]).toString()}`;
  const page = paymentListPage({
    viewer,
    navigation: services.navigation,
    problems,
    echo,
    banks: bankNames(services.catalogue),
    clients,
    rows: result.rows,
    paged: after !== undefined,
    nextLink,
  });
  return sendPage(reply, page, problems.length > 0 ? 400 : 200);
}

const PaymentRoute = { params: Type.Object({ paymentId: IdParam }), querystring: DoneQuery };

async function showPayment(services: ConsoleServices, request: RequestOf<typeof PaymentRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const row = await visiblePayment(services.db, request.params.paymentId, viewer.clientScope);
  if (row === undefined) return sendNotFound(services, request, reply);
  await services.audit.record(viewer.actor, { action: 'payment.viewed', clientId: row.client_id, target: row.id });
  const records = await paymentRecords(services.db, services.outbox, services.clients, row);
  const bank = row.provider_id === null ? undefined : bankNames(services.catalogue).get(row.provider_id);
  return sendPage(reply, paymentPage({ viewer, navigation: services.navigation, row, records, bank, done: request.query.done }));
}

const RedeliverRoute = {
  params: Type.Object({ paymentId: IdParam, eventId: IdParam }),
  querystring: NoQuery,
  body: Type.Object(CsrfField),
};

async function redeliverWebhook(
  services: ConsoleServices,
  request: RequestOf<typeof RedeliverRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const { paymentId, eventId } = request.params;
  const row = await visiblePayment(services.db, paymentId, viewer.clientScope);
  const event =
    row === undefined ? undefined : (await services.outbox.listForSubject(row.id)).find((candidate) => candidate.eventId === eventId);
  if (row === undefined || event === undefined) return sendNotFound(services, request, reply);
  await services.outbox.redeliver(event.eventId);
  await services.audit.record(viewer.actor, {
    action: 'webhook.redelivered',
    clientId: row.client_id,
    target: row.id,
    details: { eventId: event.eventId, sequence: event.sequence },
  });
  return seeOther(reply, `/console/payments/${row.id}?done=redelivered#webhooks`);
}

export const paymentsSection: ConsoleSectionRoutes = {
  navigation: { id: 'payments', label: 'Payments', path: '/console/payments', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/payments', { schema: PaymentListRoute }, (request, reply) => showPaymentList(services, request, reply));
    pages.get('/payments/:paymentId', { schema: PaymentRoute }, (request, reply) => showPayment(services, request, reply));
    pages.post('/payments/:paymentId/webhooks/:eventId/redeliver', { schema: RedeliverRoute }, (request, reply) =>
      redeliverWebhook(services, request, reply),
    );
  },
};
