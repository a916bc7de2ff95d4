/** The languages of the payer's pages and how a request picks one. */
import { SUPPORTED_LOCALES, type Locale } from '../domain/reference-data.js';

export type { Locale };
export { SUPPORTED_LOCALES };

export function isSupportedLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * The best supported language of an `Accept-Language` header (`de-CH, fr;q=0.8` → `de`), or undefined.
 * Malformed entries and languages we do not have are ignored, as the spec asks of invalid values.
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (header === undefined || header.length > 512) return undefined;
  const candidates = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      const language = /^([a-zA-Z]{2})(?:-[a-zA-Z0-9]{1,8})*$/.exec(tag.trim())?.[1]?.toLowerCase();
      return { language, q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0, index };
    })
    .filter((candidate) => candidate.language !== undefined && candidate.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const candidate of candidates) {
    if (candidate.language !== undefined && isSupportedLocale(candidate.language)) return candidate.language;
  }
  return undefined;
}
