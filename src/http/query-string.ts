/**
 * Query strings of the list endpoints: numbers and lists arrive as text. A list filter is one comma-separated value
 * (`status=PENDING,FAILED`, OpenAPI's `form` style without `explode`, as the document says) or, equally, repeated
 * parameters (`status=PENDING&status=FAILED`); both reach validation as the same array.
 */
import type { FastifySchemaCompiler, preValidationAsyncHookHandler } from 'fastify';
import { createQueryStringAjv } from './ajv.js';

const queryAjv = createQueryStringAjv();

/** A route's `validatorCompiler` for a schema of its query string only (numbers and one-element lists coerced). */
export const queryStringValidator: FastifySchemaCompiler<unknown> = ({ schema }) => queryAjv.compile(schema as object);

/** A query string's schema, as far as its list parameters are concerned. */
interface QuerySchema {
  readonly properties?: Readonly<Record<string, { readonly type?: unknown }>>;
}

/**
 * The list parameters of a query schema: every array property. The OpenAPI document describes each as one
 * comma-separated value (`style: form, explode: false`, src/http/openapi.ts); repeating the parameter works too.
 */
export function listParameterNames(schema: QuerySchema): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => property.type === 'array')
    .map(([name]) => name);
}

/** A `preValidation` hook turning the list parameters of `schema` into arrays, comma-separated values split. */
export function splitCommaLists(schema: QuerySchema): preValidationAsyncHookHandler {
  const names = listParameterNames(schema);
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
