/**
 * AIS consents (`/v1/consents`), at banks with account information: create one, read it and its status, delete it.
 * Their authorisations are in authorisations.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxBankDefinition } from '../banks.js';
import { admit, bankUrl, requireBank, type BankContext } from '../context.js';
import { Xs2aError } from '../errors.js';
import { isoDate, type Consent, type ConsentAccess } from '../state.js';
import { checkConsentBody, type ConsentAccessBody } from '../xs2a-bodies.js';
import { initiationLinks } from '../sca-answers.js';
import {
  accountReference,
  findConsent,
  identifyAtCreation,
  isJsonRequest,
  link,
  parseBody,
  psuOf,
  resourcePath,
  scaRequest,
  sendJson,
  type Links,
} from '../xs2a-support.js';

type ConsentRequest = FastifyRequest<{ Params: { slug: string; consentId: string } }>;

export function registerConsentRoutes(app: FastifyInstance, context: BankContext): void {
  app.post<{ Params: { slug: string } }>('/:slug/v1/consents', (request, reply) => createConsent(context, request, reply));
  app.get<{ Params: { slug: string; consentId: string } }>('/:slug/v1/consents/:consentId', (request, reply) =>
    getConsent(context, request, reply),
  );
  app.get<{ Params: { slug: string; consentId: string } }>('/:slug/v1/consents/:consentId/status', (request, reply) =>
    getConsentStatus(context, request, reply),
  );
  app.delete<{ Params: { slug: string; consentId: string } }>('/:slug/v1/consents/:consentId', (request, reply) =>
    deleteConsent(context, request, reply),
  );
}

export function requireAis(bank: SandboxBankDefinition): void {
  if (!bank.accountInformation) throw new Xs2aError('SERVICE_INVALID', `${bank.name} offers no account information service`);
}

async function createConsent(
  context: BankContext,
  request: FastifyRequest<{ Params: { slug: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const bank = requireBank(context, request.params.slug);
  if (!(await admit(context, request, reply, bank, 'createConsent', psuOf(request)))) return reply;
  requireAis(bank);
  if (!isJsonRequest(request)) return reply.code(415).send();
  const body = parseBody(checkConsentBody, request.body);
  const access = consentAccess(body.access);
  if (Number.isNaN(Date.parse(body.validUntil)) || body.validUntil < isoDate(context.state.now())) {
    throw new Xs2aError('FORMAT_ERROR', 'validUntil must be a date not in the past', { path: 'validUntil' });
  }
  const sca = scaRequest(context, request, bank);
  const consent = context.state.addConsent({
    bank: bank.slug,
    access,
    recurringIndicator: body.recurringIndicator,
    validUntil: body.validUntil,
    frequencyPerDay: body.frequencyPerDay,
    combinedServiceIndicator: body.combinedServiceIndicator,
    ...sca,
  });
  identifyAtCreation(context, consent, sca);
  return sendJson(
    reply,
    201,
    { consentStatus: consent.status, consentId: consent.id, _links: initiationLinks(context, request, bank, consent) },
    { Location: bankUrl(context, bank, resourcePath(consent)), 'ASPSP-SCA-Approach': sca.approach },
  );
}

/** The access the TPP asks for, with every IBAN checked; it must ask for something. */
function consentAccess(asked: ConsentAccessBody): ConsentAccess {
  const refs = (list: ReadonlyArray<{ iban: string; currency?: string }> | undefined, path: string) =>
    (list ?? []).map((reference, index) => accountReference(reference, `access.${path}[${index}]`));
  const access: ConsentAccess = {
    availableAccounts: asked.availableAccounts,
    availableAccountsWithBalance: asked.availableAccountsWithBalance,
    allPsd2: asked.allPsd2,
    accounts: refs(asked.accounts, 'accounts'),
    balances: refs(asked.balances, 'balances'),
    transactions: refs(asked.transactions, 'transactions'),
  };
  const asksSomething =
    access.availableAccounts !== undefined ||
    access.availableAccountsWithBalance !== undefined ||
    access.allPsd2 !== undefined ||
    asked.accounts !== undefined ||
    asked.balances !== undefined ||
    asked.transactions !== undefined;
  if (!asksSomething)
    throw new Xs2aError('FORMAT_ERROR', 'access must ask for accounts, balances, transactions or available accounts', { path: 'access' });
  return access;
}

function consentAccessBody(consent: Consent): Record<string, unknown> {
  const access: Record<string, unknown> = {};
  const { access: asked } = consent;
  if (asked.availableAccounts !== undefined) access['availableAccounts'] = asked.availableAccounts;
  if (asked.availableAccountsWithBalance !== undefined) access['availableAccountsWithBalance'] = asked.availableAccountsWithBalance;
  if (asked.allPsd2 !== undefined) access['allPsd2'] = asked.allPsd2;
  for (const key of ['accounts', 'balances', 'transactions'] as const) {
    if (asked[key].length > 0) access[key] = asked[key].map((reference) => ({ ...reference }));
  }
  return access;
}

/** The consent the path names, once the call is admitted; undefined when a fault took the answer. */
async function admittedConsentCall(
  context: BankContext,
  request: ConsentRequest,
  reply: FastifyReply,
  operation: 'getConsent' | 'getConsentStatus' | 'deleteConsent',
): Promise<{ bank: SandboxBankDefinition; consent: Consent } | undefined> {
  const bank = requireBank(context, request.params.slug);
  if (!(await admit(context, request, reply, bank, operation, psuOf(request, context.state.peekConsent(request.params.consentId)))))
    return undefined;
  return { bank, consent: findConsent(context, bank, request.params.consentId) };
}

async function getConsent(context: BankContext, request: ConsentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const admitted = await admittedConsentCall(context, request, reply, 'getConsent');
  if (admitted === undefined) return reply;
  const { bank, consent } = admitted;
  const links: Links = { self: link(context, bank, resourcePath(consent)), status: link(context, bank, `${resourcePath(consent)}/status`) };
  if (consent.status === 'valid') links['account'] = link(context, bank, '/v1/accounts');
  return sendJson(reply, 200, {
    access: consentAccessBody(consent),
    recurringIndicator: consent.recurringIndicator,
    validUntil: consent.validUntil,
    frequencyPerDay: consent.frequencyPerDay,
    lastActionDate: consent.lastActionDate,
    consentStatus: consent.status,
    _links: links,
  });
}

async function getConsentStatus(context: BankContext, request: ConsentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const admitted = await admittedConsentCall(context, request, reply, 'getConsentStatus');
  if (admitted === undefined) return reply;
  return sendJson(reply, 200, { consentStatus: admitted.consent.status });
}

async function deleteConsent(context: BankContext, request: ConsentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const admitted = await admittedConsentCall(context, request, reply, 'deleteConsent');
  if (admitted === undefined) return reply;
  context.state.terminateConsent(admitted.consent);
  return reply.code(204).send();
}
