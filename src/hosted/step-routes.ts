/**
 * The payer's steps: `GET /pay/:flowToken` shows the page of the payment's current step (or sends the payer back to
 * the shop once the flow has left the payer's hands), `POST /pay/:flowToken/:action` takes the payer's input, and
 * `GET /pay/:flowToken/status` is what a waiting page's script asks. The steps themselves are in
 * src/hosted/payer-steps.ts.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { OperatorIdentity } from '../config/config.js';
import type { Payment } from '../domain/payment.js';
import { isWaiting } from '../flow/engine.js';
import { flowStateOf } from '../flow/flow-state.js';
import type { AppPlugin } from '../http/root-plugin.js';
import { isSupportedLocale } from '../i18n/locale.js';
import { actorOf, queryText, requestLocale, sendExpiredForm, sendInvalidLink } from './answers.js';
import { hostedErrorHandler } from './error-handler.js';
import { flowIsOverForPayer } from './outcome/step.js';
import { actionHandler, CANCEL_ACTION } from './payer-steps.js';
import { liveViewOf, type PayerPages } from './payer-pages.js';
import { FlowTokenParams, PayerPageQuery, PostedForm, StepActionParams, UnreadQuery } from './schemas.js';
import { csrfValid, pageHeaders, sameOriginPost, setPayerCookie } from './security.js';

export interface StepRoutesOptions {
  readonly pages: PayerPages;
  readonly operator: OperatorIdentity;
  /** Our origin: a form is taken only when posted from it. */
  readonly baseUrl: string;
}

/** The largest form a step takes (a login, a code, an IBAN, with the CSRF token). */
const FORM_LIMIT_BYTES = 16 * 1024;

/** Whether a request is a browser's navigation (it asks for HTML), not our script's fetch (JSON). */
function asksForPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || request.headers['sec-fetch-dest'] === 'document';
}

/** The answer of a waiting page's script for a link it cannot follow (JSON: it is read by the script). */
function sendUnknownLinkStatus(request: FastifyRequest, reply: FastifyReply, operator: OperatorIdentity): FastifyReply {
  if (asksForPage(request)) return sendInvalidLink(request, reply, operator);
  return pageHeaders(reply).code(404).send({ title: 'Not Found', statusCode: 404, message: 'Unknown payment link' });
}

/** 403 for a form that is not of the payer's current page: no or another page's CSRF token, or posted from elsewhere. */
function refuseForm(
  request: FastifyRequest,
  reply: FastifyReply,
  operator: OperatorIdentity,
  payment: Payment,
  action: string,
): FastifyReply {
  request.log.warn({ paymentId: payment.id, action }, 'hosted form refused: missing or wrong CSRF token, or cross-site post');
  return sendExpiredForm(
    reply,
    payment.locale !== null && isSupportedLocale(payment.locale) ? payment.locale : requestLocale(request),
    operator,
  );
}

export const stepRoutes: AppPlugin<StepRoutesOptions> = async (scope, { pages, operator, baseUrl }) => {
  const { engine } = pages;

  // A malformed link is an unknown one. A body that is not a form (a JSON list, say) is a form without our token: the
  // link is well formed by then (the path is checked before the body), so the answer is the one the handler gives.
  scope.setErrorHandler(
    hostedErrorHandler(operator, async (request: FastifyRequest, reply: FastifyReply, error: FastifyError) => {
      if (error.validationContext !== 'body') return sendInvalidLink(request, reply, operator);
      const { flowToken, action } = request.params as Static<typeof StepActionParams>;
      const payment = await engine.loadByFlowToken(flowToken);
      return payment === undefined ? sendInvalidLink(request, reply, operator) : refuseForm(request, reply, operator, payment, action);
    }),
  );

  // What a waiting page's script asks every two seconds: the payer's view now (step and status), nothing else. A
  // waiting payment is looked at the bank first, as a page load does.
  scope.get(
    '/pay/:flowToken/status',
    {
      schema: { hide: true, params: FlowTokenParams, querystring: UnreadQuery },
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Fastify waits on the reply an error handler returns (its types say void)
      errorHandler: hostedErrorHandler(operator, (request, reply) => sendUnknownLinkStatus(request, reply, operator)),
    },
    async (request, reply) => {
      // Opened in the address bar (a browser asks for HTML first): the payment's page, never the script's JSON.
      if (asksForPage(request)) return pageHeaders(reply).code(303).header('Location', `/pay/${request.params.flowToken}`).send();
      let payment = await engine.loadByFlowToken(request.params.flowToken);
      if (payment === undefined) return sendUnknownLinkStatus(request, reply, operator);
      if (isWaiting(payment)) payment = await engine.refresh(payment, actorOf(request));
      const step = await pages.stepFor(request, payment);
      return pageHeaders(reply)
        .code(200)
        .send({ view: liveViewOf(step.name, payment) });
    },
  );

  scope.get('/pay/:flowToken', { schema: { hide: true, params: FlowTokenParams, querystring: PayerPageQuery } }, async (request, reply) => {
    const payment = await engine.loadByFlowToken(request.params.flowToken);
    if (payment === undefined) return sendInvalidLink(request, reply, operator);
    const lang = queryText(request, 'lang');
    if (lang !== undefined && isSupportedLocale(lang) && lang !== payment.locale && !flowIsOverForPayer(payment)) {
      // The payer's choice is remembered for the payment (and so for every later page).
      return pages.show(request, reply, await engine.updatePage(payment, { locale: lang }));
    }
    return pages.show(request, reply, payment);
  });

  // A payer's address bar never shows JSON: an action's address opened with GET (a reload after a post, a copied
  // link, a new tab) shows the payment's current page, except "cancel", which asks the payer to confirm first.
  scope.get(
    '/pay/:flowToken/:action',
    { schema: { hide: true, params: StepActionParams, querystring: UnreadQuery } },
    async (request, reply) => {
      const { flowToken, action } = request.params;
      const payment = await engine.loadByFlowToken(flowToken);
      if (payment === undefined) return sendInvalidLink(request, reply, operator);
      // A desktop whose flow a phone took over only follows the payment: it is offered no cancel.
      if (action === CANCEL_ACTION && !flowIsOverForPayer(payment) && !(await pages.takenOverElsewhere(request, payment)))
        return pages.showCancelConfirmation(request, reply, payment);
      return pageHeaders(reply).code(303).header('Location', `/pay/${flowToken}`).send();
    },
  );

  // Any other address under /pay/ (a link cut short or with more after it) is an unknown link: a page, never JSON.
  scope.get('/pay/*', { schema: { hide: true, querystring: UnreadQuery } }, async (request, reply) =>
    sendInvalidLink(request, reply, operator),
  );
  scope.get('/pay', { schema: { hide: true, querystring: UnreadQuery } }, async (request, reply) =>
    sendInvalidLink(request, reply, operator),
  );

  scope.post(
    '/pay/:flowToken/:action',
    { schema: { hide: true, params: StepActionParams, querystring: UnreadQuery, body: PostedForm }, bodyLimit: FORM_LIMIT_BYTES },
    async (request, reply) => {
      const { flowToken, action } = request.params;
      const payment = await engine.loadByFlowToken(flowToken);
      if (payment === undefined) return sendInvalidLink(request, reply, operator);
      const form = request.body ?? {};
      if (!sameOriginPost(request, baseUrl) || !csrfValid(flowStateOf(payment).page?.key, action, form['csrf']))
        return refuseForm(request, reply, operator, payment, action);
      // Once a phone took the flow over, this browser only follows the payment: its page again, taking nothing.
      if (await pages.takenOverElsewhere(request, payment)) return pages.show(request, reply, payment, { status: 409 });
      const handler = actionHandler(pages.stepInput(request, payment), action);
      if (handler === undefined) return sendInvalidLink(request, reply, operator);
      const field = (name: string): string | undefined => {
        const value = form[name];
        return typeof value === 'string' ? value : undefined;
      };
      const outcome = await handler({
        ...pages.stepInput(request, payment),
        form: field,
        actor: actorOf(request),
        remember: (cookie) => setPayerCookie(reply, cookie, baseUrl.startsWith('https:')),
      });
      return pages.answer(request, reply, outcome);
    },
  );
};
