/**
 * The payer's pages at the sandbox bank: login, account choice, payment review, SCA method and one-time code for
 * the redirect approach, and the "bank app" stand-in of the decoupled approach. Server-rendered, no JavaScript,
 * every value escaped; each form carries the authorisation's anti-forgery token, and the page URL itself carries an
 * unguessable token rather than a resource id. The steps themselves are in page-steps.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import escapeHtml from 'escape-html';
import { field, formBody, layout, sameToken, sendFormExpired, sendLinkNotValid, sendPage } from '../shared/pages.js';
import type { SandboxBankDefinition } from './banks.js';
import type { BankContext } from './context.js';
import { handleStep, renderStep } from './page-steps.js';
import type { Authorisation, Resource } from './state.js';

type PageParams = { slug: string; token: string };
type PageRequest = FastifyRequest<{ Params: PageParams; Body: unknown }>;
type PageApproach = 'REDIRECT' | 'DECOUPLED';

/** Read through a function, because a step handler may have moved the authorisation on. */
function isDone(authorisation: Authorisation): boolean {
  return authorisation.step === 'done';
}

export function registerPayerPages(app: FastifyInstance, context: BankContext): void {
  for (const [segment, approach] of [
    ['sca', 'REDIRECT'],
    ['decoupled', 'DECOUPLED'],
  ] as const) {
    app.get<{ Params: PageParams }>(`/:slug/${segment}/:token`, (request, reply) => showPage(context, approach, request, reply));
    app.post<{ Params: PageParams; Body: unknown }>(`/:slug/${segment}/:token`, (request, reply) =>
      postPage(context, approach, request, reply),
    );
  }
  // A small index for people who open the sandbox in a browser: banks, approaches, test payers.
  app.get('/', async (_request, reply) => sendIndex(context, reply));
}

/** The authorisation a page URL names, with its bank and resource; nothing when the token is not of this bank and approach. */
function lookup(context: BankContext, params: PageParams, approach: PageApproach) {
  const bank = context.banks.get(params.slug);
  const authorisation = context.state.authorisationByPageToken(params.token);
  if (bank === undefined || authorisation === undefined || authorisation.bank !== bank.slug || authorisation.approach !== approach) {
    return { bank, authorisation: undefined, resource: undefined };
  }
  return { bank, authorisation, resource: context.state.parentOf(authorisation) };
}

async function showPage(
  context: BankContext,
  approach: PageApproach,
  request: FastifyRequest<{ Params: PageParams }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { state } = context;
  const { bank, authorisation, resource } = lookup(context, request.params, approach);
  if (bank === undefined || authorisation === undefined || resource === undefined) return sendLinkNotValid(reply, bank);
  // Expired or cancelled meanwhile.
  if (authorisation.step !== 'done' && !state.isOpen(resource)) state.closeStalePages(authorisation);
  return sendPage(reply, 200, renderStep(state, bank, authorisation, resource));
}

async function postPage(context: BankContext, approach: PageApproach, request: PageRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const { bank, authorisation, resource } = lookup(context, request.params, approach);
  if (bank === undefined || authorisation === undefined || resource === undefined) return sendLinkNotValid(reply, bank);
  const body = formBody(request.body);
  if (!sameToken(authorisation.formToken, field(body, 'csrf'))) return sendFormExpired(reply, bank, 'Please open the link again.');
  if (authorisation.step === 'done') return finish(reply, bank, authorisation, resource);
  if (!state.isOpen(resource)) {
    state.closeStalePages(authorisation);
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
  handleStep(state, authorisation, resource, body);
  if (isDone(authorisation)) return finish(reply, bank, authorisation, resource);
  // Post/redirect/get, so a reload never re-submits a password or code.
  return reply.code(303).header('Location', authorisation.pageToken).send();
}

/** Where the payer goes when the flow ends: the TPP's redirect URIs (redirect approach) or a closing page. */
function finish(reply: FastifyReply, bank: SandboxBankDefinition, authorisation: Authorisation, resource: Resource): FastifyReply {
  const ok = authorisation.outcome === 'ok';
  if (authorisation.approach === 'REDIRECT') {
    const target = ok ? resource.redirectUri : (resource.nokRedirectUri ?? resource.redirectUri);
    if (target !== undefined) return reply.code(303).header('Location', target).header('Cache-Control', 'no-store').send();
  }
  const what = resource.kind === 'consent' ? 'access to your accounts' : resource.data.bulk === undefined ? 'payment' : 'payments';
  const message = ok
    ? `<h1>Done</h1><p>You have approved the ${escapeHtml(what)}. You can return to the app or website you came from.</p>`
    : `<h1>Not approved</h1><p>The ${escapeHtml(what)} was not approved. You can return to the app or website you came from.</p>`;
  return sendPage(reply, 200, layout(bank, ok ? 'Approved' : 'Not approved', message));
}

function sendIndex(context: BankContext, reply: FastifyReply): FastifyReply {
  const banks = [...context.banks.values()]
    .map(
      (bank) =>
        `<tr><td>${escapeHtml(bank.name)}</td><td><code>${escapeHtml(bank.slug)}</code></td><td>${escapeHtml(bank.approaches.join(', '))}</td><td>${escapeHtml([...bank.products].join(', '))}</td><td>${bank.bulkPayments ? 'yes' : 'no'}</td></tr>`,
    )
    .join('');
  const payers = context.state
    .allPayers()
    .map((payer) => `<tr><td><code>${escapeHtml(payer.psuId)}</code></td><td>${escapeHtml(payer.description)}</td></tr>`)
    .join('');
  const html = layout(
    undefined,
    'Sandbox bank',
    `<h1>openpis sandbox bank</h1>
<p>Berlin Group NextGenPSD2 1.3 banks for development. Every test payer's password is in docs/sandbox-bank.md.</p>
<h2 style="font-size:16px">Banks</h2><table><tr><th>Bank</th><th>Slug</th><th>SCA</th><th>Products</th><th>Bulk payments</th></tr>${banks}</table>
<h2 style="font-size:16px">Test payers</h2><table><tr><th>PSU-ID</th><th>Behaviour</th></tr>${payers}</table>`,
  );
  return sendPage(reply, 200, html);
}
