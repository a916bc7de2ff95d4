/**
 * Reads settings from the process environment by a JSON Schema: the plain copy (src/config/schema.generated.ts) of
 * the TypeBox schema in src/config/schema.ts. It understands the part of JSON Schema that schema uses, and coerces
 * as an operator writes environment variables: whole numbers, decimals, true/false (also 1/0 and yes/no, in any
 * case), one of a list of words, comma-separated lists, and strings checked by a named `format`. Every problem is
 * collected, with the variable's name, so a misconfigured service lists them all at once.
 *
 * Why not Ajv or TypeBox's Value module: the CLI reads the configuration on every command, and TypeBox (hundreds of
 * modules) would more than double its start; Ajv's coercion reads "1e3" as a whole number and knows no yes/no, and
 * its messages would be translated back into these anyway (docs/adr/0008-configuration-schema.md).
 */

/** What the documents read of a setting (src/config/schema.ts); the interpreter ignores it. */
interface Annotations {
  readonly description?: string;
  /** What leaving a setting without a default unset means. */
  readonly 'x-unset'?: string;
}

/** A string setting: free text, at least `minLength` long, or checked by a named `format`. */
export interface StringSettingSchema extends Annotations {
  readonly type: 'string';
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly default?: string;
}

/** The JSON Schema of one setting, as far as the interpreter reads it. */
export type SettingJsonSchema = Annotations &
  (
    | { readonly type: 'integer' | 'number'; readonly minimum: number; readonly maximum: number; readonly default?: number }
    | { readonly type: 'boolean'; readonly default?: boolean }
    | StringSettingSchema
    | { readonly enum: readonly string[]; readonly default?: string }
    | { readonly type: 'array'; readonly items: { readonly type: 'string' } }
    | { readonly anyOf: readonly SettingJsonSchema[]; readonly default?: boolean | string }
  );

/** The schema of the whole environment: an object of settings. */
export interface EnvironmentJsonSchema {
  readonly type: 'object';
  readonly required?: readonly string[];
  readonly properties: Readonly<Record<string, SettingJsonSchema>>;
}

/**
 * A check of a string setting JSON Schema cannot express: the problems of a value (none: it is valid), each a whole
 * message naming the variable (some read better as "SECRET_KEYS: key 2 …" than as "<name> must …").
 */
export type FormatCheck = (value: string, name: string, schema: StringSettingSchema) => readonly string[];

type SettingValue = number | boolean | string | readonly string[];

/** A value coerced, or why it cannot be (whole messages). */
type Coerced = { readonly value: SettingValue } | { readonly problems: readonly string[] };

/**
 * The settings of `environment` by `schema`: each variable coerced and checked, its default when it is unset (a
 * default is written as the variable would be, and checked the same way). Problems are returned, not thrown.
 */
export function readSettings(
  schema: EnvironmentJsonSchema,
  environment: Readonly<Record<string, string | undefined>>,
  formats: Readonly<Record<string, FormatCheck>>,
): { readonly settings: Record<string, SettingValue | undefined>; readonly problems: string[] } {
  const settings: Record<string, SettingValue | undefined> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(schema.properties)) {
    const given = environment[name]?.trim();
    const raw = given === undefined || given === '' ? defaultText(setting) : given;
    if (raw === undefined) {
      settings[name] = undefined;
      continue;
    }
    const coerced = coerce(name, raw, setting, formats);
    if ('problems' in coerced) problems.push(...coerced.problems);
    else settings[name] = coerced.value;
  }
  return { settings, problems };
}

function defaultText(setting: SettingJsonSchema): string | undefined {
  if (!('default' in setting) || setting.default === undefined) return undefined;
  return String(setting.default);
}

const TRUE = ['true', '1', 'yes'];
const FALSE = ['false', '0', 'no'];

function coerce(name: string, raw: string, setting: SettingJsonSchema, formats: Readonly<Record<string, FormatCheck>>): Coerced {
  const refused = (text: string): Coerced => ({ problems: [`${name} ${text}`] });
  if ('anyOf' in setting) {
    // The first branch the value fits; else the last branch's problems.
    let last: Coerced = refused('fits none of its forms');
    for (const branch of setting.anyOf) {
      last = coerce(name, raw, branch, formats);
      if ('value' in last) return last;
    }
    return last;
  }
  if ('enum' in setting) {
    const found = setting.enum.find((allowed) => allowed === raw);
    return found === undefined ? refused(`must be one of ${setting.enum.join(', ')} (got "${raw}")`) : { value: found };
  }
  switch (setting.type) {
    case 'integer': {
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < setting.minimum || value > setting.maximum) {
        return refused(`must be a whole number from ${setting.minimum} to ${setting.maximum} (got "${raw}")`);
      }
      return { value };
    }
    case 'number': {
      const value = Number(raw);
      if (!/^\d+(\.\d+)?$/.test(raw) || value < setting.minimum || value > setting.maximum) {
        return refused(`must be a number from ${setting.minimum} to ${setting.maximum} (got "${raw}")`);
      }
      return { value };
    }
    case 'boolean': {
      if (TRUE.includes(raw.toLowerCase())) return { value: true };
      if (FALSE.includes(raw.toLowerCase())) return { value: false };
      return refused(`must be true or false (got "${raw}")`);
    }
    case 'array':
      return {
        value: raw
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      };
    case 'string': {
      if (setting.format !== undefined) {
        const check = formats[setting.format];
        if (check === undefined) throw new Error(`No check for the setting format "${setting.format}"`);
        const problems = check(raw, name, setting);
        return problems.length === 0 ? { value: raw } : { problems };
      }
      if (setting.minLength !== undefined && raw.length < setting.minLength)
        return refused(`must be at least ${setting.minLength} characters`);
      return { value: raw };
    }
  }
}
