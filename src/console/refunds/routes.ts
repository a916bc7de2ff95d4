/**
 * Refunds: the client's refunds (an operator: every client's), awaiting approval by default; "Approve at your bank"
 * opens a refund's hosted flow (its `redirectUrl`), where the merchant's approver chooses their bank and authorises
 * it; "Approve selected" shows several: approved together, with one authorisation at a bank that makes bulk payments
 * (src/flow/refund-bulks.ts), or one after another. A member sees only their client's refunds: another client's is
 * not found (404) and never listed. Opening a refund's approval is audited (`refund.approval-opened`), and so is
 * forming a bulk (`refund.bulk-approval-opened`).
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { viewerOf } from '../access.js';
import { decodePosition, encodePosition } from '../payments/queries.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { allValues, CsrfField, FormText, IdParam, NoQuery, QueryText, Repeated, type RequestOf } from '../schemas.js';
import { formRefundBulk } from '../../flow/refund-bulks.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { approvalAddress, isAwaitingApproval, listRefunds, visibleRefunds, type RefundRow } from './queries.js';
import { approvalPage, refundListPage } from './views.js';

const PAGE_SIZE = 50;

const ListRoute = { querystring: Type.Object({ show: Type.Optional(QueryText), after: Type.Optional(QueryText) }) };
const ApproveSelectedRoute = {
  querystring: Type.Object({ refund: Type.Optional(Repeated(QueryText)), follow: Type.Optional(QueryText) }),
};
const ApproveOneRoute = { params: Type.Object({ refundId: IdParam }), querystring: NoQuery };
const ApproveTogetherRoute = { querystring: NoQuery, body: Type.Object({ ...CsrfField, refund: Type.Optional(Repeated(FormText)) }) };

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
  return sendPage(
    reply,
    approvalPage({
      viewer,
      navigation: services.navigation,
      refunds,
      following: request.query.follow === 'yes',
      bulkBanks: bulkBanksFor(services, refunds),
      problems: [],
    }),
  );
}

/** The banks that could approve these refunds together: those making bulk payments in their currency. */
function bulkBanksFor(services: ConsoleServices, refunds: readonly RefundRow[]): readonly string[] {
  const first = refunds[0];
  return first === undefined ? [] : services.bulkPaymentBanks(first.environment, first.currency);
}

/**
 * "Approve all together": the selected refunds become one bulk (src/flow/refund-bulks.ts), led by the first, and the
 * approver goes to its flow, where they choose a bank that makes bulk payments and authorise them all at once. A
 * selection that cannot be approved together shows the approval page again with the reason (409).
 */
async function approveTogether(
  services: ConsoleServices,
  request: RequestOf<typeof ApproveTogetherRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const ids = allValues(request.body.refund);
  const refunds = await visibleRefunds(services.db, ids, viewer.clientScope);
  const bulkBanks = bulkBanksFor(services, refunds);
  const refusal = async (problem: string): Promise<FastifyReply> =>
    sendPage(
      reply,
      approvalPage({ viewer, navigation: services.navigation, refunds, following: false, bulkBanks, problems: [problem] }),
      409,
    );
  const first = refunds[0];
  if (first !== undefined && bulkBanks.length === 0)
    return refusal(`No bank here makes bulk payments in ${first.currency}: approve these refunds one after another.`);
  const formed = await formRefundBulk(services.db, { refundIds: ids, clientScope: viewer.clientScope, now: services.now() });
  if (formed.kind === 'refused') return refusal(`These refunds cannot be approved together: ${formed.refusal.message}.`);
  const leader = await approvalAddress(services.db, services.secrets, services.config.baseUrl, formed.leaderId, viewer.clientScope);
  if (leader === undefined) return sendNotFound(services, request, reply);
  await services.audit.record(viewer.actor, {
    action: 'refund.bulk-approval-opened',
    clientId: leader.refund.clientId,
    target: leader.refund.id,
    details: { refunds: refunds.map((refund) => refund.id) },
  });
  return seeOther(reply, leader.redirectUrl);
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
    pages.post('/refunds/approve-together', { schema: ApproveTogetherRoute }, (request, reply) =>
      approveTogether(services, request, reply),
    );
  },
};
