/**
 * One error model for the public API. Handlers throw `ApiError`; `sendError` is the single place that turns
 * any error into the spec's body `{ title, statusCode, message }`. Details of unexpected errors stay in logs.
 *
 * Errors raised before a route runs get the same body: URL errors (`frameworkErrors`), unknown routes
 * (`sendRouteNotFound`), requests Node's HTTP parser cannot read (`answerClientError`) and HTTP/1.1 requests without
 * a Host header (`requireHostHeader`). No message ever
 * repeats raw request input (paths, header values, parser output).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * HTTP status → the spec's `title`: the reason phrase of the status (RFC 9110), as Node's table has it
 * (400 Bad Request, 413 Payload Too Large, 414 URI Too Long, 431 Request Header Fields Too Large …).
 */
export function titleFor(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? (statusCode >= 500 ? 'Internal Server Error' : 'Bad Request');
}

/** The one message for a request body in a media type the route does not take (decisions §6). */
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'Content-Type must be application/json';

export interface ErrorBody {
  title: string;
  statusCode: number;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): ErrorBody {
    return { title: titleFor(this.statusCode), statusCode: this.statusCode, message: this.message };
  }
}

/**
 * At most this many violations are listed in a message; the rest are counted (`…, and 49990 more`), so a body with
 * thousands of faults (50,000 unknown keys) gets a short answer, and validators stop wording faults past it.
 */
export const MAX_LISTED_VIOLATIONS = 10;

/** 400 listing the violated rules, comma-separated (decisions §2): the first ten, then how many more. */
export class ValidationError extends ApiError {
  /** The violations the message lists (at most MAX_LISTED_VIOLATIONS). */
  readonly violations: readonly string[];

  /** `unlisted`: violations found but not worded (the validator stopped wording at the cap). */
  constructor(violations: readonly string[], unlisted = 0) {
    const listed = violations.slice(0, MAX_LISTED_VIOLATIONS);
    const more = violations.length - listed.length + unlisted;
    super(400, more > 0 ? `${listed.join(', ')}, and ${more} more` : listed.join(', '));
    this.violations = listed;
    this.name = 'ValidationError';
  }
}

/** The protection space of our bearer tokens (RFC 6750 §3), also the realm of the token endpoint's Basic challenge. */
export const AUTH_REALM = 'openpis';

/** 401 for a request with no bearer credentials: the challenge carries no error code (RFC 6750 §3.1). */
export const missingCredentials = (): ApiError => new ApiError(401, 'Unauthorized', { 'www-authenticate': `Bearer realm="${AUTH_REALM}"` });
/** 401 for a malformed, unknown, expired or revoked bearer token. */
export const unauthorized = (): ApiError =>
  new ApiError(401, 'Unauthorized', { 'www-authenticate': `Bearer realm="${AUTH_REALM}", error="invalid_token"` });
export const forbidden = (): ApiError => new ApiError(403, 'Access denied');

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { title: titleFor(statusCode), statusCode, message };
}

/** Fastify's own error codes that are the client's fault, and what we answer for them. */
const FASTIFY_CLIENT_ERRORS: Readonly<Record<string, { statusCode: number; message: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, message: UNSUPPORTED_MEDIA_TYPE_MESSAGE },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, message: 'Request body size does not match Content-Length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, message: 'Request body must not be empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, message: 'Request body is not valid JSON' },
  FST_ERR_BAD_URL: { statusCode: 400, message: 'The URL is not correctly percent-encoded' },
  FST_ERR_MAX_PARAM_LENGTH: { statusCode: 414, message: 'A path segment is longer than 100 characters' },
};

/** Wording for client errors we have no entry for: framework and plugin messages may quote the request. */
function genericClientMessage(statusCode: number): string {
  return statusCode === 400 ? 'The request is not correctly formed' : titleFor(statusCode);
}

/**
 * How any error is answered, as status, headers and error body; `undefined` for an unexpected (server) error.
 * Shared by `sendError` and the token endpoint, which adds RFC 6749 fields to the same answer.
 */
export function clientErrorOf(error: FastifyError | Error): ApiError | undefined {
  if (error instanceof ApiError) return error.statusCode < 500 ? error : undefined;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation !== undefined) {
    // Route schemas that are validated by Fastify itself (params, query); messages formatted by ajv-messages.ts.
    return new ApiError(400, fastifyError.message);
  }
  const known = fastifyError.code === undefined ? undefined : FASTIFY_CLIENT_ERRORS[fastifyError.code];
  if (known !== undefined) return new ApiError(known.statusCode, known.message);
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // A client error raised by Fastify or a plugin that we have no special wording for.
    return new ApiError(fastifyError.statusCode, genericClientMessage(fastifyError.statusCode));
  }
  return undefined;
}

/** Turns any error into an ErrorBody response. Used as the API's error handler and for `frameworkErrors`. */
export function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Errors of the URL are raised before any hook has run: the request id header is set here for them.
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', request.id);
  const clientError = clientErrorOf(error);
  if (clientError !== undefined) return reply.code(clientError.statusCode).headers(clientError.headers).send(clientError.body);
  if (error instanceof ApiError) {
    request.log.error({ err: error }, 'request failed');
    return reply.code(error.statusCode).headers(error.headers).send(error.body);
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send(errorBody(500, 'Internal server error'));
}

/** The answer to a path no route matches. The path is not repeated: it is raw client input. */
export function sendRouteNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send(errorBody(404, 'Route not found'));
}

/**
 * Node's `clientError`: a request its HTTP parser cannot read (malformed request line or headers, headers over the
 * size limit, a client too slow to send them). No route or hook runs; the answer is written to the socket as is.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [statusCode, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify(errorBody(statusCode, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${statusCode} ${titleFor(statusCode)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-ID: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/** How many `Host` header lines a request carries (Node keeps only the first of repeated ones in `headers`). */
function hostHeaderCount(request: IncomingMessage): number {
  let count = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]?.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without a Host header, or any request with more than one, is answered 400.
 * Node's own check (`requireHostHeader`) answers with a bare 400 and no body, so the server is created with that
 * check off and this wrapper makes it, before Fastify sees the request, with the error body every 4xx has.
 */
export function requireHostHeader(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const hosts = hostHeaderCount(request);
    const isHttp11 = request.httpVersionMajor === 1 && request.httpVersionMinor === 1;
    const message =
      hosts > 1
        ? 'The request must have only one Host header'
        : hosts === 0 && isHttp11
          ? 'The request must have a Host header'
          : undefined;
    if (message === undefined) {
      handler(request, response);
      return;
    }
    const body = JSON.stringify(errorBody(400, message));
    response.writeHead(400, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': randomUUID(),
      connection: 'close',
    });
    response.end(body);
  };
}
