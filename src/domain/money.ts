/**
 * Exact money. Amounts arrive as JSON numbers (the spec says so) and leave as decimal strings; in between
 * they never go through floating-point arithmetic. JavaScript prints a double as the shortest decimal that
 * reads back to it. The API's JSON parser refuses every number a double would change (more than 15 significant
 * digits, or out of range: src/http/json-body.ts), so for every number that reaches us that print is exactly the
 * decimal the client wrote (`10.50`, `1.05e1` → `10.5`), and the decimal is recovered from it and worked on as digits.
 */
import currencyCodes from 'currency-codes';

/** Minor-unit digits of an ISO 4217 currency (EUR 2, JPY 0, KWD 3); 2 when ISO gives none (e.g. XAU). */
export function minorUnitDigits(currency: string): number {
  const digits = currencyCodes.code(currency)?.digits;
  return typeof digits === 'number' && digits >= 0 && digits <= 4 ? digits : 2;
}

/** The plain decimal text of a finite JSON number, or undefined when it only has an exponent form. */
function decimalText(amount: number): string | undefined {
  if (!Number.isFinite(amount)) return undefined;
  const text = String(amount);
  return /^-?\d+(\.\d+)?$/.test(text) ? text : undefined;
}

/** How many decimals the number was written with (`10.5` → 1, `7` → 0); undefined for exponent forms. */
export function decimalPlaces(amount: number): number | undefined {
  const text = decimalText(amount);
  if (text === undefined) return undefined;
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/**
 * The amount as a decimal string with exactly the currency's minor-unit digits (`10.5`, EUR → `"10.50"`).
 * Throws when the amount has more decimals than the currency allows: validation rejects those first.
 */
export function toDecimalString(amount: number, currency: string): string {
  const text = decimalText(amount);
  const digits = minorUnitDigits(currency);
  if (text === undefined || text.startsWith('-')) throw new RangeError(`Not a positive decimal amount: ${amount}`);
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > digits) throw new RangeError(`${text} has more than ${digits} decimals for ${currency}`);
  return digits === 0 ? whole : `${whole}.${fraction.padEnd(digits, '0')}`;
}

/** Decimal string → JSON number for responses. Exact for every amount we accept (≤ 15 significant digits). */
export function toJsonNumber(decimal: string): number {
  return Number(decimal);
}

/**
 * Amounts as whole numbers of ten-thousandths of the currency unit (`"10.50"` → 105000): every ISO 4217 currency
 * has at most 4 minor digits, so the value is exact; stored beside the decimal (`payments.amount_scaled`) so that
 * an amount range is an indexable integer comparison whatever the currency.
 */
export const AMOUNT_SCALE_DIGITS = 4;

const DECIMAL_AMOUNT = /^(\d{1,12})(?:\.(\d{1,4}))?$/;

/** `"10.50"` → 105000; undefined for text that is not a plain non-negative decimal with at most 4 decimals. */
export function scaledAmount(decimal: string): number | undefined {
  const match = DECIMAL_AMOUNT.exec(decimal.trim());
  if (match === null) return undefined;
  const [, whole = '0', fraction = ''] = match;
  return Number(whole) * 10 ** AMOUNT_SCALE_DIGITS + Number(fraction.padEnd(AMOUNT_SCALE_DIGITS, '0'));
}

/**
 * A decimal string (`"10.5"`, `"10.50"`) → the same amount with exactly the currency's minor-unit digits (`"10.50"`);
 * undefined for text that is not a plain non-negative decimal or has more decimals than the currency allows.
 */
export function normalisedDecimalString(text: string, currency: string): string | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(text);
  if (match === null) return undefined;
  const [, whole = '0', fraction = ''] = match;
  const digits = minorUnitDigits(currency);
  if (fraction.length > digits) return undefined;
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  return digits === 0 ? wholeDigits : `${wholeDigits}.${fraction.padEnd(digits, '0')}`;
}

/**
 * Whole ten-thousandths (as `scaledAmount` gives them, summed exactly as a bigint) → a decimal string with the
 * currency's minor-unit digits (105000n, EUR → `"10.50"`). Exact for sums of amounts of that currency.
 */
export function decimalFromScaled(scaled: bigint, currency: string): string {
  const digits = minorUnitDigits(currency);
  const negative = scaled < 0n;
  const text = (negative ? -scaled : scaled).toString().padStart(AMOUNT_SCALE_DIGITS + 1, '0');
  const whole = text.slice(0, -AMOUNT_SCALE_DIGITS);
  const fraction = text.slice(-AMOUNT_SCALE_DIGITS, -AMOUNT_SCALE_DIGITS + digits || undefined);
  return `${negative ? '-' : ''}${whole}${digits === 0 ? '' : `.${fraction}`}`;
}

/** The exact sum of decimal amounts of one currency, with the currency's minor-unit digits (`["1.10","2.05"]` → `"3.15"`). */
export function decimalSum(amounts: readonly string[], currency: string): string {
  const total = amounts.reduce((sum, amount) => {
    const scaled = scaledAmount(amount);
    if (scaled === undefined) throw new Error(`Not an exact amount: ${amount}`);
    return sum + BigInt(scaled);
  }, 0n);
  return decimalFromScaled(total, currency);
}
