/**
 * Sandbox (operators only): the sandbox banks' fault rules, listed, added and cleared as `openpis sandbox faults`
 * does (src/console/sandbox/queries.ts). A rule makes a bank's calls fail for every client, which is why members never
 * see this page. Every change is audited.
 *
 * The page also starts scenario payments as `openpis trigger` does (src/sandbox-scenarios): the answer comes once
 * the payment exists, with a link to its page; the payer's part and the outcome follow in the background.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { isScenario, startScenario, TriggerError, type ScenarioRun } from '../../sandbox-scenarios/scenarios.js';
import { admitOperatorsOnly, viewerOf } from '../access.js';
import { sendPage, seeOther } from '../replies.js';
import { CsrfField, FormText, NoQuery, QueryText, type RequestOf } from '../schemas.js';
import type { ConsoleSectionRoutes } from '../section.js';
import type { ConsoleServices } from '../services.js';
import {
  faultControl,
  FaultControlError,
  faultRulesOf,
  sandboxBanks,
  sandboxClients,
  sandboxStandards,
  startedPayment,
} from './queries.js';
import { EXPIRED_DEADLINE_SECONDS, FAULT_KINDS, sandboxPage, type FaultKindId } from './views.js';

const SandboxRoute = {
  querystring: Type.Object({ done: Type.Optional(QueryText), error: Type.Optional(QueryText), started: Type.Optional(QueryText) }),
};

async function showSandbox(services: ConsoleServices, request: RequestOf<typeof SandboxRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const banks = sandboxBanks(services);
  const { rules, problems } = await faultRulesOf(services, banks);
  const clients = await sandboxClients(services);
  const started = await startedPayment(services, request.query.started);
  const view = {
    viewer: viewerOf(request),
    navigation: services.navigation,
    banks,
    standards: sandboxStandards(services),
    rules,
    problems,
    clients,
    started,
    done: request.query.done,
    failed: request.query.error,
  };
  return sendPage(reply, sandboxPage(view));
}

const AddFaultRoute = {
  querystring: NoQuery,
  body: Type.Object({
    ...CsrfField,
    bank: Type.Optional(FormText),
    fault: Type.Optional(FormText),
    operation: Type.Optional(FormText),
    times: Type.Optional(FormText),
  }),
};

async function addFault(services: ConsoleServices, request: RequestOf<typeof AddFaultRoute>, reply: FastifyReply): Promise<FastifyReply> {
  const { body } = request;
  const bank = sandboxBanks(services).find((candidate) => candidate.path === body.bank);
  const kindId = body.fault;
  const operation = body.operation ?? '';
  const timesText = (body.times ?? '').trim();
  const times = timesText === '' ? undefined : Number(timesText);
  const valid =
    bank !== undefined &&
    kindId !== undefined &&
    kindId in FAULT_KINDS &&
    (operation === '' || sandboxStandards(services)[bank.standard].operations.includes(operation)) &&
    (times === undefined || (Number.isInteger(times) && times >= 1 && times <= 1_000_000));
  if (bank === undefined || kindId === undefined || !valid) return seeOther(reply, '/console/sandbox?error=invalid');
  const rule = {
    fault: FAULT_KINDS[kindId as FaultKindId].fault,
    ...(operation === '' ? {} : { operations: [operation] }),
    ...(times === undefined ? {} : { times }),
  };
  try {
    const added = (await faultControl(services, bank.path, 'POST', '', rule)) as { id?: string } | undefined;
    await services.audit.record(viewerOf(request).actor, {
      action: 'sandbox.fault.added',
      target: bank.path,
      details: { rule: JSON.stringify(rule), ruleId: added?.id ?? '' },
    });
  } catch (error) {
    if (!(error instanceof FaultControlError)) throw error;
    request.log.warn({ bank: bank.path, reason: error.message }, 'sandbox fault not added');
    return seeOther(reply, '/console/sandbox?error=refused');
  }
  return seeOther(reply, '/console/sandbox?done=added');
}

const StartScenarioRoute = {
  querystring: NoQuery,
  body: Type.Object({ ...CsrfField, scenario: Type.Optional(FormText), client: Type.Optional(FormText) }),
};

/**
 * The payer's part (a one-time code, the cancel button, the shortened deadline) follows without holding the answer;
 * the outcome is then the service's own work, visible on the payment's page. A shutdown lets it finish.
 */
function playInBackground(
  services: ConsoleServices,
  request: RequestOf<typeof StartScenarioRoute>,
  run: ScenarioRun,
  scenario: string,
): void {
  const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));
  services.unfinishedWork.add(
    run
      .play()
      .catch((error: unknown) =>
        request.log.warn({ paymentId: run.paymentId, scenario, reason: reason(error) }, 'scenario payment: the payer’s part failed'),
      )
      .finally(() =>
        run
          .close()
          .catch((error: unknown) =>
            request.log.warn({ paymentId: run.paymentId, reason: reason(error) }, 'scenario payment: its access token was not deleted'),
          ),
      ),
  );
}

async function startScenarioPayment(
  services: ConsoleServices,
  request: RequestOf<typeof StartScenarioRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { scenario, client: clientId } = request.body;
  const clients = await sandboxClients(services);
  if (!isScenario(scenario) || clientId === undefined || !clients.some((client) => client.id === clientId))
    return seeOther(reply, '/console/sandbox?error=scenario-invalid');
  let run: ScenarioRun;
  try {
    run = await startScenario(
      { db: services.db, catalogue: services.catalogue, baseUrl: services.config.baseUrl, sandboxBankUrl: services.config.sandboxBank.url },
      { scenario, clientId, deadlineSeconds: EXPIRED_DEADLINE_SECONDS },
    );
  } catch (error) {
    if (!(error instanceof TriggerError)) throw error;
    request.log.warn({ scenario, clientId, reason: error.message }, 'scenario payment not made');
    return seeOther(reply, '/console/sandbox?error=scenario-refused');
  }
  try {
    await services.audit.record(viewerOf(request).actor, {
      action: 'sandbox.scenario.started',
      target: run.paymentId,
      details: { scenario, clientId: run.clientId, endToEndId: run.endToEndId },
    });
  } catch (error) {
    await run.close();
    throw error;
  }
  playInBackground(services, request, run, scenario);
  return seeOther(reply, `/console/sandbox?started=${encodeURIComponent(run.paymentId)}`);
}

const ClearFaultsRoute = { querystring: NoQuery, body: Type.Object({ ...CsrfField, bank: Type.Optional(FormText) }) };

async function clearFaults(
  services: ConsoleServices,
  request: RequestOf<typeof ClearFaultsRoute>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const bank = sandboxBanks(services).find((candidate) => candidate.path === request.body.bank);
  if (bank === undefined) return seeOther(reply, '/console/sandbox?error=invalid');
  try {
    await faultControl(services, bank.path, 'DELETE');
    await services.audit.record(viewerOf(request).actor, { action: 'sandbox.faults.cleared', target: bank.path });
  } catch (error) {
    if (!(error instanceof FaultControlError)) throw error;
    request.log.warn({ bank: bank.path, reason: error.message }, 'sandbox faults not cleared');
    return seeOther(reply, '/console/sandbox?error=refused');
  }
  return seeOther(reply, '/console/sandbox?done=cleared');
}

export const sandboxSection: ConsoleSectionRoutes = {
  navigation: { id: 'sandbox', label: 'Sandbox', path: '/console/sandbox', operatorsOnly: true },
  routes: async (pages, services) => {
    admitOperatorsOnly(pages, services);
    pages.get('/sandbox', { schema: SandboxRoute }, (request, reply) => showSandbox(services, request, reply));
    pages.post('/sandbox/faults', { schema: AddFaultRoute }, (request, reply) => addFault(services, request, reply));
    pages.post('/sandbox/scenarios', { schema: StartScenarioRoute }, (request, reply) => startScenarioPayment(services, request, reply));
    pages.post('/sandbox/faults/clear', { schema: ClearFaultsRoute }, (request, reply) => clearFaults(services, request, reply));
  },
};
