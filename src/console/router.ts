/**
 * How a console page is served: `router.get` and `router.post` register a route under /console that runs only for
 * a signed-in user (else: to the sign-in page), only for operators when the page says so (else: 404, as for
 * anything a viewer may not see), and for a post only with the session's CSRF token from our own origin (else:
 * 403). Handlers get the viewer and answer a page, a redirect or not-found; every answer carries the console's
 * security headers. See docs/console.md, "Adding a page".
 */
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify-types.js';
import { html } from '../hosted/html.js';
import { sameOriginPost } from '../hosted/security.js';
import type { ConsoleSession } from '../people/sessions.js';
import { authPage, consolePage } from './layout.js';
import type { ConsoleSectionId } from './navigation.js';
import { clearConsoleCookie, consoleCsrfToken, consoleCsrfValid, consoleHeaders, cookieValue, CSRF_FIELD, SESSION_COOKIE, type CookieSettings } from './security.js';
import type { ConsoleServices } from './services.js';
import { actorOf, type Viewer } from './viewer.js';

export type ConsoleAnswer =
  | { readonly kind: 'page'; readonly html: string; readonly status: number }
  | { readonly kind: 'redirect'; readonly location: string; readonly endSession?: boolean }
  | { readonly kind: 'not-found' };

export const page = (body: string, status = 200): ConsoleAnswer => ({ kind: 'page', html: body, status });
export const redirect = (location: string): ConsoleAnswer => ({ kind: 'redirect', location });
export const notFound: ConsoleAnswer = { kind: 'not-found' };

export interface ConsoleRequest {
  readonly request: FastifyRequest;
  readonly viewer: Viewer;
  /** A query parameter (one string of at most 200 characters), or undefined. */
  query(name: string): string | undefined;
  /** A form field (one string), or undefined. */
  form(name: string): string | undefined;
  /** Every value of a repeated form field or query parameter (checkboxes). */
  all(name: string, from: 'query' | 'form'): string[];
  /** The bytes of a file field of a multipart form (`router.upload`), or undefined. */
  file(name: string): Buffer | undefined;
}

/** What a multipart form may carry (`router.upload`). */
export interface UploadLimits {
  /** Bytes a file may have; the parser cuts a longer file after `maxFileBytes + 1` so the handler sees it is too large. */
  readonly maxFileBytes: number;
  readonly files: number;
  readonly fields: number;
}

export interface Access {
  /** Operators only: members get 404. */
  readonly operatorsOnly?: boolean;
  /** The navigation entry this page belongs to (for the not-found page's navigation). */
  readonly section?: ConsoleSectionId;
}

type Handler = (context: ConsoleRequest) => Promise<ConsoleAnswer>;

const MAX_PARAMETER_LENGTH = 200;

function valuesOf(source: unknown, name: string): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const value = (source as Record<string, unknown>)[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string' && item.length <= MAX_PARAMETER_LENGTH * 10);
}

function fileOf(body: unknown, name: string): Buffer | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return Buffer.isBuffer(value) ? value : undefined;
}

/** How long a shutdown waits for the work pages started and answered before it was done (`finishBeforeClose`). */
export const UNFINISHED_WORK_GRACE_MS = 15_000;

export class ConsoleRouter {
  /** Work pages answered before it was done, until it is. */
  private readonly unfinished = new Set<Promise<void>>();

  constructor(
    private readonly app: App,
    private readonly services: ConsoleServices,
    private readonly cookies: CookieSettings,
  ) {
    // Before the server stops listening, since such work may call it (a scenario plays the payer on our pages).
    app.addHook('preClose', async () => {
      if (this.unfinished.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, UNFINISHED_WORK_GRACE_MS);
      });
      await Promise.race([Promise.allSettled(this.unfinished), grace]);
      clearTimeout(timer);
    });
  }

  /**
   * Work a page starts and answers before it is done (it must handle its own errors): a shutdown waits for it, up
   * to UNFINISHED_WORK_GRACE_MS, instead of cutting it off halfway.
   */
  finishBeforeClose(work: Promise<void>): void {
    const tracked = work.finally(() => this.unfinished.delete(tracked));
    this.unfinished.add(tracked);
  }

  get(path: string, access: Access, handler: Handler): void {
    this.app.get(`/console${path}`, { schema: { hide: true } }, (request, reply) => this.serve(request, reply, access, handler, false));
  }

  post(path: string, access: Access, handler: Handler): void {
    this.app.post(`/console${path}`, { schema: { hide: true } }, (request, reply) => this.serve(request, reply, access, handler, true));
  }

  /**
   * A post of a multipart form (a file upload): the parser (@fastify/multipart) is registered for this route alone,
   * so no other console route takes multipart bodies. It keeps the fields and files in memory up to the limits; a
   * longer file is cut (not refused by the parser) one byte past the limit, so the page answers it with the file
   * checker's own message rather than a bare 413. Sign-in, CSRF and access are checked as for `post`.
   */
  upload(path: string, access: Access, limits: UploadLimits, handler: Handler): void {
    void this.app.register(async (scope) => {
      await scope.register(multipart, {
        attachFieldsToBody: 'keyValues',
        throwFileSizeLimit: false,
        limits: { fileSize: limits.maxFileBytes + 1, files: limits.files, fields: limits.fields, parts: limits.files + limits.fields },
      });
      // Who is asking is settled before the body is read: a signed-out or barred request, or one from another
      // site, is answered at once, so only the console's own users can make the server parse an upload.
      // Answering in this hook ends the request (Fastify: an async hook that has sent returns the reply).
      const admitBeforeBody = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
        consoleHeaders(reply);
        try {
          return (await this.admit(request, reply, access, true, 'body unread')) === undefined ? reply : undefined;
        } catch (error) {
          return this.failed(reply, request, error);
        }
      };
      // Errors reach this handler only from reading the body (the handler answers its own), so they are the
      // sender's: a body cut off or malformed (the multipart reader's errors carry no status), or more parts than
      // the form has (413). They get a page that says so, not a server error. Only the reader's own faults (5xx)
      // are ours.
      scope.setErrorHandler(async (error, request, reply) => {
        consoleHeaders(reply);
        const statusCode = typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 400;
        if (statusCode >= 500) return this.failed(reply, request, error);
        request.log.warn({ err: error }, 'console upload unreadable');
        return reply
          .code(statusCode >= 400 ? statusCode : 400)
          .type('text/html; charset=utf-8')
          .send(authPage('The upload could not be read', html`<p>The form did not arrive whole, or it carried more than it may. Please go back and choose the file again.</p><p><a href="/console">Back to the console</a></p>`));
      });
      scope.post(`/console${path}`, { schema: { hide: true }, onRequest: admitBeforeBody }, (request, reply) => this.serve(request, reply, access, handler, true));
    });
  }

  /** The signed-in session of a request, or undefined (not signed in, or only half-way through signing in). */
  async signedIn(request: FastifyRequest): Promise<{ session: ConsoleSession; token: string } | undefined> {
    const token = cookieValue(request, SESSION_COOKIE);
    const session = await this.services.sessions.find(token);
    return session === undefined || token === undefined || session.stage !== 'signed-in' ? undefined : { session, token };
  }

  async viewerOf(request: FastifyRequest, session: ConsoleSession, token: string): Promise<Viewer> {
    const { user } = session;
    const client = user.clientId === null ? undefined : (await this.services.clients.list()).find((candidate) => candidate.clientId === user.clientId);
    return {
      user,
      csrfToken: consoleCsrfToken(token),
      clientScope: user.role === 'operator' ? undefined : (user.clientId ?? '-none-'),
      clientName: client?.name,
      actor: actorOf(request, user),
    };
  }

  private async serve(request: FastifyRequest, reply: FastifyReply, access: Access, handler: Handler, isPost: boolean): Promise<FastifyReply> {
    consoleHeaders(reply);
    try {
      const viewer = await this.admit(request, reply, access, isPost, 'body read');
      if (viewer === undefined) return reply;
      const answer = await handler({
        request,
        viewer,
        query: (name) => valuesOf(request.query, name).find((value) => value.length <= MAX_PARAMETER_LENGTH),
        form: (name) => valuesOf(request.body, name)[0],
        all: (name, from) => valuesOf(from === 'query' ? request.query : request.body, name),
        file: (name) => fileOf(request.body, name),
      });
      switch (answer.kind) {
        case 'page':
          return reply.code(answer.status).type('text/html; charset=utf-8').send(answer.html);
        case 'redirect':
          if (answer.endSession === true) clearConsoleCookie(reply, this.cookies, SESSION_COOKIE);
          return reply.code(303).header('Location', answer.location).send();
        case 'not-found':
          return this.notFoundPage(reply, viewer, access.section);
      }
    } catch (error) {
      return this.failed(reply, request, error);
    }
  }

  /**
   * Who may have the page, checked in one place: someone signed in (else to the sign-in page); for a post, from our
   * own origin and with the session's CSRF token (else 403; the token travels in the body, so it is checked once the
   * body is read); an operator where the page says so (else 404). The viewer, or undefined when the refusal is sent.
   */
  private async admit(request: FastifyRequest, reply: FastifyReply, access: Access, isPost: boolean, body: 'body read' | 'body unread'): Promise<Viewer | undefined> {
    const signed = await this.signedIn(request);
    if (signed === undefined) {
      this.toSignIn(reply, request, isPost);
      return undefined;
    }
    const viewer = await this.viewerOf(request, signed.session, signed.token);
    const csrfWrong = body === 'body read' && !consoleCsrfValid(signed.token, valuesOf(request.body, CSRF_FIELD)[0]);
    if (isPost && (!sameOriginPost(request, this.services.config.baseUrl) || csrfWrong)) {
      this.formExpired(reply, request, viewer.user.id);
      return undefined;
    }
    if (access.operatorsOnly === true && viewer.user.role !== 'operator') {
      this.notFoundPage(reply, viewer, access.section);
      return undefined;
    }
    return viewer;
  }

  /** Not signed in: to the sign-in page, which brings a page (not a post) back afterwards. */
  private toSignIn(reply: FastifyReply, request: FastifyRequest, isPost: boolean): FastifyReply {
    const next = isPost ? '' : `?next=${encodeURIComponent(request.url)}`;
    return reply.code(303).header('Location', `/console/sign-in${next}`).send();
  }

  private formExpired(reply: FastifyReply, request: FastifyRequest, userId: string): FastifyReply {
    request.log.warn({ user: userId }, 'console form refused: CSRF token or origin wrong');
    return reply.code(403).type('text/html; charset=utf-8').send(authPage('This form has expired', html`<p>Please go back, reload the page and try again.</p><p><a href="/console">Back to the console</a></p>`));
  }

  private failed(reply: FastifyReply, request: FastifyRequest, error: unknown): FastifyReply {
    request.log.error({ err: error }, 'console page failed');
    return reply.code(500).type('text/html; charset=utf-8').send(authPage('Something went wrong', html`<p>The page could not be shown. The error is in the service's log.</p><p><a href="/console">Back to the console</a></p>`));
  }

  notFoundPage(reply: FastifyReply, viewer: Viewer, section: ConsoleSectionId | undefined): FastifyReply {
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(
        consolePage({
          title: 'Not found',
          section,
          viewer,
          navigation: this.services.navigation,
          body: html`<div class="card empty"><strong>There is nothing here.</strong>The address may be mistyped, or what it named is not yours to see. <a href="${this.services.navigation.homeOf(viewer.user)}">Go to the start page</a>.</div>`,
        }),
      );
  }
}
