/**
 * How the console answers: a page, a redirect (303, after a form as before), its not-found page, the refusal of a
 * form from elsewhere, and its error handler (a scoped `setErrorHandler`): a request that does not fit a route's
 * schema gets the console's own 400 page, a page that failed the 500 page. Every answer carries the console's
 * security headers (an `onRequest` hook of the console's scope, src/console/plugin.ts).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../hosted/html.js';
import { authPage, consolePage } from './layout.js';
import { clearConsoleCookie, SESSION_COOKIE, type CookieSettings } from './security.js';
import type { ConsoleServices } from './services.js';

export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

/** After a form, and for whoever must sign in first: 303 See Other. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('Location', location).send();
}

/**
 * The console's not-found page, in the navigation of the route's section: for an address that names nothing and for
 * anything this viewer may not see alike (404, never 403). Only for a signed-in viewer (the console's hooks).
 */
export function sendNotFound(services: ConsoleServices, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const viewer = request.consoleViewer;
  if (viewer === null) throw new Error('the console’s not-found page is for signed-in viewers only');
  return sendPage(
    reply,
    consolePage({
      title: 'Not found',
      section: request.routeOptions.config.consoleSection,
      viewer,
      navigation: services.navigation,
      body: html`<div class="card empty"><strong>There is nothing here.</strong>The address may be mistyped, or what it named is not yours to see. <a href="${services.navigation.homeOf(viewer.user)}">Go to the start page</a>.</div>`,
    }),
    404,
  );
}

/** A post without the session's CSRF token, or from another site. */
export function sendFormExpired(request: FastifyRequest, reply: FastifyReply, userId: string): FastifyReply {
  request.log.warn({ user: userId }, 'console form refused: CSRF token or origin wrong');
  return sendPage(
    reply,
    authPage(
      'This form has expired',
      html`<p>Please go back, reload the page and try again.</p><p><a href="/console">Back to the console</a></p>`,
    ),
    403,
  );
}

export function sendFailed(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  request.log.error({ err: error }, 'console page failed');
  return sendPage(
    reply,
    authPage(
      'Something went wrong',
      html`<p>The page could not be shown. The error is in the service's log.</p><p><a href="/console">Back to the console</a></p>`,
    ),
    500,
  );
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;
}

export function isValidationError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (('validation' in error && error.validation !== undefined) || ('code' in error && error.code === 'FST_ERR_VALIDATION'))
  );
}

/**
 * The console scope's error handler. A request that does not fit its route's schema (an address or a form the
 * console's pages never make): the console's 400 page. A client error of the framework before any page ran (a body
 * too large, of a type no console route takes): passed on to the app's handler, which answers such errors for every
 * route alike. Anything else is a page that failed: logged, and the 500 page.
 */
export async function consoleErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (isValidationError(error)) {
    request.log.warn({ err: error }, 'console request does not fit its route');
    return sendPage(
      reply,
      authPage(
        'This address is not right',
        html`<p>The address or the form carried something the console does not take. Please go back and try again.</p><p><a href="/console">Back to the console</a></p>`,
      ),
      400,
    );
  }
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) throw error;
  return sendFailed(request, reply, error);
}

/** Ends the session in the browser (its cookie) and sends it on: after sign-out, or when the account locked. */
export function seeOtherSignedOut(reply: FastifyReply, cookies: CookieSettings, location: string): FastifyReply {
  clearConsoleCookie(reply, cookies, SESSION_COOKIE);
  return seeOther(reply, location);
}
