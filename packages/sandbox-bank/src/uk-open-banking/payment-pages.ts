/**
 * The payer's pages of the redirect flow at the UK sandbox banks (`/{slug}/pay/{token}`, reached from
 * `/authorize`): login, account choice (when the payer has several accounts at a bank that asks), and review with
 * approve and deny; then back to the TPP with the authorisation code or the error. Every change of the session or
 * consent goes through the state's methods.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import escapeHtml from 'escape-html';
import { fromMinor } from '../shared/money.js';
import {
  field,
  finishedPage,
  formBody,
  layout,
  noticeHtml,
  PAGE_CSP,
  sameToken,
  sendFormExpired,
  sendLinkNotValid,
  sendPage,
  stepForm,
  type FormBody,
} from '../shared/pages.js';
import type { UkSandboxBank } from './banks.js';
import type { UkContext } from './context.js';
import { issueIdToken } from './id-token.js';
import { accountLabel, buttons, consentSummary } from './page-parts.js';
import { MAX_PASSWORD_ATTEMPTS, type AuthorisationSession, type Consent, type UkAccount, type UkSandboxState } from './state.js';

type PageParams = { slug: string; token: string };

/** A page's session with its bank and consent. */
interface PageSession {
  readonly bank: UkSandboxBank;
  readonly session: AuthorisationSession;
  readonly consent: Consent;
}

/** What a post of a step leads to: the page again (post/redirect/get), a denial, or back to the TPP approved. */
type StepResult = { readonly next: 'again' } | { readonly next: 'deny'; readonly description: string } | { readonly next: 'respond' };

export function registerPaymentPages(app: FastifyInstance, context: UkContext): void {
  app.get<{ Params: PageParams }>('/:slug/pay/:token', (request, reply) => showPage(context, request, reply));
  app.post<{ Params: PageParams; Body: unknown }>('/:slug/pay/:token', (request, reply) => postPage(context, request, reply));
}

function lookup(context: UkContext, slug: string, token: string): PageSession | undefined {
  const { state } = context;
  const bank = context.banks.get(slug);
  const session = state.sessionByPageToken(token);
  if (bank === undefined || session === undefined || session.bank !== bank.slug || session.kind !== 'redirect') return undefined;
  const consent = state.consent(session.consentId);
  return consent === undefined ? undefined : { bank, session, consent };
}

/** The accounts the payer may pay from: all of them where the bank lets the payer pick, else the main one. */
function eligibleAccounts(state: UkSandboxState, bank: UkSandboxBank, consent: Consent): readonly UkAccount[] {
  if (consent.payerId === undefined) return [];
  const accounts = state.accountsOf(consent.payerId, bank.accountChoice);
  const named = consent.initiation.DebtorAccount;
  if (named === undefined) return accounts;
  // The TPP named the debtor account: it must be one of the payer's.
  const all = state.accountsOf(consent.payerId, true);
  return all.filter((account) => named.Identification.replace(/\s+/g, '') === account.sortCodeAccountNumber);
}

function render(state: UkSandboxState, { bank, session, consent }: PageSession): string {
  const notice = noticeHtml(state.pages.takeNotice(session));
  const form = (inner: string, buttonRow: string): string => stepForm(session, `${inner}${buttonRow}`);
  switch (session.step) {
    case 'login':
      return layout(
        bank,
        'Log in',
        `<h1>Log in to ${escapeHtml(bank.name)}</h1>${notice}<p>To approve a payment of ${escapeHtml(fromMinor(consent.amountMinor, 'GBP'))} GBP.</p>` +
          form(
            '<label for="psuId">User ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required>' +
              '<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>',
            buttons('Log in'),
          ),
      );
    case 'account': {
      const choices = eligibleAccounts(state, bank, consent)
        .map(
          (account, index) =>
            `<label class="choice"><input type="radio" name="accountId" value="${escapeHtml(account.accountId)}"${index === 0 ? ' checked' : ''}><span>${escapeHtml(accountLabel(account))}<br><small>${escapeHtml(account.product)}</small></span></label>`,
        )
        .join('');
      return layout(
        bank,
        'Choose an account',
        `<h1>Pay from which account?</h1>${notice}` +
          form(
            `<fieldset style="border:0;padding:0;margin:12px 0"><legend class="hint">Your accounts</legend>${choices}</fieldset>`,
            buttons('Continue'),
          ),
      );
    }
    case 'review':
      return layout(
        bank,
        'Approve payment',
        `<h1>Approve this payment?</h1>${notice}${consentSummary(consent, state.account(consent.debtorAccountId))}` +
          form('', buttons('Approve', 'Deny')),
      );
    case 'done':
      return finishedPage(bank);
  }
}

async function showPage(context: UkContext, request: FastifyRequest<{ Params: PageParams }>, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const found = lookup(context, request.params.slug, request.params.token);
  if (found === undefined) return sendLinkNotValid(reply, context.banks.get(request.params.slug));
  const { session, consent } = found;
  if (session.step !== 'done' && (consent.status !== 'AWAU' || session.expiresAt <= state.now())) state.closeStaleSession(session);
  return sendPage(reply, 200, render(state, found));
}

async function postPage(
  context: UkContext,
  request: FastifyRequest<{ Params: PageParams; Body: unknown }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { state } = context;
  const found = lookup(context, request.params.slug, request.params.token);
  if (found === undefined) return sendLinkNotValid(reply, context.banks.get(request.params.slug));
  const { bank, session, consent } = found;
  const body = formBody(request.body);
  if (!sameToken(session.formToken, field(body, 'csrf'))) return sendFormExpired(reply, bank, 'Please open the link again.');
  if (session.step === 'done') return sendPage(reply, 200, render(state, found));
  if (consent.status !== 'AWAU' || session.expiresAt <= state.now()) {
    state.rejectConsent(consent, { StatusReasonCode: 'U036', StatusReasonDescription: 'The authorisation ran out of time.' });
    state.denySession(session);
    return respond(context, reply, bank, session);
  }
  if (field(body, 'step') !== session.step) return reply.code(303).header('Location', session.pageToken).send();
  const result: StepResult =
    field(body, 'action') === 'deny'
      ? { next: 'deny', description: 'The payer denied the payment at the bank.' }
      : handleStep(state, found, body);
  switch (result.next) {
    case 'deny':
      state.rejectConsent(consent, { StatusReasonCode: 'DS02', StatusReasonDescription: result.description });
      state.denySession(session);
      return respond(context, reply, bank, session);
    case 'respond':
      return respond(context, reply, bank, session);
    case 'again':
      // Post/redirect/get, so a reload never re-submits a password.
      return reply.code(303).header('Location', session.pageToken).send();
  }
}

function handleStep(state: UkSandboxState, page: PageSession, body: FormBody): StepResult {
  const { session, consent } = page;
  switch (session.step) {
    case 'login':
      return handleLogin(state, page, body);
    case 'account': {
      const chosen = eligibleAccounts(state, page.bank, consent).find((account) => account.accountId === field(body, 'accountId'));
      if (chosen === undefined) {
        state.pages.setNotice(session, 'Choose one of your accounts.');
        return { next: 'again' };
      }
      state.chooseDebtorAccount(consent, chosen.accountId);
      state.pages.moveTo(session, 'review');
      return { next: 'again' };
    }
    case 'review': {
      if (field(body, 'action') !== 'approve' || consent.payerId === undefined || consent.debtorAccountId === undefined)
        return { next: 'again' };
      state.authoriseConsent(consent, consent.payerId, consent.debtorAccountId);
      const code = state.issueCode({
        clientId: session.clientId,
        consentId: consent.id,
        redirectUri: session.redirectUri ?? '',
        nonce: session.nonce,
      });
      state.approveSession(session, code.code);
      return { next: 'respond' };
    }
    case 'done':
      return { next: 'again' };
  }
}

function handleLogin(state: UkSandboxState, { bank, session, consent }: PageSession, body: FormBody): StepResult {
  const psuId = field(body, 'psuId')?.trim() ?? '';
  const password = field(body, 'password') ?? '';
  if (psuId === '' || password === '' || psuId.length > 64 || password.length > 256) {
    state.pages.setNotice(session, 'Please enter your user ID and password.');
    return { next: 'again' };
  }
  const check = state.checkPassword(consent, psuId, password);
  if (check === 'locked') return { next: 'deny', description: 'Too many wrong passwords.' };
  if (check === 'wrong') {
    const left = MAX_PASSWORD_ATTEMPTS - consent.failedPasswords;
    state.pages.setNotice(session, `Wrong user ID or password. ${left} attempt${left === 1 ? '' : 's'} left.`);
    return { next: 'again' };
  }
  // Ivan's strong customer authentication always fails, as at the Berlin Group bank.
  if (state.payer(psuId)?.outcome.scaFails === true) return { next: 'deny', description: 'Strong customer authentication failed.' };
  state.identifyPayer(consent, psuId);
  const accounts = eligibleAccounts(state, bank, consent);
  const [only] = accounts;
  if (only === undefined) return { next: 'deny', description: "The debtor account is not one of the payer's accounts." };
  if (accounts.length === 1) {
    state.chooseDebtorAccount(consent, only.accountId);
    state.pages.moveTo(session, 'review');
  } else {
    state.pages.moveTo(session, 'account');
  }
  return { next: 'again' };
}

/** Back to the TPP: fragment (default) or an auto-submitted form post, as the request object asked. */
async function respond(context: UkContext, reply: FastifyReply, bank: UkSandboxBank, session: AuthorisationSession): Promise<FastifyReply> {
  const redirectUri = session.redirectUri ?? '';
  let parameters: Record<string, string>;
  if (session.outcome === 'approved' && session.code !== undefined) {
    const idToken = await issueIdToken(context, bank, session.clientId, session.consentId, {
      nonce: session.nonce,
      code: session.code,
      state: session.state,
    });
    parameters = { code: session.code, id_token: idToken };
  } else {
    parameters = { error: 'access_denied', error_description: 'The payer did not authorise the payment' };
  }
  if (session.state !== undefined) parameters['state'] = session.state;
  if (session.responseMode === 'fragment') {
    return reply
      .code(303)
      .header('Cache-Control', 'no-store')
      .header('Location', `${redirectUri}#${new URLSearchParams(parameters).toString()}`)
      .send();
  }
  const script = 'document.forms[0].submit();';
  const hash = createHash('sha256').update(script).digest('base64');
  const inputs = Object.entries(parameters)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const html = layout(
    bank,
    'Returning',
    `<h1>Returning you to the app</h1><form method="post" action="${escapeHtml(redirectUri)}">${inputs}<button class="primary" type="submit">Continue</button></form><script>${script}</script>`,
  );
  return sendPage(reply, 200, html, `${PAGE_CSP}; script-src 'sha256-${hash}'`);
}
