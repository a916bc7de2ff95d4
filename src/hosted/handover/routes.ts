/**
 * The hand-over link of a desktop's QR code, `GET /pay/handover/:secret` (docs/hosted-pages.md, "Desktop to phone").
 * Its first use takes the payment's flow over (atomically, src/flow/handovers.ts): that browser gets a cookie marking
 * it for this payment's link and is sent on to the payment's page; the desktop only follows from then on. Every
 * later use, by any browser, gets a page saying the payment goes on on another device.
 */
import { Type } from 'typebox';
import type { OperatorIdentity } from '../../config/config.js';
import type { HandoverStore } from '../../flow/handovers.js';
import type { AppPlugin } from '../../http/root-plugin.js';
import { actorOf, requestLocale, sendInvalidLink, sendPage } from '../answers.js';
import { standalonePage } from '../layout/layout.js';
import { DEVICE_COOKIE, pageTranslator, type PayerPages } from '../payer-pages.js';
import { UnreadQuery } from '../schemas.js';
import { pageHeaders, setPayerCookie } from '../security.js';

export interface HandoverRoutesOptions {
  readonly pages: PayerPages;
  readonly handovers: HandoverStore;
  readonly operator: OperatorIdentity;
  readonly baseUrl: string;
}

const HandoverParams = Type.Object({ secret: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) });

/** How long the phone's browser is known as the one that took the flow over (the payer's part lasts far less). */
const DEVICE_COOKIE_MAX_AGE_SECONDS = 24 * 60 * 60;

export const handoverRoutes: AppPlugin<HandoverRoutesOptions> = async (scope, { pages, handovers, operator, baseUrl }) => {
  scope.get(
    '/pay/handover/:secret',
    { schema: { hide: true, params: HandoverParams, querystring: UnreadQuery } },
    async (request, reply) => {
      const result = await handovers.takeOver(request.params.secret);
      if (result.kind === 'invalid') return sendInvalidLink(request, reply, operator);
      const payment = await pages.engine.loadById(result.paymentId);
      if (payment === undefined) return sendInvalidLink(request, reply, operator);
      if (result.kind === 'used') {
        request.log.info({ paymentId: payment.id }, 'hand-over link used again: the payment goes on on another device');
        const locale = requestLocale(request);
        return sendPage(
          reply,
          409,
          standalonePage(locale, 'handover.usedHeading', 'handover.usedIntro', operator, pageTranslator(locale, payment)),
        );
      }
      actorOf(request).log.info({ paymentId: payment.id }, 'payer flow taken over on another device');
      setPayerCookie(
        reply,
        { name: DEVICE_COOKIE, value: result.device, path: `/pay/${payment.flowToken}`, maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS },
        baseUrl.startsWith('https:'),
      );
      return pageHeaders(reply).code(303).header('Location', `/pay/${payment.flowToken}`).send();
    },
  );
};
