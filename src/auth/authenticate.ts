/**
 * Bearer-token authentication of resource endpoints: 401 for a missing, malformed, unknown or expired token,
 * 403 for a valid token without the route's scope (spec "Authentication", decisions §5).
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { forbidden, unauthorized } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Scope } from './scopes.js';
import type { AuthenticatedClient, TokenService } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireScope` on authenticated routes. */
    client: AuthenticatedClient | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

/** Guards resource routes: token, scope, then the client's rate limit. */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly rateLimiter: RateLimiter | undefined,
  ) {}

  /** A preHandler admitting only callers whose token holds `scope`. */
  require(scope: Scope): preHandlerAsyncHookHandler {
    const { tokens, rateLimiter } = this;
    return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const match = BEARER.exec(request.headers.authorization?.trim() ?? '');
      if (match?.[1] === undefined) throw unauthorized();
      const client = await tokens.verify(match[1]);
      if (client === undefined) throw unauthorized();
      if (!client.scopes.includes(scope)) throw forbidden();
      request.client = client;
      rateLimiter?.(request, client.clientId);
    };
  }
}

/** The caller of an authenticated route (set by `requireScope`). */
export function callerOf(request: FastifyRequest): AuthenticatedClient {
  if (request.client === null) throw new Error('callerOf used on a route without requireScope');
  return request.client;
}
