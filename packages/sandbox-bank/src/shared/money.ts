/**
 * Exact money arithmetic for the sandbox bank: amounts travel as decimal strings (the standard's `amountValue`)
 * and are held as BigInt minor units, so a balance check never meets a floating-point rounding error.
 */

/** ISO 4217 minor units of the currencies the sandbox banks hold; anything else is treated as 2. */
const MINOR_UNITS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, ISK: 0, BHD: 3, KWD: 3, OMR: 3, TND: 3 };

export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

const DECIMAL = /^(-?)(\d{1,14})(?:\.(\d{1,3}))?$/;

/** Parses a decimal string into minor units; undefined when malformed or more precise than the currency allows. */
export function toMinor(amount: string, currency: string): bigint | undefined {
  const match = DECIMAL.exec(amount);
  if (match === null) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const digits = minorUnits(currency);
  if (fraction.length > digits) return undefined;
  const value = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0');
  return sign === '-' ? -value : value;
}

/** Formats minor units as a decimal string with exactly the currency's number of decimals. */
export function fromMinor(value: bigint, currency: string): string {
  const digits = minorUnits(currency);
  const negative = value < 0n;
  const absolute = negative ? -value : value;
  const scale = 10n ** BigInt(digits);
  const whole = (absolute / scale).toString();
  const fraction = digits === 0 ? '' : `.${(absolute % scale).toString().padStart(digits, '0')}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
