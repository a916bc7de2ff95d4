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

/** A translator for one language; `{name}` placeholders are replaced (the caller escapes the result for HTML). */
export function translator(locale: Locale): Translate {
  const catalogue = CATALOGUES[locale];
  return (key, params = {}) => catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}
