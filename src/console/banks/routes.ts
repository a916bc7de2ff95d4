/**
 * Banks: the catalogue with each bank's health over the last hour and day, from the records of bank calls
 * (src/console/banks/queries.ts): the banks failing now first, then the degraded ones, then the rest by traffic.
 * Operators see every bank of the catalogue; members the banks their client's payments called in the last day, with
 * their client's calls only.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../http/fastify-types.js';
import { BankChangeError } from '../../providers/bank-store.js';
import type { Bank } from '../../providers/catalogue.js';
import { admitOperatorsOnly, viewerOf } from '../access.js';
import { sendNotFound, sendPage, seeOther } from '../replies.js';
import { CsrfField, DoneQuery, FormText, IdParam, NoQuery, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import { bankHealth, changeBankLifecycle, quietBank, type BankLifecycleChange, type HealthState } from './queries.js';
import { BankChecks } from './checks.js';
import { bankPage, banksPage, type ListedBank } from './views.js';

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
  // Operators manage the banks stored on their own (a group's banks are managed with their group, by the CLI).
  const managed =
    viewer.clientScope === undefined ? new Set((await services.bankStore.list()).map((stored) => stored.id)) : new Set<string>();
  const listed = catalogue
    .filter((bank) => viewer.clientScope === undefined || health.has(bank.id))
    .map((bank) => ({ bank, health: health.get(bank.id) ?? quietBank(bank.id), linked: managed.has(bank.id) }))
    .sort(byUrgency);
  return sendPage(reply, banksPage({ viewer, navigation: services.navigation, listed, now: services.now() }));
}

const BankParams = Type.Object({ bankId: IdParam });
const BankRoute = { params: BankParams, querystring: DoneQuery };
const LifecycleBody = Type.Object({ ...CsrfField, confirm: Type.Optional(FormText), replacement: Type.Optional(FormText) });
const LifecycleRoute = { params: BankParams, querystring: NoQuery, body: LifecycleBody };

/** One bank's page (operators): its entry, lifecycle, health and the lifecycle's forms. */
async function sendBankPage(
  services: ConsoleServices,
  checks: BankChecks,
  request: RequestOf<{ params: typeof BankParams }>,
  reply: FastifyReply,
  outcome: { done?: string; problems?: readonly string[] },
  status = 200,
): Promise<FastifyReply> {
  const bank = await services.bankStore.get(request.params.bankId);
  if (bank === undefined) return sendNotFound(services, request, reply);
  const health = (await bankHealth(services.db, services.now(), undefined)).get(bank.id) ?? quietBank(bank.id);
  const replacements = (await services.bankStore.list())
    .filter((candidate) => candidate.status === 'active' && candidate.entry.environment === bank.entry.environment)
    .map((candidate) => ({ id: candidate.id, name: candidate.entry.name }));
  const check = checks.stateOf(bank.id);
  // A UK bank's registration (by dynamic client registration or by hand) is its client id among its secrets.
  const registeredClientId = (await services.bankStore.secretsOf(bank.id))?.['clientId'];
  const view = {
    viewer: viewerOf(request),
    navigation: services.navigation,
    bank,
    health,
    replacements,
    registeredClientId,
    ...(check === undefined ? {} : { check }),
    ...outcome,
  };
  return sendPage(reply, bankPage(view), status);
}

const DONE: Record<BankLifecycleChange['kind'], string> = { disable: 'disabled', enable: 'enabled', replace: 'replaced' };

function lifecycleHandler(services: ConsoleServices, checks: BankChecks, kind: BankLifecycleChange['kind']) {
  return async function changeLifecycle(request: RequestOf<typeof LifecycleRoute>, reply: FastifyReply): Promise<FastifyReply> {
    const bank = await services.bankStore.get(request.params.bankId);
    if (bank === undefined) return sendNotFound(services, request, reply);
    if (request.body.confirm !== 'yes')
      return sendBankPage(services, checks, request, reply, { problems: ['Tick the box to confirm the change'] }, 400);
    const replacement = (request.body.replacement ?? '').trim();
    if (kind === 'replace' && replacement === '')
      return sendBankPage(services, checks, request, reply, { problems: ['Choose the replacement'] }, 400);
    const change: BankLifecycleChange = kind === 'replace' ? { kind, replacement } : { kind };
    try {
      await changeBankLifecycle(services, viewerOf(request), bank.id, change);
    } catch (error) {
      if (error instanceof BankChangeError) return sendBankPage(services, checks, request, reply, { problems: [error.message] }, 400);
      throw error;
    }
    return seeOther(reply, `/console/banks/${bank.id}?done=${DONE[kind]}`);
  };
}

const CheckBody = Type.Object({ ...CsrfField, confirm: Type.Optional(FormText) });
const CheckRoute = { params: BankParams, querystring: NoQuery, body: CheckBody };

/** Starts the bank's check in the background (a second click while it runs joins the running one). */
function checkHandler(services: ConsoleServices, checks: BankChecks) {
  return async function runCheck(request: RequestOf<typeof CheckRoute>, reply: FastifyReply): Promise<FastifyReply> {
    const bank = await services.bankStore.get(request.params.bankId);
    if (bank === undefined) return sendNotFound(services, request, reply);
    if (request.body.confirm !== 'yes')
      return sendBankPage(services, checks, request, reply, { problems: ['Tick the box to confirm the check'] }, 400);
    if (checks.start(bank.id)) await services.audit.record(viewerOf(request).actor, { action: 'bank.checked', target: bank.id });
    return seeOther(reply, `/console/banks/${bank.id}?done=checking`);
  };
}

async function registerOperatorPages(operators: App, services: ConsoleServices): Promise<void> {
  admitOperatorsOnly(operators, services);
  const checks = new BankChecks(services);
  operators.post('/banks/:bankId/check', { schema: CheckRoute }, checkHandler(services, checks));
  operators.get('/banks/:bankId', { schema: BankRoute }, (request, reply) =>
    sendBankPage(services, checks, request, reply, { done: request.query.done }),
  );
  for (const kind of ['disable', 'enable', 'replace'] as const)
    operators.post(`/banks/:bankId/${kind}`, { schema: LifecycleRoute }, lifecycleHandler(services, checks, kind));
}

export const banksSection: ConsoleSectionRoutes = {
  navigation: { id: 'banks', label: 'Banks', path: '/console/banks', operatorsOnly: false },
  routes: async (pages, services) => {
    pages.get('/banks', { schema: BanksRoute }, (request, reply) => showBanks(services, request, reply));
    await pages.register(async (operators) => registerOperatorPages(operators, services));
  },
};
