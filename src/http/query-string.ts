/**
 * Query strings of the list endpoints: numbers and lists arrive as text. A list filter may be sent as repeated
 * parameters (`status=PENDING&status=FAILED`, OpenAPI's `form` style with `explode`) or as one comma-separated
 * value (`status=PENDING,FAILED`); both reach validation as the same array.
 */
import type { FastifySchemaCompiler, preValidationAsyncHookHandler } from 'fastify';
import { createQueryStringAjv } from './ajv.js';

const queryAjv = createQueryStringAjv();

/** A route's `validatorCompiler` for a schema of its query string only (numbers and one-element lists coerced). */
export const queryStringValidator: FastifySchemaCompiler<unknown> = ({ schema }) => queryAjv.compile(schema as object);

/** A `preValidation` hook turning the named parameters into arrays, comma-separated values split. */
export function splitCommaLists(names: readonly string[]): preValidationAsyncHookHandler {
  return async function splitLists(request) {
    const query = request.query as Record<string, unknown>;
    const split: Record<string, unknown> = { ...query };
    for (const name of names) {
      const value = query[name];
      if (value === undefined) continue;
      const values = Array.isArray(value) ? (value as unknown[]) : [value];
      split[name] = values.flatMap((item) => (typeof item === 'string' ? item.split(',').map((part) => part.trim()) : [item]));
    }
    request.query = split;
  };
}
