/**
 * The error handler of the payer's pages (scoped to them, src/hosted/plugin.ts): a payer sees a page of ours, never a
 * JSON error body.
 *
 * - A request its route's schema refuses (a malformed link, a body that is not a form) gets the route's own answer
 *   for it: the same page as an unknown link (or, for a body that is not a form, the page of a form without our
 *   token), so a malformed value and an unknown one cannot be told apart.
 * - A body that could not be read at all (a media type we do not take, a body over the limit, broken JSON) is
 *   answered as every route answers it (src/http/errors.ts): no page of ours asked for it.
 * - Anything else is our failure: logged, and the payer sees the error page (500).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorIdentity } from '../config/config.js';
import { clientErrorOf, sendError } from '../http/errors.js';
import { sendErrorPage } from './answers.js';

/** How a route answers a request its schema refuses. */
export type InvalidRequestAnswer = (
  request: FastifyRequest,
  reply: FastifyReply,
  error: FastifyError,
) => FastifyReply | Promise<FastifyReply>;

export function hostedErrorHandler(
  operator: OperatorIdentity,
  invalidRequest: InvalidRequestAnswer,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply> {
  return (error, request, reply) => {
    if (error.validation !== undefined) return invalidRequest(request, reply, error);
    // Only the body parsers raise client errors here: the handlers call the engine and the stores, which know no
    // HTTP statuses (src/flow, src/branding).
    if (clientErrorOf(error) !== undefined) return sendError(error, request, reply);
    request.log.error({ err: error }, 'hosted page failed');
    return sendErrorPage(request, reply, operator);
  };
}
