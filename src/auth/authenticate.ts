/**
 * Bearer-token authentication of resource endpoints: 401 for a missing, malformed, unknown or expired token,
 * 403 for a valid token without the route's scope (spec "Authentication", decisions §5).
 *
 * It runs as the route's `onRequest` hook, the first stage of a request: before the body is parsed (415, 413,
 * invalid JSON) and before path, query and body are validated (400). A caller without a valid token learns
 * nothing about the API beyond "authenticate first" (docs/api-decisions.md).
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { forbidden, missingCredentials, unauthorized } from '../http/errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Scope } from './scopes.js';
import type { AuthenticatedClient } from './authenticated-client.js';
import type { TokenService } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireScope` on authenticated routes. */
    client: AuthenticatedClient | null;
  }
}

/** The auth scheme name is case-insensitive (RFC 9110 §11.1); the token is RFC 6750's b64token. */
const BEARER_SCHEME = /^Bearer(?:\s|$)/i;
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/** Guards resource routes: token, scope, then the client's rate limit. */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly rateLimiter: RateLimiter | undefined,
  ) {}

  /** An onRequest hook admitting only callers whose token holds `scope`. */
  require(scope: Scope): onRequestAsyncHookHandler {
    const { tokens, rateLimiter } = this;
    return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const authorization = request.headers.authorization?.trim() ?? '';
      // No bearer credentials at all (none, or another scheme): a challenge without an error code (RFC 6750 §3.1).
      if (!BEARER_SCHEME.test(authorization)) throw missingCredentials();
      const match = BEARER.exec(authorization);
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
