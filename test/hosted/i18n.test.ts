/**
 * Every language has every key of the English catalogue, none empty, with the same placeholders; a refund's words
 * stand in for a key that exists, with its placeholders and at most the customer refunded besides.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SUPPORTED_LOCALES } from '../../src/i18n/locale.js';
import { CATALOGUES, REFUND_KEY_PREFIX } from '../../src/i18n/messages.js';

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

it('a refund’s words stand in for a key that exists, with its placeholders and at most {recipient} besides', () => {
  for (const locale of SUPPORTED_LOCALES) {
    const catalogue = CATALOGUES[locale] as Readonly<Record<string, string>>;
    const refundKeys = Object.keys(catalogue).filter((key) => key.startsWith(REFUND_KEY_PREFIX));
    assert.ok(refundKeys.length > 40, `${locale} has a refund's words`);
    for (const key of refundKeys) {
      const paymentKey = key.slice(REFUND_KEY_PREFIX.length);
      assert.ok(Object.hasOwn(catalogue, paymentKey), `${locale} ${key} stands in for no key`);
      const allowed = new Set([...placeholders(catalogue[paymentKey] ?? ''), 'recipient']);
      for (const name of placeholders(catalogue[key] ?? ''))
        assert.ok(allowed.has(name), `${locale} ${key} has {${name}}, which ${paymentKey} is not given`);
    }
  }
});
