/**
 * Insight: how payments are going, as charts (docs/console.md, "Insight"). Payments per outcome over time; the
 * conversion funnel, where payers drop off, overall or for one bank, and the completion rate of each bank; the time
 * from creation to completion. Members see their client's payments only; operators every client's, or one client's.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { viewerOf } from '../access.js';
import { bankNames } from '../bank-names.js';
import { sendPage } from '../replies.js';
import { QueryText, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import {
  cancelledAfterConfirmation,
  completionTimes,
  funnelByBank,
  handoversTaken,
  outcomesOverTime,
  RANGES,
  type InsightScope,
  type RangeId,
} from './queries.js';
import { retryFigures } from './retries.js';
import { insightPage } from './views.js';

const InsightRoute = {
  querystring: Type.Object({ range: Type.Optional(QueryText), client: Type.Optional(QueryText), bank: Type.Optional(QueryText) }),
};

async function showInsight(services: ConsoleServices, request: RequestOf<typeof InsightRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const { range: rangeParameter, client: pickedClient, bank: pickedBank } = request.query;
  // An unknown period or client is not an error: the page shows its default (the last 7 days, every client).
  const rangeId: RangeId = rangeParameter !== undefined && rangeParameter in RANGES ? (rangeParameter as RangeId) : '7d';
  const range = RANGES[rangeId];
  const clients = viewer.clientScope === undefined ? await services.clients.list() : [];
  const clientId = viewer.clientScope ?? clients.find((client) => client.clientId === pickedClient)?.clientId;
  const now = services.now();
  const scope: InsightScope = { from: new Date(now.getTime() - range.hours * 3_600_000), to: now, clientId };
  const [buckets, funnelRows, times, retries, handovers, cancelledOnPage] = await Promise.all([
    outcomesOverTime(services.db, scope, range.bucket),
    funnelByBank(services.db, scope),
    completionTimes(services.db, scope),
    retryFigures(services.db, scope),
    handoversTaken(services.db, scope),
    cancelledAfterConfirmation(services.db, scope),
  ]);
  const bankRow = pickedBank === undefined ? undefined : funnelRows.find((row) => row.bankId === pickedBank);
  const names = bankNames(services.catalogue);
  return sendPage(
    reply,
    insightPage({
      viewer,
      navigation: services.navigation,
      rangeId,
      clients,
      clientId,
      names,
      buckets,
      funnelRows,
      bankRow,
      times,
      retries,
      handovers,
      cancelledOnPage,
    }),
  );
}

export const insightSection: ConsoleSectionRoutes = {
  navigation: { id: 'insight', label: 'Insight', path: '/console/insight', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/insight', { schema: InsightRoute }, (request, reply) => showInsight(services, request, reply));
  },
};
