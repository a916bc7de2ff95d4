/**
 * The payer's pages as one encapsulated plugin: the front door, our assets, the payer's steps and our return
 * addresses for the banks. Hidden from the API document. Its error handler is its own (src/hosted/error-handler.ts):
 * the payer sees our pages, never a JSON error body. See docs/hosted-pages.md.
 */
import type { ClientBrandingStore } from '../branding/client-branding.js';
import type { OperatorIdentity } from '../config/config.js';
import type { FlowEngine } from '../flow/engine.js';
import type { HandoverStore } from '../flow/handovers.js';
import type { AppPlugin } from '../http/root-plugin.js';
import { sendInvalidLink } from './answers.js';
import { assetRoutes } from './assets/routes.js';
import { hostedErrorHandler } from './error-handler.js';
import { frontDoorRoutes } from './front-door/routes.js';
import { handoverRoutes } from './handover/routes.js';
import { PayerPages } from './payer-pages.js';
import { returnRoutes } from './return/routes.js';
import { stepRoutes } from './step-routes.js';
import type { PaymentRetries } from './step.js';

export interface HostedPagesOptions {
  readonly engine: FlowEngine;
  readonly baseUrl: string;
  /** Clients' branding: the merchant on every page, and the logos we serve. */
  readonly branding: ClientBrandingStore;
  /** The operator of this service, as payers see it (config `OPERATOR_*`). */
  readonly operator: OperatorIdentity;
  /** The sandbox banks' index, linked from the front door (undefined: none to show). */
  readonly sandboxBankUrl?: string;
  /** The operators' console, linked from the front door once there is one. */
  readonly consoleUrl?: string;
  /** "Pay with another bank" on the outcome of a failure another bank could avoid (src/hosted/outcome/step.ts). */
  readonly retries?: PaymentRetries;
  /** Desktop to phone hand-overs (the QR code on a desktop's pages); absent: not offered. */
  readonly handovers?: HandoverStore;
  /** The banks failing now (the console's "Failing now"): marked and sorted last in the bank list. */
  readonly failingBanks?: () => Promise<ReadonlySet<string>>;
}

export const hostedPagesPlugin: AppPlugin<HostedPagesOptions> = async (scope, options) => {
  const { engine, baseUrl, branding, operator } = options;
  // A request a route's schema refuses gets the page of an unknown link, unless the route's part says otherwise.
  scope.setErrorHandler(hostedErrorHandler(operator, (request, reply) => sendInvalidLink(request, reply, operator)));

  const { handovers, failingBanks, retries } = options;
  const pages = new PayerPages(engine, branding, operator, {
    baseUrl,
    ...(handovers === undefined ? {} : { handovers }),
    ...(failingBanks === undefined ? {} : { failingBanks }),
    ...(retries === undefined ? {} : { retries }),
  });
  await scope.register(assetRoutes, { branding, operator });
  if (handovers !== undefined) await scope.register(handoverRoutes, { pages, handovers, operator, baseUrl });
  await scope.register(stepRoutes, { pages, operator, baseUrl });
  await scope.register(frontDoorRoutes, { sandboxBankUrl: options.sandboxBankUrl, consoleUrl: options.consoleUrl });
  await scope.register(returnRoutes, { pages, operator });
};
