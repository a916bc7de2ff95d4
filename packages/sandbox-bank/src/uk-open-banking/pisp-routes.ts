/**
 * The Payment Initiation API of each UK sandbox bank (Read/Write API 4.0, domestic payments only), under
 * `/{slug}/open-banking/v4.0/pisp`: payment consents with funds confirmation, and payments with their details.
 * Requests to create are signed (`x-jws-signature`) and idempotent (`x-idempotency-key`); every JSON answer is
 * signed by the bank.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidIBAN } from 'ibantools';
import { toMinor } from '../shared/money.js';
import type { UkSandboxBank } from './banks.js';
import { admit, bearer, header, resourceBase, sendSigned, type UkContext } from './context.js';
import { ObError } from './errors.js';
import type { UkOperationName } from './faults.js';
import { verifyDetached } from './jws.js';
import { checkRequestBody } from './request-schemas.js';
import { canonicalJson, type AccessToken, type Consent, type Initiation, type Payment } from './state.js';

const BASE = '/:slug/open-banking/v4.0/pisp';
const IDEMPOTENCY_KEY = /^(?!\s)(.*)(\S)$/;
type Body = Record<string, unknown>;
type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;
type ConsentRequest = FastifyRequest<{ Params: { slug: string; consentId: string } }>;
type PaymentRequest = FastifyRequest<{ Params: { slug: string; paymentId: string } }>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function iso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export function registerPispRoutes(app: FastifyInstance, context: UkContext): void {
  app.post<{ Params: { slug: string } }>(`${BASE}/domestic-payment-consents`, (request, reply) => createConsent(context, request, reply));
  app.get<{ Params: { slug: string; consentId: string } }>(`${BASE}/domestic-payment-consents/:consentId`, (request, reply) =>
    getConsent(context, request, reply),
  );
  app.get<{ Params: { slug: string; consentId: string } }>(
    `${BASE}/domestic-payment-consents/:consentId/funds-confirmation`,
    (request, reply) => confirmFunds(context, request, reply),
  );
  app.post<{ Params: { slug: string } }>(`${BASE}/domestic-payments`, (request, reply) => createPayment(context, request, reply));
  app.get<{ Params: { slug: string; paymentId: string } }>(`${BASE}/domestic-payments/:paymentId`, (request, reply) =>
    getPayment(context, request, reply),
  );
  app.get<{ Params: { slug: string; paymentId: string } }>(`${BASE}/domestic-payments/:paymentId/payment-details`, (request, reply) =>
    getPaymentDetails(context, request, reply),
  );
}

function bankOf(context: UkContext, slug: string): UkSandboxBank {
  const bank = context.banks.get(slug);
  if (bank === undefined) throw new ObError('UK.OBIE.Resource.NotFound', `No UK sandbox bank "${slug}"`, 404);
  return bank;
}

/** Common gate: bearer token, faults (by the payer the call is about), and for POSTs signature and idempotency key. */
async function gate(
  context: UkContext,
  call: { readonly request: FastifyRequest; readonly reply: FastifyReply; readonly bank: UkSandboxBank },
  operation: UkOperationName,
  psuId: () => string | undefined,
  options: { signed: boolean },
): Promise<AccessToken | undefined> {
  const { request, reply, bank } = call;
  const token = bearer(context, request);
  if (!(await admit(context, request, reply, bank, operation, psuId()))) return undefined;
  if (options.signed) {
    const client = context.state.client(token.clientId);
    if (client === undefined) throw new ObError('UK.OBIE.Signature.Invalid', 'The client is no longer registered');
    await verifyDetached(header(request, 'x-jws-signature'), context.rawBodies.get(request) ?? Buffer.alloc(0), {
      jwks: client.jwks,
      issuer: client.signingIssuer,
      trustAnchors: context.trustAnchors,
      now: context.state.now(),
    });
  }
  return token;
}

function idempotencyKey(request: FastifyRequest): string {
  const key = header(request, 'x-idempotency-key');
  if (key === undefined) throw new ObError('UK.OBIE.Header.Missing', 'x-idempotency-key is required');
  if (key.length > 40 || !IDEMPOTENCY_KEY.test(key))
    throw new ObError('UK.OBIE.Header.Invalid', 'x-idempotency-key must be at most 40 characters, without surrounding spaces');
  return key;
}

function ownConsent(context: UkContext, bank: UkSandboxBank, token: AccessToken, consentId: string): Consent {
  const consent = context.state.consent(consentId);
  if (consent === undefined || consent.bank !== bank.slug)
    throw new ObError('UK.OBIE.Resource.NotFound', 'Unknown ConsentId', 400, 'ConsentId');
  if (consent.clientId !== token.clientId) throw new ObError('UK.OBIE.Resource.NotFound', 'The consent belongs to another client', 403);
  return consent;
}

function ownPayment(context: UkContext, bank: UkSandboxBank, token: AccessToken, paymentId: string): Payment {
  const payment = context.state.payment(paymentId);
  if (payment === undefined || payment.bank !== bank.slug)
    throw new ObError('UK.OBIE.Resource.NotFound', 'Unknown DomesticPaymentId', 400, 'DomesticPaymentId');
  if (payment.clientId !== token.clientId) throw new ObError('UK.OBIE.Resource.NotFound', 'The payment belongs to another client', 403);
  return payment;
}

function debtorOf(context: UkContext, accountId: string): Body {
  const account = context.state.account(accountId);
  return account === undefined
    ? {}
    : { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: account.sortCodeAccountNumber, Name: account.name };
}

/**
 * `Data.Refund` of a payment whose consent asked `ReadRefundAccount: "Yes"` (OBWriteDomesticResponse5): the account
 * the payer paid from, named as its holder's account (the standard's `Name` is the owners' name, not the product's).
 */
function refundOf(context: UkContext, payment: Payment): Body {
  if (context.state.consent(payment.consentId)?.readRefundAccount !== 'Yes') return {};
  const account = context.state.account(payment.debtorAccountId);
  if (account === undefined) return {};
  return {
    Refund: {
      Account: {
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: account.sortCodeAccountNumber,
        Name: context.state.accountHolderName(account.accountId) ?? account.name,
      },
    },
  };
}

function consentBody(context: UkContext, bank: UkSandboxBank, consent: Consent): Body {
  return {
    Data: {
      ConsentId: consent.id,
      CreationDateTime: iso(consent.createdAt),
      Status: consent.status,
      ...(consent.reason === undefined ? {} : { StatusReason: [consent.reason] }),
      StatusUpdateDateTime: iso(consent.statusUpdatedAt),
      ...(consent.readRefundAccount === undefined ? {} : { ReadRefundAccount: consent.readRefundAccount }),
      Initiation: consent.initiation,
      ...(consent.debtorAccountId === undefined || consent.status !== 'AUTH' ? {} : { Debtor: debtorOf(context, consent.debtorAccountId) }),
    },
    Risk: consent.risk,
    Links: { Self: `${resourceBase(context, bank)}/domestic-payment-consents/${consent.id}` },
    Meta: {},
  };
}

function paymentBody(context: UkContext, bank: UkSandboxBank, payment: Payment): Body {
  return {
    Data: {
      DomesticPaymentId: payment.id,
      ConsentId: payment.consentId,
      CreationDateTime: iso(payment.createdAt),
      Status: payment.status,
      ...(payment.reason === undefined ? {} : { StatusReason: [payment.reason] }),
      StatusUpdateDateTime: iso(payment.statusUpdatedAt),
      ...refundOf(context, payment),
      Initiation: payment.initiation,
      Debtor: debtorOf(context, payment.debtorAccountId),
    },
    Links: { Self: `${resourceBase(context, bank)}/domestic-payments/${payment.id}` },
    Meta: {},
  };
}

// ---- consents ---------------------------------------------------------------------------------------------------

async function createConsent(context: UkContext, request: SlugRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = bankOf(context, request.params.slug);
  const token = await gate(context, { request, reply, bank }, 'createDomesticPaymentConsent', () => undefined, { signed: true });
  if (token === undefined) return reply;
  if (token.grant !== 'client_credentials')
    throw new ObError('UK.OBIE.Resource.InvalidConsentStatus', 'Use a client-credentials token to create a consent', 403);
  const key = idempotencyKey(request);
  const body: unknown = request.body;
  // The standard's schema first, as an ASPSP's gateway does: nothing that does not conform is stored or echoed.
  checkRequestBody('consent', body);
  const previous = state.idempotent(`${token.clientId}:consent`, key, body);
  if (previous?.kind === 'different')
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'The x-idempotency-key was used with a different body');
  if (previous?.kind === 'same') {
    const consent = state.consent(previous.resourceId);
    if (consent !== undefined) return sendSigned(context, bank, request, reply, 201, consentBody(context, bank, consent));
  }
  const { initiation, risk, readRefundAccount, amountMinor } = parseConsent(body);
  const consent = state.addConsent({ bank: bank.slug, clientId: token.clientId, initiation, risk, readRefundAccount, amountMinor });
  state.remember(`${token.clientId}:consent`, key, body, consent.id);
  return sendSigned(context, bank, request, reply, 201, consentBody(context, bank, consent));
}

async function getConsent(context: UkContext, request: ConsentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const bank = bankOf(context, request.params.slug);
  const token = await gate(
    context,
    { request, reply, bank },
    'getDomesticPaymentConsent',
    () => context.state.peekConsent(request.params.consentId)?.payerId,
    { signed: false },
  );
  if (token === undefined) return reply;
  return sendSigned(
    context,
    bank,
    request,
    reply,
    200,
    consentBody(context, bank, ownConsent(context, bank, token, request.params.consentId)),
  );
}

async function confirmFunds(context: UkContext, request: ConsentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = bankOf(context, request.params.slug);
  const token = await gate(
    context,
    { request, reply, bank },
    'getFundsConfirmation',
    () => state.peekConsent(request.params.consentId)?.payerId,
    { signed: false },
  );
  if (token === undefined) return reply;
  const consent = ownConsent(context, bank, token, request.params.consentId);
  if (token.consentId !== consent.id)
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'Use the access token the payer granted for this consent', 403);
  if (consent.status !== 'AUTH' || consent.debtorAccountId === undefined || consent.paymentId !== undefined) {
    // The profile names U009 for a funds check on a consent that is not AUTH.
    throw new ObError(
      'UK.OBIE.Resource.ConsentMismatch',
      `Funds can only be confirmed on an AUTH consent (this one is ${consent.paymentId === undefined ? consent.status : 'consumed'})`,
    );
  }
  const balance = state.balance(consent.debtorAccountId) ?? 0n;
  return sendSigned(context, bank, request, reply, 200, {
    Data: { FundsAvailableResult: { FundsAvailableDateTime: iso(state.now()), FundsAvailable: balance >= consent.amountMinor } },
    Links: { Self: `${resourceBase(context, bank)}/domestic-payment-consents/${consent.id}/funds-confirmation` },
    Meta: {},
  });
}

// ---- payments ---------------------------------------------------------------------------------------------------

async function createPayment(context: UkContext, request: SlugRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = bankOf(context, request.params.slug);
  const consentIdInBody = isObject(request.body) && isObject(request.body['Data']) ? request.body['Data']['ConsentId'] : undefined;
  const token = await gate(
    context,
    { request, reply, bank },
    'createDomesticPayment',
    () => (typeof consentIdInBody === 'string' ? state.peekConsent(consentIdInBody)?.payerId : undefined),
    { signed: true },
  );
  if (token === undefined) return reply;
  if (token.consentId === undefined)
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'Use the access token the payer granted for the consent', 403);
  const key = idempotencyKey(request);
  const body: unknown = request.body;
  checkRequestBody('payment', body);
  const previous = state.idempotent(`${token.clientId}:payment`, key, body);
  if (previous?.kind === 'different')
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'The x-idempotency-key was used with a different body');
  if (previous?.kind === 'same') {
    const payment = state.payment(previous.resourceId);
    if (payment !== undefined) return sendSigned(context, bank, request, reply, 201, paymentBody(context, bank, payment));
  }
  const consent = consentOfPayment(context, bank, token, body);
  const payment = state.addPayment(consent);
  state.remember(`${token.clientId}:payment`, key, body, payment.id);
  return sendSigned(context, bank, request, reply, 201, paymentBody(context, bank, payment));
}

/** The authorised, unused consent a payment request names, with the same Initiation and Risk. */
function consentOfPayment(context: UkContext, bank: UkSandboxBank, token: AccessToken, body: unknown): Consent {
  if (!isObject(body) || !isObject(body['Data'])) throw new ObError('UK.OBIE.Field.Missing', 'Data is required', 400, 'Data');
  if (!isObject(body['Risk'])) throw new ObError('UK.OBIE.Field.Missing', 'Risk is required', 400, 'Risk');
  const data = body['Data'];
  if (typeof data['ConsentId'] !== 'string')
    throw new ObError('UK.OBIE.Field.Missing', 'Data.ConsentId is required', 400, 'Data.ConsentId');
  if (data['ConsentId'] !== token.consentId)
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'The token was granted for another consent', 400, 'Data.ConsentId');
  const consent = ownConsent(context, bank, token, data['ConsentId']);
  if (consent.status !== 'AUTH' || consent.paymentId !== undefined) {
    throw new ObError(
      'UK.OBIE.Resource.InvalidConsentStatus',
      `The consent is ${consent.paymentId === undefined ? consent.status : 'already used'}`,
      400,
      'Data.ConsentId',
    );
  }
  if (canonicalJson(data['Initiation']) !== canonicalJson(consent.initiation)) {
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation differs from the consent', 400, 'Data.Initiation');
  }
  if (canonicalJson(body['Risk']) !== canonicalJson(consent.risk)) {
    throw new ObError('UK.OBIE.Resource.ConsentMismatch', 'Risk differs from the consent', 400, 'Risk');
  }
  return consent;
}

async function getPayment(context: UkContext, request: PaymentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const bank = bankOf(context, request.params.slug);
  const token = await gate(
    context,
    { request, reply, bank },
    'getDomesticPayment',
    () => context.state.peekPayment(request.params.paymentId)?.payerId,
    { signed: false },
  );
  if (token === undefined) return reply;
  return sendSigned(
    context,
    bank,
    request,
    reply,
    200,
    paymentBody(context, bank, ownPayment(context, bank, token, request.params.paymentId)),
  );
}

async function getPaymentDetails(context: UkContext, request: PaymentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const bank = bankOf(context, request.params.slug);
  const token = await gate(
    context,
    { request, reply, bank },
    'getDomesticPaymentDetails',
    () => context.state.peekPayment(request.params.paymentId)?.payerId,
    { signed: false },
  );
  if (token === undefined) return reply;
  const payment = ownPayment(context, bank, token, request.params.paymentId);
  // RCVD is not a transfer status of the details resource; the transfer is pending until executed.
  const status = payment.status === 'RCVD' ? 'PDNG' : payment.status;
  return sendSigned(context, bank, request, reply, 200, {
    Data: {
      PaymentStatus: [
        {
          PaymentTransactionId: payment.id,
          Status: status,
          StatusUpdateDateTime: iso(payment.statusUpdatedAt),
          StatusDetail: {
            LocalInstrument: 'UK.OBIE.FPS',
            Status: status,
            ...(payment.reason === undefined
              ? {}
              : { StatusReason: payment.reason.StatusReasonCode, StatusReasonDescription: payment.reason.StatusReasonDescription }),
          },
        },
      ],
    },
    Links: { Self: `${resourceBase(context, bank)}/domestic-payments/${payment.id}/payment-details` },
    Meta: {},
  });
}

/**
 * The parts of a consent request the bank acts on, checked as the profile asks (GBP only, FPS only, sort code and
 * account number or IBAN). The rest of the Initiation is kept verbatim and echoed.
 */
function parseConsent(body: unknown): {
  initiation: Initiation;
  risk: Body;
  readRefundAccount: 'Yes' | 'No' | undefined;
  amountMinor: bigint;
} {
  if (!isObject(body) || !isObject(body['Data'])) throw new ObError('UK.OBIE.Field.Missing', 'Data is required', 400, 'Data');
  if (!isObject(body['Risk'])) throw new ObError('UK.OBIE.Field.Missing', 'Risk is required', 400, 'Risk');
  const data = body['Data'];
  const initiation = data['Initiation'];
  if (!isObject(initiation)) throw new ObError('UK.OBIE.Field.Missing', 'Data.Initiation is required', 400, 'Data.Initiation');
  for (const name of ['InstructionIdentification', 'EndToEndIdentification'] as const) {
    const value = initiation[name];
    if (typeof value !== 'string' || value.length < 1 || value.length > 35) {
      throw new ObError(
        value === undefined ? 'UK.OBIE.Field.Missing' : 'UK.OBIE.Field.Invalid',
        `${name} must be 1–35 characters`,
        400,
        `Data.Initiation.${name}`,
      );
    }
  }
  const amount = initiation['InstructedAmount'];
  if (!isObject(amount) || typeof amount['Amount'] !== 'string' || typeof amount['Currency'] !== 'string') {
    throw new ObError('UK.OBIE.Field.Missing', 'InstructedAmount needs Amount and Currency', 400, 'Data.Initiation.InstructedAmount');
  }
  if (amount['Currency'] !== 'GBP')
    throw new ObError('UK.OBIE.Unsupported.Currency', 'Domestic payments are in GBP', 400, 'Data.Initiation.InstructedAmount.Currency');
  const amountMinor = /^\d{1,13}(\.\d{1,2})?$/.test(amount['Amount']) ? toMinor(amount['Amount'], 'GBP') : undefined;
  if (amountMinor === undefined || amountMinor <= 0n) {
    throw new ObError(
      'UK.OBIE.Field.Invalid',
      'Amount must be positive, with at most 2 decimals',
      400,
      'Data.Initiation.InstructedAmount.Amount',
    );
  }
  const localInstrument = initiation['LocalInstrument'];
  if (localInstrument !== undefined && localInstrument !== 'UK.OBIE.FPS') {
    throw new ObError('UK.OBIE.Unsupported.LocalInstrument', 'Only UK.OBIE.FPS is offered', 400, 'Data.Initiation.LocalInstrument');
  }
  checkAccount(initiation['CreditorAccount'], 'Data.Initiation.CreditorAccount', true);
  if (initiation['DebtorAccount'] !== undefined) checkAccount(initiation['DebtorAccount'], 'Data.Initiation.DebtorAccount', false);
  const readRefundAccount = data['ReadRefundAccount'];
  if (readRefundAccount !== undefined && readRefundAccount !== 'Yes' && readRefundAccount !== 'No') {
    throw new ObError('UK.OBIE.Field.Invalid', 'ReadRefundAccount must be Yes or No', 400, 'Data.ReadRefundAccount');
  }
  return { initiation: initiation as Initiation, risk: body['Risk'], readRefundAccount, amountMinor };
}

function checkAccount(account: unknown, path: string, nameRequired: boolean): void {
  if (!isObject(account)) throw new ObError('UK.OBIE.Field.Missing', `${path} is required`, 400, path);
  const { SchemeName: scheme, Identification: identification, Name: name } = account;
  if (typeof identification !== 'string')
    throw new ObError('UK.OBIE.Field.Missing', 'Identification is required', 400, `${path}.Identification`);
  if (nameRequired && (typeof name !== 'string' || name.length === 0 || name.length > 350)) {
    throw new ObError('UK.OBIE.Field.Missing', 'Name is required', 400, `${path}.Name`);
  }
  if (scheme === 'UK.OBIE.SortCodeAccountNumber') {
    if (!/^\d{14}$/.test(identification))
      throw new ObError(
        'UK.OBIE.Unsupported.AccountIdentifier',
        'A sort code and account number is 14 digits',
        400,
        `${path}.Identification`,
      );
  } else if (scheme === 'UK.OBIE.IBAN') {
    if (!isValidIBAN(identification))
      throw new ObError('UK.OBIE.Unsupported.AccountIdentifier', 'Not a valid IBAN', 400, `${path}.Identification`);
  } else {
    throw new ObError(
      'UK.OBIE.Unsupported.Scheme',
      'SchemeName must be UK.OBIE.SortCodeAccountNumber or UK.OBIE.IBAN',
      400,
      `${path}.SchemeName`,
    );
  }
}
