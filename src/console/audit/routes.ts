/**
 * The audit log, newest first, 100 entries a page: operators see every entry, members their client's. There is no
 * form here that changes an entry, and none anywhere else (src/people/audit-log.ts).
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { viewerOf } from '../access.js';
import { sendPage } from '../replies.js';
import { QueryText, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { auditPage, decodeAfter, encodeAfter } from './queries.js';
import { auditLogPage } from './views.js';

const AuditLogRoute = {
  querystring: Type.Object({ action: Type.Optional(QueryText), actor: Type.Optional(QueryText), after: Type.Optional(QueryText) }),
};

async function showAuditLog(
  services: ConsoleServices,
  request: RequestOf<typeof AuditLogRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const { action, actor } = request.query;
  const after = decodeAfter(request.query.after);
  const { entries, more } = await auditPage(services.audit, { clientScope: viewer.clientScope, action, actor, after });
  const filters = new URLSearchParams({ ...(action ? { action } : {}), ...(actor ? { actor } : {}) });
  const nextLink =
    more === undefined
      ? undefined
      : `/console/audit?${new URLSearchParams([...filters.entries(), ['after', encodeAfter(more)]]).toString()}`;
  return sendPage(
    reply,
    auditLogPage({ viewer, navigation: services.navigation, action, actor, entries, filters, paged: after !== undefined, nextLink }),
  );
}

export const auditSection: ConsoleSectionRoutes = {
  navigation: { id: 'audit', label: 'Audit log', path: '/console/audit', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/audit', { schema: AuditLogRoute }, (request, reply) => showAuditLog(services, request, reply));
  },
};
