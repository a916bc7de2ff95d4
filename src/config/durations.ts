/** Durations written in settings. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Parses a list of delays such as `5s,5m,30m,2h,5h,10h,10h` (units ms, s, m, h; a bare number is seconds) — the form
 * a retry-delays setting takes. Throws a `RangeError` naming the bad item.
 */
export function parseRetryDelays(text: string): number[] {
  const units: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, '': SECOND };
  return text.split(',').map((item) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(item);
    const amount = match?.[1];
    const unit = units[match?.[2] ?? ''];
    if (amount === undefined || unit === undefined) {
      throw new RangeError(`"${item.trim()}" is not a delay like 5s, 5m, 2h or 500ms`);
    }
    return Math.round(Number(amount) * unit);
  });
}
