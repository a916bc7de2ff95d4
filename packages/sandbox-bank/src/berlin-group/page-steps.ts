/**
 * The steps of the payer pages: what each step shows (`renderStep`) and what a post of it does (`handleStep`):
 * login, account choice, review, SCA method and one-time code. Every change of the authorisation or its payment
 * or consent goes through the state's methods.
 */
import escapeHtml from 'escape-html';
import type { PayerAccount } from '../shared/fixtures.js';
import { fromMinor } from '../shared/money.js';
import { approveAndRefuseButtons, field, fields, finishedPage, layout, noticeHtml, stepForm, type FormBody } from '../shared/pages.js';
import type { SandboxBankDefinition } from './banks.js';
import type { Authorisation, Payment, Resource, SandboxState } from './state.js';

function form(authorisation: Authorisation, inner: string, buttons: string): string {
  return stepForm(authorisation, `${inner}\n<div>${buttons}</div>`);
}

/** Every form's buttons: approve, and a Cancel that works whatever the form holds. */
const approveButtons = (label: string): string => approveAndRefuseButtons(label, { action: 'cancel', label: 'Cancel' });

/** What the payer approves: the one transfer of a single payment, or every payment of a bulk and their total. */
function paymentSummary(payment: Payment, debtor: string | undefined): string {
  const { data } = payment;
  const [single] = data.transfers;
  if (data.bulk === undefined && single !== undefined) {
    const rows: Array<[string, string]> = [
      ['Amount', money(single.amountMinor, data.currency)],
      ['To', single.creditorName],
      ['Recipient IBAN', single.creditorAccount.iban],
    ];
    if (debtor !== undefined) rows.push(['From', debtor]);
    if (single.remittanceInformationUnstructured !== undefined) rows.push(['Reference', single.remittanceInformationUnstructured]);
    if (single.endToEndIdentification !== undefined) rows.push(['End-to-end id', single.endToEndIdentification]);
    return definitionList(rows);
  }
  const count = data.transfers.length;
  const rows: Array<[string, string]> = [
    ['Payments', `${count} payment${count === 1 ? '' : 's'}, approved together`],
    ['Total', money(data.amountMinor, data.currency)],
  ];
  if (debtor !== undefined) rows.push(['From', debtor]);
  const lines = data.transfers
    .map(
      (element, index) =>
        `<tr><td>${index + 1}</td><td>${escapeHtml(element.creditorName)}<br><small>${escapeHtml(element.creditorAccount.iban)}</small></td>` +
        `<td>${escapeHtml(money(element.amountMinor, data.currency))}</td><td>${escapeHtml(element.remittanceInformationUnstructured ?? '')}</td></tr>`,
    )
    .join('');
  return (
    definitionList(rows) +
    `<table class="bulk-payments"><tr><th>#</th><th>To</th><th>Amount</th><th>Reference</th></tr>${lines}` +
    `<tr><th></th><th>Total</th><th>${escapeHtml(money(data.amountMinor, data.currency))}</th><th></th></tr></table>`
  );
}

function money(amountMinor: bigint, currency: string): string {
  return `${fromMinor(amountMinor, currency)} ${currency}`;
}

function definitionList(rows: ReadonlyArray<readonly [string, string]>): string {
  return `<dl>${rows.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

function accountLabel(account: PayerAccount): string {
  return `${account.name} – ${account.iban} (${account.currency})`;
}

interface StepPage {
  readonly state: SandboxState;
  readonly bank: SandboxBankDefinition;
  readonly authorisation: Authorisation;
  readonly resource: Resource;
  /** The notice to show above the form (already taken from the authorisation). */
  readonly notice: string;
}

/** The page of the authorisation's current step; shows its pending notice once. */
export function renderStep(state: SandboxState, bank: SandboxBankDefinition, authorisation: Authorisation, resource: Resource): string {
  const page: StepPage = { state, bank, authorisation, resource, notice: noticeHtml(state.pages.takeNotice(authorisation)) };
  switch (authorisation.step) {
    case 'login':
      return renderLogin(page);
    case 'account':
      return renderAccountChoice(page);
    case 'review': {
      const payment = resource as Payment;
      return layout(
        bank,
        payment.data.bulk === undefined ? 'Approve payment' : 'Approve payments',
        `<h1>${payment.data.bulk === undefined ? 'Approve this payment?' : `Approve these ${payment.data.transfers.length} payments?`}</h1>${page.notice}${paymentSummary(payment, payment.debtorIban)}` +
          form(authorisation, '', approveButtons('Approve')),
      );
    }
    case 'method':
      return renderMethodChoice(page);
    case 'otp':
      return renderOneTimeCode(page);
    case 'done':
      return finishedPage(bank);
  }
}

function renderLogin({ bank, authorisation, resource, notice }: StepPage): string {
  const prefill = resource.psuId ?? '';
  const intro =
    resource.kind === 'consent'
      ? 'Log in to share your account list.'
      : resource.data.bulk === undefined
        ? 'Log in to approve a payment.'
        : `Log in to approve ${resource.data.transfers.length} payments at once.`;
  return layout(
    bank,
    'Log in',
    `<h1>Log in to ${escapeHtml(bank.name)}</h1>${notice}<p>${escapeHtml(intro)}</p>` +
      form(
        authorisation,
        `<label for="psuId">User ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required value="${escapeHtml(prefill)}">` +
          `<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>`,
        approveButtons('Log in'),
      ),
  );
}

function renderAccountChoice({ state, bank, authorisation, resource, notice }: StepPage): string {
  const accounts = resource.kind === 'consent' ? state.consentAccounts(resource) : state.eligibleAccounts(resource);
  const multiple = resource.kind === 'consent';
  const choices = accounts
    .map(
      (account, index) =>
        `<label class="choice"><input type="${multiple ? 'checkbox' : 'radio'}" name="accountId" value="${escapeHtml(account.resourceId)}"${multiple || index === 0 ? ' checked' : ''}><span>${escapeHtml(accountLabel(account))}</span></label>`,
    )
    .join('');
  const title = multiple ? 'Share your accounts' : 'Choose the account to pay from';
  const intro = multiple
    ? '<p>The app or website you came from asks to see the list of your accounts. Choose which accounts to share.</p>'
    : `<p>Choose the account for this payment.</p>${paymentSummary(resource, undefined)}`;
  return layout(
    bank,
    title,
    `<h1>${escapeHtml(title)}</h1>${notice}${intro}` +
      form(
        authorisation,
        `<fieldset style="border:0;padding:0;margin:12px 0"><legend class="hint">Accounts</legend>${choices}</fieldset>`,
        approveButtons(multiple ? 'Share' : 'Continue'),
      ),
  );
}

function renderMethodChoice({ state, bank, authorisation, resource, notice }: StepPage): string {
  const choices = state
    .scaMethods(resource)
    .map(
      (method, index) =>
        `<label class="choice"><input type="radio" name="methodId" value="${escapeHtml(method.authenticationMethodId)}"${index === 0 ? ' checked' : ''}><span>${escapeHtml(method.name)} <small>(${escapeHtml(method.authenticationType)})</small></span></label>`,
    )
    .join('');
  return layout(
    bank,
    'Choose how to confirm',
    `<h1>How do you want to confirm?</h1>${notice}` + form(authorisation, choices, approveButtons('Continue')),
  );
}

function renderOneTimeCode({ state, bank, authorisation, resource, notice }: StepPage): string {
  const method = state.scaMethods(resource).find((candidate) => candidate.authenticationMethodId === authorisation.chosenMethodId);
  const attemptsLeft = state.codeAttemptsLeft(authorisation, resource);
  return layout(
    bank,
    'Enter code',
    `<h1>Enter your one-time code</h1>${notice}<p>We sent a code via ${escapeHtml(method?.name ?? 'your device')}. ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left.</p>` +
      form(
        authorisation,
        '<label for="otp">One-time code</label><input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" required>',
        approveButtons('Confirm'),
      ),
  );
}

// ---- posts ------------------------------------------------------------------------------------------------------

/** Applies a post of the current step (neither cancel nor stale: the caller has handled those). */
export function handleStep(state: SandboxState, authorisation: Authorisation, resource: Resource, body: FormBody): void {
  switch (authorisation.step) {
    case 'login':
      return handleLogin(state, authorisation, resource, body);
    case 'account':
      return handleAccountChoice(state, authorisation, resource, body);
    case 'review':
      if (field(body, 'action') === 'approve') toSecondFactor(state, authorisation, resource);
      return;
    case 'method':
      return handleMethodChoice(state, authorisation, resource, body);
    case 'otp':
      return handleOneTimeCode(state, authorisation, resource, body);
    case 'done':
      return;
  }
}

function handleLogin(state: SandboxState, authorisation: Authorisation, resource: Resource, body: FormBody): void {
  const psuId = field(body, 'psuId')?.trim() ?? '';
  const password = field(body, 'password') ?? '';
  if (psuId === '' || password === '' || psuId.length > 64 || password.length > 256) {
    state.pages.setNotice(authorisation, 'Please enter your user ID and password.');
    return;
  }
  const check = state.checkPassword(resource, psuId, password);
  if (check === 'ok') {
    afterLogin(state, authorisation, resource);
  } else if (check === 'wrong') {
    const left = state.passwordAttemptsLeft(resource);
    state.pages.setNotice(authorisation, `Wrong user ID or password. ${left} attempt${left === 1 ? '' : 's'} left.`);
  }
}

function afterLogin(state: SandboxState, authorisation: Authorisation, resource: Resource): void {
  state.markAuthenticated(authorisation);
  if (resource.kind === 'consent') {
    state.pages.moveTo(authorisation, 'account');
    return;
  }
  const problem = state.resolveDebtor(resource, false);
  if (problem !== undefined) {
    state.failResource(resource, problem, authorisation);
    return;
  }
  state.pages.moveTo(authorisation, state.needsAccountChoice(resource) ? 'account' : 'review');
}

function handleAccountChoice(state: SandboxState, authorisation: Authorisation, resource: Resource, body: FormBody): void {
  const chosen = fields(body, 'accountId');
  if (resource.kind === 'consent') {
    if (chosen.length === 0 || chosen.length > 50 || !state.grantAccounts(resource, chosen)) {
      state.pages.setNotice(authorisation, 'Choose at least one of your accounts.');
      return;
    }
    toSecondFactor(state, authorisation, resource);
    return;
  }
  const [accountId] = chosen;
  if (chosen.length !== 1 || accountId === undefined || !state.chooseAccount(resource, accountId)) {
    state.pages.setNotice(authorisation, 'Choose one of your accounts.');
    return;
  }
  state.pages.moveTo(authorisation, 'review');
}

/** The step after the payer has agreed: SCA method, one-time code, or straight to done when exempted. */
function toSecondFactor(state: SandboxState, authorisation: Authorisation, resource: Resource): void {
  if (authorisation.approach === 'DECOUPLED') {
    // Approving in the bank's app is itself the second factor.
    state.completeAuthorisation(authorisation, resource, 'finalised');
    return;
  }
  const methods = state.scaMethods(resource);
  const [only] = methods;
  if (only === undefined) {
    state.completeAuthorisation(authorisation, resource, 'exempted');
  } else if (methods.length === 1) {
    state.selectScaMethod(authorisation, only.authenticationMethodId);
    state.pages.moveTo(authorisation, 'otp');
  } else {
    state.pages.moveTo(authorisation, 'method');
  }
}

function handleMethodChoice(state: SandboxState, authorisation: Authorisation, resource: Resource, body: FormBody): void {
  const methodId = field(body, 'methodId');
  const method = state.scaMethods(resource).find((candidate) => candidate.authenticationMethodId === methodId);
  if (method === undefined) {
    state.pages.setNotice(authorisation, 'Choose one of the methods.');
    return;
  }
  state.selectScaMethod(authorisation, method.authenticationMethodId);
  state.pages.moveTo(authorisation, 'otp');
}

function handleOneTimeCode(state: SandboxState, authorisation: Authorisation, resource: Resource, body: FormBody): void {
  const code = field(body, 'otp')?.trim() ?? '';
  if (!/^[0-9]{1,12}$/.test(code)) {
    state.pages.setNotice(authorisation, 'The code consists of digits only.');
    return;
  }
  const check = state.checkCode(authorisation, resource, code);
  if (check === 'ok') state.completeAuthorisation(authorisation, resource, 'finalised');
  else if (check === 'wrong') state.pages.setNotice(authorisation, 'Wrong code.');
}
