/** Creating payments and reading them back for their client. */
import type { JobSchedule } from '../jobs/job-kinds.js';
import { randomBytes } from 'node:crypto';
import { newRecordId } from '../domain/ids.js';
import { topLevelStatus } from '../domain/detailed-status.js';
import { initialStatus } from '../domain/transitions.js';
import { ApiError } from '../http/errors.js';
import type { AuthenticatedClient } from '../auth/authenticated-client.js';
import type { Payment, SenderDetails, StatusRecord } from '../domain/payment.js';
import type { PaymentListFilter, PaymentListPosition, PaymentRepository } from './payment-repository.js';
import type { ValidPaymentRequest } from './validation.js';

export interface CreatedPayment {
  readonly payment: Payment;
  readonly firstStatus: StatusRecord;
}

export interface PaymentServiceOptions {
  readonly baseUrl: string;
  readonly flowDeadlineSeconds: number;
  readonly now?: () => Date;
}

/** The payer's entry into the flow: an unguessable link under our base URL. */
export function redirectUrlOf(baseUrl: string, payment: Pick<Payment, 'flowToken'>): string {
  return `${baseUrl}/pay/${payment.flowToken}`;
}

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
    const at = now.toISOString();
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
      flowToken: randomBytes(32).toString('base64url'),
      providerPaymentId: null,
      detailedStatus: initialStatus(valid.mode),
      failureReasons: null,
      version: 1,
      createdAt: at,
      updatedAt: at,
      flowExpiresAt: new Date(now.getTime() + this.options.flowDeadlineSeconds * 1000).toISOString(),
      flowState: null,
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
