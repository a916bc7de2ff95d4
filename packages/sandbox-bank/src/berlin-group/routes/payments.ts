/**
 * Payment initiation: `POST /v1/payments/{product}`, the payment, its status, and cancellation by the TPP.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromMinor, toMinor } from '../../shared/money.js';
import { productCurrency, type SandboxBankDefinition } from '../banks.js';
import { admit, bankUrl, header, requireBank, type BankContext } from '../context.js';
import { Xs2aError } from '../errors.js';
import type { PaymentData, Payment } from '../state.js';
import { checkPaymentBody } from '../xs2a-bodies.js';
import { initiationLinks } from '../sca-answers.js';
import {
  accountReference,
  checkProduct,
  findPayment,
  identifyAtCreation,
  isJsonRequest,
  parseBody,
  psuOf,
  resourcePath,
  scaRequest,
  sendJson,
} from '../xs2a-support.js';

interface PaymentParams {
  slug: string;
  product: string;
  paymentId: string;
}
type InitiationRequest = FastifyRequest<{ Params: Pick<PaymentParams, 'slug' | 'product'> }>;
type PaymentRequest = FastifyRequest<{ Params: PaymentParams }>;

export function registerPaymentRoutes(app: FastifyInstance, context: BankContext): void {
  app.post<{ Params: Pick<PaymentParams, 'slug' | 'product'> }>('/:slug/v1/payments/:product', (request, reply) =>
    initiatePayment(context, request, reply),
  );
  app.get<{ Params: PaymentParams }>('/:slug/v1/payments/:product/:paymentId', (request, reply) => getPayment(context, request, reply));
  app.get<{ Params: PaymentParams }>('/:slug/v1/payments/:product/:paymentId/status', (request, reply) =>
    getPaymentStatus(context, request, reply),
  );
  app.delete<{ Params: PaymentParams }>('/:slug/v1/payments/:product/:paymentId', (request, reply) =>
    cancelPayment(context, request, reply),
  );
}

async function initiatePayment(context: BankContext, request: InitiationRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { state } = context;
  const bank = requireBank(context, request.params.slug);
  if (!(await admit(context, request, reply, bank, 'initiatePayment', psuOf(request)))) return reply;
  checkProduct(bank, request.params.product);
  if (!isJsonRequest(request)) return reply.code(415).send();
  requirePsuIp(request);
  const data = paymentData(bank, request.params.product, request.body);
  const sca = scaRequest(context, request, bank);
  const currency = data.instructedAmount.currency;
  if (
    sca.psuId !== undefined &&
    state.payer(sca.psuId) !== undefined &&
    !state.payer(sca.psuId)?.accounts.some((account) => account.currency === currency)
  ) {
    throw new Xs2aError('PRODUCT_INVALID', `The payer has no account for ${request.params.product} in ${currency}`);
  }
  const payment = state.addPayment({ bank: bank.slug, product: request.params.product, data, ...sca });
  identifyAtCreation(context, payment, sca);
  const links = initiationLinks(context, request, bank, payment);
  return sendJson(
    reply,
    201,
    { transactionStatus: payment.status, paymentId: payment.id, _links: links },
    {
      Location: bankUrl(context, bank, resourcePath(payment)),
      'ASPSP-SCA-Approach': sca.approach,
      ...subscribeToNotifications(context, request, bank, payment),
    },
  );
}

/** The TPP's notification address for the payment, when it gave one: the bank's answer headers about it. */
export function subscribeToNotifications(
  context: BankContext,
  request: FastifyRequest,
  bank: SandboxBankDefinition,
  payment: Payment,
): Record<string, string> {
  return context.notifier.subscribe(
    bank,
    payment,
    header(request, 'TPP-Notification-URI'),
    header(request, 'TPP-Notification-Content-Preferred'),
  );
}

function requirePsuIp(request: FastifyRequest): void {
  const ip = header(request, 'PSU-IP-Address');
  if (ip === undefined) throw new Xs2aError('FORMAT_ERROR', 'PSU-IP-Address header is missing');
  if (!/^[0-9.]{7,15}$|^[0-9a-fA-F:.]{2,45}$/.test(ip)) throw new Xs2aError('FORMAT_ERROR', 'PSU-IP-Address is not an IP address');
}

/** The payment as the bank holds it, from the body checked against the bank's products, currencies and limits. */
function paymentData(bank: SandboxBankDefinition, product: string, requestBody: unknown): PaymentData {
  const body = parseBody(checkPaymentBody, requestBody);
  const currency = body.instructedAmount.currency;
  const expectedCurrency = productCurrency(product);
  if ((expectedCurrency !== undefined && currency !== expectedCurrency) || !bank.currencies.includes(currency)) {
    throw new Xs2aError('FORMAT_ERROR', `instructedAmount.currency ${currency} is not possible for ${product}`, {
      path: 'instructedAmount.currency',
    });
  }
  const amountMinor = toMinor(body.instructedAmount.amount, currency);
  if (amountMinor === undefined || amountMinor <= 0n) {
    throw new Xs2aError('FORMAT_ERROR', "instructedAmount.amount must be positive with at most the currency's decimals", {
      path: 'instructedAmount.amount',
    });
  }
  const debtorAccount = body.debtorAccount === undefined ? undefined : accountReference(body.debtorAccount, 'debtorAccount');
  if (debtorAccount === undefined && bank.requiresDebtorAccount) {
    throw new Xs2aError('FORMAT_ERROR', 'debtorAccount is required by this bank', { path: 'debtorAccount' });
  }
  const creditorAccount = accountReference(body.creditorAccount, 'creditorAccount');
  const remittance = body.remittanceInformationUnstructured;
  if (remittance !== undefined && remittance.length > bank.remittanceMaxLength) {
    throw new Xs2aError('FORMAT_ERROR', `remittanceInformationUnstructured is longer than ${bank.remittanceMaxLength} characters`, {
      path: 'remittanceInformationUnstructured',
    });
  }
  return {
    instructedAmount: { currency, amount: fromMinor(amountMinor, currency) },
    amountMinor,
    debtorAccount,
    creditorAccount,
    creditorName: body.creditorName,
    creditorAddress: body.creditorAddress,
    creditorAgent: body.creditorAgent,
    remittanceInformationUnstructured: remittance,
    endToEndIdentification: body.endToEndIdentification,
  };
}

/** The payment the path names, once the call is admitted (request id, signature, faults); undefined when a fault took the answer. */
async function admittedPaymentCall(
  context: BankContext,
  request: PaymentRequest,
  reply: FastifyReply,
  operation: 'getPayment' | 'getPaymentStatus' | 'cancelPayment',
): Promise<Payment | undefined> {
  const bank = requireBank(context, request.params.slug);
  if (!(await admit(context, request, reply, bank, operation, psuOf(request, context.state.peekPayment(request.params.paymentId)))))
    return undefined;
  return findPayment(context, bank, request.params.product, request.params.paymentId);
}

async function getPayment(context: BankContext, request: PaymentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const payment = await admittedPaymentCall(context, request, reply, 'getPayment');
  if (payment === undefined) return reply;
  const { data, debtorIban } = payment;
  return sendJson(reply, 200, {
    ...(data.endToEndIdentification === undefined ? {} : { endToEndIdentification: data.endToEndIdentification }),
    ...(debtorIban === undefined
      ? {}
      : {
          debtorAccount: {
            iban: debtorIban,
            ...(data.debtorAccount?.currency === undefined ? {} : { currency: data.debtorAccount.currency }),
          },
        }),
    instructedAmount: data.instructedAmount,
    creditorAccount: data.creditorAccount,
    ...(data.creditorAgent === undefined ? {} : { creditorAgent: data.creditorAgent }),
    creditorName: data.creditorName,
    ...(data.creditorAddress === undefined ? {} : { creditorAddress: data.creditorAddress }),
    ...(data.remittanceInformationUnstructured === undefined
      ? {}
      : { remittanceInformationUnstructured: data.remittanceInformationUnstructured }),
    transactionStatus: payment.status,
  });
}

async function getPaymentStatus(context: BankContext, request: PaymentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const payment = await admittedPaymentCall(context, request, reply, 'getPaymentStatus');
  if (payment === undefined) return reply;
  const body: Record<string, unknown> = { transactionStatus: payment.status };
  if (payment.status === 'ACTC')
    body['fundsAvailable'] =
      payment.debtorIban !== undefined && (context.state.balance(payment.debtorIban) ?? 0n) >= payment.data.amountMinor;
  if (payment.reason !== undefined && (payment.status === 'RJCT' || payment.status === 'CANC')) {
    body['psuMessage'] = payment.reason.text;
    body['tppMessages'] = [{ category: 'ERROR', code: payment.reason.code, text: payment.reason.text }];
  }
  // 1.3.12's owner names, "only delivered after successful SCA": the debtor account's holder.
  const owner =
    payment.authorisedAt === undefined || payment.debtorIban === undefined ? undefined : context.state.accountOwner(payment.debtorIban);
  if (owner !== undefined) body['ownerNames'] = [{ name: owner.name, role: 'owner' }];
  return sendJson(reply, 200, body);
}

async function cancelPayment(context: BankContext, request: PaymentRequest, reply: FastifyReply): Promise<FastifyReply> {
  const payment = await admittedPaymentCall(context, request, reply, 'cancelPayment');
  if (payment === undefined) return reply;
  if (!context.state.cancelPayment(payment)) {
    throw new Xs2aError('CANCELLATION_INVALID', `A payment in status ${payment.status} can no longer be cancelled`);
  }
  return reply.code(204).send();
}
