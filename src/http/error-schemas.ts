/** Response schemas of the error body, for route declarations and the OpenAPI document. */
import { Type } from 'typebox';
import { titleFor } from './errors.js';

export const ErrorBodySchema = Type.Object(
  {
    title: Type.String({ description: 'Name of the error', examples: ['Bad Request'] }),
    statusCode: Type.Integer({ description: 'HTTP status', examples: [400] }),
    message: Type.String({ examples: ['amount must not be less than 0.01, recipient should not be empty'] }),
  },
);

/** `{ 400: ErrorBody, 401: ErrorBody, … }` for a route's `response` schema. */
export function ErrorResponses(...statusCodes: number[]): Record<string, typeof ErrorBodySchema> {
  return Object.fromEntries(
    statusCodes.map((statusCode) => [statusCode, { ...ErrorBodySchema, description: titleFor(statusCode) }]),
  );
}
