/**
 * `POST /api/v1/auth/token`: OAuth 2.0 client credentials grant (RFC 6749 §4.4). The client authenticates with HTTP
 * Basic (`client_secret_basic`) or with `client_id` and `client_secret` in the form body (`client_secret_post`,
 * RFC 6749 §2.3.1: the default of several OAuth libraries), never with both in one request (§2.3). Errors follow
 * RFC 6749 §5.2 with the spec's error body fields alongside (decisions §5).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/fastify-types.js';
import { Type } from 'typebox';
import { AUTH_REALM, clientErrorOf, titleFor } from '../http/errors.js';
import { jsonResponse } from '../http/error-schemas.js';
import type { ClientCredentialsOwner, TokenService } from './tokens.js';

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'server_error';

const STATUS: Readonly<Record<OAuthErrorCode, number>> = {
  invalid_request: 400,
  invalid_client: 401,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  server_error: 503,
};

/** An RFC 6749 §5.2 error of the token endpoint; thrown anywhere in the route, answered by its error handler. */
class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** The HTTP status, when it is not the code's usual one (e.g. 413 for an oversized body). */
    readonly statusCode: number = STATUS[error],
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

const FORM_ONLY = 'Content-Type must be application/x-www-form-urlencoded';

function sendOAuthError(reply: FastifyReply, { error, description, statusCode }: OAuthError): FastifyReply {
  if (error === 'invalid_client') reply.header('www-authenticate', `Basic realm="${AUTH_REALM}"`);
  if (error === 'server_error') reply.header('retry-after', '5');
  return reply
    .code(statusCode)
    .header('cache-control', 'no-store')
    .send({ error, error_description: description, title: titleFor(statusCode), statusCode, message: description });
}

const AUTHENTICATION_REQUIRED = 'Client authentication is required: HTTP Basic, or client_id and client_secret in the form body';
const ONE_METHOD = 'Use one client authentication method: HTTP Basic or client_id and client_secret in the body, not both';
const UNAVAILABLE = 'The authorization service is temporarily unavailable; retry with backoff';

/**
 * The token route's own error handler: whatever goes wrong — our checks, body parsing, content type, size — the
 * answer is an RFC 6749 error with the error body fields alongside (decisions §5), never the generic error body,
 * which the route's response schema would not accept. A caller not yet authenticated (no Basic credentials, so the
 * body was to carry them) learns nothing about its body: any fault of it is `invalid_client`.
 */
function tokenErrorHandler(isAuthenticated: (request: FastifyRequest) => boolean) {
  return function answerTokenError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    const clientError = clientErrorOf(error);
    if (clientError === undefined) {
      request.log.error({ err: error }, 'token issuance failed');
      return sendOAuthError(reply, new OAuthError('server_error', UNAVAILABLE));
    }
    if (!isAuthenticated(request)) return sendOAuthError(reply, new OAuthError('invalid_client', AUTHENTICATION_REQUIRED));
    const code = (error as FastifyError).code;
    // A body that is not a form (JSON, text, an unknown type) is one fault with one answer, whatever parser saw it.
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendOAuthError(reply, new OAuthError('invalid_request', FORM_ONLY));
    }
    // Other HTTP-level faults (an oversized body: 413) keep their status; the body still says invalid_request.
    return sendOAuthError(reply, new OAuthError('invalid_request', clientError.message, clientError.statusCode));
  };
}

/** A client's secret is checked against its stored hash; a failing database is `server_error`, never a 500. */
async function authenticate(
  tokens: TokenService,
  request: FastifyRequest,
  clientId: string,
  clientSecret: string,
): Promise<ClientCredentialsOwner> {
  let client: ClientCredentialsOwner | undefined;
  try {
    client = await tokens.authenticateClient(clientId, clientSecret);
  } catch (error) {
    request.log.error({ err: error }, 'client authentication failed');
    throw new OAuthError('server_error', UNAVAILABLE);
  }
  if (client === undefined) throw new OAuthError('invalid_client', 'Invalid client id or client secret');
  return client;
}

/** `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1) → credentials, or undefined. */
export function parseBasicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const formDecode = (part: string): string | undefined => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
  };
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined || clientSecret === '') return undefined;
  return { clientId, clientSecret };
}

const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Send as `Authorization: Bearer <access_token>`' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds the token is valid', examples: [1800] }),
    scope: Type.String({ description: 'The scopes granted, space-separated', examples: ['payments:read payments:write providers:read'] }),
  },
  {
    title: 'AccessToken',
    examples: [
      {
        access_token: 'q8Zt2vY6mN1kP4rW9xC3bF7hJ0sL5dG2aE8uI6oT1yR',
        token_type: 'Bearer',
        expires_in: 1800,
        scope: 'payments:read payments:write providers:read',
      },
    ],
  },
);
const OAuthErrorResponse = Type.Object(
  {
    error: Type.String({
      description: 'RFC 6749 error code. An open list: treat a code you do not know as a failure to get a token',
      'x-extensible-enum': ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope', 'server_error'],
      examples: ['invalid_client'],
    }),
    error_description: Type.String(),
    title: Type.String(),
    statusCode: Type.Integer(),
    message: Type.String(),
  },
  { title: 'OAuthError', description: 'An RFC 6749 §5.2 error with the error body fields alongside' },
);

/** Every answer of the token endpoint is never to be cached (RFC 6749 §5.1). */
const NO_STORE = { 'Cache-Control': { type: 'string', description: 'Never cache: `no-store`', examples: ['no-store'] } } as const;

function oauthError(
  description: string,
  error: OAuthErrorCode,
  statusCode: number,
  message: string,
  headers: Record<
    string,
    { readonly type: 'string' | 'integer'; readonly description: string; readonly examples?: readonly unknown[] }
  > = {},
) {
  return {
    ...jsonResponse(description, OAuthErrorResponse, { ...NO_STORE, ...headers }),
    content: {
      'application/json': {
        schema: OAuthErrorResponse,
        example: { error, error_description: message, title: titleFor(statusCode), statusCode, message },
      },
    },
  };
}

export function registerTokenRoute(app: App, tokens: TokenService): void {
  // The client each request authenticated as, set before its body is read.
  const authenticatedClients = new WeakMap<FastifyRequest, ClientCredentialsOwner>();

  app.post(
    '/api/v1/auth/token',
    {
      schema: {
        operationId: 'createAccessToken',
        tags: ['Authentication'],
        summary: 'Get an access token (OAuth 2.0 client credentials)',
        description:
          'Authenticate with HTTP Basic (`clientId:clientSecret`, `client_secret_basic`) or with `client_id` and `client_secret` in the form body (`client_secret_post`, RFC 6749 §2.3.1), never both in one request. Form fields: `grant_type=client_credentials`, optional `scope` (space-separated; omitted = every scope the client holds). Tokens last 1800 seconds.',
        // Basic, or nothing in the headers: the credentials are then in the form body (`client_id`, `client_secret`).
        security: [{ basicAuth: [] }, {}],
        consumes: ['application/x-www-form-urlencoded'],
        body: Type.Object(
          {
            grant_type: Type.String({ description: 'Always `client_credentials`', examples: ['client_credentials'] }),
            scope: Type.Optional(
              Type.String({
                description: 'Scopes wanted, space-separated; without it every scope the client holds',
                examples: ['payments:read payments:write'],
              }),
            ),
            client_id: Type.Optional(
              Type.String({
                description: 'The client id, for `client_secret_post`; with HTTP Basic it may be sent too and must then be the same client',
              }),
            ),
            client_secret: Type.Optional(
              Type.String({ description: 'The client secret, for `client_secret_post` only: never together with HTTP Basic' }),
            ),
          },
          { title: 'TokenRequest', examples: [{ grant_type: 'client_credentials' }] },
        ),
        response: {
          200: jsonResponse('The access token', TokenResponse, {
            ...NO_STORE,
            Pragma: { type: 'string', description: '`no-cache`, for HTTP/1.0 caches', examples: ['no-cache'] },
          }),
          400: oauthError(
            '`invalid_request`, `unsupported_grant_type` or `invalid_scope`',
            'unsupported_grant_type',
            400,
            'Only grant_type=client_credentials is supported',
          ),
          401: oauthError(
            '`invalid_client`: no client credentials (HTTP Basic or in the body), or wrong ones',
            'invalid_client',
            401,
            'Invalid client id or client secret',
            {
              'WWW-Authenticate': { type: 'string', description: 'The Basic challenge', examples: [`Basic realm="${AUTH_REALM}"`] },
            },
          ),
          413: oauthError('`invalid_request`: the body is over 1 MiB', 'invalid_request', 413, 'Request body is too large'),
          503: oauthError(
            '`server_error`: tokens cannot be issued now; retry with backoff',
            'server_error',
            503,
            'The authorization service is temporarily unavailable; retry with backoff',
            {
              'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again', examples: [5] },
            },
          ),
        },
      },
      // The body is checked below so that every problem gets an RFC 6749 error, not the generic 400 body.
      validatorCompiler: () => () => true,
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Fastify waits on the reply an error handler returns (its types say void)
      errorHandler: tokenErrorHandler((request) => authenticatedClients.has(request)),
      // A client using HTTP Basic is authenticated before its body is parsed or looked at, so an unauthenticated
      // caller learns nothing about the request's other problems (docs/api-decisions.md). Without an Authorization
      // header the credentials are in the body (client_secret_post), checked first thing in the handler.
      onRequest: async (request) => {
        if (request.headers.authorization === undefined) return;
        const credentials = parseBasicCredentials(request.headers.authorization);
        if (credentials === undefined) throw new OAuthError('invalid_client', 'Client authentication with HTTP Basic is required');
        authenticatedClients.set(request, await authenticate(tokens, request, credentials.clientId, credentials.clientSecret));
      },
    },
    async (request, reply) => {
      const contentType = request.headers['content-type'] ?? '';
      const isForm = contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
      const body = (isForm && typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const bodyClientId = body.client_id;
      const bodySecret = body.client_secret;
      let client = authenticatedClients.get(request);
      if (client === undefined) {
        // client_secret_post: each once (a repeated field arrives as an array), neither empty.
        if (typeof bodyClientId !== 'string' || bodyClientId === '' || typeof bodySecret !== 'string' || bodySecret === '') {
          throw new OAuthError('invalid_client', AUTHENTICATION_REQUIRED);
        }
        client = await authenticate(tokens, request, bodyClientId, bodySecret);
        authenticatedClients.set(request, client);
      } else {
        if (bodySecret !== undefined) throw new OAuthError('invalid_request', ONE_METHOD);
        // RFC 6749 lets a client name itself in the body too; it must then be the client Basic authenticated.
        if (bodyClientId !== undefined && bodyClientId !== client.clientId)
          throw new OAuthError('invalid_request', 'client_id must be the client authenticated with HTTP Basic');
      }
      if (!isForm) throw new OAuthError('invalid_request', FORM_ONLY);
      const grantType = body.grant_type;
      const scope = body.scope;
      if (typeof grantType !== 'string' || grantType === '') throw new OAuthError('invalid_request', 'grant_type is required (once)');
      if (scope !== undefined && typeof scope !== 'string') throw new OAuthError('invalid_request', 'scope must be given at most once');
      if (grantType !== 'client_credentials') {
        throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported');
      }
      const result = await tokens.issue(client, scope);
      if (result.kind === 'invalid_scope') throw new OAuthError('invalid_scope', result.description);
      return reply
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send({ access_token: result.accessToken, token_type: 'Bearer' as const, expires_in: result.expiresIn, scope: result.scope });
    },
  );
}
