/**
 * Payment initiation: `POST /v1/payments/{product}` (and `/v1/bulk-payments/{product}` at banks that offer bulk
 * payments), the payment, its status, and cancellation by the TPP.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromMinor, toMinor } from '../../shared/money.js';
import { productCurrency, type SandboxBankDefinition } from '../banks.js';
import { admit, bankUrl, header, requireBank, type BankContext } from '../context.js';
import { Xs2aError } from '../errors.js';
import type { Payment, PaymentData, PaymentService, Transfer } from '../state.js';
import { checkBulkPaymentBody, checkPaymentBody, type PaymentBody } from '../xs2a-bodies.js';
import { initiationLinks } from '../sca-answers.js';
import {
  accountReference,
  checkProduct,
  findPayment,
  identifyAtCreation,
  isJsonRequest,
  parseBody,
  PAYMENT_SERVICES,
  psuOf,
  requireService,
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

/**
 * Single payments at every bank; bulk payments too, with the same behaviour, where the bank's catalogue entry says
 * `bulkPayments` (elsewhere their calls answer SERVICE_INVALID).
 */
export function registerPaymentRoutes(app: FastifyInstance, context: BankContext): void {
  for (const service of PAYMENT_SERVICES) {
    const base = `/:slug/v1/${service}/:product`;
    app.post<{ Params: Pick<PaymentParams, 'slug' | 'product'> }>(base, (request, reply) =>
      initiatePayment(context, service, request, reply),
    );
    app.get<{ Params: PaymentParams }>(`${base}/:paymentId`, (request, reply) => getPayment(context, service, request, reply));
    app.get<{ Params: PaymentParams }>(`${base}/:paymentId/status`, (request, reply) => getPaymentStatus(context, service, request, reply));
    app.delete<{ Params: PaymentParams }>(`${base}/:paymentId`, (request, reply) => cancelPayment(context, service, request, reply));
  }
}

async function initiatePayment(
  context: BankContext,
  service: PaymentService,
  request: InitiationRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { state } = context;
  const bank = requireBank(context, request.params.slug);
  requireService(bank, service);
  if (!(await admit(context, request, reply, bank, 'initiatePayment', psuOf(request), service))) return reply;
  checkProduct(bank, request.params.product);
  if (!isJsonRequest(request)) return reply.code(415).send();
  requirePsuIp(request);
  const data =
    service === 'bulk-payments'
      ? bulkPaymentData(bank, request.params.product, request.body)
      : singlePaymentData(bank, request.params.product, request.body);
  const sca = scaRequest(context, request, bank);
  const { currency } = data;
  if (
    sca.psuId !== undefined &&
    state.payer(sca.psuId) !== undefined &&
    !state.payer(sca.psuId)?.accounts.some((account) => account.currency === currency)
  ) {
    throw new Xs2aError('PRODUCT_INVALID', `The payer has no account for ${request.params.product} in ${currency}`);
  }
  const payment = state.addPayment({ bank: bank.slug, service, product: request.params.product, data, ...sca });
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

/** A single payment as the bank holds it, from the body checked against the bank's products, currencies and limits. */
function singlePaymentData(bank: SandboxBankDefinition, product: string, requestBody: unknown): PaymentData {
  const body = parseBody(checkPaymentBody, requestBody);
  const debtorAccount = body.debtorAccount === undefined ? undefined : accountReference(body.debtorAccount, 'debtorAccount');
  if (debtorAccount === undefined && bank.requiresDebtorAccount) {
    throw new Xs2aError('FORMAT_ERROR', 'debtorAccount is required by this bank', { path: 'debtorAccount' });
  }
  const only = transfer(bank, product, body, '');
  return { transfers: [only], currency: only.instructedAmount.currency, amountMinor: only.amountMinor, debtorAccount, bulk: undefined };
}

/**
 * A bulk payment as the bank holds it: the debtor account (the standard requires it) and every payment checked as a
 * single payment's body is, all in the one currency of the product.
 */
function bulkPaymentData(bank: SandboxBankDefinition, product: string, requestBody: unknown): PaymentData {
  const body = parseBody(checkBulkPaymentBody, requestBody);
  const debtorAccount = accountReference(body.debtorAccount, 'debtorAccount');
  const transfers = body.payments.map((element, index) => {
    // Fields of the bulk as a whole, which the standard forbids in its payments.
    for (const name of ['debtorAccount', 'requestedExecutionDate', 'requestedExecutionTime']) {
      if (name in element) {
        throw new Xs2aError('FORMAT_ERROR', `payments[${index}].${name} is not allowed in a bulk payment's payments`, {
          path: `payments[${index}].${name}`,
        });
      }
    }
    return transfer(bank, product, element, `payments[${index}].`);
  });
  const currency = transfers[0]?.instructedAmount.currency ?? '';
  const other = transfers.findIndex((candidate) => candidate.instructedAmount.currency !== currency);
  if (other >= 0) {
    throw new Xs2aError('FORMAT_ERROR', 'The payments of a bulk must all be in one currency', {
      path: `payments[${other}].instructedAmount.currency`,
    });
  }
  return {
    transfers,
    currency,
    amountMinor: transfers.reduce((sum, { amountMinor }) => sum + amountMinor, 0n),
    debtorAccount,
    bulk: {
      batchBookingPreferred: body.batchBookingPreferred,
      debtorName: body.debtorName,
      requestedExecutionDate: body.requestedExecutionDate,
    },
  };
}

/** One transfer (a single payment, a bulk's payment `path` names), checked against the bank's products and limits. */
function transfer(
  bank: SandboxBankDefinition,
  product: string,
  body: PaymentBody | Omit<PaymentBody, 'debtorAccount'>,
  path: string,
): Transfer {
  const currency = body.instructedAmount.currency;
  const expectedCurrency = productCurrency(product);
  if ((expectedCurrency !== undefined && currency !== expectedCurrency) || !bank.currencies.includes(currency)) {
    throw new Xs2aError('FORMAT_ERROR', `${path}instructedAmount.currency ${currency} is not possible for ${product}`, {
      path: `${path}instructedAmount.currency`,
    });
  }
  const amountMinor = toMinor(body.instructedAmount.amount, currency);
  if (amountMinor === undefined || amountMinor <= 0n) {
    throw new Xs2aError('FORMAT_ERROR', `${path}instructedAmount.amount must be positive with at most the currency's decimals`, {
      path: `${path}instructedAmount.amount`,
    });
  }
  const creditorAccount = accountReference(body.creditorAccount, `${path}creditorAccount`);
  const remittance = body.remittanceInformationUnstructured;
  if (remittance !== undefined && remittance.length > bank.remittanceMaxLength) {
    throw new Xs2aError('FORMAT_ERROR', `${path}remittanceInformationUnstructured is longer than ${bank.remittanceMaxLength} characters`, {
      path: `${path}remittanceInformationUnstructured`,
    });
  }
  return {
    instructedAmount: { currency, amount: fromMinor(amountMinor, currency) },
    amountMinor,
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
  service: PaymentService,
  request: PaymentRequest,
  reply: FastifyReply,
  operation: 'getPayment' | 'getPaymentStatus' | 'cancelPayment',
): Promise<Payment | undefined> {
  const bank = requireBank(context, request.params.slug);
  requireService(bank, service);
  const psuId = psuOf(request, context.state.peekPayment(request.params.paymentId));
  if (!(await admit(context, request, reply, bank, operation, psuId, service))) return undefined;
  return findPayment(context, bank, service, request.params.product, request.params.paymentId);
}

async function getPayment(
  context: BankContext,
  service: PaymentService,
  request: PaymentRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const payment = await admittedPaymentCall(context, service, request, reply, 'getPayment');
  if (payment === undefined) return reply;
  const { data, debtorIban } = payment;
  const debtorAccount =
    debtorIban === undefined
      ? {}
      : {
          debtorAccount: {
            iban: debtorIban,
            ...(data.debtorAccount?.currency === undefined ? {} : { currency: data.debtorAccount.currency }),
          },
        };
  const [single] = data.transfers;
  if (data.bulk === undefined && single !== undefined) {
    return sendJson(reply, 200, {
      ...(single.endToEndIdentification === undefined ? {} : { endToEndIdentification: single.endToEndIdentification }),
      ...debtorAccount,
      ...transferFields(single),
      transactionStatus: payment.status,
    });
  }
  return sendJson(reply, 200, {
    ...(data.bulk?.batchBookingPreferred === undefined ? {} : { batchBookingPreferred: data.bulk.batchBookingPreferred }),
    ...(data.bulk?.requestedExecutionDate === undefined ? {} : { requestedExecutionDate: data.bulk.requestedExecutionDate }),
    ...debtorAccount,
    ...(data.bulk?.debtorName === undefined ? {} : { debtorName: data.bulk.debtorName }),
    payments: data.transfers.map((element) => ({
      ...(element.endToEndIdentification === undefined ? {} : { endToEndIdentification: element.endToEndIdentification }),
      ...transferFields(element),
    })),
    transactionStatus: payment.status,
  });
}

/** A transfer's fields as the payment resource shows them (after the end-to-end id and the debtor). */
function transferFields(element: Transfer): Record<string, unknown> {
  return {
    instructedAmount: element.instructedAmount,
    creditorAccount: element.creditorAccount,
    ...(element.creditorAgent === undefined ? {} : { creditorAgent: element.creditorAgent }),
    creditorName: element.creditorName,
    ...(element.creditorAddress === undefined ? {} : { creditorAddress: element.creditorAddress }),
    ...(element.remittanceInformationUnstructured === undefined
      ? {}
      : { remittanceInformationUnstructured: element.remittanceInformationUnstructured }),
  };
}

async function getPaymentStatus(
  context: BankContext,
  service: PaymentService,
  request: PaymentRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const payment = await admittedPaymentCall(context, service, request, reply, 'getPaymentStatus');
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

async function cancelPayment(
  context: BankContext,
  service: PaymentService,
  request: PaymentRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const payment = await admittedPaymentCall(context, service, request, reply, 'cancelPayment');
  if (payment === undefined) return reply;
  if (!context.state.cancelPayment(payment)) {
    throw new Xs2aError('CANCELLATION_INVALID', `A payment in status ${payment.status} can no longer be cancelled`);
  }
  return reply.code(204).send();
}
