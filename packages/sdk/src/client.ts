/**
 * The openpis client: one object per API client (client id and secret), safe to share across requests.
 */
import { OpenpisTimeoutError } from './errors.js';
import { errorOf, sleep, Transport, type ApiExchange, type TransportOptions } from './transport.js';
import {
  isFinalStatus,
  type CreatedPayment,
  type EventPage,
  type EventQuery,
  type FeedEvent,
  type Payment,
  type PaymentCreationRequest,
  type PaymentLink,
  type PaymentLinkCreationRequest,
  type PaymentLinkListQuery,
  type PaymentLinkPage,
  type PaymentListQuery,
  type PaymentPage,
  type PaymentStatusRecord,
  type Provider,
  type ProviderQuery,
  type RefundCreationRequest,
} from './types.js';

export type OpenpisClientOptions = TransportOptions;

export interface CallOptions {
  /** Cancels the call (and any wait between its retries). */
  readonly signal?: AbortSignal;
}

export interface CreatePaymentOptions extends CallOptions {
  /** `Accept-Language`: the first language of the payer's pages (ISO 639-1). */
  readonly acceptLanguage?: string;
}

export interface WaitOptions extends CallOptions {
  /** Give up after this many ms (default 15 minutes, the service's default flow deadline). */
  readonly timeoutMs?: number;
  /** Time between two reads of the payment in ms (default 2000). */
  readonly pollIntervalMs?: number;
}

export interface FollowOptions extends CallOptions {
  /** Keep polling for new events when caught up, until `signal` aborts (default false: stop when caught up). */
  readonly follow?: boolean;
  /** Time between two polls once caught up, in ms (default 2000). */
  readonly pollIntervalMs?: number;
}

/** Payment links: `client.paymentLinks.create(…)`, `.get(id)`, `.list(query)`, `.deactivate(id)`. */
export interface PaymentLinksApi {
  /**
   * Creates a payment link. Safe to call again after a lost answer is retried: when an earlier attempt may have reached
   * the service and a later one answers 409, the link that attempt created is looked up by `reference` and returned
   * (when its amount and currency match); otherwise the 409 is the caller's duplicate (`OpenpisConflictError`).
   */
  create(request: PaymentLinkCreationRequest, options?: CallOptions): Promise<PaymentLink>;
  /** The link with its current status. */
  get(paymentLinkId: string, options?: CallOptions): Promise<PaymentLink>;
  /** One page of this client's links, newest first. */
  list(query?: PaymentLinkListQuery, options?: CallOptions): Promise<PaymentLinkPage>;
  /** Deactivates an ACTIVE link (again: the same answer); a PAID or EXPIRED link throws `OpenpisConflictError`. */
  deactivate(paymentLinkId: string, options?: CallOptions): Promise<PaymentLink>;
}

export interface CreateRefundOptions extends CallOptions {
  /** `Accept-Language`: the first language of the approver's pages (ISO 639-1). */
  readonly acceptLanguage?: string;
}

/** Refunds of completed payments (`client.refunds.create(paymentId, body)`). */
export interface Refunds {
  /**
   * Refunds the completed payment `paymentId`: the answer is the refund, a payment with `refundOf`, whose
   * `redirectUrl` the merchant's approver opens to authorise it at their bank. Safe to call again after a lost answer
   * like `createPayment`: a 409 after an attempt that may have reached the service returns the refund that attempt
   * created (found by `metadata.endToEndId`). Other 409s (`message` begins with the reason, such as
   * `REFUND_EXCEEDS_REMAINING`) are `OpenpisConflictError`.
   */
  create(paymentId: string, request: RefundCreationRequest, options?: CreateRefundOptions): Promise<Payment>;
}

export class OpenpisClient {
  private readonly transport: Transport;
  readonly paymentLinks: PaymentLinksApi;
  /** Refunds of completed payments. */
  readonly refunds: Refunds;

  constructor(options: OpenpisClientOptions) {
    this.transport = new Transport(options);
    this.refunds = { create: (paymentId, request, callOptions) => this.createRefund(paymentId, request, callOptions ?? {}) };
    this.paymentLinks = {
      create: (request, callOptions = {}) => this.createPaymentLink(request, callOptions),
      get: async (paymentLinkId, callOptions = {}) =>
        (await this.get(`/api/v1/ob/payment-links/${encodeURIComponent(paymentLinkId)}`, {}, callOptions)) as PaymentLink,
      list: async (query = {}, callOptions = {}) =>
        (await this.get(
          '/api/v1/ob/payment-links',
          {
            status: query.status === undefined || query.status.length === 0 ? undefined : query.status.join(','),
            reference: query.reference,
            limit: query.limit === undefined ? undefined : String(query.limit),
            cursor: query.cursor,
          },
          callOptions,
        )) as PaymentLinkPage,
      deactivate: async (paymentLinkId, callOptions = {}) =>
        (
          await this.transport.callOk({
            method: 'POST',
            path: `/api/v1/ob/payment-links/${encodeURIComponent(paymentLinkId)}/deactivate`,
            signal: callOptions.signal,
          })
        ).body as PaymentLink,
    };
  }

  private async createPaymentLink(request: PaymentLinkCreationRequest, options: CallOptions): Promise<PaymentLink> {
    const exchange = await this.transport.call({ method: 'POST', path: '/api/v1/ob/payment-links', json: request, signal: options.signal });
    if (exchange.status === 201) return exchange.body as PaymentLink;
    if (exchange.status === 409 && exchange.earlierAttemptMayHaveBeenProcessed) {
      const page = await this.paymentLinks.list({ reference: request.reference, limit: 1 }, options);
      const found = page.items[0];
      if (found !== undefined && found.currency === request.currency && found.amount === request.amount) return found;
    }
    throw errorOf(exchange, undefined);
  }

  private async createRefund(paymentId: string, request: RefundCreationRequest, options: CreateRefundOptions): Promise<Payment> {
    const exchange = await this.transport.call({
      method: 'POST',
      path: `/api/v1/ob/payments/${encodeURIComponent(paymentId)}/refunds`,
      json: request,
      signal: options.signal,
      ...(options.acceptLanguage === undefined ? {} : { headers: { 'accept-language': options.acceptLanguage } }),
    });
    if (exchange.status === 201) return exchange.body as Payment;
    if (exchange.status === 409 && exchange.earlierAttemptMayHaveBeenProcessed) {
      const page = await this.listPayments(
        { endToEndId: request.metadata.endToEndId, limit: 1 },
        options.signal === undefined ? {} : { signal: options.signal },
      );
      const found = page.items[0];
      if (found !== undefined && found.refundOf === paymentId) return found;
    }
    throw errorOf(exchange, undefined);
  }

  /**
   * Creates a payment. Safe to call again after a lost answer is retried: when an earlier attempt of this call may
   * have reached the service (a network error, a timeout or a 503) and a later one answers 409, the payment that
   * attempt created is looked up by `endToEndId` and returned. A 409 on the first attempt, or one whose payment does
   * not match this request (amount, currency), is the caller's duplicate: `OpenpisConflictError`.
   */
  async createPayment(request: PaymentCreationRequest, options: CreatePaymentOptions = {}): Promise<CreatedPayment> {
    const exchange = await this.transport.call({
      method: 'POST',
      path: '/api/v1/ob/payments',
      json: request,
      signal: options.signal,
      ...(options.acceptLanguage === undefined ? {} : { headers: { 'accept-language': options.acceptLanguage } }),
    });
    if (exchange.status === 201) return exchange.body as CreatedPayment;
    if (exchange.status === 409 && exchange.earlierAttemptMayHaveBeenProcessed) {
      const ours = await this.paymentCreatedByEarlierAttempt(request, options.signal);
      if (ours !== undefined) return ours;
    }
    throw errorOf(exchange, undefined);
  }

  private async paymentCreatedByEarlierAttempt(
    request: PaymentCreationRequest,
    signal: AbortSignal | undefined,
  ): Promise<CreatedPayment | undefined> {
    const page = await this.listPayments({ endToEndId: request.metadata.endToEndId, limit: 1 }, signal === undefined ? {} : { signal });
    const found = page.items[0];
    if (found === undefined || found.currency !== request.currency || found.amount !== request.amount) return undefined;
    return {
      paymentId: found.paymentId,
      ...(found.providerPaymentId === undefined ? {} : { providerPaymentId: found.providerPaymentId }),
      redirectUrl: found.redirectUrl,
      createdAt: found.createdAt,
      updatedAt: found.updatedAt,
      status: found.status,
    };
  }

  /** The payment with its current status. */
  async getPayment(paymentId: string, options: CallOptions = {}): Promise<Payment> {
    return (await this.get(`/api/v1/ob/payments/${encodeURIComponent(paymentId)}`, {}, options)) as Payment;
  }

  /** Every status record of the payment, earliest first. */
  async getStatusHistory(paymentId: string, options: CallOptions = {}): Promise<PaymentStatusRecord[]> {
    return (await this.get('/api/v1/archive/payment-statuses', { paymentId }, options)) as PaymentStatusRecord[];
  }

  /** The payment's latest status record. */
  async getLatestStatus(paymentId: string, options: CallOptions = {}): Promise<PaymentStatusRecord> {
    return (await this.get('/api/v1/archive/payment-statuses/latest', { paymentId }, options)) as PaymentStatusRecord;
  }

  /** The banks available to this client (cache the list for about an hour; never hard-code provider ids). */
  async listProviders(query: ProviderQuery = {}, options: CallOptions = {}): Promise<Provider[]> {
    return (await this.get('/api/v1/capabilities/providers', { ...query }, options)) as Provider[];
  }

  /** One page of this client's payments, newest first. */
  async listPayments(query: PaymentListQuery = {}, options: CallOptions = {}): Promise<PaymentPage> {
    const list = (values: readonly string[] | undefined): string | undefined =>
      values === undefined || values.length === 0 ? undefined : values.join(',');
    const time = (value: string | Date | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);
    return (await this.get(
      '/api/v1/ob/payments',
      {
        status: list(query.status),
        detailedStatus: list(query.detailedStatus),
        providerId: query.providerId,
        endToEndId: query.endToEndId,
        createdFrom: time(query.createdFrom),
        createdTo: time(query.createdTo),
        limit: query.limit === undefined ? undefined : String(query.limit),
        cursor: query.cursor,
      },
      options,
    )) as PaymentPage;
  }

  /** Every payment matching `query`, newest first, page after page: `for await (const payment of client.payments())`. */
  async *payments(query: Omit<PaymentListQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Payment, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.listPayments({ ...query, ...(cursor === undefined ? {} : { cursor }) }, options);
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** One page of this client's event feed, oldest first. */
  async listEvents(query: EventQuery = {}, options: CallOptions = {}): Promise<EventPage> {
    return (await this.get(
      '/api/v1/events',
      { after: query.after, type: query.type, limit: query.limit === undefined ? undefined : String(query.limit) },
      options,
    )) as EventPage;
  }

  /**
   * The event feed page by page from `after`, with the cursor to store once a page is handled (resume from it after
   * a restart). Stops when caught up, unless `follow` is set.
   */
  async *eventPages(query: EventQuery = {}, options: FollowOptions = {}): AsyncGenerator<EventPage, void, undefined> {
    let after = query.after;
    for (;;) {
      const page = await this.listEvents({ ...query, ...(after === undefined ? {} : { after }) }, options);
      if (page.items.length > 0) yield page;
      after = page.nextCursor;
      if (page.items.length === 0) {
        if (options.follow !== true) return;
        await sleep(options.pollIntervalMs ?? 2000, options.signal);
      }
    }
  }

  /** Every event from `after`, oldest first: `for await (const event of client.events())`. */
  async *events(query: EventQuery = {}, options: FollowOptions = {}): AsyncGenerator<FeedEvent, void, undefined> {
    for await (const page of this.eventPages(query, options)) yield* page.items;
  }

  /**
   * Reads the payment until its status is final (`COMPLETED` or `FAILED`) and returns it. Throws
   * {@link OpenpisTimeoutError} (with the payment as last seen) when `timeoutMs` passes first, and the signal's
   * reason when it is aborted. A redirect back from the bank proves nothing; this (or a webhook) does.
   */
  async waitForFinalStatus(paymentId: string, options: WaitOptions = {}): Promise<Payment> {
    const timeoutMs = options.timeoutMs ?? 15 * 60_000;
    const deadline = Date.now() + timeoutMs;
    let lastSeen: Payment | undefined;
    for (;;) {
      lastSeen = await this.getPayment(paymentId, options);
      if (isFinalStatus(lastSeen.status)) return lastSeen;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new OpenpisTimeoutError(
          `Payment ${paymentId} was not final within ${timeoutMs} ms (last status ${lastSeen.detailedStatus})`,
          lastSeen,
        );
      await sleep(Math.min(options.pollIntervalMs ?? 2000, left), options.signal);
    }
  }

  private async get(path: string, query: Record<string, string | undefined>, options: CallOptions): Promise<unknown> {
    const exchange: ApiExchange = await this.transport.callOk({ method: 'GET', path, query, signal: options.signal });
    return exchange.body;
  }
}
