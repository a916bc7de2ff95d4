/**
 * The Sandbox page: what the last form did, the form that makes a scenario payment, the form that adds a fault rule
 * to a sandbox bank, and the rules in force at each bank with a button that clears them.
 */
import { html, type SafeHtml } from '../../hosted/html.js';
import type { Scenario } from '../../sandbox-scenarios/scenarios.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import type { FaultRuleView, SandboxBank, SandboxStandard, SandboxStandards } from './queries.js';

export const FAULT_KINDS = {
  'error-503': { label: 'HTTP 503 (unavailable)', fault: { kind: 'error', status: 503 } },
  'error-500': { label: 'HTTP 500 (internal error)', fault: { kind: 'error', status: 500 } },
  'delay-3000': { label: 'A 3 s delay', fault: { kind: 'delay', delayMs: 3000 } },
  timeout: { label: 'No answer (held 30 s, then dropped)', fault: { kind: 'timeout', holdMs: 30_000 } },
} as const;
export type FaultKindId = keyof typeof FAULT_KINDS;

/** What a failed change says (by code in the address, so the page never echoes text from the address). */
const ERRORS = {
  invalid:
    'Choose a sandbox bank, a fault and an operation of the lists (an operation of the bank’s own standard); how many calls is a whole number from 1 to 1,000,000, or empty.',
  refused: 'The sandbox bank refused the change; the reason is in the service’s log.',
  'scenario-invalid': 'Choose a scenario and an active sandbox client of the lists: scenario payments are made for sandbox clients only.',
  'scenario-refused': 'The scenario payment could not be made; the reason is in the service’s log.',
} as const;
export type ErrorCode = keyof typeof ERRORS;

/** `expired`: the flow deadline the console gives the payment (the command line's --deadline-seconds). */
export const EXPIRED_DEADLINE_SECONDS = 20;

/** The scenarios offered, in words: the outcome each payment reaches. */
const SCENARIO_LABELS: Record<Scenario, string> = {
  completed: 'Completed',
  'insufficient-funds': 'Failed: insufficient funds',
  rejected: 'Failed: rejected by the bank',
  cancelled: 'Failed: cancelled by the payer',
  expired: `Failed: expired (${EXPIRED_DEADLINE_SECONDS} s)`,
  refunded: 'Completed, then refunded (the merchant approves)',
};

export interface SandboxPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly banks: readonly SandboxBank[];
  readonly standards: SandboxStandards;
  readonly rules: ReadonlyMap<string, readonly FaultRuleView[]>;
  readonly problems: readonly string[];
  readonly clients: readonly { readonly id: string; readonly name: string }[];
  /** The payment a scenario just made. */
  readonly started: { readonly id: string; readonly endToEndId: string } | undefined;
  readonly done: string | undefined;
  /** The code of a failed change (`?error=`). */
  readonly failed: string | undefined;
}

const option = (value: string, label: string): SafeHtml => html`<option value="${value}">${label}</option>`;

function describeFault(rule: FaultRuleView): string {
  const fault =
    rule.fault.kind === 'error'
      ? `HTTP ${rule.fault.status ?? ''}`
      : rule.fault.kind === 'delay'
        ? `${rule.fault.delayMs ?? 0} ms delay`
        : 'no answer (timeout)';
  const operations = rule.operations === undefined ? 'every operation' : rule.operations.join(', ');
  return `${fault} on ${operations}${rule.psuId === undefined ? '' : ` for payer ${rule.psuId}`}, ${rule.times === undefined ? 'always' : `the next ${rule.times} calls`}`;
}

function outcomeNotices(view: SandboxPageView): SafeHtml {
  const { done, started, failed } = view;
  const failure = failed !== undefined && failed in ERRORS ? ERRORS[failed as ErrorCode] : undefined;
  return html`${done === 'added' ? notice('The fault rule is in force.', 'success') : done === 'cleared' ? notice('The bank’s fault rules are cleared.', 'success') : ''}
${
  started === undefined
    ? ''
    : notice(
        html`Payment <a href="/console/payments/${started.id}"><span class="mono">${started.id}</span></a> (<span class="mono">${started.endToEndId}</span>) is made; its page shows its timeline as it reaches the outcome.`,
        'success',
      )
}
${errorSummary([...(failure === undefined ? [] : [failure]), ...view.problems])}`;
}

function scenarioForm(view: SandboxPageView): SafeHtml {
  const { clients } = view;
  return html`<form class="card" method="post" action="/console/sandbox/scenarios" aria-labelledby="start-scenario">
<h2 id="start-scenario">Make a scenario payment</h2>
<p class="muted">As <span class="mono">openpis trigger</span>: a sandbox payment at Hansa Direktbank with a test payer whose fixed behaviour gives the outcome, made through the API for the client chosen. It reaches its outcome within seconds; an expired one when its deadline, shortened to ${EXPIRED_DEADLINE_SECONDS} s, has passed.</p>
${csrfField(view.viewer.csrfToken)}
${
  clients.length === 0
    ? emptyState(
        'No active sandbox client',
        html`<p>Scenario payments are made for a sandbox client: create one on the <a href="/console/clients">Clients</a> page.</p>`,
      )
    : html`<div class="filters">
<div class="field"><label for="scenario">Scenario</label><select id="scenario" name="scenario">${Object.entries(SCENARIO_LABELS).map(([id, label]) => option(id, label))}</select></div>
<div class="field"><label for="client">Sandbox client</label><select id="client" name="client">${clients.map((client) => option(client.id, client.name))}</select></div>
<div class="actions"><button class="primary" type="submit">Make the payment</button></div>
</div>`
}
</form>`;
}

function faultForm(view: SandboxPageView): SafeHtml {
  const standards = Object.entries(view.standards) as [SandboxStandard, SandboxStandards[SandboxStandard]][];
  const bankOptions = standards.map(([standard, { label }]) => {
    const ofStandard = view.banks.filter((bank) => bank.standard === standard);
    return ofStandard.length === 0
      ? ''
      : html`<optgroup label="${label}">${ofStandard.map((bank) => option(bank.path, bank.name))}</optgroup>`;
  });
  const operationOptions = standards.map(
    ([, { label, operations }]) => html`<optgroup label="${label}">${operations.map((name) => option(name, name))}</optgroup>`,
  );
  return html`<form class="card" method="post" action="/console/sandbox/faults" aria-labelledby="add-fault">
<h2 id="add-fault">Make a sandbox bank fail</h2>
<p class="muted">As <span class="mono">openpis sandbox faults add</span>: every client’s calls to that sandbox bank meet the fault. Production banks are never touched. Berlin Group and UK Open Banking banks name their calls differently: choose an operation of the bank’s own standard.</p>
${csrfField(view.viewer.csrfToken)}
<div class="filters">
<div class="field"><label for="bank">Bank</label><select id="bank" name="bank">${bankOptions}</select></div>
<div class="field"><label for="fault">Fault</label><select id="fault" name="fault">${Object.entries(FAULT_KINDS).map(([id, kind]) => option(id, kind.label))}</select></div>
<div class="field"><label for="operation">Operation <span class="hint">A call of the bank’s standard</span></label><select id="operation" name="operation">${option('', 'Every operation')}${operationOptions}</select></div>
<div class="field"><label for="times">How many calls <span class="hint">Empty: until cleared</span></label><input id="times" name="times" type="text" inputmode="numeric" value="3"></div>
<div class="actions"><button class="primary" type="submit">Add the fault</button></div>
</div>
</form>`;
}

function bankRulesRow(bank: SandboxBank, bankRules: readonly FaultRuleView[] | undefined, csrfToken: string): SafeHtml {
  return html`<tr><td data-label="Bank"><strong>${bank.name}</strong><span class="detail">${bank.path}</span></td>
<td data-label="Rules">${bankRules === undefined ? html`<span class="muted">Unknown</span>` : bankRules.length === 0 ? html`<span class="muted">None: the bank behaves</span>` : html`<ul class="plain">${bankRules.map((rule) => html`<li>${describeFault(rule)}</li>`)}</ul>`}</td>
<td data-label="Clear">${bankRules !== undefined && bankRules.length > 0 ? html`<form method="post" action="/console/sandbox/faults/clear">${csrfField(csrfToken)}<input type="hidden" name="bank" value="${bank.path}"><button class="secondary" type="submit">Clear<span class="visually-hidden"> the fault rules of ${bank.name}</span></button></form>` : ''}</td></tr>`;
}

function rulesInForce(view: SandboxPageView): SafeHtml {
  if (view.banks.length === 0) return emptyState('No sandbox bank', html`<p>The catalogue has no sandbox bank under SANDBOX_BANK_URL.</p>`);
  return html`<div class="table-wrap"><table class="cards"><caption class="visually-hidden">Fault rules of each sandbox bank</caption>
<thead><tr><th scope="col">Bank</th><th scope="col">Rules</th><th scope="col">Clear</th></tr></thead>
<tbody>${view.banks.map((bank) => bankRulesRow(bank, view.rules.get(bank.path), view.viewer.csrfToken))}</tbody></table></div>`;
}

export function sandboxPage(view: SandboxPageView): string {
  const body = html`${outcomeNotices(view)}
${scenarioForm(view)}
${faultForm(view)}
<h2>Fault rules in force</h2>
${rulesInForce(view)}`;
  return consolePage({
    title: 'Sandbox',
    section: 'sandbox',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: 'Make payments reach chosen outcomes and make the sandbox banks misbehave, to see how payments, webhooks and the Banks page cope.',
    body,
  });
}
