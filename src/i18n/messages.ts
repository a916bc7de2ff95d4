/**
 * The hosted pages' texts in every supported language. English is the reference; each catalogue is typed to
 * have exactly its keys, and `test/hosted/i18n.test.ts` checks the same at run time (no key missing, none empty,
 * the same `{placeholders}`).
 */
import { de } from './catalogues/de.js';
import { en, type Catalogue, type MessageKey } from './catalogues/en.js';
import { es } from './catalogues/es.js';
import { fr } from './catalogues/fr.js';
import { lt } from './catalogues/lt.js';
import type { Locale } from './locale.js';

export type { Catalogue, MessageKey };

export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = { en, de, fr, es, lt };

/** Names of the languages in themselves, for the language switch. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  lt: 'Lietuvių',
};

export type Translate = (key: MessageKey, params?: Readonly<Record<string, string>>) => string;

/**
 * A refund's pages (docs/api-decisions.md, "Refunds") speak to the merchant's approver paying a customer back, not
 * to a payer: where the words differ, each catalogue has `refund.<key>` beside `<key>`, and a refund's translator
 * says it instead. Those texts may name the customer refunded, `{recipient}`, besides the placeholders of `<key>`.
 */
export interface RefundWording {
  /** The customer paid back (the refund's recipient), as the pages show names. */
  readonly recipient: string;
}

/** The prefix of a refund's words for a key (`refund.page.cancel` for `page.cancel`). */
export const REFUND_KEY_PREFIX = 'refund.';

/**
 * A translator for one language; `{name}` placeholders are replaced (the caller escapes the result for HTML). With
 * `refund`, the refund's words wherever the catalogue has them: the one place the words are picked by payment kind.
 */
export function translator(locale: Locale, refund?: RefundWording): Translate {
  const catalogue = CATALOGUES[locale];
  const fill = (text: string, params: Readonly<Record<string, string>>): string =>
    text.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
  if (refund === undefined) return (key, params = {}) => fill(catalogue[key], params);
  const refundWords = new Map(
    Object.entries(catalogue)
      .filter(([key]) => key.startsWith(REFUND_KEY_PREFIX))
      .map(([key, text]) => [key.slice(REFUND_KEY_PREFIX.length), text]),
  );
  return (key, params = {}) => fill(refundWords.get(key) ?? catalogue[key], { recipient: refund.recipient, ...params });
}
