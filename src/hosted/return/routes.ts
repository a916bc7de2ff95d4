/**
 * Our return addresses for the bank's redirect: `/pay/return/:paymentId/:secret`, given to the bank with one payment
 * (GET, or POST for banks that post their answer as a form), and `/pay/return`, our one fixed address for banks that
 * accept only registered redirect URIs (the payment is found by `state`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { BankReturn } from '../../connectors/index.js';
import type { OperatorIdentity } from '../../config/config.js';
import { REGISTERED_RETURN_PATH } from '../../flow/steps/callback.js';
import type { AppPlugin } from '../../http/root-plugin.js';
import { actorOf, queryText, sendInvalidLink } from '../answers.js';
import { hostedErrorHandler } from '../error-handler.js';
import type { PayerPages } from '../payer-pages.js';
import { BankAnswerQuery, PaymentReturnParams, PostedForm } from '../schemas.js';
import { pageHeaders } from '../security.js';
import { FRAGMENT_RETURN_CSP, fragmentReturnPage } from './page.js';

export interface ReturnRoutesOptions {
  readonly pages: PayerPages;
  readonly operator: OperatorIdentity;
}

/** Longest value of a bank's return we pass on (tokens of OAuth answers fit well within it). */
const MAX_RETURN_VALUE_LENGTH = 8192;

/** The largest answer a bank may post (a form with an ID token and an authorisation code). */
const RETURN_FORM_LIMIT_BYTES = 64 * 1024;

/** The string parameters of a query or a form (repeated or non-string ones are not a bank's answer: dropped). */
function stringParameters(source: unknown, ours: readonly string[] = []): Record<string, string> {
  const result: Record<string, string> = {};
  if (typeof source !== 'object' || source === null) return result;
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string' && value.length <= MAX_RETURN_VALUE_LENGTH && !ours.includes(name)) result[name] = value;
  }
  return result;
}

/**
 * The bank's answer for the engine: the query and the form, without our own `result` marker of the "not OK"
 * address (which only the per-payment callback has).
 */
function bankReturnOf(request: FastifyRequest, withNokMarker: boolean): BankReturn {
  return {
    query: stringParameters(request.query, withNokMarker ? ['result'] : []),
    form: request.method === 'POST' ? stringParameters(request.body) : {},
    nok: withNokMarker && queryText(request, 'result') === 'nok',
  };
}

/** An unknown, forged or used return: the invalid link page, and a warning for the operator. */
function refuseReturn(
  request: FastifyRequest,
  reply: FastifyReply,
  operator: OperatorIdentity,
  paymentId: string | undefined,
): FastifyReply {
  request.log.warn({ paymentId }, 'bank callback refused: unknown, forged or already used');
  return sendInvalidLink(request, reply, operator);
}

export const returnRoutes: AppPlugin<ReturnRoutesOptions> = async (scope, { pages, operator }) => {
  const { engine } = pages;
  // A malformed return address is refused like an unknown one.
  scope.setErrorHandler(hostedErrorHandler(operator, (request, reply) => refuseReturn(request, reply, operator, undefined)));

  // The bank sends the payer's browser here; some banks post their answer as a form (`response_mode=form_post`),
  // from their own site: the single-use secret in the path, not a CSRF token, is what makes the request ours.
  const perPaymentReturn = async (
    request: FastifyRequest<{ Params: Static<typeof PaymentReturnParams> }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> => {
    const { paymentId, secret } = request.params;
    const outcome = await engine.bankReturn(paymentId, secret, bankReturnOf(request, true), actorOf(request));
    if (outcome === undefined) return refuseReturn(request, reply, operator, paymentId);
    return pages.answer(request, reply, outcome);
  };
  const perPaymentSchema = { hide: true, params: PaymentReturnParams, querystring: BankAnswerQuery };
  scope.get('/pay/return/:paymentId/:secret', { schema: perPaymentSchema }, perPaymentReturn);
  scope.post(
    '/pay/return/:paymentId/:secret',
    { schema: { ...perPaymentSchema, body: PostedForm }, bodyLimit: RETURN_FORM_LIMIT_BYTES },
    perPaymentReturn,
  );

  // The fixed return URL: the `state` we gave the bank (kept in what the connector reads: the standard checks it)
  // names the payment. Without one in the query the answer is in the URL fragment, which only the browser sees:
  // a page posts it back here.
  const registeredReturn = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const returned = bankReturnOf(request, false);
    const state = request.method === 'POST' ? returned.form['state'] : returned.query['state'];
    if (state === undefined && request.method === 'GET') {
      return pageHeaders(reply)
        .header('Content-Security-Policy', FRAGMENT_RETURN_CSP)
        .code(200)
        .type('text/html; charset=utf-8')
        .send(fragmentReturnPage());
    }
    const outcome = state === undefined ? undefined : await engine.bankReturnByState(state, returned, actorOf(request));
    if (outcome === undefined) return refuseReturn(request, reply, operator, undefined);
    return pages.answer(request, reply, outcome);
  };
  scope.get(REGISTERED_RETURN_PATH, { schema: { hide: true, querystring: BankAnswerQuery } }, registeredReturn);
  scope.post(
    REGISTERED_RETURN_PATH,
    { schema: { hide: true, querystring: BankAnswerQuery, body: PostedForm }, bodyLimit: RETURN_FORM_LIMIT_BYTES },
    registeredReturn,
  );
};
