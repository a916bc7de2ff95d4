/**
 * Banks: the catalogue with each bank's health over the last hour and day, from the records of bank calls
 * (src/console/banks/queries.ts): the banks failing now first, then the degraded ones, then the rest by traffic.
 * Operators see every bank of the catalogue; members the banks their client's payments called in the last day, with
 * their client's calls only.
 */
import type { FastifyReply } from 'fastify';
import type { Bank } from '../../providers/catalogue.js';
import { viewerOf } from '../access.js';
import { sendPage } from '../replies.js';
import { NoQuery, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { bankHealth, quietBank, type HealthState } from './queries.js';
import { banksPage, type ListedBank } from './views.js';

const STATE_ORDER: Record<HealthState, number> = { failing: 0, degraded: 1, healthy: 2, quiet: 3 };

function byUrgency(a: ListedBank, b: ListedBank): number {
  return (
    STATE_ORDER[a.health.state] - STATE_ORDER[b.health.state] ||
    b.health.lastHour.calls - a.health.lastHour.calls ||
    b.health.lastDay.calls - a.health.lastDay.calls ||
    a.bank.name.localeCompare(b.bank.name)
  );
}

const BanksRoute = { querystring: NoQuery };

async function showBanks(services: ConsoleServices, request: RequestOf<typeof BanksRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const health = await bankHealth(services.db, services.now(), viewer.clientScope);
  const catalogue: Bank[] = [...services.catalogue.banks('production'), ...services.catalogue.banks('sandbox')];
  const listed = catalogue
    .filter((bank) => viewer.clientScope === undefined || health.has(bank.id))
    .map((bank) => ({ bank, health: health.get(bank.id) ?? quietBank(bank.id) }))
    .sort(byUrgency);
  return sendPage(reply, banksPage({ viewer, navigation: services.navigation, listed, now: services.now() }));
}

export const banksSection: ConsoleSectionRoutes = {
  navigation: { id: 'banks', label: 'Banks', path: '/console/banks', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/banks', { schema: BanksRoute }, (request, reply) => showBanks(services, request, reply));
  },
};
