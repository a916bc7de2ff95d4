/** Pages of refused requests: an unknown or used-up link (404/400) and a form without a valid token (403). */
import { localeFromAcceptLanguage, type Locale } from '../../i18n/locale.js';
import { standalonePage } from '../layout/layout.js';

export function browserLocale(acceptLanguage: string | undefined): Locale {
  return localeFromAcceptLanguage(acceptLanguage) ?? 'en';
}

export function invalidLinkPage(locale: Locale): string {
  return standalonePage(locale, 'invalid.heading', 'invalid.intro');
}

export function expiredFormPage(locale: Locale): string {
  return standalonePage(locale, 'expiredForm.heading', 'expiredForm.intro');
}

export function errorPage(locale: Locale): string {
  return standalonePage(locale, 'error.heading', 'error.intro');
}
