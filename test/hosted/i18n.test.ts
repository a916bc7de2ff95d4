/** Every language has every key of the English catalogue, none empty, with the same placeholders. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SUPPORTED_LOCALES } from '../../src/i18n/locale.js';
import { CATALOGUES } from '../../src/i18n/messages.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();

it('every catalogue has exactly the keys of English, non-empty, with the same placeholders', () => {
  const reference = CATALOGUES.en;
  assert.deepEqual([...SUPPORTED_LOCALES].sort(), ['de', 'en', 'es', 'fr', 'lt']);
  for (const locale of SUPPORTED_LOCALES) {
    const catalogue = CATALOGUES[locale] as Readonly<Record<string, string>>;
    assert.deepEqual(Object.keys(catalogue).sort(), Object.keys(reference).sort(), `keys of ${locale}`);
    for (const [key, english] of Object.entries(reference)) {
      const text = catalogue[key] ?? '';
      assert.ok(text.trim() !== '', `${locale} ${key} is empty`);
      assert.deepEqual(placeholders(text), placeholders(english), `${locale} ${key} placeholders`);
    }
  }
});
