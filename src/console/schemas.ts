/**
 * The building blocks of the console's route schemas (TypeBox, validated by the app's ajv). A form or an address
 * carries text only; a field that may be repeated (checkboxes, a list filter) is text or a list of texts. Unknown
 * fields are let through, as a browser may add some; what a page reads is typed and bounded here. A request that
 * does not fit is answered with the console's 400 page (src/console/replies.ts).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchema, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface } from 'fastify';
import { Type, type TSchema } from 'typebox';

/** The longest query parameter a page reads. */
export const MAX_QUERY_TEXT = 200;
/** The longest form field a page reads (the password fields have their own, lower limit). */
export const MAX_FORM_TEXT = 2000;

export const QueryText = Type.String({ maxLength: MAX_QUERY_TEXT });
export const FormText = Type.String({ maxLength: MAX_FORM_TEXT });

/** A field that may come once or several times. */
export const Repeated = <Item extends TSchema>(item: Item) => Type.Union([item, Type.Array(item, { maxItems: 100 })]);

/** Every value of a field that may be repeated, in order. */
export function allValues(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
}

/** The CSRF field every form carries (checked by the console's hooks before validation, src/console/access.ts). */
export const CsrfField = { _csrf: Type.Optional(FormText) };

/** A form that carries nothing but its CSRF token (a button). */
export const ButtonForm = Type.Object(CsrfField);

/** An address without parameters the page reads. */
export const NoQuery = Type.Object({});

/** `?done=…`: what the page's last form did, said on the page. */
export const DoneQuery = Type.Object({ done: Type.Optional(QueryText) });

/** A row's id in the address (the page looks it up; an unknown one is not found). */
export const IdParam = Type.String({ minLength: 1, maxLength: MAX_QUERY_TEXT });

/**
 * The request a console route's handler gets for its schema (`{ querystring, params, body }` of TypeBox schemas):
 * query, params and body typed as the schema says, so a handler can be a named function beside its schema.
 */
export type RequestOf<Schema extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  Schema,
  TypeBoxTypeProvider
>;
