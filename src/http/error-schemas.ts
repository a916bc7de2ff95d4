/**
 * The error body for route declarations and the OpenAPI document: every error answer of the API has it
 * (docs/api-decisions.md, "Errors"), so it is one named schema, with a description and an example per status.
 */
import { Type } from 'typebox';
import { errorBody, titleFor, UNSUPPORTED_MEDIA_TYPE_MESSAGE, type ErrorBody } from './errors.js';

export const ErrorBodySchema = Type.Object(
  {
    title: Type.String({ description: 'The HTTP reason phrase of `statusCode`', examples: ['Bad Request'] }),
    statusCode: Type.Integer({ description: 'HTTP status', examples: [400] }),
    message: Type.String({
      description: 'What went wrong, for people; for a 400 every violated rule as `<field path> <rule>`, comma-separated',
      examples: ['amount must not be less than 0.01, recipient should not be empty'],
    }),
  },
  { title: 'ErrorBody', description: 'The body of every error answer' },
);

/** Status → when the service answers it, and an example message. */
const ERRORS: Readonly<Record<number, { readonly when: string; readonly message: string }>> = {
  400: {
    when: 'The request breaks a rule: `message` lists every violated rule as `<field path> <rule>`, comma-separated',
    message: 'amount must not be less than 0.01, recipient should not be empty',
  },
  401: { when: 'No valid bearer token: missing, malformed, unknown, expired or revoked', message: 'Unauthorized' },
  403: { when: 'The token does not hold the scope this operation requires', message: 'Access denied' },
  404: {
    when: 'No such resource of the caller (another client’s is answered the same)',
    message: 'Payment 5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11 not found',
  },
  409: {
    when: 'The caller already has a payment with this `metadata.endToEndId`: find it with `GET /api/v1/ob/payments?endToEndId=…`',
    message: 'A payment with endToEndId "order-1001" already exists',
  },
  413: { when: 'The request body is over 1 MiB', message: 'Request body is too large' },
  415: { when: 'The request body is not `application/json`', message: UNSUPPORTED_MEDIA_TYPE_MESSAGE },
  429: {
    when: 'The caller’s rate limit is spent: retry after `Retry-After` seconds',
    message: 'Rate limit of 100 requests per second exceeded; retry after 1 s',
  },
  500: {
    when: 'An unexpected error; the details are in the service’s logs under the request’s `X-Request-ID`',
    message: 'Internal server error',
  },
};

export interface ErrorResponse {
  readonly description: string;
  readonly content: { readonly 'application/json': { readonly schema: typeof ErrorBodySchema; readonly example: ErrorBody } };
}

/** `{ 400: …, 401: … }` for a route's `response`: the error body, described and with an example for each status. */
export function ErrorResponses(...statusCodes: number[]): Record<string, ErrorResponse> {
  return Object.fromEntries(
    statusCodes.map((statusCode) => {
      const error = ERRORS[statusCode];
      const response: ErrorResponse = {
        description: error?.when ?? titleFor(statusCode),
        content: {
          'application/json': { schema: ErrorBodySchema, example: errorBody(statusCode, error?.message ?? titleFor(statusCode)) },
        },
      };
      return [statusCode, response];
    }),
  );
}

/** A success answer for a route's `response`: described, JSON, with headers the route itself sets. */
export function jsonResponse<Schema>(
  description: string,
  schema: Schema,
  headers: Readonly<
    Record<string, { readonly description: string; readonly type: 'string' | 'integer'; readonly examples?: readonly unknown[] }>
  > = {},
): { description: string; content: { 'application/json': { schema: Schema } }; headers?: Record<string, unknown> } {
  return {
    description,
    content: { 'application/json': { schema } },
    ...(Object.keys(headers).length === 0 ? {} : { headers: { ...headers } }),
  };
}
