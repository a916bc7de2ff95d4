/**
 * The XS2A API of every sandbox bank (Berlin Group NextGenPSD2 1.3.11): payment initiation with its authorisation
 * sub-resources, and the account-information subset needed to find a payer's accounts (consents, account list).
 * Each resource's routes are in routes/; what they share is in xs2a-support.ts and sca-answers.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { BankContext } from './context.js';
import { registerAccountRoutes } from './routes/accounts.js';
import { registerAuthorisationRoutes } from './routes/authorisations.js';
import { registerConsentRoutes } from './routes/consents.js';
import { registerPaymentRoutes } from './routes/payments.js';

export function registerXs2aRoutes(app: FastifyInstance, context: BankContext): void {
  registerPaymentRoutes(app, context);
  registerAuthorisationRoutes(app, context);
  registerConsentRoutes(app, context);
  registerAccountRoutes(app, context);
}
