/**
 * Query strings of the list endpoints: numbers and lists arrive as text. A list filter is one comma-separated value
 * (`status=PENDING,FAILED`, OpenAPI's `form` style without `explode`, as the document says) or, equally, repeated
 * parameters (`status=PENDING&status=FAILED`); both reach validation as the same array.
 */
import type { FastifySchemaCompiler, preValidationAsyncHookHandler } from 'fastify';
import type { ErrorObject } from 'ajv';
import { createQueryStringAjv } from './ajv.js';

const queryAjv = createQueryStringAjv();

/** Digits only: how a whole number is written in a query string. */
const INTEGER_TEXT = /^-?\d+$/;

/**
 * A route's `validatorCompiler` for a schema of its query string only (numbers and one-element lists coerced).
 * A number parameter is judged on its text: ajv's coercion reads `limit=20.0000000000000001`, `1e1` or ` 2` as a
 * whole number through a float, so a parameter of type integer must be written as digits (issue 23 item 7).
 */
export const queryStringValidator: FastifySchemaCompiler<unknown> = ({ schema }) => {
  const validate = queryAjv.compile(schema as object);
  const integerNames = Object.entries((schema as QuerySchema).properties ?? {})
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
  const check = (data: unknown): boolean => {
    const query = data as Record<string, unknown>;
    const notDigits: ErrorObject[] = integerNames
      .filter((name) => typeof query[name] === 'string' && !INTEGER_TEXT.test(query[name]))
      .map((name) => ({ keyword: 'type', instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, params: { type: 'integer' } }));
    const valid = validate(data);
    const errors = [...notDigits, ...(valid ? [] : (validate.errors ?? []))];
    check.errors = errors.length === 0 ? null : errors;
    return errors.length === 0;
  };
  check.errors = null as ErrorObject[] | null;
  return check;
};

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
