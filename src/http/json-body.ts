/**
 * The one parser of every JSON body the API takes (registered for `application/json` in app.ts). It judges the body
 * on its text, not only on what `JSON.parse` makes of it (issue 23, items 7 and 8):
 * - A key appears once per object. `JSON.parse` keeps the last of repeated keys, so `"amount":0.001,"amount":10.5`
 *   would be a payment of 10.5 to us and of 0.001 to any other reader of the same bytes (a proxy, a log, a signature
 *   check): a repeated key is refused, anywhere in the body, whatever its values.
 * - A number is kept exactly as written or refused. A double holds every decimal of at most 15 significant digits
 *   whose magnitude is between 1e-300 and 1e300, and prints it back as the same decimal; anything else
 *   (`0.0100000000000000001`, a 20-digit integer, `1e400`) would be silently changed by parsing, so it is refused.
 *   Every number the API reads is therefore exactly the client's decimal, and rules on it (an amount's decimals and
 *   range, src/domain/money.ts) judge what the client sent.
 * Syntax and prototype-poisoning checks are Fastify's own (`secure-json-parse`); the keys and number texts come from
 * Microsoft's `jsonc-parser` walking the same text (it runs only on text `JSON.parse` accepted, so it sees strict JSON).
 */
import { errorCodes } from 'fastify';
import { visit, type JSONPath } from 'jsonc-parser';
import secureJson from 'secure-json-parse';
import { MAX_LISTED_VIOLATIONS, ValidationError } from './errors.js';

/** Significant digits a double holds exactly (DBL_DIG). */
export const MAX_SIGNIFICANT_DIGITS = 15;
/** Decimal exponent bounds well inside a double's normal range (about 2.2e-308 to 1.8e308). */
const MAX_MAGNITUDE_EXPONENT = 300;

const JSON_NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** `["metadata","endToEndId"]` → `metadata.endToEndId`, as validation messages write field paths (decisions §2). */
function fieldPath(path: JSONPath): string {
  return path.length === 0 ? 'body' : path.join('.');
}

/** What is wrong with a JSON number's text for us, or undefined when a double holds it exactly. */
function numberRule(text: string): string | undefined {
  // The usual number: at most 15 characters and no exponent, so at most 15 digits between 1e-14 and 1e15.
  if (text.length <= MAX_SIGNIFICANT_DIGITS && !text.includes('e') && !text.includes('E')) return undefined;
  const match = JSON_NUMBER.exec(text);
  if (match === null) return 'must be a number';
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const allDigits = `${whole}${fraction}`;
  const significant = allDigits.replace(/^0+/, '').replace(/0+$/, '');
  if (significant === '') return undefined; // zero
  if (significant.length > MAX_SIGNIFICANT_DIGITS) return `must have at most ${MAX_SIGNIFICANT_DIGITS} significant digits`;
  // The decimal exponent of the leading significant digit: 123.4 → 2, 0.01 → -2, 5e-3 → -3.
  const leadingZeros = allDigits.length - allDigits.replace(/^0+/, '').length;
  const magnitude = Number(exponent) + whole.length - 1 - leadingZeros;
  if (magnitude < -MAX_MAGNITUDE_EXPONENT || magnitude >= MAX_MAGNITUDE_EXPONENT) {
    return `must be zero or between 1e-${MAX_MAGNITUDE_EXPONENT} and 1e${MAX_MAGNITUDE_EXPONENT} in magnitude`;
  }
  return undefined;
}

/** Repeated keys and numbers a double would change, as `<field path> <rule>`: the first ones worded, the rest counted. */
function textViolations(text: string): { violations: string[]; unlisted: number } {
  const violations: string[] = [];
  let unlisted = 0;
  const record = (message: () => string): void => {
    if (violations.length < MAX_LISTED_VIOLATIONS) violations.push(message());
    else unlisted += 1;
  };
  // How often each key has appeared in each object being read, innermost last.
  const keysOfOpenObjects: Map<string, number>[] = [];
  visit(
    text,
    {
      onObjectBegin: () => {
        keysOfOpenObjects.push(new Map());
      },
      onObjectEnd: () => {
        keysOfOpenObjects.pop();
      },
      onObjectProperty: (property, _offset, _length, _line, _column, pathSupplier) => {
        const keys = keysOfOpenObjects[keysOfOpenObjects.length - 1];
        if (keys === undefined) return;
        const seen = (keys.get(property) ?? 0) + 1;
        keys.set(property, seen);
        // Once per repeated key, however often it repeats.
        if (seen === 2) record(() => `${fieldPath([...pathSupplier(), property])} must appear only once`);
      },
      onLiteralValue: (value, offset, length, _line, _column, pathSupplier) => {
        if (typeof value !== 'number') return;
        const rule = numberRule(text.slice(offset, offset + length));
        if (rule !== undefined) record(() => `${fieldPath(pathSupplier())} ${rule}`);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return { violations, unlisted };
}

/**
 * A JSON body's value. Throws Fastify's own errors for an empty body and for text that is not JSON (or poisons
 * prototypes), and a ValidationError (400) listing repeated keys and numbers that would not be kept exactly.
 */
export function parseJsonBody(text: string): unknown {
  if (text === '') throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as unknown;
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  const { violations, unlisted } = textViolations(text);
  if (violations.length > 0) throw new ValidationError(violations, unlisted);
  return value;
}
