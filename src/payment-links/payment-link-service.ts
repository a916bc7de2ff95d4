/** Creating payment links, reading them back for their client, and deactivating them (docs/api-decisions.md). */
import { randomBytes } from 'node:crypto';
import type { AuthenticatedClient } from '../auth/authenticated-client.js';
import { newRecordId } from '../domain/ids.js';
import { toJsonNumber } from '../domain/money.js';
import type { PaymentLink, PaymentLinkStatus } from '../domain/payment-link.js';
import type { LinkListPosition, PaymentLinkStore } from '../flow/payment-link-store.js';
import { ApiError } from '../http/errors.js';
import type { PaymentLinkResource } from './schemas.js';
import type { ValidPaymentLinkRequest } from './validation.js';

/** The payer's address of a link: a page of ours under an unguessable slug. */
export function paymentLinkUrl(baseUrl: string, link: Pick<PaymentLink, 'slug'>): string {
  return `${baseUrl}/link/${link.slug}`;
}

/** The link resource as the API answers it. */
export function paymentLinkView(link: PaymentLink, baseUrl: string): PaymentLinkResource {
  return {
    paymentLinkId: link.id,
    url: paymentLinkUrl(baseUrl, link),
    status: link.status,
    reference: link.reference,
    reusable: link.reusable,
    amount: toJsonNumber(link.amount),
    currency: link.currency,
    remittance: link.remittance.value,
    recipientName: link.recipient.name,
    expiresAt: link.expiresAt,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
    paymentCount: link.paymentCount,
    ...(link.paidByPaymentId === null ? {} : { paymentId: link.paidByPaymentId }),
  };
}

export class PaymentLinkService {
  constructor(
    private readonly links: PaymentLinkStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(client: Pick<AuthenticatedClient, 'clientId' | 'environment'>, valid: ValidPaymentLinkRequest): Promise<PaymentLink> {
    const { request, payment } = valid;
    const at = this.now().toISOString();
    const link: PaymentLink = {
      id: newRecordId(),
      clientId: client.clientId,
      environment: client.environment,
      // 128 random bits: unguessable, short enough for a QR code a phone reads at a glance.
      slug: randomBytes(16).toString('base64url'),
      reference: request.reference,
      reusable: valid.reusable,
      status: 'ACTIVE',
      amount: payment.amount,
      currency: request.currency,
      paymentScheme: request.paymentScheme.name,
      schemeMode: request.paymentScheme.preferences?.mode ?? null,
      feePaidBy: request.paymentScheme.preferences?.feePaidBy ?? null,
      recipient: payment.request.recipient,
      remittance: {
        type: request.remittanceInformation.type,
        value: payment.remittance,
        truncate: request.remittanceInformation.preferences?.truncate === true,
      },
      redirectUri: request.metadata.redirectUri,
      webhookUrl: request.metadata.webhookUrl ?? null,
      providerId: payment.bank?.id ?? null,
      providerPreferences: request.provider?.preferences ?? null,
      openPaymentId: null,
      paymentCount: 0,
      paidByPaymentId: null,
      expiresAt: valid.expiresAt,
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    if ((await this.links.create(link)) === 'duplicate') {
      throw new ApiError(409, `A payment link with reference ${JSON.stringify(link.reference)} already exists`);
    }
    return link;
  }

  /** The client's link as it is now (an ACTIVE one past its expiresAt is expired first). */
  async get(client: Pick<AuthenticatedClient, 'clientId'>, id: string): Promise<PaymentLink> {
    const link = await this.links.findForClient(client.clientId, id);
    if (link === undefined) throw new ApiError(404, `Payment link ${id} not found`);
    return this.links.current(link);
  }

  async list(
    client: Pick<AuthenticatedClient, 'clientId'>,
    filter: { readonly statuses?: readonly PaymentLinkStatus[]; readonly reference?: string },
    limit: number,
    position: LinkListPosition | undefined,
  ): Promise<PaymentLink[]> {
    return this.links.listForClient(client.clientId, filter, limit, position);
  }

  /** ACTIVE → DEACTIVATED; again on a DEACTIVATED link answers it as it is; a PAID or EXPIRED link is 409. */
  async deactivate(client: Pick<AuthenticatedClient, 'clientId'>, id: string): Promise<PaymentLink> {
    const link = await this.links.close(await this.get(client, id), 'DEACTIVATED');
    if (link.status === 'DEACTIVATED') return link;
    throw new ApiError(409, `Payment link ${id} is ${link.status} and cannot be deactivated`);
  }
}
