/**
 * How the standards' OpenAPI files are read where they cannot be taken literally by a JSON Schema validator (ajv):
 * shared by the tests that check the sandbox banks against the files (test/sandbox-bank/standard.ts) and by the
 * compact schema set `openpis banks check` validates answers with (scripts/standard-schemas.ts).
 *
 * - `oneOf` over variants that all admit extra properties (they overlap, so "exactly one" can never hold) is read as
 *   `anyOf`; the empty schema `{}` among variants means "empty body";
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` (OpenAPI 3.0) become their numeric form;
 * - Berlin Group: `tppMessageGeneric.code`, which points at the category enum (ERROR/WARNING) instead of a message
 *   code, is read as a message code string.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The generic readings, applied to a copy of the document. */
export function adaptOpenApi(node: Json): Json {
  if (Array.isArray(node)) return node.map(adaptOpenApi);
  if (!isJsonObject(node)) return node;
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    // OpenAPI 3.0 writes exclusive bounds as booleans beside minimum/maximum (draft 4); ajv wants numbers.
    if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      const bound = node[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
      if (value && typeof bound === 'number') result[key] = bound;
      continue;
    }
    if ((key === 'oneOf' || key === 'anyOf') && Array.isArray(value)) {
      result['anyOf'] = value.map((item) =>
        isJsonObject(item) && Object.keys(item).length === 0 ? { type: 'object', maxProperties: 0 } : adaptOpenApi(item),
      );
    } else {
      result[key] = adaptOpenApi(value);
    }
  }
  return result;
}

/** The Berlin Group reading (see the file comment), on an adapted document. */
export function berlinGroupReadings(document: JsonObject): void {
  const schemas = (document['components'] as JsonObject)['schemas'] as JsonObject;
  const generic = schemas['tppMessageGeneric'] as JsonObject;
  (generic['properties'] as JsonObject)['code'] = { type: 'string', maxLength: 70 };
}
