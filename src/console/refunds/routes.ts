/**
 * Refunds: the client's refunds (an operator: every client's), awaiting approval by default; "Approve at your bank"
 * opens a refund's hosted flow (its `redirectUrl`), where the merchant's approver chooses their bank and authorises
 * it; "Approve selected" leads through several, one bank authorisation each (no bank offers bulk payments here yet).
 * A member sees only their client's refunds: another client's is not found (404) and never listed. Opening a
 * refund's approval is audited (`refund.approval-opened`).
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { viewerOf } from '../access.js';
import { decodePosition, encodePosition } from '../payments/queries.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { allValues, IdParam, NoQuery, QueryText, Repeated, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { approvalAddress, isAwaitingApproval, listRefunds, visibleRefunds } from './queries.js';
import { approvalPage, refundListPage } from './views.js';

const PAGE_SIZE = 50;

const ListRoute = { querystring: Type.Object({ show: Type.Optional(QueryText), after: Type.Optional(QueryText) }) };
const ApproveSelectedRoute = {
  querystring: Type.Object({ refund: Type.Optional(Repeated(QueryText)), follow: Type.Optional(QueryText) }),
};
const ApproveOneRoute = { params: Type.Object({ refundId: IdParam }), querystring: NoQuery };

async function showRefunds(services: ConsoleServices, request: RequestOf<typeof ListRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const awaiting = request.query.show !== 'all';
  const page = await listRefunds(services.db, viewer.clientScope, awaiting, PAGE_SIZE, decodePosition(request.query.after));
  const names = new Map((await services.clients.list()).map((client) => [client.clientId, client.name]));
  const nextLink =
    page.next === undefined
      ? undefined
      : `/console/refunds?${new URLSearchParams({ ...(awaiting ? {} : { show: 'all' }), after: encodePosition(page.next) }).toString()}`;
  return sendPage(
    reply,
    refundListPage({
      viewer,
      navigation: services.navigation,
      rows: page.rows.map((row) => ({ ...row, clientName: names.get(row.clientId) ?? row.clientId })),
      awaiting,
      nextLink,
    }),
  );
}

async function showApproval(
  services: ConsoleServices,
  request: RequestOf<typeof ApproveSelectedRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const refunds = await visibleRefunds(services.db, allValues(request.query.refund), viewer.clientScope);
  return sendPage(reply, approvalPage({ viewer, navigation: services.navigation, refunds, following: request.query.follow === 'yes' }));
}

/**
 * To the refund's hosted flow. Through this address rather than the flow's own in the page: the flow's secret stays
 * out of the listing, and each opening is audited. A refund no longer awaiting approval goes to its page instead.
 */
async function openApproval(
  services: ConsoleServices,
  request: RequestOf<typeof ApproveOneRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const found = await approvalAddress(services.db, services.secrets, services.config.baseUrl, request.params.refundId, viewer.clientScope);
  if (found === undefined) return sendNotFound(services, request, reply);
  if (!isAwaitingApproval(found.refund.detailedStatus)) return seeOther(reply, `/console/payments/${found.refund.id}`);
  await services.audit.record(viewer.actor, {
    action: 'refund.approval-opened',
    clientId: found.refund.clientId,
    target: found.refund.id,
    details: { refundOf: found.refund.refundOf },
  });
  return seeOther(reply, found.redirectUrl);
}

export const refundsSection: ConsoleSectionRoutes = {
  navigation: { id: 'refunds', label: 'Refunds', path: '/console/refunds', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/refunds', { schema: ListRoute }, (request, reply) => showRefunds(services, request, reply));
    pages.get('/refunds/approve', { schema: ApproveSelectedRoute }, (request, reply) => showApproval(services, request, reply));
    pages.get('/refunds/:refundId/approve', { schema: ApproveOneRoute }, (request, reply) => openApproval(services, request, reply));
  },
};
