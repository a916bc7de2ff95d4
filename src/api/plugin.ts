/**
 * The API as one encapsulated plugin: the OAuth token endpoint, the providers, payments and event feed endpoints, the
 * API document, and health and readiness. Its errors answer with the spec's error body (src/http/errors.ts) in its
 * own scope; the authenticated client is a decoration of its requests only. A worker-only process
 * (PROCESS_ROLE=worker) serves health and readiness alone.
 */
import type { Authenticator } from '../auth/authenticate.js';
import { registerTokenRoute } from '../auth/token-route.js';
import type { TokenService } from '../auth/tokens.js';
import type { FlowEngine } from '../flow/engine.js';
import type { CursorCodec } from '../http/cursor.js';
import { sendError } from '../http/errors.js';
import type { AppPlugin } from '../http/root-plugin.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Metrics } from '../observability/metrics.js';
import { registerObservabilityRoutes } from '../observability/routes.js';
import { registerBankNotificationRoutes } from '../payments/bank-notification-routes.js';
import { registerEventFeedRoutes } from '../payments/event-feed-routes.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { PaymentLinkService } from '../payment-links/payment-link-service.js';
import { registerPaymentLinkRoutes } from '../payment-links/routes.js';
import { registerPaymentRoutes } from '../payments/routes.js';
import type { CatalogueView } from '../providers/catalogue.js';
import { registerProviderRoutes } from '../providers/routes.js';
import type { DatabaseHandle } from '../storage/database.js';
import type { EventFeed } from '../webhooks/event-feed.js';

export interface ApiPluginOptions {
  /** false in a worker-only process: health and readiness only. */
  readonly servesClients: boolean;
  readonly baseUrl: string;
  readonly catalogue: CatalogueView;
  readonly auth: Authenticator;
  readonly tokens: TokenService;
  readonly payments: PaymentService;
  readonly paymentLinks: PaymentLinkService;
  /** The clock (a link's default and latest expiry). */
  readonly now: () => Date;
  readonly events: EventFeed;
  readonly flow: FlowEngine;
  readonly cursors: CursorCodec;
  readonly metrics: Metrics;
  /** Webhook URLs may name private addresses (config `WEBHOOKS_ALLOW_PRIVATE_TARGETS`, development only). */
  readonly allowPrivateWebhookTargets: boolean;
  /** Readiness reads the database. */
  readonly database: DatabaseHandle;
  /** Limits the banks' status notifications per source address. */
  readonly bankNotificationLimiter: RateLimiter;
}

export const apiPlugin: AppPlugin<ApiPluginOptions> = async (api, options) => {
  api.setErrorHandler(sendError);
  // The client a bearer token authenticated (src/auth/authenticate.ts); null until a route's scope check sets it.
  api.decorateRequest('client', null);

  if (options.servesClients) {
    const { auth, catalogue, baseUrl, cursors } = options;
    registerTokenRoute(api, options.tokens);
    registerProviderRoutes(api, { auth, catalogue, baseUrl });
    registerPaymentRoutes(api, {
      auth,
      payments: options.payments,
      catalogue,
      baseUrl,
      metrics: options.metrics,
      flow: options.flow,
      allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
      cursors,
    });
    registerPaymentLinkRoutes(api, {
      auth,
      links: options.paymentLinks,
      catalogue,
      baseUrl,
      cursors,
      allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
      now: options.now,
    });
    registerEventFeedRoutes(api, { auth, events: options.events, cursors });
    registerBankNotificationRoutes(api, { flow: options.flow, rateLimiter: options.bankNotificationLimiter });
    api.get('/openapi.json', { schema: { hide: true } }, async () => api.swagger());
  }
  registerObservabilityRoutes(api, { database: options.database, metrics: options.metrics });
};
