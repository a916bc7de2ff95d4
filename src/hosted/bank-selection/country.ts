/**
 * The country the bank list opens on when the client named none: the payer's region as the browser says it
 * (`Accept-Language: de-AT` → Austria), else the country of the payer's language (`de` → Germany), among the
 * countries offered only.
 */

/** The country most payers of a language bank in (languages spoken across many countries map to their home). */
const LANGUAGE_COUNTRY: Readonly<Record<string, string>> = {
  cs: 'CZ',
  da: 'DK',
  de: 'DE',
  en: 'GB',
  es: 'ES',
  et: 'EE',
  fi: 'FI',
  fr: 'FR',
  it: 'IT',
  lt: 'LT',
  lv: 'LV',
  nl: 'NL',
  pl: 'PL',
  pt: 'PT',
  sv: 'SE',
};

interface LanguageTag {
  readonly language: string;
  readonly region: string | undefined;
  readonly q: number;
}

/** The browser's languages, most wanted first (a header longer than a browser sends is ignored). */
export function languageTags(header: string | undefined): LanguageTag[] {
  if (header === undefined || header.length > 512) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      const match = /^([a-zA-Z]{2,3})(?:-([a-zA-Z]{4}))?(?:-([a-zA-Z]{2}))?(?:-[a-zA-Z0-9]{1,8})*$/.exec(tag.trim());
      return {
        language: match?.[1]?.toLowerCase() ?? '',
        region: match?.[3]?.toUpperCase(),
        q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0,
        index,
      };
    })
    .filter((tag) => tag.language !== '' && tag.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ language, region, q }) => ({ language, region, q }));
}

/**
 * The country to preselect from the payer's language (the page's, chosen or from the browser) and the browser's
 * regions: a region of the payer's language first, then any region the browser names, then the language's country,
 * then the countries of the browser's other languages.
 */
export function countryFromLanguage(
  offered: readonly string[],
  payerLanguage: string,
  acceptLanguage: string | undefined,
): string | undefined {
  const tags = languageTags(acceptLanguage);
  const candidates = [
    ...tags.filter((tag) => tag.language === payerLanguage).map((tag) => tag.region),
    ...tags.map((tag) => tag.region),
    LANGUAGE_COUNTRY[payerLanguage],
    ...tags.map((tag) => LANGUAGE_COUNTRY[tag.language]),
  ];
  return candidates.find((code): code is string => code !== undefined && offered.includes(code));
}
