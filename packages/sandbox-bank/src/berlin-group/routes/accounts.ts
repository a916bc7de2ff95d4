/**
 * The account list (`GET /v1/accounts` with `Consent-ID`), with the `interimAvailable` balance when asked and the
 * consent covers balances.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PayerAccount } from '../../shared/fixtures.js';
import { fromMinor } from '../../shared/money.js';
import { header } from '../../shared/plumbing.js';
import type { SandboxBankDefinition } from '../banks.js';
import { admit, requireBank, type BankContext } from '../context.js';
import { Xs2aError } from '../errors.js';
import { isoDate, type Consent } from '../state.js';
import { psuOf, sendJson } from '../xs2a-support.js';
import { requireAis } from './consents.js';

type AccountsRequest = FastifyRequest<{ Params: { slug: string }; Querystring: { withBalance?: string } }>;

export function registerAccountRoutes(app: FastifyInstance, context: BankContext): void {
  app.get<{ Params: { slug: string }; Querystring: { withBalance?: string } }>('/:slug/v1/accounts', (request, reply) =>
    listAccounts(context, request, reply),
  );
}

async function listAccounts(context: BankContext, request: AccountsRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = requireBank(context, request.params.slug);
  const consentId = header(request, 'Consent-ID');
  if (
    !(await admit(
      context,
      request,
      reply,
      bank,
      'getAccounts',
      psuOf(request, consentId === undefined ? undefined : state.peekConsent(consentId)),
    ))
  )
    return reply;
  requireAis(bank);
  if (consentId === undefined) throw new Xs2aError('FORMAT_ERROR', 'Consent-ID header is missing');
  const withBalanceRaw = request.query.withBalance;
  if (withBalanceRaw !== undefined && withBalanceRaw !== 'true' && withBalanceRaw !== 'false') {
    throw new Xs2aError('FORMAT_ERROR', 'withBalance must be true or false');
  }
  const consent = usableConsent(context, bank, consentId, withBalanceRaw === 'true');
  state.refreshAll();
  const accounts = grantedAccounts(context, consent, withBalanceRaw === 'true');
  state.consentUsed(consent);
  return sendJson(reply, 200, { accounts });
}

/** The consent of the `Consent-ID` header, valid and (when balances are asked) covering balances. */
function usableConsent(context: BankContext, bank: SandboxBankDefinition, consentId: string, withBalance: boolean): Consent {
  const consent = context.state.consent(consentId);
  if (consent === undefined || consent.bank !== bank.slug)
    throw new Xs2aError('CONSENT_UNKNOWN', 'Consent-ID cannot be matched by the bank');
  if (consent.status === 'expired') throw new Xs2aError('CONSENT_EXPIRED', 'The consent has expired');
  if (consent.status !== 'valid') throw new Xs2aError('CONSENT_INVALID', `The consent is ${consent.status}`);
  const { access } = consent;
  if (withBalance && access.availableAccountsWithBalance === undefined && access.allPsd2 === undefined && access.balances.length === 0) {
    throw new Xs2aError('CONSENT_INVALID', 'The consent does not cover balances');
  }
  return consent;
}

function grantedAccounts(context: BankContext, consent: Consent, withBalance: boolean): Array<Record<string, unknown>> {
  const { state } = context;
  const { access } = consent;
  const payer = state.payer(consent.payerId);
  const withOwnerName = [access.availableAccounts, access.availableAccountsWithBalance, access.allPsd2].includes(
    'allAccountsWithOwnerName',
  );
  return (payer?.accounts ?? [])
    .filter((account) => consent.grantedAccountIds.includes(account.resourceId))
    .map((account: PayerAccount) => ({
      resourceId: account.resourceId,
      iban: account.iban,
      currency: account.currency,
      name: account.name,
      product: account.product,
      cashAccountType: 'CACC',
      status: 'enabled',
      usage: 'PRIV',
      ...(withOwnerName && payer !== undefined ? { ownerName: payer.name } : {}),
      ...(withBalance
        ? {
            balances: [
              {
                balanceAmount: { currency: account.currency, amount: fromMinor(state.balance(account.iban) ?? 0n, account.currency) },
                balanceType: 'interimAvailable',
                referenceDate: isoDate(state.now()),
              },
            ],
          }
        : {}),
    }));
}
