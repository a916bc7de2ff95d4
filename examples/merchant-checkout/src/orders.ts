/**
 * The shop's products and orders, in memory (a real shop keeps them in its database). Prices are minor units
 * (cents) so totals are exact.
 */
import { randomUUID } from 'node:crypto';
import type { PaymentStatus } from '@openpis/sdk';

export interface Product {
  readonly id: string;
  readonly name: string;
  readonly priceCents: number;
}

export const PRODUCTS: readonly Product[] = [
  { id: 'mug', name: 'Coffee mug', priceCents: 1250 },
  { id: 'beans', name: 'Coffee beans, 500 g', priceCents: 1490 },
  { id: 'filter', name: 'Paper filters (100)', priceCents: 399 },
];

export interface OrderLine {
  readonly product: Product;
  readonly quantity: number;
}

/**
 * - `cart`: not paid for yet;
 * - `awaiting-payment`: a payment was created; the payer is at the bank, or came back and the bank has not confirmed;
 * - `paid`: openpis reported COMPLETED; `failed`: openpis reported FAILED (the payer may try again).
 */
export type OrderState = 'cart' | 'awaiting-payment' | 'paid' | 'failed';

export interface Order {
  readonly id: string;
  readonly lines: readonly OrderLine[];
  readonly totalCents: number;
  state: OrderState;
  /** The current payment attempt's id at openpis. */
  paymentId?: string;
  /** The failure code openpis gave, for the customer's page. */
  failure?: string;
}

export class Orders {
  private readonly byId = new Map<string, Order>();
  private readonly byPaymentId = new Map<string, Order>();
  /** Webhook ids already handled: webhooks arrive at least once. */
  private readonly seenWebhooks = new Set<string>();

  /** An order of the chosen quantities (product id → quantity); undefined when nothing was chosen. */
  create(quantities: Readonly<Record<string, number>>): Order | undefined {
    const lines = PRODUCTS.flatMap((product) => {
      const quantity = quantities[product.id] ?? 0;
      return quantity > 0 ? [{ product, quantity }] : [];
    });
    if (lines.length === 0) return undefined;
    const order: Order = {
      id: randomUUID(),
      lines,
      totalCents: lines.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0),
      state: 'cart',
    };
    this.byId.set(order.id, order);
    return order;
  }

  get(orderId: string): Order | undefined {
    return this.byId.get(orderId);
  }

  byPayment(paymentId: string): Order | undefined {
    return this.byPaymentId.get(paymentId);
  }

  startPayment(order: Order, paymentId: string): void {
    order.paymentId = paymentId;
    order.state = 'awaiting-payment';
    delete order.failure;
    this.byPaymentId.set(paymentId, order);
  }

  /** Applies a status read from openpis (API or verified webhook) to the order paying with `paymentId`. */
  applyStatus(paymentId: string, status: PaymentStatus, failureCodes: readonly string[]): void {
    const order = this.byPaymentId.get(paymentId);
    // A status of an earlier attempt no longer speaks for the order.
    if (order === undefined || order.paymentId !== paymentId || order.state === 'paid') return;
    if (status === 'COMPLETED') order.state = 'paid';
    else if (status === 'FAILED') {
      order.state = 'failed';
      order.failure = failureCodes.join(', ');
    }
    // Any other value, known or new, is not final: the order keeps waiting.
  }

  /** Whether a webhook id is new (and marks it seen). */
  firstDelivery(webhookId: string): boolean {
    if (this.seenWebhooks.has(webhookId)) return false;
    this.seenWebhooks.add(webhookId);
    return true;
  }
}
