/** Creating payments and reading them back for their client. */
import type { JobSchedule } from '../jobs/job-kinds.js';
import { newRecordId } from '../domain/ids.js';
import { topLevelStatus } from '../domain/detailed-status.js';
import { freshFlow, type FreshFlow } from '../domain/fresh-flow.js';
import { retryEndToEndId } from '../domain/retry.js';
import { payerMayRetryWithAnotherBank } from '../flow/retry.js';
import { ApiError, ValidationError } from '../http/errors.js';
import type { AuthenticatedClient } from '../auth/authenticated-client.js';
import { recipientAccountOfPayer, type Payment, type SenderDetails, type StatusRecord } from '../domain/payment.js';
import type { PaymentListFilter, PaymentListPosition, PaymentRepository, RefundSummary } from './payment-repository.js';
import type { ValidPaymentRequest } from './validation.js';
import type { RefundCreationRequest } from './refund-schemas.js';
import { normalisedDecimalString, toDecimalString } from '../domain/money.js';

export interface CreatedPayment {
  readonly payment: Payment;
  readonly firstStatus: StatusRecord;
}

/** What "pay with another bank" did (PaymentService.retryWithAnotherBank). */
export type RetryResult = { readonly kind: 'created' | 'existing'; readonly payment: Payment } | { readonly kind: 'refused' };

/**
 * Why a payment cannot be refunded (409). Each is the start of the answer's `message`, a stable code a program can
 * test, followed by words for people (docs/api-decisions.md, "Refunds").
 */
export type RefundRefusal =
  'PAYMENT_NOT_COMPLETED' | 'PAYMENT_IS_A_REFUND' | 'PAYER_ACCOUNT_UNKNOWN' | 'PAYER_NAME_UNKNOWN' | 'REFUND_EXCEEDS_REMAINING';

function refused(reason: RefundRefusal, explanation: string): ApiError {
  return new ApiError(409, `${reason}: ${explanation}`);
}

/** Who sent the refund request: the PSU's IP address and user agent until the approver's browser shows up. */
export interface RefundRequester {
  readonly ipAddress: string;
  readonly userAgent: string;
}

export interface PaymentServiceOptions {
  readonly baseUrl: string;
  readonly flowDeadlineSeconds: number;
  readonly now?: () => Date;
}

/** The payer's entry into the flow (src/flow/redirect-url.ts). */
export { redirectUrlOf } from '../flow/redirect-url.js';

export class PaymentService {
  private readonly now: () => Date;

  constructor(
    private readonly payments: PaymentRepository,
    private readonly options: PaymentServiceOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * `runAfter`: the flow runs within the creation request (credentials in it); the payment is created with the
   * bank-status job due when that run's lease would end, so a process that dies before the run's first commit leaves
   * it with work due (docs/state-machine.md, "No payment without a future").
   */
  async create(
    client: AuthenticatedClient,
    valid: ValidPaymentRequest,
    locale: string | undefined,
    runAfter?: JobSchedule,
  ): Promise<CreatedPayment> {
    const { request } = valid;
    const now = this.now();
    // Credentials never reach storage (decisions §7): login id and password are dropped here; when they came
    // with the request, the route hands them to the flow engine for the bank calls of this same request.
    const { credentials: _credentials, ...senderRest } = request.sender ?? {};
    const sender: SenderDetails | null = request.sender === undefined ? null : senderRest;
    const payment: Payment = {
      id: newRecordId(),
      clientId: client.clientId,
      environment: client.environment,
      endToEndId: request.metadata.endToEndId,
      mode: valid.mode,
      providerId: valid.bank?.id ?? null,
      providerPreferences: request.provider?.preferences ?? null,
      paymentScheme: request.paymentScheme.name,
      schemeMode: request.paymentScheme.preferences?.mode ?? null,
      feePaidBy: request.paymentScheme.preferences?.feePaidBy ?? null,
      amount: valid.amount,
      currency: request.currency,
      sender,
      recipient: request.recipient,
      remittance: {
        type: request.remittanceInformation.type,
        value: valid.remittance,
        truncate: request.remittanceInformation.preferences?.truncate === true,
      },
      redirectUri: request.metadata.redirectUri,
      webhookUrl: request.metadata.webhookUrl ?? null,
      psuIpAddress: request.metadata.psuIpAddress,
      psuUserAgent: request.metadata.psuUserAgent,
      locale: locale ?? null,
      ...this.freshFlow(valid.mode, now),
      retryOf: null,
      // Hosted mode offers another bank after a failure another bank could avoid unless the client said no; custom
      // mode (the client chose the bank) only when the client asked for it.
      retryAllowed: request.metadata.retryWithAnotherBank ?? valid.mode === 'hosted',
      refundOf: null,
      paymentLinkId: null,
    };
    // The expiry job is born with the payment, so an abandoned flow fails even if the payer never shows up.
    const result = await this.payments.create(payment, [
      { kind: 'flow-expiry', runAt: payment.flowExpiresAt },
      ...(runAfter === undefined ? [] : [runAfter]),
    ]);
    if (result.kind === 'duplicate') {
      throw new ApiError(409, `A payment with endToEndId ${JSON.stringify(payment.endToEndId)} already exists`);
    }
    return { payment, firstStatus: result.firstStatus };
  }

  /**
   * The payer's "pay with another bank" after `failed` failed for a reason another bank could avoid
   * (src/domain/retry.ts): a new hosted-mode payment back at bank selection with the failed one's amount, recipient,
   * remittance, return and webhook addresses and language, linked to it (`retryOf`) under an end-to-end id derived
   * from its own. Never the payer's credentials (none are stored) nor the sending account, which was at the bank
   * that failed. At most one retry per failed payment: a second call, concurrent or later, answers the retry made
   * first (`existing`). `refused`: the payment may not be retried, or the derived end-to-end id is one the client
   * used for a payment of its own.
   */
  async retryWithAnotherBank(failed: Payment): Promise<RetryResult> {
    if (!payerMayRetryWithAnotherBank(failed)) return { kind: 'refused' };
    const earlier = await this.payments.findRetryOf(failed.clientId, failed.id);
    if (earlier !== undefined) return { kind: 'existing', payment: earlier };
    const now = this.now();
    const payment: Payment = {
      ...failed,
      id: newRecordId(),
      endToEndId: retryEndToEndId(failed),
      mode: 'hosted',
      providerId: null,
      sender: failed.sender?.address === undefined ? null : { address: failed.sender.address },
      ...this.freshFlow('hosted', now),
      retryOf: failed.id,
      retryAllowed: failed.retryAllowed,
      // Refunds are never retried (they are created with retryAllowed false): a retry is not a refund, so it never
      // escapes the refunds' sum rule (docs/api-decisions.md, "Refunds").
      refundOf: null,
      // A retry of a link's payment is the link's too: its completion pays the link.
      paymentLinkId: failed.paymentLinkId,
    };
    return this.payments.createRetry(payment, [{ kind: 'flow-expiry', runAt: payment.flowExpiresAt }]);
  }

  /**
   * A refund of the client's completed payment `paymentId` (docs/api-decisions.md, "Refunds"): a hosted-mode payment
   * from the merchant's account (the original's recipient, as the refund's sender account) to the payer's account as
   * the bank told it, in the original's currency and scheme, for the merchant's approver to authorise at their bank
   * through our pages. 404 for another client's payment; 409 with the reason when it cannot be refunded, or when the
   * amount (by default all that is left) is more than is left; the sum rule is kept by the repository's insert.
   */
  async refund(
    client: AuthenticatedClient,
    paymentId: string,
    request: RefundCreationRequest,
    requester: RefundRequester,
    locale: string | undefined,
  ): Promise<CreatedPayment> {
    const original = await this.get(client, paymentId);
    if (original.refundOf !== null) {
      throw refused(
        'PAYMENT_IS_A_REFUND',
        `payment ${original.id} is itself a refund (of ${original.refundOf}); refund the original payment`,
      );
    }
    const status = topLevelStatus(original.detailedStatus);
    if (status !== 'COMPLETED') {
      throw refused(
        'PAYMENT_NOT_COMPLETED',
        `payment ${original.id} is ${status} (${original.detailedStatus}); only a COMPLETED payment can be refunded`,
      );
    }
    const payer = original.payer;
    if (payer === null) {
      throw refused(
        'PAYER_ACCOUNT_UNKNOWN',
        `the bank of payment ${original.id} did not tell the account the payer paid from, so there is no account to refund to`,
      );
    }
    const merchantAccount = original.recipient.account.number;
    // Only a refund is paid to an account other than an IBAN, and a refund is not refunded (above).
    if (merchantAccount.type === 'SORT_CODE_ACCOUNT_NUMBER')
      throw new Error(`Payment ${original.id} is not a refund but is paid to no IBAN`);
    const payerName = payer.name ?? request.payerName;
    if (payerName === undefined) {
      throw refused(
        'PAYER_NAME_UNKNOWN',
        `the bank of payment ${original.id} did not name the payer's account holder: send payerName, the name the refund is paid to`,
      );
    }
    const requestedAmount = request.amount === undefined ? undefined : refundAmount(request.amount, original.currency);
    // Every account a bank tells (an IBAN, a UK sort code and account number) can be paid to: the bank list of a refund
    // to a UK account offers only banks that pay to one (src/flow/steps/provider-selection.ts).
    const payerAccount = recipientAccountOfPayer(payer.account);
    const result = await this.payments.createRefund(original, requestedAmount, (amount) => {
      const now = this.now();
      const refund: Payment = {
        id: newRecordId(),
        clientId: client.clientId,
        environment: client.environment,
        endToEndId: request.metadata.endToEndId,
        mode: 'hosted',
        providerId: null,
        providerPreferences: null,
        paymentScheme: original.paymentScheme,
        schemeMode: original.schemeMode,
        feePaidBy: original.feePaidBy,
        amount,
        currency: original.currency,
        // The merchant's account the original was paid into is the account the refund is paid from.
        sender: { account: { number: merchantAccount, currency: original.currency } },
        // The payer's address is not known: a refund's recipient has none (banks do not need one within SEPA or for
        // Faster Payments).
        recipient: { account: { number: payerAccount }, name: payerName },
        remittance: { type: 'UNSTRUCTURED', value: request.reference, truncate: false },
        redirectUri: request.metadata.redirectUri,
        webhookUrl: request.metadata.webhookUrl ?? null,
        // Until the approver opens the refund's page, whose browser then replaces them (src/hosted/payer-pages.ts):
        // no bank is called before that.
        psuIpAddress: requester.ipAddress,
        psuUserAgent: requester.userAgent,
        locale: locale ?? null,
        ...this.freshFlow('hosted', now),
        retryOf: null,
        // A failed refund is not retried with another bank: the approver asks for a new refund, whose insert checks
        // the sum again.
        retryAllowed: false,
        refundOf: original.id,
        paymentLinkId: null,
      };
      return { refund, jobs: [{ kind: 'flow-expiry', runAt: refund.flowExpiresAt }] };
    });
    switch (result.kind) {
      case 'created':
        return { payment: result.refund, firstStatus: result.firstStatus };
      case 'duplicate':
        throw new ApiError(409, `A payment with endToEndId ${JSON.stringify(request.metadata.endToEndId)} already exists`);
      case 'exceeds-remaining':
        throw refused(
          'REFUND_EXCEEDS_REMAINING',
          `${result.remaining} ${original.currency} is left to refund of payment ${original.id} (${original.amount} ${original.currency} less its refunds not failed)`,
        );
    }
  }

  /** The fresh flow of a payment made now (src/domain/fresh-flow.ts), with this service's flow deadline. */
  private freshFlow(mode: Payment['mode'], now: Date): FreshFlow {
    return freshFlow(mode, now, this.options.flowDeadlineSeconds);
  }

  /** For each of the client's payments given, its refunds, oldest first (`refunds` of the resource). */
  async refundsOf(client: AuthenticatedClient, paymentIds: readonly string[]): Promise<ReadonlyMap<string, readonly RefundSummary[]>> {
    return this.payments.refundsOf(client.clientId, paymentIds);
  }

  /** For each of the client's payments given, the retry made from it, if any (`retriedBy` of the resource). */
  async retriesOf(client: AuthenticatedClient, paymentIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    return this.payments.retriesOf(client.clientId, paymentIds);
  }

  async get(client: AuthenticatedClient, paymentId: string): Promise<Payment> {
    const payment = await this.payments.findForClient(paymentId, client.clientId);
    if (payment === undefined) throw paymentNotFound(paymentId);
    return payment;
  }

  /** A page of the client's own payments, newest first; another client's payments are never read. */
  async list(
    client: AuthenticatedClient,
    filter: PaymentListFilter,
    limit: number,
    position: PaymentListPosition | undefined,
  ): Promise<Payment[]> {
    return this.payments.listForClient(client.clientId, filter, limit, position);
  }

  async history(client: AuthenticatedClient, paymentId: string): Promise<StatusRecord[]> {
    const history = await this.payments.historyForClient(paymentId, client.clientId);
    if (history.length === 0) throw paymentNotFound(paymentId);
    return history;
  }

  async latest(client: AuthenticatedClient, paymentId: string): Promise<StatusRecord> {
    const latest = await this.payments.latestForClient(paymentId, client.clientId);
    if (latest === undefined) throw paymentNotFound(paymentId);
    return latest;
  }
}

/**
 * A refund's amount as an exact decimal string with the currency's minor-unit digits; 400 when it has more decimals
 * than the currency allows (the request's form was checked by validation).
 */
function refundAmount(amount: number | string, currency: string): string {
  const decimal =
    typeof amount === 'number'
      ? (() => {
          try {
            return toDecimalString(amount, currency);
          } catch {
            return undefined;
          }
        })()
      : normalisedDecimalString(amount, currency);
  if (decimal === undefined) throw new ValidationError([`amount must not have more decimals than ${currency} has`]);
  return decimal;
}

function paymentNotFound(paymentId: string): ApiError {
  return new ApiError(404, `Payment ${paymentId} not found`);
}

/** A status record as the API shows it. */
export function statusRecordView(record: StatusRecord) {
  return {
    id: record.id,
    paymentId: record.paymentId,
    status: topLevelStatus(record.detailedStatus),
    detailedStatus: record.detailedStatus,
    failureReasons: record.failureReasons === null ? null : [...record.failureReasons],
    createdAt: record.createdAt,
  };
}
