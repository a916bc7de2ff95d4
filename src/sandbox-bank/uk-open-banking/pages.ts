/**
 * The payer's pages at the UK sandbox banks: login, account choice (when the payer has several accounts at a bank
 * that asks), review with approve and deny for the redirect flow; and the sandbox "bank app" of the decoupled bank,
 * where a signed-in payer approves or denies the TPP's CIBA requests. Server-rendered, no JavaScript needed, every
 * value escaped, forms carry an anti-forgery token, and the page URL an unguessable token.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/escape-html.js';
import { fromMinor } from '../shared/money.js';
import {
  approveAndRefuseButtons,
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
} from '../shared/pages.js';
import type { UkSandboxBank } from './banks.js';
import { issuer, type UkContext } from './context.js';
import { issueIdToken } from './id-token.js';
import { MAX_PASSWORD_ATTEMPTS, type AuthorisationSession, type Consent, type UkAccount } from './state.js';

/** An authorisation request the bank cannot send back to the TPP (unknown client, bad request object, …). */
export function renderAuthorisationError(reply: FastifyReply, bank: UkSandboxBank | undefined, message: string): FastifyReply {
  return sendPage(reply, 400, layout(bank, 'Request not valid', `<h1>This request cannot be handled</h1><p>${escapeHtml(message)}</p>`));
}

/** Approve and deny (deny works with the login fields empty). */
const buttons = (label: string, denyLabel = 'Cancel'): string =>
  `<div>${approveAndRefuseButtons(label, { action: 'deny', label: denyLabel })}</div>`;

function accountLabel(account: UkAccount): string {
  const number = account.sortCodeAccountNumber;
  return `${account.name} – ${number.slice(0, 2)}-${number.slice(2, 4)}-${number.slice(4, 6)} ${number.slice(6)}`;
}

function consentSummary(consent: Consent, debtor: UkAccount | undefined): string {
  const { initiation } = consent;
  const rows: Array<[string, string]> = [
    ['Amount', `${fromMinor(consent.amountMinor, 'GBP')} ${initiation.InstructedAmount.Currency}`],
    ['To', initiation.CreditorAccount.Name ?? ''],
    [initiation.CreditorAccount.SchemeName === 'UK.OBIE.IBAN' ? 'Recipient IBAN' : 'Recipient sort code and account', initiation.CreditorAccount.Identification],
  ];
  if (debtor !== undefined) rows.push(['From', accountLabel(debtor)]);
  const reference = (initiation['RemittanceInformation'] as { Reference?: unknown } | undefined)?.Reference;
  if (typeof reference === 'string') rows.push(['Reference', reference]);
  return `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

export function registerUkPayerPages(app: FastifyInstance, context: UkContext): void {
  const { state } = context;

  const form = (session: AuthorisationSession, inner: string, buttonRow: string): string => stepForm(session, `${inner}${buttonRow}`);

  const eligibleAccounts = (bank: UkSandboxBank, consent: Consent): readonly UkAccount[] => {
    if (consent.payerId === undefined) return [];
    const accounts = state.accountsOf(consent.payerId, bank.accountChoice);
    const named = consent.initiation.DebtorAccount;
    if (named === undefined) return accounts;
    // The TPP named the debtor account: it must be one of the payer's.
    const all = state.accountsOf(consent.payerId, true);
    return all.filter((account) => named.Identification.replace(/\s+/g, '') === account.sortCodeAccountNumber);
  };

  const render = (bank: UkSandboxBank, session: AuthorisationSession, consent: Consent): string => {
    const notice = noticeHtml(session.notice);
    session.notice = undefined;
    switch (session.step) {
      case 'login':
        return layout(bank, 'Log in', `<h1>Log in to ${escapeHtml(bank.name)}</h1>${notice}<p>To approve a payment of ${escapeHtml(fromMinor(consent.amountMinor, 'GBP'))} GBP.</p>` +
          form(session, '<label for="psuId">User ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required>' +
            '<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>', buttons('Log in')));
      case 'account': {
        const choices = eligibleAccounts(bank, consent)
          .map((account, index) => `<label class="choice"><input type="radio" name="accountId" value="${escapeHtml(account.accountId)}"${index === 0 ? ' checked' : ''}><span>${escapeHtml(accountLabel(account))}<br><small>${escapeHtml(account.product)}</small></span></label>`)
          .join('');
        return layout(bank, 'Choose an account', `<h1>Pay from which account?</h1>${notice}` +
          form(session, `<fieldset style="border:0;padding:0;margin:12px 0"><legend class="hint">Your accounts</legend>${choices}</fieldset>`, buttons('Continue')));
      }
      case 'review':
        return layout(bank, 'Approve payment', `<h1>Approve this payment?</h1>${notice}${consentSummary(consent, state.account(consent.debtorAccountId))}` +
          form(session, '', buttons('Approve', 'Deny')));
      case 'done':
        return finishedPage(bank);
    }
  };

  /** Back to the TPP: fragment (default) or an auto-submitted form post, as the request object asked. */
  const respond = async (reply: FastifyReply, bank: UkSandboxBank, session: AuthorisationSession): Promise<FastifyReply> => {
    const redirectUri = session.redirectUri ?? '';
    let parameters: Record<string, string>;
    if (session.outcome === 'approved' && session.code !== undefined) {
      const idToken = await issueIdToken(context, bank, session.clientId, session.consentId, { nonce: session.nonce, code: session.code, state: session.state });
      parameters = { code: session.code, id_token: idToken };
    } else {
      parameters = { error: 'access_denied', error_description: 'The payer did not authorise the payment' };
    }
    if (session.state !== undefined) parameters['state'] = session.state;
    if (session.responseMode === 'fragment') {
      return reply.code(303).header('Cache-Control', 'no-store').header('Location', `${redirectUri}#${new URLSearchParams(parameters).toString()}`).send();
    }
    const script = 'document.forms[0].submit();';
    const hash = createHash('sha256').update(script).digest('base64');
    const inputs = Object.entries(parameters).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
    const html = layout(bank, 'Returning', `<h1>Returning you to the app</h1><form method="post" action="${escapeHtml(redirectUri)}">${inputs}<button class="primary" type="submit">Continue</button></form><script>${script}</script>`);
    return sendPage(reply, 200, html, `${PAGE_CSP}; script-src 'sha256-${hash}'`);
  };

  const lookup = (slug: string, token: string) => {
    const bank = context.banks.get(slug);
    const session = state.sessionByPageToken(token);
    if (bank === undefined || session === undefined || session.bank !== bank.slug || session.kind !== 'redirect') return undefined;
    const consent = state.consent(session.consentId);
    return consent === undefined ? undefined : { bank, session, consent };
  };

  const notFound = sendLinkNotValid;

  type PageParams = { slug: string; token: string };
  app.get<{ Params: PageParams }>('/:slug/pay/:token', async (request, reply) => {
    const found = lookup(request.params.slug, request.params.token);
    if (found === undefined) return notFound(reply, context.banks.get(request.params.slug));
    const { bank, session, consent } = found;
    if (session.step !== 'done' && (consent.status !== 'AWAU' || session.expiresAt <= state.now())) {
      session.step = 'done';
      session.outcome ??= 'denied';
    }
    return sendPage(reply, 200, render(bank, session, consent));
  });

  app.post<{ Params: PageParams; Body: unknown }>('/:slug/pay/:token', async (request, reply) => {
    const found = lookup(request.params.slug, request.params.token);
    if (found === undefined) return notFound(reply, context.banks.get(request.params.slug));
    const { bank, session, consent } = found;
    const body = formBody(request.body);
    if (!sameToken(session.formToken, field(body, 'csrf'))) {
      return sendFormExpired(reply, bank, 'Please open the link again.');
    }
    if (session.step === 'done') return sendPage(reply, 200, render(bank, session, consent));
    if (consent.status !== 'AWAU' || session.expiresAt <= state.now()) {
      state.rejectConsent(consent, { StatusReasonCode: 'U036', StatusReasonDescription: 'The authorisation ran out of time.' });
      session.step = 'done';
      session.outcome = 'denied';
      return respond(reply, bank, session);
    }
    if (field(body, 'step') !== session.step) return reply.code(303).header('Location', session.pageToken).send();
    const deny = (description: string): Promise<FastifyReply> => {
      state.rejectConsent(consent, { StatusReasonCode: 'DS02', StatusReasonDescription: description });
      session.step = 'done';
      session.outcome = 'denied';
      return respond(reply, bank, session);
    };
    if (field(body, 'action') === 'deny') return deny('The payer denied the payment at the bank.');
    switch (session.step) {
      case 'login': {
        const psuId = field(body, 'psuId')?.trim() ?? '';
        const password = field(body, 'password') ?? '';
        if (psuId === '' || password === '' || psuId.length > 64 || password.length > 256) {
          session.notice = 'Please enter your user ID and password.';
          break;
        }
        const check = state.checkPassword(consent, psuId, password);
        if (check === 'locked') return deny('Too many wrong passwords.');
        if (check === 'wrong') {
          const left = MAX_PASSWORD_ATTEMPTS - consent.failedPasswords;
          session.notice = `Wrong user ID or password. ${left} attempt${left === 1 ? '' : 's'} left.`;
          break;
        }
        const payer = state.payer(psuId);
        // Ivan's strong customer authentication always fails, as at the Berlin Group bank.
        if (payer?.outcome.scaFails === true) return deny('Strong customer authentication failed.');
        consent.payerId = psuId;
        const accounts = eligibleAccounts(bank, consent);
        if (accounts.length === 0) return deny('The debtor account is not one of the payer\'s accounts.');
        if (accounts.length === 1) {
          consent.debtorAccountId = accounts[0]?.accountId;
          session.step = 'review';
        } else {
          session.step = 'account';
        }
        break;
      }
      case 'account': {
        const chosen = eligibleAccounts(bank, consent).find((account) => account.accountId === field(body, 'accountId'));
        if (chosen === undefined) {
          session.notice = 'Choose one of your accounts.';
          break;
        }
        consent.debtorAccountId = chosen.accountId;
        session.step = 'review';
        break;
      }
      case 'review': {
        if (field(body, 'action') !== 'approve' || consent.payerId === undefined || consent.debtorAccountId === undefined) break;
        state.authoriseConsent(consent, consent.payerId, consent.debtorAccountId);
        const code = state.issueCode({ clientId: session.clientId, consentId: consent.id, redirectUri: session.redirectUri ?? '', nonce: session.nonce });
        session.code = code.code;
        session.step = 'done';
        session.outcome = 'approved';
        return respond(reply, bank, session);
      }
    }
    // Post/redirect/get, so a reload never re-submits a password.
    return reply.code(303).header('Location', session.pageToken).send();
  });

  // ---- the sandbox bank app of the decoupled bank (CIBA) ----------------------------------------------------

  const appLogin = (bank: UkSandboxBank, notice: string | undefined): string =>
    layout(bank, 'Bank app', `<h1>${escapeHtml(bank.name)} app</h1>${notice === undefined ? '' : `<p class="notice" role="alert">${escapeHtml(notice)}</p>`}
<p>Sign in to see payments waiting for your approval.</p>
<form method="post" action="app"><label for="psuId">User ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<div><button class="primary" type="submit">Sign in</button></div></form>`);

  app.get<{ Params: { slug: string } }>('/:slug/app', async (request, reply) => {
    const bank = context.banks.get(request.params.slug);
    if (bank === undefined || bank.flow !== 'decoupled') return notFound(reply, bank);
    return sendPage(reply, 200, appLogin(bank, undefined));
  });

  app.post<{ Params: { slug: string }; Body: unknown }>('/:slug/app', async (request, reply) => {
    const bank = context.banks.get(request.params.slug);
    if (bank === undefined || bank.flow !== 'decoupled') return notFound(reply, bank);
    const body = formBody(request.body);
    const payer = state.checkAppLogin(field(body, 'psuId')?.trim() ?? '', field(body, 'password') ?? '');
    if (payer === undefined) return sendPage(reply, 401, appLogin(bank, 'Wrong user ID or password.'));
    const session = state.openAppSession(bank.slug, payer.psuId);
    return reply.code(303).header('Location', `app/${session.token}`).send();
  });

  app.get<{ Params: PageParams }>('/:slug/app/:token', async (request, reply) => {
    const bank = context.banks.get(request.params.slug);
    const appSession = state.appSession(request.params.token);
    if (bank === undefined || appSession === undefined || appSession.bank !== bank.slug) return notFound(reply, bank);
    const pending = state.pendingCibaRequests(bank.slug, appSession.payerId);
    const items = pending
      .map((session) => {
        const consent = state.consent(session.consentId);
        if (consent === undefined) return '';
        return `<section style="border-top:1px solid #e4e7eb;padding-top:12px;margin-top:12px">${consentSummary(consent, state.accountsOf(appSession.payerId, false)[0])}
<form method="post" action="${escapeHtml(appSession.token)}"><input type="hidden" name="csrf" value="${escapeHtml(appSession.formToken)}"><input type="hidden" name="request" value="${escapeHtml(session.id)}">${buttons('Approve', 'Deny')}</form></section>`;
      })
      .join('');
    const content = pending.length === 0 ? '<p>Nothing waits for your approval.</p>' : items;
    return sendPage(reply, 200, layout(bank, 'Bank app', `<h1>Payments to approve</h1>${content}<p class="hint"><a href="${escapeHtml(appSession.token)}">Refresh</a></p>`));
  });

  app.post<{ Params: PageParams; Body: unknown }>('/:slug/app/:token', async (request, reply) => {
    const bank = context.banks.get(request.params.slug);
    const appSession = state.appSession(request.params.token);
    if (bank === undefined || appSession === undefined || appSession.bank !== bank.slug) return notFound(reply, bank);
    const body = formBody(request.body);
    if (!sameToken(appSession.formToken, field(body, 'csrf'))) {
      return sendFormExpired(reply, bank, 'Please sign in again.');
    }
    const session = state.pendingCibaRequests(bank.slug, appSession.payerId).find((candidate) => candidate.id === field(body, 'request'));
    const consent = session === undefined ? undefined : state.consent(session.consentId);
    if (session !== undefined && consent !== undefined) {
      const payer = state.payer(appSession.payerId);
      const account = state.accountsOf(appSession.payerId, false)[0];
      const named = consent.initiation.DebtorAccount;
      const ownsNamed = named === undefined || state.accountsOf(appSession.payerId, true).some((candidate) => candidate.sortCodeAccountNumber === named.Identification.replace(/\s+/g, ''));
      if (field(body, 'action') === 'approve' && payer?.outcome.scaFails !== true && account !== undefined && ownsNamed && consent.status === 'AWAU') {
        const debtor = named === undefined ? account : state.accountByIdentification(named.Identification.replace(/\s+/g, '')) ?? account;
        state.authoriseConsent(consent, appSession.payerId, debtor.accountId);
        session.step = 'done';
        session.outcome = 'approved';
      } else {
        state.rejectConsent(consent, { StatusReasonCode: 'DS02', StatusReasonDescription: 'The payer denied the payment in the bank app.' });
        session.step = 'done';
        session.outcome = 'denied';
      }
    }
    return reply.code(303).header('Location', appSession.token).send();
  });

  // Index: banks and test payers with their UK accounts, for people who open the sandbox in a browser.
  app.get('/', async (_request, reply) => {
    const banks = [...context.banks.values()]
      .map((bank) => `<tr><td>${escapeHtml(bank.name)}</td><td><a href="${escapeHtml(`${issuer(context, bank)}/.well-known/openid-configuration`)}"><code>${escapeHtml(bank.slug)}</code></a></td><td>${bank.flow === 'redirect' ? 'redirect (hybrid flow)' : 'decoupled (CIBA)'}</td><td>${bank.accountChoice ? 'payer picks' : 'main account'}</td></tr>`)
      .join('');
    const payers = state
      .allPayers()
      .map((payer) => `<tr><td><code>${escapeHtml(payer.psuId)}</code></td><td>${state.accountsOf(payer.psuId, true).map((account) => `<code>${escapeHtml(account.sortCodeAccountNumber)}</code>`).join('<br>')}</td><td>${escapeHtml(payer.description)}</td></tr>`)
      .join('');
    const html = layout(undefined, 'UK sandbox banks', `<h1>UK Open Banking sandbox banks</h1>
<p>Read/Write API 4.0 domestic payments. See docs/sandbox-bank-uk.md.</p>
<table><tr><th>Bank</th><th>Slug</th><th>Authorisation</th><th>Debtor account</th></tr>${banks}</table>
<h2 style="font-size:16px">Test payers</h2><table><tr><th>User ID</th><th>Sort code + account</th><th>Behaviour</th></tr>${payers}</table>`);
    return sendPage(reply, 200, html);
  });
}
