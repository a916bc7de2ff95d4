/**
 * The payer's pages at the sandbox bank: login, account choice, payment review, SCA method and one-time code for
 * the redirect approach, and the "bank app" stand-in of the decoupled approach. Server-rendered, no JavaScript,
 * every value escaped; each form carries the authorisation's anti-forgery token, and the page URL itself carries an
 * unguessable token rather than a resource id.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/escape-html.js';
import type { SandboxBankDefinition } from './banks.js';
import type { BankContext } from './context.js';
import type { PayerAccount } from '../shared/fixtures.js';
import { fromMinor } from '../shared/money.js';
import {
  approveAndRefuseButtons,
  field,
  fields,
  finishedPage,
  formBody,
  layout,
  noticeHtml,
  sameToken,
  sendFormExpired,
  sendLinkNotValid,
  sendPage,
  stepForm,
  type FormBody,
} from '../shared/pages.js';
import type { Authorisation, Consent, Payment, Resource } from './state.js';


function form(authorisation: Authorisation, inner: string, buttons: string): string {
  return stepForm(authorisation, `${inner}\n<div>${buttons}</div>`);
}

/** Every form's buttons: approve, and a Cancel that works whatever the form holds. */
const approveButtons = (label: string): string => approveAndRefuseButtons(label, { action: 'cancel', label: 'Cancel' });

function paymentSummary(payment: Payment, debtor: string | undefined): string {
  const { data } = payment;
  const rows: Array<[string, string]> = [
    ['Amount', `${fromMinor(data.amountMinor, data.instructedAmount.currency)} ${data.instructedAmount.currency}`],
    ['To', data.creditorName],
    ['Recipient IBAN', data.creditorAccount.iban],
  ];
  if (debtor !== undefined) rows.push(['From', debtor]);
  if (data.remittanceInformationUnstructured !== undefined) rows.push(['Reference', data.remittanceInformationUnstructured]);
  if (data.endToEndIdentification !== undefined) rows.push(['End-to-end id', data.endToEndIdentification]);
  return `<dl>${rows.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

function accountLabel(account: PayerAccount): string {
  return `${account.name} – ${account.iban} (${account.currency})`;
}

/** Read through a function, because a step handler may have moved the authorisation on. */
function isDone(authorisation: Authorisation): boolean {
  return authorisation.step === 'done';
}

export function registerPayerPages(app: FastifyInstance, context: BankContext): void {
  const { state } = context;

  const notFound = sendLinkNotValid;

  /** Where the payer goes when the flow ends: the TPP's redirect URIs (redirect approach) or a closing page. */
  const finish = (reply: FastifyReply, bank: SandboxBankDefinition, authorisation: Authorisation, resource: Resource): FastifyReply => {
    const ok = authorisation.outcome === 'ok';
    if (authorisation.approach === 'REDIRECT') {
      const target = ok ? resource.redirectUri : (resource.nokRedirectUri ?? resource.redirectUri);
      if (target !== undefined) return reply.code(303).header('Location', target).header('Cache-Control', 'no-store').send();
    }
    const what = resource.kind === 'payment' ? 'payment' : 'access to your accounts';
    const message = ok
      ? `<h1>Done</h1><p>You have approved the ${escapeHtml(what)}. You can return to the app or website you came from.</p>`
      : `<h1>Not approved</h1><p>The ${escapeHtml(what)} was not approved. You can return to the app or website you came from.</p>`;
    return sendPage(reply, 200, layout(bank, ok ? 'Approved' : 'Not approved', message));
  };

  /** The step after the payer has agreed: SCA method, one-time code, or straight to done when exempted. */
  const toSecondFactor = (authorisation: Authorisation, resource: Resource): void => {
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
      authorisation.chosenMethodId = only.authenticationMethodId;
      authorisation.scaStatus = 'scaMethodSelected';
      authorisation.step = 'otp';
    } else {
      authorisation.step = 'method';
    }
  };

  const afterLogin = (authorisation: Authorisation, resource: Resource): void => {
    authorisation.scaStatus = 'psuAuthenticated';
    if (resource.kind === 'consent') {
      authorisation.step = 'account';
      return;
    }
    const problem = state.resolveDebtor(resource, false);
    if (problem !== undefined) {
      state.failResource(resource, problem, authorisation);
      return;
    }
    authorisation.step = state.needsAccountChoice(resource) ? 'account' : 'review';
  };

  const render = (bank: SandboxBankDefinition, authorisation: Authorisation, resource: Resource): string => {
    const notice = noticeHtml(authorisation.notice);
    authorisation.notice = undefined;
    switch (authorisation.step) {
      case 'login': {
        const prefill = resource.psuId ?? '';
        const intro = resource.kind === 'payment' ? 'Log in to approve a payment.' : 'Log in to share your account list.';
        return layout(bank, 'Log in', `<h1>Log in to ${escapeHtml(bank.name)}</h1>${notice}<p>${escapeHtml(intro)}</p>` +
          form(authorisation,
            `<label for="psuId">User ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required value="${escapeHtml(prefill)}">` +
            `<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>`,
            approveButtons('Log in')));
      }
      case 'account': {
        const accounts = resource.kind === 'consent' ? state.consentAccounts(resource) : state.eligibleAccounts(resource);
        const multiple = resource.kind === 'consent';
        const choices = accounts
          .map((account, index) => `<label class="choice"><input type="${multiple ? 'checkbox' : 'radio'}" name="accountId" value="${escapeHtml(account.resourceId)}"${multiple || index === 0 ? ' checked' : ''}><span>${escapeHtml(accountLabel(account))}</span></label>`)
          .join('');
        const title = multiple ? 'Share your accounts' : 'Choose the account to pay from';
        const intro = multiple
          ? '<p>The app or website you came from asks to see the list of your accounts. Choose which accounts to share.</p>'
          : `<p>Choose the account for this payment.</p>${paymentSummary(resource as Payment, undefined)}`;
        return layout(bank, title, `<h1>${escapeHtml(title)}</h1>${notice}${intro}` +
          form(authorisation, `<fieldset style="border:0;padding:0;margin:12px 0"><legend class="hint">Accounts</legend>${choices}</fieldset>`,
            approveButtons(multiple ? 'Share' : 'Continue')));
      }
      case 'review': {
        const payment = resource as Payment;
        const debtor = payment.debtorIban;
        return layout(bank, 'Approve payment', `<h1>Approve this payment?</h1>${notice}${paymentSummary(payment, debtor)}` +
          form(authorisation, '', approveButtons('Approve')));
      }
      case 'method': {
        const methods = state.scaMethods(resource);
        const choices = methods
          .map((method, index) => `<label class="choice"><input type="radio" name="methodId" value="${escapeHtml(method.authenticationMethodId)}"${index === 0 ? ' checked' : ''}><span>${escapeHtml(method.name)} <small>(${escapeHtml(method.authenticationType)})</small></span></label>`)
          .join('');
        return layout(bank, 'Choose how to confirm', `<h1>How do you want to confirm?</h1>${notice}` + form(authorisation, choices, approveButtons('Continue')));
      }
      case 'otp': {
        const method = state.scaMethods(resource).find((candidate) => candidate.authenticationMethodId === authorisation.chosenMethodId);
        const attemptsLeft = state.options.attemptLimits(resource.bank).oneTimeCodeAttempts - authorisation.failedCodes;
        return layout(bank, 'Enter code', `<h1>Enter your one-time code</h1>${notice}<p>We sent a code via ${escapeHtml(method?.name ?? 'your device')}. ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left.</p>` +
          form(authorisation, '<label for="otp">One-time code</label><input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" required>', approveButtons('Confirm')));
      }
      case 'done':
        return finishedPage(bank);
    }
  };

  type PageParams = { slug: string; token: string };
  const lookup = (params: PageParams, approach: 'REDIRECT' | 'DECOUPLED') => {
    const bank = context.banks.get(params.slug);
    const authorisation = state.authorisationByPageToken(params.token);
    if (bank === undefined || authorisation === undefined || authorisation.bank !== bank.slug || authorisation.approach !== approach) {
      return { bank, authorisation: undefined, resource: undefined };
    }
    return { bank, authorisation, resource: state.parentOf(authorisation) };
  };

  for (const [segment, approach] of [['sca', 'REDIRECT'], ['decoupled', 'DECOUPLED']] as const) {
    app.get<{ Params: PageParams }>(`/:slug/${segment}/:token`, async (request, reply) => {
      const { bank, authorisation, resource } = lookup(request.params, approach);
      if (bank === undefined || authorisation === undefined || resource === undefined) return notFound(reply, bank);
      if (authorisation.step !== 'done' && !state.isOpen(resource)) {
        // Expired or cancelled meanwhile.
        authorisation.step = 'done';
        authorisation.outcome = 'nok';
      }
      return sendPage(reply, 200, render(bank, authorisation, resource));
    });

    app.post<{ Params: PageParams; Body: unknown }>(`/:slug/${segment}/:token`, async (request, reply) => {
      const { bank, authorisation, resource } = lookup(request.params, approach);
      if (bank === undefined || authorisation === undefined || resource === undefined) return notFound(reply, bank);
      const body = formBody(request.body);
      if (!sameToken(authorisation.formToken, field(body, 'csrf'))) {
        return sendFormExpired(reply, bank, 'Please open the link again.');
      }
      if (authorisation.step === 'done') return finish(reply, bank, authorisation, resource);
      if (!state.isOpen(resource)) {
        authorisation.step = 'done';
        authorisation.outcome = 'nok';
        return finish(reply, bank, authorisation, resource);
      }
      if (field(body, 'step') !== authorisation.step) {
        // A stale form (back button, double submit): show the current step again. The Location is relative, so
        // the page works under whatever address the browser used.
        return reply.code(303).header('Location', authorisation.pageToken).send();
      }
      if (field(body, 'action') === 'cancel') {
        state.failResource(resource, { code: 'PSU_CANCELLED', text: 'The payer cancelled at the bank.' }, authorisation, true);
        return finish(reply, bank, authorisation, resource);
      }
      handleStep(authorisation, resource, body);
      if (isDone(authorisation)) return finish(reply, bank, authorisation, resource);
      // Post/redirect/get, so a reload never re-submits a password or code.
      return reply.code(303).header('Location', authorisation.pageToken).send();
    });
  }

  const handleStep = (authorisation: Authorisation, resource: Resource, body: FormBody): void => {
    switch (authorisation.step) {
      case 'login': {
        const psuId = field(body, 'psuId')?.trim() ?? '';
        const password = field(body, 'password') ?? '';
        if (psuId === '' || password === '' || psuId.length > 64 || password.length > 256) {
          authorisation.notice = 'Please enter your user ID and password.';
          return;
        }
        const check = state.checkPassword(resource, psuId, password);
        if (check === 'ok') {
          afterLogin(authorisation, resource);
        } else if (check === 'wrong') {
          const left = state.options.attemptLimits(resource.bank).loginAttempts - resource.failedPasswords;
          authorisation.notice = `Wrong user ID or password. ${left} attempt${left === 1 ? '' : 's'} left.`;
        }
        return;
      }
      case 'account': {
        const chosen = fields(body, 'accountId');
        if (resource.kind === 'consent') {
          if (chosen.length === 0 || chosen.length > 50 || !state.grantAccounts(resource as Consent, chosen)) {
            authorisation.notice = 'Choose at least one of your accounts.';
            return;
          }
          toSecondFactor(authorisation, resource);
          return;
        }
        const [accountId] = chosen;
        if (chosen.length !== 1 || accountId === undefined || !state.chooseAccount(resource, accountId)) {
          authorisation.notice = 'Choose one of your accounts.';
          return;
        }
        authorisation.step = 'review';
        return;
      }
      case 'review':
        if (field(body, 'action') === 'approve') toSecondFactor(authorisation, resource);
        return;
      case 'method': {
        const methodId = field(body, 'methodId');
        const method = state.scaMethods(resource).find((candidate) => candidate.authenticationMethodId === methodId);
        if (method === undefined) {
          authorisation.notice = 'Choose one of the methods.';
          return;
        }
        authorisation.chosenMethodId = method.authenticationMethodId;
        authorisation.scaStatus = 'scaMethodSelected';
        authorisation.step = 'otp';
        return;
      }
      case 'otp': {
        const code = field(body, 'otp')?.trim() ?? '';
        if (!/^[0-9]{1,12}$/.test(code)) {
          authorisation.notice = 'The code consists of digits only.';
          return;
        }
        const check = state.checkCode(authorisation, resource, code);
        if (check === 'ok') state.completeAuthorisation(authorisation, resource, 'finalised');
        else if (check === 'wrong') authorisation.notice = 'Wrong code.';
        return;
      }
      case 'done':
        return;
    }
  };

  // A small index for people who open the sandbox in a browser: banks, approaches, test payers.
  app.get('/', async (_request, reply) => {
    const banks = [...context.banks.values()]
      .map((bank) => `<tr><td>${escapeHtml(bank.name)}</td><td><code>${escapeHtml(bank.slug)}</code></td><td>${escapeHtml(bank.approaches.join(', '))}</td><td>${escapeHtml([...bank.products].join(', '))}</td></tr>`)
      .join('');
    const payers = state
      .allPayers()
      .map((payer) => `<tr><td><code>${escapeHtml(payer.psuId)}</code></td><td>${escapeHtml(payer.description)}</td></tr>`)
      .join('');
    const html = layout(undefined, 'Sandbox bank', `<h1>openpis sandbox bank</h1>
<p>Berlin Group NextGenPSD2 1.3 banks for development. Every test payer's password is in docs/sandbox-bank.md.</p>
<h2 style="font-size:16px">Banks</h2><table><tr><th>Bank</th><th>Slug</th><th>SCA</th><th>Products</th></tr>${banks}</table>
<h2 style="font-size:16px">Test payers</h2><table><tr><th>PSU-ID</th><th>Behaviour</th></tr>${payers}</table>`);
    return sendPage(reply, 200, html);
  });
}
