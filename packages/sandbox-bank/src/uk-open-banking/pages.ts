/**
 * The UK sandbox banks' payer pages (the redirect flow's pages in payment-pages.ts, the decoupled bank's app in
 * bank-app-pages.ts, what both show alike in page-parts.ts), and the index page. Server-rendered, no JavaScript
 * needed, every value escaped, forms carry an anti-forgery token, and the page URL an unguessable token.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import escapeHtml from 'escape-html';
import { layout, sendPage } from '../shared/pages.js';
import { registerBankAppPages } from './bank-app-pages.js';
import type { UkSandboxBank } from './banks.js';
import { issuer, type UkContext } from './context.js';
import { registerPaymentPages } from './payment-pages.js';

/** An authorisation request the bank cannot send back to the TPP (unknown client, bad request object, …). */
export function renderAuthorisationError(reply: FastifyReply, bank: UkSandboxBank | undefined, message: string): FastifyReply {
  return sendPage(reply, 400, layout(bank, 'Request not valid', `<h1>This request cannot be handled</h1><p>${escapeHtml(message)}</p>`));
}

export function registerUkPayerPages(app: FastifyInstance, context: UkContext): void {
  registerPaymentPages(app, context);
  registerBankAppPages(app, context);
  // Index: banks and test payers with their UK accounts, for people who open the sandbox in a browser.
  app.get('/', async (_request, reply) => sendIndex(context, reply));
}

function sendIndex(context: UkContext, reply: FastifyReply): FastifyReply {
  const { state } = context;
  const banks = [...context.banks.values()]
    .map(
      (bank) =>
        `<tr><td>${escapeHtml(bank.name)}</td><td><a href="${escapeHtml(`${issuer(context, bank)}/.well-known/openid-configuration`)}"><code>${escapeHtml(bank.slug)}</code></a></td><td>${bank.flow === 'redirect' ? 'redirect (hybrid flow)' : 'decoupled (CIBA)'}</td><td>${bank.accountChoice ? 'payer picks' : 'main account'}</td></tr>`,
    )
    .join('');
  const payers = state
    .allPayers()
    .map(
      (payer) =>
        `<tr><td><code>${escapeHtml(payer.psuId)}</code></td><td>${state
          .accountsOf(payer.psuId, true)
          .map((account) => `<code>${escapeHtml(account.sortCodeAccountNumber)}</code>`)
          .join('<br>')}</td><td>${escapeHtml(payer.description)}</td></tr>`,
    )
    .join('');
  const html = layout(
    undefined,
    'UK sandbox banks',
    `<h1>UK Open Banking sandbox banks</h1>
<p>Read/Write API 4.0 domestic payments. See docs/sandbox-bank-uk.md.</p>
<table><tr><th>Bank</th><th>Slug</th><th>Authorisation</th><th>Debtor account</th></tr>${banks}</table>
<h2 style="font-size:16px">Test payers</h2><table><tr><th>User ID</th><th>Sort code + account</th><th>Behaviour</th></tr>${payers}</table>`,
  );
  return sendPage(reply, 200, html);
}
