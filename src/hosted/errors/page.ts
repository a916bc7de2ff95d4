/** Pages of refused requests: an unknown or used-up link (404/400) and a form without a valid token (403). */
import { localeFromAcceptLanguage, type Locale } from '../../i18n/locale.js';
import type { OperatorIdentity } from '../../config/config.js';
import { standalonePage } from '../layout/layout.js';

export function browserLocale(acceptLanguage: string | undefined): Locale {
  return localeFromAcceptLanguage(acceptLanguage) ?? 'en';
}

export function invalidLinkPage(locale: Locale, operator: OperatorIdentity): string {
  return standalonePage(locale, 'invalid.heading', 'invalid.intro', operator);
}

export function expiredFormPage(locale: Locale, operator: OperatorIdentity): string {
  return standalonePage(locale, 'expiredForm.heading', 'expiredForm.intro', operator);
}

export function errorPage(locale: Locale, operator: OperatorIdentity): string {
  return standalonePage(locale, 'error.heading', 'error.intro', operator);
}
