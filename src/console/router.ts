/**
 * The page modules' router while the sections move to Fastify routes of their own (src/console/section.ts): it
 * records a module's routes and registers them in the console's scopes, whose hooks check who may have them.
 */
import { Type } from 'typebox';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify-types.js';
import { admitOperatorsOnly, viewerOf } from './access.js';
import type { ConsoleSectionId } from './navigation.js';
import { sendNotFound, sendPage, seeOther } from './replies.js';
import { FormText, QueryText, Repeated } from './schemas.js';
import { clearConsoleCookie, SESSION_COOKIE } from './security.js';
import type { ConsoleServices } from './services.js';
import type { UploadLimits } from './uploads.js';
import type { Viewer } from './viewer.js';

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
  query(name: string): string | undefined;
  form(name: string): string | undefined;
  all(name: string, from: 'query' | 'form'): string[];
  file(name: string): Buffer | undefined;
}

export interface Access {
  readonly operatorsOnly?: boolean;
  readonly section?: ConsoleSectionId;
}

type Handler = (context: ConsoleRequest) => Promise<ConsoleAnswer>;

interface RecordedRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly access: Access;
  readonly handler: Handler;
  readonly limits?: UploadLimits;
}

const AnyQuery = Type.Record(Type.String(), Repeated(QueryText));
const AnyForm = Type.Record(Type.String(), Repeated(FormText));

function valuesOf(source: unknown, name: string): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const value = (source as Record<string, unknown>)[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string');
}

export class ConsoleRouter {
  readonly routes: RecordedRoute[] = [];

  constructor(private readonly services: ConsoleServices) {}

  finishBeforeClose(work: Promise<void>): void {
    this.services.unfinishedWork.add(work);
  }

  get(path: string, access: Access, handler: Handler): void {
    this.routes.push({ method: 'GET', path, access, handler });
  }

  post(path: string, access: Access, handler: Handler): void {
    this.routes.push({ method: 'POST', path, access, handler });
  }

  upload(path: string, access: Access, limits: UploadLimits, handler: Handler): void {
    this.routes.push({ method: 'POST', path, access, handler, limits });
  }

  async serve(request: FastifyRequest, reply: FastifyReply, handler: Handler): Promise<FastifyReply> {
    const answer = await handler({
      request,
      viewer: viewerOf(request),
      query: (name) => valuesOf(request.query, name)[0],
      form: (name) => valuesOf(request.body, name)[0],
      all: (name, from) => valuesOf(from === 'query' ? request.query : request.body, name),
      file: (name) => {
        const value = (request.body as Record<string, unknown> | undefined)?.[name];
        return Buffer.isBuffer(value) ? value : undefined;
      },
    });
    switch (answer.kind) {
      case 'page':
        return sendPage(reply, answer.html, answer.status);
      case 'redirect':
        if (answer.endSession === true) clearConsoleCookie(reply, this.services.cookies, SESSION_COOKIE);
        return seeOther(reply, answer.location);
      case 'not-found':
        return sendNotFound(this.services, request, reply);
    }
  }

  private add(scope: App, route: RecordedRoute): void {
    const config: FastifyContextConfig = route.access.section === undefined ? {} : { consoleSection: route.access.section };
    if (route.method === 'GET') scope.get(route.path, { schema: { querystring: AnyQuery }, config }, (request, reply) => this.serve(request, reply, route.handler));
    else scope.post(route.path, { schema: { querystring: AnyQuery, ...(route.limits === undefined ? { body: AnyForm } : {}) }, config: { ...config, ...(route.limits === undefined ? {} : { uploadLimits: route.limits }) } }, (request, reply) => this.serve(request, reply, route.handler));
  }

  /** Registers the recorded pages and forms in the signed-in scope (operators-only ones in a sub-scope). */
  async registerPages(pages: App): Promise<void> {
    const routes = this.routes.filter((route) => route.limits === undefined);
    for (const route of routes.filter((candidate) => candidate.access.operatorsOnly !== true)) this.add(pages, route);
    await pages.register(async (operators) => {
      admitOperatorsOnly(operators, this.services);
      for (const route of routes.filter((candidate) => candidate.access.operatorsOnly === true)) this.add(operators, route);
    });
  }

  async registerUploads(uploads: App): Promise<void> {
    for (const route of this.routes.filter((candidate) => candidate.limits !== undefined)) this.add(uploads, route);
  }
}
