/**
 * An example shop paying by bank through openpis with `@openpis/sdk`: a cart, "Pay by bank" creating a payment,
 * the redirect to openpis's pages, verified webhooks, and a success page shown only once openpis reports the
 * payment COMPLETED. The payer coming back to the shop proves nothing (anyone can open that address), so the order
 * page reads the status from openpis and shows "confirming" until it is final.
 */
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { OpenpisError, OpenpisWebhookVerificationError, WebhookVerifier, type OpenpisClient } from '@openpis/sdk';
import { Orders, PRODUCTS, type Order } from './orders.js';
import { cartPage, notFoundPage, orderPage, productsPage, STYLES } from './pages.js';

export interface ShopOptions {
  readonly openpis: OpenpisClient;
  /** openpis's address: its payment pages are where "Pay by bank" sends the customer. */
  readonly openpisUrl: string;
  /** The shop's own public address (where the customer comes back to). */
  readonly shopUrl: string;
  /** The client's `whsec_…` secret; without it the webhook endpoint answers 404 and the shop reads the API only. */
  readonly webhookSecret?: string | undefined;
  /** The URL openpis should send webhooks to (`metadata.webhookUrl`); omit on a laptop and use `openpis listen`. */
  readonly webhookUrl?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function buildShop(options: ShopOptions): FastifyInstance {
  const orders = new Orders();
  const verifier = options.webhookSecret === undefined ? undefined : new WebhookVerifier(options.webhookSecret);
  const openpisOrigin = new URL(options.openpisUrl).origin;
  const app = Fastify({ logger: false });

  app.register(formbody);
  // Webhooks are verified over the exact bytes received, so JSON is kept as text (the shop takes JSON nowhere else).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addHook('onSend', async (_request, reply) => {
    // No script, nothing from other hosts; forms post to the shop, whose "Pay by bank" answer redirects to openpis.
    reply.header(
      'content-security-policy',
      `default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' ${openpisOrigin}; base-uri 'none'; frame-ancestors 'none'`,
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
  });

  const html = (reply: FastifyReply, body: string, status = 200): FastifyReply =>
    reply.code(status).type('text/html; charset=utf-8').send(body);
  const orderOf = (id: string): Order | undefined => (UUID.test(id) ? orders.get(id) : undefined);

  app.get('/styles.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLES));
  app.get('/', async (_request, reply) => html(reply, productsPage(PRODUCTS)));

  app.post('/cart', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const quantities: Record<string, number> = {};
    for (const product of PRODUCTS) {
      const value = form[product.id];
      if (typeof value !== 'string' || !/^[0-9]$/.test(value)) return html(reply, productsPage(PRODUCTS), 400);
      quantities[product.id] = Number(value);
    }
    const order = orders.create(quantities);
    if (order === undefined) return html(reply, productsPage(PRODUCTS), 400);
    return reply.redirect(`/orders/${order.id}`, 303);
  });

  app.post<{ Params: { orderId: string } }>('/orders/:orderId/pay', async (request, reply) => {
    const order = orderOf(request.params.orderId);
    if (order === undefined) return html(reply, notFoundPage(), 404);
    if (order.state === 'paid' || order.state === 'awaiting-payment') return reply.redirect(`/orders/${order.id}`, 303);
    try {
      const payment = await options.openpis.createPayment(
        {
          paymentScheme: { name: 'SEPA' },
          recipient: {
            account: { number: { type: 'IBAN', value: 'DE89370400440532013000' } },
            name: 'Example Shop GmbH',
            address: { country: 'DE', city: 'Berlin', streetName: 'Unter den Linden', buildingNumber: '77', postCode: '10117' },
          },
          amount: order.totalCents / 100,
          currency: 'EUR',
          remittanceInformation: { type: 'UNSTRUCTURED', value: `Order ${order.id.slice(0, 8)}` },
          metadata: {
            redirectUri: `${options.shopUrl}/orders/${order.id}/return`,
            psuIpAddress: psuIpAddressOf(request.ip),
            psuUserAgent: (request.headers['user-agent'] ?? 'unknown').slice(0, 1024),
            // One per payment attempt: a customer who tries again pays with a new payment.
            endToEndId: `${order.id.replaceAll('-', '')}-${Date.now().toString(36)}`,
            ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl }),
          },
        },
        request.headers['accept-language'] === undefined ? {} : { acceptLanguage: request.headers['accept-language'].slice(0, 2) },
      );
      orders.startPayment(order, payment.paymentId);
      return reply.redirect(payment.redirectUrl, 303);
    } catch (error) {
      if (!(error instanceof OpenpisError)) throw error;
      request.log.error({ err: error }, 'payment creation failed');
      return html(reply, cartPage(order, 'Paying by bank is not available right now. Please try again in a moment.'), 502);
    }
  });

  // Where openpis sends the customer back. It proves nothing about the payment: show the order, which asks openpis.
  app.get<{ Params: { orderId: string } }>('/orders/:orderId/return', async (request, reply) => {
    const order = orderOf(request.params.orderId);
    if (order === undefined) return html(reply, notFoundPage(), 404);
    return reply.redirect(`/orders/${order.id}`, 303);
  });

  app.get<{ Params: { orderId: string } }>('/orders/:orderId', async (request, reply) => {
    const order = orderOf(request.params.orderId);
    if (order === undefined) return html(reply, notFoundPage(), 404);
    if (order.state === 'awaiting-payment' && order.paymentId !== undefined) {
      try {
        const payment = await options.openpis.getPayment(order.paymentId);
        orders.applyStatus(
          payment.paymentId,
          payment.status,
          (payment.failureReasons ?? []).map((reason) => reason.code),
        );
      } catch (error) {
        // openpis not answering now: the page keeps "confirming" and asks again on its next reload.
        if (!(error instanceof OpenpisError)) throw error;
        request.log.warn({ err: error }, 'payment status read failed');
      }
    }
    if (order.state === 'awaiting-payment') reply.header('refresh', '1');
    return html(reply, orderPage(order));
  });

  app.post('/webhooks', async (request, reply) => {
    if (verifier === undefined) return reply.code(404).send();
    let webhook;
    try {
      webhook = verifier.verify(typeof request.body === 'string' ? request.body : '', request.headers);
    } catch (error) {
      if (error instanceof OpenpisWebhookVerificationError) return reply.code(400).send();
      throw error;
    }
    if (orders.firstDelivery(webhook.id) && webhook.event.type === 'payment.status.updated') {
      const { data } = webhook.event;
      orders.applyStatus(
        data.paymentId,
        data.status,
        (data.failureReasons ?? []).map((reason) => reason.code),
      );
    }
    return reply.code(204).send();
  });

  return app;
}

/**
 * openpis wants the payer's address as four IPv4 octets or eight full IPv6 groups (no `::`): IPv4-mapped IPv6
 * addresses become IPv4, and `::` is expanded.
 */
export function psuIpAddressOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].join(':');
}
