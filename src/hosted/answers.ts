/**
 * The small pieces every route of the payer's pages answers with: an HTML page with our headers, the actor of a
 * request, a short query value, and the error pages' answers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorIdentity } from '../config/config.js';
import type { Actor } from '../flow/engine.js';
import { browserLocale, errorPage, expiredFormPage, invalidLinkPage } from './errors/page.js';
import { pageHeaders } from './security.js';

/** A page of ours: its security headers, status and HTML. */
export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return pageHeaders(reply).code(status).type('text/html; charset=utf-8').send(body);
}

/** Who the engine is told acts: the request, by its log and id. */
export function actorOf(request: FastifyRequest): Actor {
  return { log: request.log, requestId: request.id };
}

/** Longest query value a page reads (a bank list filter, a language); longer ones are ignored. */
const MAX_QUERY_VALUE_LENGTH = 200;

/** A query parameter the page reads: one short text, or undefined (absent, repeated or too long). */
export function queryText(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Readonly<Record<string, unknown>> | undefined;
  const value = query?.[name];
  return typeof value === 'string' && value.length <= MAX_QUERY_VALUE_LENGTH ? value : undefined;
}

/** The language of a page with no payment to take it from: the browser's. */
export function requestLocale(request: FastifyRequest): ReturnType<typeof browserLocale> {
  return browserLocale(request.headers['accept-language']);
}

/** 404 "this link is not valid": an unknown, altered or malformed link of ours. */
export function sendInvalidLink(request: FastifyRequest, reply: FastifyReply, operator: OperatorIdentity): FastifyReply {
  return sendPage(reply, 404, invalidLinkPage(requestLocale(request), operator));
}

/** 403 "this form has expired": a form that is not of the payer's current page (no or another CSRF token). */
export function sendExpiredForm(reply: FastifyReply, locale: ReturnType<typeof browserLocale>, operator: OperatorIdentity): FastifyReply {
  return sendPage(reply, 403, expiredFormPage(locale, operator));
}

/** 500 "something went wrong" (the details are in the log). */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, operator: OperatorIdentity): FastifyReply {
  return sendPage(reply, 500, errorPage(requestLocale(request), operator));
}
