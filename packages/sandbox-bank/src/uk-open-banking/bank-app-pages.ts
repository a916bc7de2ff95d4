/**
 * The sandbox "bank app" of the decoupled UK bank (CIBA): the payer signs in and approves or denies the TPP's
 * backchannel requests that wait for them. Every change of a session or consent goes through the state's methods.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import escapeHtml from 'escape-html';
import { field, formBody, layout, sameToken, sendFormExpired, sendLinkNotValid, sendPage, type FormBody } from '../shared/pages.js';
import type { UkSandboxBank } from './banks.js';
import type { UkContext } from './context.js';
import { buttons, consentSummary } from './page-parts.js';
import type { AppSession, AuthorisationSession, Consent, UkSandboxState } from './state.js';

type PageParams = { slug: string; token: string };

export function registerBankAppPages(app: FastifyInstance, context: UkContext): void {
  app.get<{ Params: { slug: string } }>('/:slug/app', (request, reply) => showSignIn(context, request, reply));
  app.post<{ Params: { slug: string }; Body: unknown }>('/:slug/app', (request, reply) => signIn(context, request, reply));
  app.get<{ Params: PageParams }>('/:slug/app/:token', (request, reply) => showPendingRequests(context, request, reply));
  app.post<{ Params: PageParams; Body: unknown }>('/:slug/app/:token', (request, reply) => decideRequest(context, request, reply));
}

function appLogin(bank: UkSandboxBank, notice: string | undefined): string {
  return layout(
    bank,
    'Bank app',
    `<h1>${escapeHtml(bank.name)} app</h1>${notice === undefined ? '' : `<p class="notice" role="alert">${escapeHtml(notice)}</p>`}
<p>Sign in to see payments waiting for your approval.</p>
<form method="post" action="app"><label for="psuId">User ID</label><input type="text" id="psuId" name="psuId" autocomplete="username" required>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<div><button class="primary" type="submit">Sign in</button></div></form>`,
  );
}

async function showSignIn(
  context: UkContext,
  request: FastifyRequest<{ Params: { slug: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const bank = context.banks.get(request.params.slug);
  if (bank === undefined || bank.flow !== 'decoupled') return sendLinkNotValid(reply, bank);
  return sendPage(reply, 200, appLogin(bank, undefined));
}

async function signIn(
  context: UkContext,
  request: FastifyRequest<{ Params: { slug: string }; Body: unknown }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { state } = context;
  const bank = context.banks.get(request.params.slug);
  if (bank === undefined || bank.flow !== 'decoupled') return sendLinkNotValid(reply, bank);
  const body = formBody(request.body);
  const payer = state.checkAppLogin(field(body, 'psuId')?.trim() ?? '', field(body, 'password') ?? '');
  if (payer === undefined) return sendPage(reply, 401, appLogin(bank, 'Wrong user ID or password.'));
  const session = state.openAppSession(bank.slug, payer.psuId);
  return reply.code(303).header('Location', `app/${session.token}`).send();
}

/** The signed-in payer's app session at this bank, or nothing. */
function appSessionOf(context: UkContext, params: PageParams): { bank: UkSandboxBank | undefined; appSession: AppSession | undefined } {
  const bank = context.banks.get(params.slug);
  const appSession = context.state.appSession(params.token);
  if (bank === undefined || appSession === undefined || appSession.bank !== bank.slug) return { bank, appSession: undefined };
  return { bank, appSession };
}

async function showPendingRequests(
  context: UkContext,
  request: FastifyRequest<{ Params: PageParams }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { state } = context;
  const { bank, appSession } = appSessionOf(context, request.params);
  if (bank === undefined || appSession === undefined) return sendLinkNotValid(reply, bank);
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
  return sendPage(
    reply,
    200,
    layout(
      bank,
      'Bank app',
      `<h1>Payments to approve</h1>${content}<p class="hint"><a href="${escapeHtml(appSession.token)}">Refresh</a></p>`,
    ),
  );
}

async function decideRequest(
  context: UkContext,
  request: FastifyRequest<{ Params: PageParams; Body: unknown }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { state } = context;
  const { bank, appSession } = appSessionOf(context, request.params);
  if (bank === undefined || appSession === undefined) return sendLinkNotValid(reply, bank);
  const body = formBody(request.body);
  if (!sameToken(appSession.formToken, field(body, 'csrf'))) return sendFormExpired(reply, bank, 'Please sign in again.');
  const session = state.pendingCibaRequests(bank.slug, appSession.payerId).find((candidate) => candidate.id === field(body, 'request'));
  const consent = session === undefined ? undefined : state.consent(session.consentId);
  if (session !== undefined && consent !== undefined) decide(state, appSession, session, consent, body);
  return reply.code(303).header('Location', appSession.token).send();
}

/**
 * Approval authorises the consent from the payer's main account (or the account the TPP named, when it is the
 * payer's); anything else, or a payer whose SCA always fails, denies it.
 */
function decide(state: UkSandboxState, appSession: AppSession, session: AuthorisationSession, consent: Consent, body: FormBody): void {
  const payer = state.payer(appSession.payerId);
  const account = state.accountsOf(appSession.payerId, false)[0];
  const named = consent.initiation.DebtorAccount;
  const ownsNamed =
    named === undefined ||
    state
      .accountsOf(appSession.payerId, true)
      .some((candidate) => candidate.sortCodeAccountNumber === named.Identification.replace(/\s+/g, ''));
  if (
    field(body, 'action') === 'approve' &&
    payer?.outcome.scaFails !== true &&
    account !== undefined &&
    ownsNamed &&
    consent.status === 'AWAU'
  ) {
    const debtor = named === undefined ? account : (state.accountByIdentification(named.Identification.replace(/\s+/g, '')) ?? account);
    state.authoriseConsent(consent, appSession.payerId, debtor.accountId);
    state.approveSession(session);
  } else {
    state.rejectConsent(consent, { StatusReasonCode: 'DS02', StatusReasonDescription: 'The payer denied the payment in the bank app.' });
    state.denySession(session);
  }
}
