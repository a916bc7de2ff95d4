/**
 * Turns JSON-Schema (ajv) errors into the spec's validation messages: `<field path> <rule>`, field paths with
 * dots (decisions §2), e.g. `amount must not be less than 0.01`, `recipient should not be empty`,
 * `metadata.foo should not exist`.
 */
import type { ErrorObject } from 'ajv';
import { MAX_LISTED_VIOLATIONS } from './errors.js';
import { codeListMessage, patternMessage } from './string-rules.js';

/** Messages for the string formats our schemas use (ajv.ts); rules written as patterns are in string-rules.ts. */
const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  uuid: 'must be a UUID',
  iban: 'must be a valid IBAN',
  uri: 'must be an absolute URL',
  'date-time': 'must be an ISO 8601 date-time',
};

function typeMessage(type: unknown): string {
  const name = Array.isArray(type) ? type.join(' or ') : String(type);
  if (name === 'object') return 'must be an object';
  if (name === 'array') return 'must be an array';
  if (name === 'integer') return 'must be an integer number';
  if (name === 'null') return 'must be null';
  return `must be a ${name}`;
}

/** `/recipient/account/number/value` → `recipient.account.number.value`. */
function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.length === 0 ? 'body' : parts.join('.');
}

/** `1 element`, `2 elements`. */
function count(limit: unknown, noun: string): string {
  return `${String(limit)} ${noun}${Number(limit) === 1 ? '' : 's'}`;
}

function messageFor(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${fieldPath(error.instancePath, String(params.missingProperty))} should not be empty`;
    case 'additionalProperties':
      return `${fieldPath(error.instancePath, String(params.additionalProperty))} should not exist`;
    case 'type':
      return `${fieldPath(error.instancePath)} ${typeMessage(params.type)}`;
    case 'enum':
    case 'const': {
      const allowed = error.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue];
      const list = allowed.map(String);
      const codeList = codeListMessage(allowed);
      if (codeList !== undefined) return `${fieldPath(error.instancePath)} ${codeList}`;
      return list.length > 12
        ? `${fieldPath(error.instancePath)} must be a valid code`
        : `${fieldPath(error.instancePath)} must be one of the following values: ${list.join(', ')}`;
    }
    case 'minimum':
      return `${fieldPath(error.instancePath)} must not be less than ${String(params.limit)}`;
    case 'maximum':
      return `${fieldPath(error.instancePath)} must not be greater than ${String(params.limit)}`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `${fieldPath(error.instancePath)} should not be empty`
        : `${fieldPath(error.instancePath)} must be longer than or equal to ${count(params.limit, 'character')}`;
    case 'maxLength':
      return `${fieldPath(error.instancePath)} must be shorter than or equal to ${count(params.limit, 'character')}`;
    case 'minItems':
      return `${fieldPath(error.instancePath)} must contain at least ${count(params.limit, 'element')}`;
    case 'maxItems':
      return `${fieldPath(error.instancePath)} must contain no more than ${count(params.limit, 'element')}`;
    case 'uniqueItems':
      return `${fieldPath(error.instancePath)} must not contain duplicates`;
    case 'exclusiveMinimum':
      return `${fieldPath(error.instancePath)} must be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `${fieldPath(error.instancePath)} must be less than ${String(params.limit)}`;
    case 'multipleOf':
      return `${fieldPath(error.instancePath)} must be a multiple of ${String(params.multipleOf)}`;
    case 'minProperties':
      return `${fieldPath(error.instancePath)} should not be empty`;
    case 'maxProperties':
      return `${fieldPath(error.instancePath)} must have no more than ${count(params.limit, 'property')}`.replace(
        'propertys',
        'properties',
      );
    case 'format':
      return `${fieldPath(error.instancePath)} ${FORMAT_MESSAGES[String(params.format)] ?? `must match format ${String(params.format)}`}`;
    case 'pattern':
      return `${fieldPath(error.instancePath)} ${patternMessage(String(params.pattern)) ?? 'has an invalid format'}`;
    default:
      // A keyword our schemas do not use yet: a neutral rule rather than ajv's own wording ("must NOT …").
      return `${fieldPath(error.instancePath)} has an invalid value`;
  }
}

const isWrapper = (error: ErrorObject): boolean => error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if';

/**
 * The distinct messages of a list of ajv errors. `anyOf`/`oneOf` wrapper errors are dropped: their branches
 * already say what is wrong.
 */
export function messagesFor(errors: readonly ErrorObject[]): string[] {
  return [...new Set(errors.filter((error) => !isWrapper(error)).map((error) => messageFor(error)))];
}

/** The first `limit` distinct messages of ajv errors, and how many distinct faults are left unworded. */
export interface LimitedMessages {
  readonly messages: string[];
  readonly unlisted: number;
}

/**
 * Like `messagesFor`, but words only the first `limit` distinct messages; the faults past them are counted by what
 * makes their message (path, keyword, parameters), not worded. ajv itself reports every fault (allErrors): this
 * bounds what is built from them (issue 23 item 9).
 */
export function limitedMessagesFor(errors: readonly ErrorObject[], limit = MAX_LISTED_VIOLATIONS): LimitedMessages {
  const messages: string[] = [];
  const listed = new Set<string>();
  const unlisted = new Set<string>();
  for (const error of errors) {
    if (isWrapper(error)) continue;
    if (messages.length < limit) {
      const message = messageFor(error);
      if (!listed.has(message)) {
        listed.add(message);
        messages.push(message);
      }
    } else {
      unlisted.add(`${error.instancePath}\u0000${error.keyword}\u0000${JSON.stringify(error.params)}`);
    }
  }
  return { messages, unlisted: unlisted.size };
}
