/**
 * One error model for the public API. Handlers throw `ApiError`; `sendError` is the single place that turns
 * any error into the spec's body `{ title, statusCode, message }`. Details of unexpected errors stay in logs.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** HTTP status → the spec's `title`. */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleFor(statusCode: number): string {
  return TITLES[statusCode] ?? (statusCode >= 500 ? 'Internal Server Error' : 'Bad Request');
}

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

/** 400 listing every violated rule, comma-separated (decisions §2). */
export class ValidationError extends ApiError {
  constructor(readonly violations: readonly string[]) {
    super(400, violations.join(', '));
    this.name = 'ValidationError';
  }
}

export const unauthorized = (): ApiError =>
  new ApiError(401, 'Unauthorized', { 'www-authenticate': 'Bearer error="invalid_token"' });
export const forbidden = (): ApiError => new ApiError(403, 'Access denied');

/** Fastify's own error codes that are the client's fault, and what we answer for them. */
const FASTIFY_CLIENT_ERRORS: Readonly<Record<string, { statusCode: number; message: string }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, message: 'Unsupported content type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, message: 'Invalid content length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, message: 'Request body must not be empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, message: 'Request body is not valid JSON' },
  FST_ERR_BAD_URL: { statusCode: 400, message: 'Malformed URL' },
};

/** Turns any error into an ErrorBody response. Used as the API's error handler. */
export function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(error.statusCode).headers(error.headers).send(error.body);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation !== undefined) {
    // Route schemas that are validated by Fastify itself (params, query); messages formatted by ajv-messages.ts.
    return reply.code(400).send({ title: titleFor(400), statusCode: 400, message: fastifyError.message });
  }
  const known = fastifyError.code === undefined ? undefined : FASTIFY_CLIENT_ERRORS[fastifyError.code];
  if (known !== undefined) {
    return reply.code(known.statusCode).send({ title: titleFor(known.statusCode), statusCode: known.statusCode, message: known.message });
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // A client error raised by Fastify or a plugin that we have no special wording for.
    return reply
      .code(fastifyError.statusCode)
      .send({ title: titleFor(fastifyError.statusCode), statusCode: fastifyError.statusCode, message: fastifyError.message });
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send({ title: titleFor(500), statusCode: 500, message: 'Internal server error' });
}
