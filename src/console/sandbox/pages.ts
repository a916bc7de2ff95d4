/**
 * Sandbox (operators only): the sandbox banks' fault rules, listed, added and cleared as `openpis sandbox faults`
 * does, through the sandbox bank's fault routes with the operator token (SANDBOX_OPERATOR_TOKEN; docs/sandbox-bank.md).
 * A rule makes a bank's calls fail for every client, which is why members never see this page. Every change is
 * audited.
 *
 * The page also starts scenario payments as `openpis trigger` does (src/sandbox-scenarios): the answer comes once
 * the payment exists, with a link to its page; the payer's part and the outcome follow in the background.
 */
import { html, type SafeHtml } from '../../hosted/html.js';
import { OPERATIONS, UK_OPERATIONS } from '../../sandbox-bank/index.js';
import { isScenario, startScenario, TriggerError, type Scenario, type ScenarioRun } from '../../sandbox-scenarios/scenarios.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import { page, redirect, type ConsoleRouter } from '../router.js';
import type { ConsoleServices } from '../services.js';

/** The standards of the sandbox banks; each sandbox names the operations its fault rules may target in its own words. */
type SandboxStandard = 'berlin-group' | 'uk-open-banking';

const STANDARDS: Readonly<Record<SandboxStandard, { readonly label: string; readonly operations: readonly string[] }>> = {
  'berlin-group': { label: 'Berlin Group banks', operations: OPERATIONS },
  'uk-open-banking': { label: 'UK Open Banking banks', operations: UK_OPERATIONS },
};

interface SandboxBank {
  /** Where the bank's fault routes are, under SANDBOX_BANK_URL: `hansa`, `uk/albion`. */
  readonly path: string;
  readonly name: string;
  readonly standard: SandboxStandard;
}

interface FaultRuleView {
  readonly id: string;
  readonly operations?: readonly string[];
  readonly psuId?: string;
  readonly fault: { readonly kind: string; readonly status?: number; readonly delayMs?: number; readonly holdMs?: number };
  readonly times?: number;
}

/**
 * The sandbox banks of the catalogue (Berlin Group and UK Open Banking), by the path their fault routes are under:
 * a Berlin Group bank's slug (its `baseUrl`'s first segment), a UK bank's `uk/<slug>` (its issuer). Both sandboxes
 * answer `/<path>/sandbox/faults` with the same routes and rule shape (docs/sandbox-bank.md).
 */
function sandboxBanks(services: ConsoleServices): SandboxBank[] {
  const root = `${services.config.sandboxBank.url.replace(/\/+$/, '')}/`;
  return services.catalogue
    .banks('sandbox')
    .flatMap((bank): SandboxBank[] => {
      const { connector } = bank;
      if (connector.standard === 'berlin-group' && connector.baseUrl.startsWith(root)) {
        return [{ path: connector.baseUrl.slice(root.length).split('/')[0] ?? '', name: bank.name, standard: 'berlin-group' }];
      }
      if (connector.standard === 'uk-open-banking' && connector.issuer.startsWith(root)) {
        return [{ path: connector.issuer.slice(root.length).replace(/\/+$/, ''), name: bank.name, standard: 'uk-open-banking' }];
      }
      return [];
    })
    .filter((bank) => (bank.standard === 'berlin-group' ? /^[a-z0-9-]{1,64}$/ : /^uk\/[a-z0-9-]{1,64}$/).test(bank.path))
    .sort((a, b) => a.name.localeCompare(b.name));
}

class FaultControlError extends Error {}

async function faultControl(services: ConsoleServices, path: string, method: 'GET' | 'POST' | 'DELETE', suffix = '', body?: unknown): Promise<unknown> {
  const token = services.config.sandboxOperatorToken;
  if (token === undefined) throw new FaultControlError('Fault injection is closed: the service runs without SANDBOX_OPERATOR_TOKEN.');
  const bankPath = path.split('/').map(encodeURIComponent).join('/');
  const response = await fetch(`${services.config.sandboxBank.url.replace(/\/+$/, '')}/${bankPath}/sandbox/faults${suffix}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  if (!response.ok) throw new FaultControlError(`The sandbox bank answered ${response.status}${text === '' ? '' : `: ${text.slice(0, 300)}`}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function describeFault(rule: FaultRuleView): string {
  const fault = rule.fault.kind === 'error' ? `HTTP ${rule.fault.status ?? ''}` : rule.fault.kind === 'delay' ? `${rule.fault.delayMs ?? 0} ms delay` : 'no answer (timeout)';
  const operations = rule.operations === undefined ? 'every operation' : rule.operations.join(', ');
  return `${fault} on ${operations}${rule.psuId === undefined ? '' : ` for payer ${rule.psuId}`}, ${rule.times === undefined ? 'always' : `the next ${rule.times} calls`}`;
}

const FAULT_KINDS = {
  'error-503': { label: 'HTTP 503 (unavailable)', fault: { kind: 'error', status: 503 } },
  'error-500': { label: 'HTTP 500 (internal error)', fault: { kind: 'error', status: 500 } },
  'delay-3000': { label: 'A 3 s delay', fault: { kind: 'delay', delayMs: 3000 } },
  timeout: { label: 'No answer (held 30 s, then dropped)', fault: { kind: 'timeout', holdMs: 30_000 } },
} as const;
type FaultKindId = keyof typeof FAULT_KINDS;

/** What a failed change says (by code in the address, so the page never echoes text from the address). */
const ERRORS = {
  invalid: 'Choose a sandbox bank, a fault and an operation of the lists (an operation of the bank’s own standard); how many calls is a whole number from 1 to 1,000,000, or empty.',
  refused: 'The sandbox bank refused the change; the reason is in the service’s log.',
  'scenario-invalid': 'Choose a scenario and an active sandbox client of the lists: scenario payments are made for sandbox clients only.',
  'scenario-refused': 'The scenario payment could not be made; the reason is in the service’s log.',
} as const;
type ErrorCode = keyof typeof ERRORS;

/** `expired`: the flow deadline the console gives the payment (the command line's --deadline-seconds). */
const EXPIRED_DEADLINE_SECONDS = 20;

/** The scenarios offered, in words: the outcome each payment reaches. */
const SCENARIO_LABELS: Record<Scenario, string> = {
  completed: 'Completed',
  'insufficient-funds': 'Failed: insufficient funds',
  rejected: 'Failed: rejected by the bank',
  cancelled: 'Failed: cancelled by the payer',
  expired: `Failed: expired (${EXPIRED_DEADLINE_SECONDS} s)`,
};

/** The clients a scenario payment may be made for: active sandbox clients (a production client is never offered nor accepted). */
async function sandboxClients(services: ConsoleServices): Promise<{ readonly id: string; readonly name: string }[]> {
  return services.db.selectFrom('clients').select(['id', 'name']).where('environment', '=', 'sandbox').where('disabled_at', 'is', null).orderBy('name').orderBy('id').execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerSandboxPages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'sandbox', label: 'Sandbox', path: '/console/sandbox', operatorsOnly: true });

  router.get('/sandbox', { section: 'sandbox', operatorsOnly: true }, async ({ viewer, query }) => {
    const banks = sandboxBanks(services);
    const problems: string[] = [];
    const rules = new Map<string, FaultRuleView[]>();
    for (const bank of banks) {
      try {
        const answer = (await faultControl(services, bank.path, 'GET')) as { faults?: FaultRuleView[] } | undefined;
        rules.set(bank.path, answer?.faults ?? []);
      } catch (error) {
        problems.push(`${bank.name}: ${error instanceof Error ? error.message : String(error)}`);
        break;
      }
    }
    const done = query('done');
    const failed = query('error');
    const failure = failed !== undefined && failed in ERRORS ? ERRORS[failed as ErrorCode] : undefined;
    const clients = await sandboxClients(services);
    const started = await startedPayment(services, query('started'));
    const option = (value: string, label: string): SafeHtml => html`<option value="${value}">${label}</option>`;
    const standards = Object.entries(STANDARDS) as [SandboxStandard, (typeof STANDARDS)[SandboxStandard]][];
    const bankOptions = standards.map(([standard, { label }]) => {
      const ofStandard = banks.filter((bank) => bank.standard === standard);
      return ofStandard.length === 0 ? '' : html`<optgroup label="${label}">${ofStandard.map((bank) => option(bank.path, bank.name))}</optgroup>`;
    });
    const operationOptions = standards.map(([, { label, operations }]) => html`<optgroup label="${label}">${operations.map((name) => option(name, name))}</optgroup>`);
    const body = html`${done === 'added' ? notice('The fault rule is in force.', 'success') : done === 'cleared' ? notice('The bank’s fault rules are cleared.', 'success') : ''}
${started === undefined
  ? ''
  : notice(html`Payment <a href="/console/payments/${started.id}"><span class="mono">${started.id}</span></a> (<span class="mono">${started.endToEndId}</span>) is made; its page shows its timeline as it reaches the outcome.`, 'success')}
${errorSummary([...(failure === undefined ? [] : [failure]), ...problems])}
<form class="card" method="post" action="/console/sandbox/scenarios" aria-labelledby="start-scenario">
<h2 id="start-scenario">Make a scenario payment</h2>
<p class="muted">As <span class="mono">openpis trigger</span>: a sandbox payment at Hansa Direktbank with a test payer whose fixed behaviour gives the outcome, made through the API for the client chosen. It reaches its outcome within seconds; an expired one when its deadline, shortened to ${EXPIRED_DEADLINE_SECONDS} s, has passed.</p>
${csrfField(viewer.csrfToken)}
${clients.length === 0
  ? emptyState('No active sandbox client', html`<p>Scenario payments are made for a sandbox client: create one on the <a href="/console/clients">Clients</a> page.</p>`)
  : html`<div class="filters">
<div class="field"><label for="scenario">Scenario</label><select id="scenario" name="scenario">${Object.entries(SCENARIO_LABELS).map(([id, label]) => option(id, label))}</select></div>
<div class="field"><label for="client">Sandbox client</label><select id="client" name="client">${clients.map((client) => option(client.id, client.name))}</select></div>
<div class="actions"><button class="primary" type="submit">Make the payment</button></div>
</div>`}
</form>
<form class="card" method="post" action="/console/sandbox/faults" aria-labelledby="add-fault">
<h2 id="add-fault">Make a sandbox bank fail</h2>
<p class="muted">As <span class="mono">openpis sandbox faults add</span>: every client’s calls to that sandbox bank meet the fault. Production banks are never touched. Berlin Group and UK Open Banking banks name their calls differently: choose an operation of the bank’s own standard.</p>
${csrfField(viewer.csrfToken)}
<div class="filters">
<div class="field"><label for="bank">Bank</label><select id="bank" name="bank">${bankOptions}</select></div>
<div class="field"><label for="fault">Fault</label><select id="fault" name="fault">${Object.entries(FAULT_KINDS).map(([id, kind]) => option(id, kind.label))}</select></div>
<div class="field"><label for="operation">Operation <span class="hint">A call of the bank’s standard</span></label><select id="operation" name="operation">${option('', 'Every operation')}${operationOptions}</select></div>
<div class="field"><label for="times">How many calls <span class="hint">Empty: until cleared</span></label><input id="times" name="times" type="text" inputmode="numeric" value="3"></div>
<div class="actions"><button class="primary" type="submit">Add the fault</button></div>
</div>
</form>
<h2>Fault rules in force</h2>
${banks.length === 0
  ? emptyState('No sandbox bank', html`<p>The catalogue has no sandbox bank under SANDBOX_BANK_URL.</p>`)
  : html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Fault rules of each sandbox bank</caption>
<thead><tr><th scope="col">Bank</th><th scope="col">Rules</th><th scope="col">Clear</th></tr></thead>
<tbody>${banks.map((bank) => {
      const bankRules = rules.get(bank.path);
      return html`<tr><td data-label="Bank"><strong>${bank.name}</strong><span class="detail">${bank.path}</span></td>
<td data-label="Rules">${bankRules === undefined ? html`<span class="muted">Unknown</span>` : bankRules.length === 0 ? html`<span class="muted">None: the bank behaves</span>` : html`<ul class="plain">${bankRules.map((rule) => html`<li>${describeFault(rule)}</li>`)}</ul>`}</td>
<td data-label="Clear">${bankRules !== undefined && bankRules.length > 0 ? html`<form method="post" action="/console/sandbox/faults/clear">${csrfField(viewer.csrfToken)}<input type="hidden" name="bank" value="${bank.path}"><button class="secondary" type="submit">Clear<span class="visually-hidden"> the fault rules of ${bank.name}</span></button></form>` : ''}</td></tr>`;
    })}</tbody></table></div>`}`;
    return page(consolePage({ title: 'Sandbox', section: 'sandbox', viewer, navigation: services.navigation, lead: 'Make payments reach chosen outcomes and make the sandbox banks misbehave, to see how payments, webhooks and the Banks page cope.', body }));
  });

  router.post('/sandbox/faults', { section: 'sandbox', operatorsOnly: true }, async ({ viewer, form, request }) => {
    const bank = sandboxBanks(services).find((candidate) => candidate.path === form('bank'));
    const kindId = form('fault');
    const operation = form('operation') ?? '';
    const timesText = (form('times') ?? '').trim();
    const times = timesText === '' ? undefined : Number(timesText);
    const valid =
      bank !== undefined &&
      kindId !== undefined &&
      kindId in FAULT_KINDS &&
      (operation === '' || STANDARDS[bank.standard].operations.includes(operation)) &&
      (times === undefined || (Number.isInteger(times) && times >= 1 && times <= 1_000_000));
    if (bank === undefined || kindId === undefined || !valid) return redirect('/console/sandbox?error=invalid');
    const rule = {
      fault: FAULT_KINDS[kindId as FaultKindId].fault,
      ...(operation === '' ? {} : { operations: [operation] }),
      ...(times === undefined ? {} : { times }),
    };
    try {
      const added = (await faultControl(services, bank.path, 'POST', '', rule)) as { id?: string } | undefined;
      await services.audit.record(viewer.actor, { action: 'sandbox.fault.added', target: bank.path, details: { rule: JSON.stringify(rule), ruleId: added?.id ?? '' } });
    } catch (error) {
      if (!(error instanceof FaultControlError)) throw error;
      request.log.warn({ bank: bank.path, reason: error.message }, 'sandbox fault not added');
      return redirect('/console/sandbox?error=refused');
    }
    return redirect('/console/sandbox?done=added');
  });

  router.post('/sandbox/scenarios', { section: 'sandbox', operatorsOnly: true }, async ({ viewer, form, request }) => {
    const scenario = form('scenario');
    const clientId = form('client');
    const clients = await sandboxClients(services);
    if (!isScenario(scenario) || !clients.some((client) => client.id === clientId)) return redirect('/console/sandbox?error=scenario-invalid');
    let run: ScenarioRun;
    try {
      run = await startScenario(
        { db: services.db, catalogue: services.catalogue, baseUrl: services.config.baseUrl, sandboxBankUrl: services.config.sandboxBank.url },
        { scenario, clientId, deadlineSeconds: EXPIRED_DEADLINE_SECONDS },
      );
    } catch (error) {
      if (!(error instanceof TriggerError)) throw error;
      request.log.warn({ scenario, clientId, reason: error.message }, 'scenario payment not made');
      return redirect('/console/sandbox?error=scenario-refused');
    }
    const startedRun = run;
    try {
      await services.audit.record(viewer.actor, { action: 'sandbox.scenario.started', target: startedRun.paymentId, details: { scenario, clientId: startedRun.clientId, endToEndId: startedRun.endToEndId } });
    } catch (error) {
      await startedRun.close();
      throw error;
    }
    // The payer's part (a one-time code, the cancel button, the shortened deadline) follows without holding the
    // answer; the outcome is then the service's own work, visible on the payment's page. A shutdown lets it finish.
    router.finishBeforeClose(
      startedRun
        .play()
        .catch((error: unknown) => request.log.warn({ paymentId: startedRun.paymentId, scenario, reason: error instanceof Error ? error.message : String(error) }, 'scenario payment: the payer’s part failed'))
        .finally(() => startedRun.close().catch((error: unknown) => request.log.warn({ paymentId: startedRun.paymentId, reason: error instanceof Error ? error.message : String(error) }, 'scenario payment: its access token was not deleted'))),
    );
    return redirect(`/console/sandbox?started=${encodeURIComponent(startedRun.paymentId)}`);
  });

  router.post('/sandbox/faults/clear', { section: 'sandbox', operatorsOnly: true }, async ({ viewer, form, request }) => {
    const bank = sandboxBanks(services).find((candidate) => candidate.path === form('bank'));
    if (bank === undefined) return redirect('/console/sandbox?error=invalid');
    try {
      await faultControl(services, bank.path, 'DELETE');
      await services.audit.record(viewer.actor, { action: 'sandbox.faults.cleared', target: bank.path });
    } catch (error) {
      if (!(error instanceof FaultControlError)) throw error;
      request.log.warn({ bank: bank.path, reason: error.message }, 'sandbox faults not cleared');
      return redirect('/console/sandbox?error=refused');
    }
    return redirect('/console/sandbox?done=cleared');
  });
}

/** The payment the address names after a start, read from the database (the page never echoes text from the address). */
async function startedPayment(services: ConsoleServices, paymentId: string | undefined): Promise<{ readonly id: string; readonly endToEndId: string } | undefined> {
  if (paymentId === undefined || !UUID.test(paymentId)) return undefined;
  const payment = await services.db.selectFrom('payments').select(['id', 'end_to_end_id']).where('id', '=', paymentId.toLowerCase()).executeTakeFirst();
  return payment === undefined ? undefined : { id: payment.id, endToEndId: payment.end_to_end_id };
}
