/**
 * Who may have a console page, as hooks of the console's scopes (src/console/plugin.ts) rather than calls in each
 * handler. In the order they run:
 * - `requireSignedIn` (onRequest): someone signed in, with both steps, or else to the sign-in page (a page, not a
 *   post, is brought back afterwards); the viewer is put on the request (`request.consoleViewer`);
 * - `requireOwnOrigin` (onRequest, posts): from our own origin (Fetch Metadata and Origin), or else 403;
 * - `requireSessionForm` (preValidation, posts): the session's CSRF token in the form, or else 403 (the token
 *   travels in the body, so it is checked once the body is read, and before the body is validated);
 * - `requireOperator` (preValidation in an operators-only scope; onRequest for uploads): an operator, or else the
 *   not-found page (404), as for anything a member may not see.
 * Each refusal is answered by the hook itself, so no handler runs, and no schema is checked, for a refused request.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify-types.js';
import { sameOriginPost } from '../hosted/security.js';
import type { ConsoleSession } from '../people/sessions.js';
import type { ConsoleSectionId } from './navigation.js';
import { sendFormExpired, sendNotFound, seeOther } from './replies.js';
import { consoleCsrfToken, consoleCsrfValid, cookieValue, CSRF_FIELD, SESSION_COOKIE } from './security.js';
import type { ConsoleServices } from './services.js';
import { actorOf, type Viewer } from './viewer.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is looking at a console page: set by `requireSignedIn`, null elsewhere. */
    consoleViewer: Viewer | null;
  }
  interface FastifyContextConfig {
    /** The console section a route belongs to (its navigation entry on the not-found page). */
    consoleSection?: ConsoleSectionId;
  }
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** The viewer of a console page: set by the console's hooks before any of its handlers runs. */
export function viewerOf(request: FastifyRequest): Viewer {
  const viewer = request.consoleViewer;
  if (viewer === null) throw new Error('a console page ran without the console’s sign-in check');
  return viewer;
}

/** The first text of a form field (a repeated field is a list). */
export function firstFormText(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** The signed-in session of a request, or undefined (not signed in, or only half-way through signing in). */
export async function signedInSession(
  services: ConsoleServices,
  request: FastifyRequest,
): Promise<{ session: ConsoleSession; token: string } | undefined> {
  const token = cookieValue(request, SESSION_COOKIE);
  const session = await services.sessions.find(token);
  return session === undefined || token === undefined || session.stage !== 'signed-in' ? undefined : { session, token };
}

async function viewerFor(services: ConsoleServices, request: FastifyRequest, session: ConsoleSession, token: string): Promise<Viewer> {
  const { user } = session;
  const client =
    user.clientId === null ? undefined : (await services.clients.list()).find((candidate) => candidate.clientId === user.clientId);
  return {
    user,
    csrfToken: consoleCsrfToken(token),
    clientScope: user.role === 'operator' ? undefined : (user.clientId ?? '-none-'),
    clientName: client?.name,
    actor: actorOf(request, user),
  };
}

const isPost = (request: FastifyRequest): boolean => request.method === 'POST';

export function requireSignedIn(services: ConsoleServices): Hook {
  return async function requireSignedInHook(request, reply) {
    const signed = await signedInSession(services, request);
    if (signed === undefined)
      return seeOther(reply, `/console/sign-in${isPost(request) ? '' : `?next=${encodeURIComponent(request.url)}`}`);
    request.consoleViewer = await viewerFor(services, request, signed.session, signed.token);
    return undefined;
  };
}

export function requireOwnOrigin(services: ConsoleServices): Hook {
  return async function requireOwnOriginHook(request, reply) {
    if (!isPost(request) || sameOriginPost(request, services.config.baseUrl)) return undefined;
    return sendFormExpired(request, reply, viewerOf(request).user.id);
  };
}

export const requireSessionForm: Hook = async function requireSessionFormHook(request, reply) {
  if (!isPost(request) || consoleCsrfValid(cookieValue(request, SESSION_COOKIE), firstFormText(request.body, CSRF_FIELD))) return undefined;
  return sendFormExpired(request, reply, viewerOf(request).user.id);
};

export function requireOperator(services: ConsoleServices): Hook {
  return async function requireOperatorHook(request, reply) {
    return viewerOf(request).user.role === 'operator' ? undefined : sendNotFound(services, request, reply);
  };
}

/** The hooks of the signed-in pages' scope. */
export function admitSignedIn(scope: App, services: ConsoleServices): void {
  scope.addHook('onRequest', requireSignedIn(services));
  scope.addHook('onRequest', requireOwnOrigin(services));
  scope.addHook('preValidation', requireSessionForm);
}

/** Makes a scope (inside the signed-in one) operators only: after the form's checks, as every refusal is. */
export function admitOperatorsOnly(scope: App, services: ConsoleServices): void {
  scope.addHook('preValidation', requireOperator(services));
}
