/**
 * Names and statements shown to people: the operator's name, a client's name and display name, a payment's recipient
 * name and address, staff names. What a reader sees must be what the text says (issue 23 item 6):
 * - no control characters (`\p{Cc}`): one line;
 * - no format characters (`\p{Cf}`): invisible characters that change how the text around them is shown, such as
 *   bidi overrides and isolates (U+202E makes `Acme \u202EHbmG` read "Acme GmbH"), zero-width spaces and joiners,
 *   soft hyphens. (Scripts that need a zero-width joiner in names, such as Persian, are refused too: no payer-facing
 *   name in our markets needs one, and a joiner in a merchant name is a spoof far more often than a spelling.)
 * - Unicode NFC: `e` + combining acute and `é` are one name, stored and shown as one.
 */

/** A control or format character. */
const CONTROL = /\p{Cc}/u;
const FORMAT = /\p{Cf}/u;
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}]/gu;
const INVISIBLE_ONE = /^[\p{Cc}\p{Cf}]$/u;

/** Whether a text holds a control or format character anywhere (the whole rule, astral planes included). */
export function hasInvisibleCharacters(text: string): boolean {
  return CONTROL.test(text) || FORMAT.test(text);
}

const hex = (code: number): string => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The rule as a JSON Schema pattern, for the OpenAPI document. Validators differ on the `u` flag (ajv sets it,
 * Spectral does not), and without it `\p{Cf}` means the letters `p{Cf}`: so the pattern names the characters as
 * `\uXXXX` ranges, which read the same either way. They are the Basic Multilingual Plane's `\p{Cc}` and `\p{Cf}`
 * as this Node knows them; the few format characters beyond it (tags, U+E0001…) are refused by `hasInvisibleCharacters`.
 */
export const VISIBLE_TEXT_PATTERN = ((): string => {
  const ranges: string[] = [];
  let start: number | undefined;
  for (let code = 0; code <= 0x10000; code += 1) {
    const invisible = code < 0x10000 && !(code >= 0xd800 && code <= 0xdfff) && INVISIBLE_ONE.test(String.fromCharCode(code));
    if (invisible && start === undefined) start = code;
    if (!invisible && start !== undefined) {
      ranges.push(start === code - 1 ? hex(start) : `${hex(start)}-${hex(code - 1)}`);
      start = undefined;
    }
  }
  return `^[^${ranges.join('')}]*$`;
})();
export const VISIBLE_TEXT_MESSAGE =
  'must not contain control characters or invisible formatting characters (such as right-to-left overrides or zero-width spaces)';

/** The text as it is stored: Unicode NFC. Check it with `displayTextProblem` after normalising. */
export function normalisedDisplayText(text: string): string {
  return text.normalize('NFC');
}

/**
 * Why a text cannot be shown as a name or statement (undefined when it can): one line of at most `maxLength`
 * characters, not blank, without control or format characters. Pass it normalised (`normalisedDisplayText`).
 */
export function displayTextProblem(text: string, maxLength: number): string | undefined {
  if (text.trim() === '') return 'must not be empty';
  if (CONTROL.test(text)) return 'must be one line without control characters';
  if (FORMAT.test(text)) return 'must not contain invisible formatting characters (such as right-to-left overrides or zero-width spaces)';
  if ([...text].length > maxLength) return `must be at most ${maxLength} characters (got ${[...text].length})`;
  return undefined;
}

/**
 * A stored name or reference as a payer is shown it: NFC, without control or format characters. The input rules
 * keep such characters out; this also covers rows written before them and text from elsewhere (a bank's names).
 */
export function payerVisibleText(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE_ALL, '');
}
