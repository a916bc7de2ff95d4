/**
 * The Banks page: which banks fail now (a summary), the banks called in the last day with their figures (a table,
 * failing first), the banks without calls named together, and how health is worked out.
 */
import { html, type SafeHtml } from '../../hosted/html.js';
import type { StoredBank } from '../../providers/bank-store.js';
import type { BankCheckState } from './checks.js';
import type { Bank } from '../../providers/catalogue.js';
import { duration, percent, timeTag, utc } from '../format.js';
import { consolePage, csrfField, emptyState, errorSummary, notice } from '../layout.js';
import type { ConsoleNavigation } from '../navigation.js';
import type { Viewer } from '../viewer.js';
import { DEGRADED_BELOW, FAILING_MIN_CALLS, FAILING_SHARE, type BankHealth, type HealthState, type HealthWindow } from './queries.js';

export interface ListedBank {
  readonly bank: Bank;
  readonly health: BankHealth;
  /** The bank has a page of its own (operators, a bank stored on its own rather than inside a group). */
  readonly linked: boolean;
}

export interface BanksPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  /** Failing first, then degraded, then by traffic. */
  readonly listed: readonly ListedBank[];
  readonly now: Date;
}

const STATE_BADGE: Record<HealthState, { word: string; tone: string }> = {
  failing: { word: 'Failing now', tone: 'failed' },
  degraded: { word: 'Degraded', tone: 'pending' },
  healthy: { word: 'Healthy', tone: 'completed' },
  quiet: { word: 'No calls', tone: 'neutral' },
};

const STANDARD_NAME: Record<Bank['connector']['standard'], string> = {
  'berlin-group': 'Berlin Group',
  'uk-open-banking': 'UK Open Banking',
};

const rate = (window: HealthWindow): string => percent(window.calls - window.failed, window.calls);
/** The share of calls answered, by window; a window without calls says so rather than showing a dash. */
function healthText(health: { readonly lastHour: HealthWindow; readonly lastDay: HealthWindow }): string {
  if (health.lastDay.calls === 0) return 'no calls in the last day';
  const hour = health.lastHour.calls === 0 ? 'no calls in the last hour' : `${rate(health.lastHour)} answered in the last hour`;
  return `${hour}, ${rate(health.lastDay)} in the last day`;
}
const latency = (window: HealthWindow): string => (window.p95Ms === undefined ? '—' : duration(window.p95Ms));

function degradedNote(degraded: number): string {
  return degraded === 0
    ? 'None answered under 95 % of its calls in the last hour.'
    : degraded === 1
      ? '1 bank answered under 95 % of its calls in the last hour.'
      : `${degraded} banks answered under 95 % of their calls in the last hour.`;
}

function windowCell(label: string, window: HealthWindow): SafeHtml {
  return html`<td data-label="${label}" class="amount">${rate(window)}<span class="detail">${window.calls === 0 ? 'no calls' : `${window.failed} of ${window.calls} failed`}</span></td>`;
}

/** `just now`, `4 min ago`, `3 h ago`, with the exact time in the tag. */
function ago(iso: string, now: Date): SafeHtml {
  const minutes = Math.floor((now.getTime() - Date.parse(iso)) / 60_000);
  const words = minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
  return html`<time datetime="${iso}" title="${utc(iso)}">${words}</time>`;
}

function bankRow(bank: Bank, health: BankHealth, now: Date, linked: boolean): SafeHtml {
  const badge = STATE_BADGE[health.state];
  return html`<tr>
<td data-label="Bank"><strong>${linked ? html`<a href="/console/banks/${bank.id}">${bank.name}</a>` : bank.name}</strong><span class="muted small">${bank.countryCode} · ${STANDARD_NAME[bank.connector.standard]}${bank.environment === 'sandbox' ? ' · sandbox' : ''}</span></td>
<td data-label="Health"><span class="badge ${badge.tone}">${badge.word}</span>${health.state === 'failing' ? html`<span class="detail">${health.lastQuarterHour.failed}/${health.lastQuarterHour.calls} failed in 15 min</span>` : ''}</td>
${windowCell('Answered (1 h)', health.lastHour)}
<td data-label="p95 (1 h)" class="amount">${latency(health.lastHour)}</td>
${windowCell('Answered (24 h)', health.lastDay)}
<td data-label="p95 (24 h)" class="amount">${latency(health.lastDay)}</td>
<td data-label="Last call">${health.lastCallAt === undefined ? html`<span class="muted">—</span>` : ago(health.lastCallAt, now)}${health.lastFailureAt === undefined ? '' : html`<span class="detail">failed ${ago(health.lastFailureAt, now)}</span>`}</td>
</tr>`;
}

function failingSummary(listed: readonly ListedBank[]): SafeHtml {
  const failing = listed.filter((entry) => entry.health.state === 'failing');
  if (failing.length === 0)
    return html`<div class="notice success" role="status"><strong>No bank is failing now.</strong> ${degradedNote(listed.filter((entry) => entry.health.state === 'degraded').length)}</div>`;
  return html`<div class="errors" role="status"><h2>${failing.length === 1 ? '1 bank is failing now' : `${failing.length} banks are failing now`}</h2><ul>${failing.map(
    (entry) =>
      html`<li><strong>${entry.bank.name}</strong>: ${entry.health.lastQuarterHour.failed} of ${entry.health.lastQuarterHour.calls} calls failed in the last 15 minutes${entry.health.lastFailureAt === undefined ? '' : html`, last at ${timeTag(entry.health.lastFailureAt)}`}.</li>`,
  )}</ul></div>`;
}

function activeTable(active: readonly ListedBank[], now: Date): SafeHtml {
  if (active.length === 0)
    return emptyState('No bank calls in the last day', html`<p>Banks appear here with their figures once payments reach them.</p>`);
  return html`<div class="table-wrap"><table class="cards">
<caption class="visually-hidden">Banks called in the last day, failing first, with the share of calls answered and the 95th percentile of latency</caption>
<thead><tr><th scope="col">Bank</th><th scope="col">Health</th><th scope="col" class="amount">Answered, last hour</th><th scope="col" class="amount">p95, last hour</th><th scope="col" class="amount">Answered, last day</th><th scope="col" class="amount">p95, last day</th><th scope="col">Last call</th></tr></thead>
<tbody>${active.map((entry) => bankRow(entry.bank, entry.health, now, entry.linked))}</tbody></table></div>`;
}

/** Banks nobody called in the last day have no figures: named together, out of the table's way. */
function quietList(quiet: readonly ListedBank[]): SafeHtml | '' {
  if (quiet.length === 0) return '';
  return html`<details class="more card"><summary>${quiet.length === 1 ? '1 more bank' : `${quiet.length} more banks`} without calls in the last day</summary>
<ul class="quiet-banks">${quiet.map((entry) => html`<li>${entry.linked ? html`<a href="/console/banks/${entry.bank.id}">${entry.bank.name}</a>` : entry.bank.name} <span class="muted">${entry.bank.countryCode} · ${STANDARD_NAME[entry.bank.connector.standard]} · ${entry.bank.environment}</span></li>`)}</ul></details>`;
}

const HOW_HEALTH_IS_WORKED_OUT = html`<details class="more card"><summary>How health is worked out</summary>
<p>A call is <strong>answered</strong> when the bank gave a proper answer, a refusal included (wrong credentials or no funds: the bank works, the payer’s case failed). It <strong>failed</strong> when there was no usable answer (timeout, connection error, 5xx, 408, 429), an answer against the standard, or an error on our side.</p>
<p><strong>Failing now</strong>: in the last 15 minutes at least ${FAILING_MIN_CALLS} calls and at least ${FAILING_SHARE * 100} % of them failed. <strong>Degraded</strong>: under ${DEGRADED_BELOW * 100} % of the last hour’s calls answered. p95: 95 % of calls took at most this long.</p>
</details>`;

export function banksPage(view: BanksPageView): string {
  const { viewer, listed } = view;
  return consolePage({
    title: 'Banks',
    section: 'banks',
    viewer,
    navigation: view.navigation,
    lead:
      viewer.clientScope === undefined
        ? 'Every bank of the catalogue and how its calls went, failing ones first.'
        : `The banks ${viewer.clientName ?? 'your client'}’s payments called in the last day, from those calls only.`,
    body: html`${failingSummary(listed)}${activeTable(
      listed.filter((entry) => entry.health.state !== 'quiet'),
      view.now,
    )}${quietList(listed.filter((entry) => entry.health.state === 'quiet'))}
${HOW_HEALTH_IS_WORKED_OUT}`,
  });
}

export interface BankPageView {
  readonly viewer: Viewer;
  readonly navigation: ConsoleNavigation;
  readonly bank: StoredBank;
  readonly health: BankHealth;
  /** Active banks that could replace this one (same environment), by id and name. */
  readonly replacements: readonly { readonly id: string; readonly name: string }[];
  /** The client id a UK bank registered us under, when it did. */
  readonly registeredClientId: string | undefined;
  /** The running or last check of this bank in this process. */
  readonly check?: BankCheckState;
  readonly done?: string;
  readonly problems?: readonly string[];
}

const LIFECYCLE_BADGE: Record<StoredBank['status'], { word: string; tone: string }> = {
  active: { word: 'Active', tone: 'completed' },
  disabled: { word: 'Disabled', tone: 'failed' },
  deprecated: { word: 'Replaced', tone: 'neutral' },
};

const DONE_WORDS: Readonly<Record<string, string>> = {
  disabled: 'Bank disabled: it left the lists; payments already at it finish.',
  enabled: 'Bank enabled: it is on the lists again.',
  replaced: 'Bank replaced: new payments asking for it go to its replacement.',
  checking: 'Check started: reload the page to see its lines.',
};

function lifecycleText(bank: StoredBank): SafeHtml {
  const badge = LIFECYCLE_BADGE[bank.status];
  return html`<span class="badge ${badge.tone}">${badge.word}</span>${bank.replacedBy === null ? '' : html` by <a href="/console/banks/${bank.replacedBy}">${bank.replacedBy}</a>`}`;
}

/** The entry's settings as stored, secrets excepted (they are sealed apart and never shown). */
function settingsText(bank: StoredBank): string {
  const { id: _id, name: _name, ...settings } = bank.entry as Record<string, unknown>;
  return JSON.stringify(settings, null, 2);
}

function confirmedButton(
  viewer: Viewer,
  bank: StoredBank,
  path: string,
  label: string,
  confirm: string,
  extra: SafeHtml | '' = '',
): SafeHtml {
  return html`<form class="card" method="post" action="/console/banks/${bank.id}/${path}">${csrfField(viewer.csrfToken)}${extra}
<p><label><input type="checkbox" name="confirm" value="yes" required> ${confirm}</label></p>
<p><button class="${path === 'enable' || path === 'check' ? 'primary' : 'danger'}" type="submit">${label}</button></p></form>`;
}

function actions(view: BankPageView): SafeHtml {
  const { viewer, bank } = view;
  const enableOrDisable =
    bank.status === 'active'
      ? confirmedButton(viewer, bank, 'disable', 'Disable bank', 'Take this bank off the lists (payments already at it finish)')
      : confirmedButton(viewer, bank, 'enable', 'Enable bank', 'Put this bank back on the lists');
  const choices = view.replacements.filter((candidate) => candidate.id !== bank.id);
  const replace =
    choices.length === 0
      ? html`<p class="muted">No other active bank of this environment could replace it.</p>`
      : confirmedButton(
          viewer,
          bank,
          'replace',
          'Replace bank',
          'New payments asking for this bank go to the replacement',
          html`<p><label for="replacement">Replacement</label><select id="replacement" name="replacement">${choices.map((choice) => html`<option value="${choice.id}">${choice.name} (${choice.id})</option>`)}</select></p>`,
        );
  return html`<section aria-labelledby="bank-actions"><h2 id="bank-actions">Lifecycle</h2>${enableOrDisable}${replace}</section>`;
}

const CHECK_BADGE = {
  pass: { word: 'Pass', tone: 'completed' },
  warn: { word: 'Warn', tone: 'pending' },
  fail: { word: 'Fail', tone: 'failed' },
} as const;

function checkResult(check: BankCheckState | undefined): SafeHtml {
  if (check === undefined) return html`<p class="muted">Not run since the service started.</p>`;
  if (check.state === 'running')
    return html`<p role="status">Running since ${timeTag(check.startedAt)} — reload the page to see its lines.</p>`;
  if (check.state === 'error')
    return html`<div class="errors" role="alert"><p>The check started ${timeTag(check.startedAt)} stopped: ${check.reason}</p></div>`;
  const { report } = check;
  return html`<p>Run ${timeTag(check.startedAt)}: <strong>${report.failed ? 'failed' : 'passed'}</strong></p>
<div class="table-wrap"><table class="cards"><caption class="visually-hidden">One line per check</caption>
<thead><tr><th scope="col">Result</th><th scope="col">Check</th><th scope="col">Reason</th></tr></thead>
<tbody>${report.lines.map(
    (line) =>
      html`<tr><td data-label="Result"><span class="badge ${CHECK_BADGE[line.outcome].tone}">${CHECK_BADGE[line.outcome].word}</span></td><td data-label="Check">${line.check}</td><td data-label="Reason">${line.reason}</td></tr>`,
  )}</tbody></table></div>`;
}

function checkSection(view: BankPageView): SafeHtml {
  const running = view.check?.state === 'running';
  return html`<section aria-labelledby="bank-check"><h2 id="bank-check">Check</h2>
<p class="muted">The go-live self-test of <code>openpis banks check</code>: our certificate, a token, and at a sandbox bank a payment created, read and cancelled.</p>
${checkResult(view.check)}${running ? '' : confirmedButton(view.viewer, view.bank, 'check', 'Run the check', 'Reach this bank now (at a sandbox bank, with a test payment)')}</section>`;
}

export function bankPage(view: BankPageView): string {
  const { bank, health } = view;
  const badge = STATE_BADGE[health.state];
  const standard = (bank.entry as { connector?: { standard?: Bank['connector']['standard'] } }).connector?.standard;
  // "Check started" is news only while it runs: once its lines are shown, they say the rest.
  const done = view.done === undefined || (view.done === 'checking' && view.check?.state !== 'running') ? undefined : DONE_WORDS[view.done];
  return consolePage({
    title: bank.entry.name,
    section: 'banks',
    viewer: view.viewer,
    navigation: view.navigation,
    lead: html`<a href="/console/banks">All banks</a>`,
    body: html`${done === undefined ? '' : notice(done, 'success')}${errorSummary(view.problems ?? [])}
<dl class="card facts">
<dt>Id</dt><dd><code>${bank.id}</code></dd>
<dt>Standard</dt><dd>${standard === undefined ? 'Bank group' : STANDARD_NAME[standard]}</dd>
<dt>Lifecycle</dt><dd>${lifecycleText(bank)}</dd>
<dt>Health</dt><dd><span class="badge ${badge.tone}">${badge.word}</span> <span class="muted">${healthText(health)}</span></dd>
${standard === 'uk-open-banking' ? html`<dt>Registration</dt><dd>${view.registeredClientId === undefined ? html`<span class="muted">not registered</span>` : html`client id <code>${view.registeredClientId}</code>`}</dd>` : ''}
<dt>Secrets set</dt><dd>${bank.secretNames.length === 0 ? html`<span class="muted">none</span>` : bank.secretNames.join(', ')}</dd>
<dt>Source</dt><dd>${bank.source}, changed ${timeTag(bank.updatedAt)}</dd>
</dl>
<section aria-labelledby="bank-settings"><h2 id="bank-settings">Settings as stored</h2><pre class="card">${settingsText(bank)}</pre></section>
${checkSection(view)}
${actions(view)}`,
  });
}
