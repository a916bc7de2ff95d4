/**
 * Banks on the payer's list must not look alike: every drawn logo's monogram is unique within the catalogue (an
 * operator's catalogue too, by construction), and the built-in sandbox banks' colours are clearly apart from each
 * other and carry the white monogram at AA contrast. Popularity ranks are checked like every catalogue field.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { contrastRatio } from '../../src/branding/colour.js';
import { loadCatalogue, parseCatalogue, type Bank, type BankGroup } from '../../src/providers/catalogue.js';
import { assignMonograms, monogramCandidates } from '../../src/providers/monograms.js';

const SANDBOX = 'http://127.0.0.1:1/sandbox-bank';
const builtIn = (): { providers: Array<Record<string, unknown>> } =>
  JSON.parse(readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8')) as {
    providers: Array<Record<string, unknown>>;
  };

/** CIE L*a*b* of an sRGB colour (D65), for the CIE76 colour difference ΔE. */
function lab(hex: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = [1, 3, 5]
    .map((start) => parseInt(hex.slice(start, start + 2), 16) / 255)
    .map((value) => (value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

function deltaE(a: string, b: string): number {
  const [l1, a1, b1] = lab(a);
  const [l2, a2, b2] = lab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

/** Side by side, a ΔE of 15 is an obvious difference (2.3 is the just-noticeable one). */
const DISTINCT_DELTA_E = 15;

function everyProvider(): Array<Bank | BankGroup> {
  const catalogue = loadCatalogue(undefined, SANDBOX);
  return (['sandbox', 'production'] as const).flatMap((environment) =>
    catalogue.list(environment).flatMap((entry) => (entry.kind === 'group' ? [entry, ...entry.subsidiaries] : [entry])),
  );
}

describe('sandbox banks look different from each other', () => {
  it('no two providers share a monogram', () => {
    const providers = everyProvider();
    assert.ok(providers.length > 10);
    const seen = new Map<string, string>();
    for (const provider of providers) {
      assert.match(provider.monogram, /^[\p{Lu}\p{N}]{1,3}$/u, provider.name);
      assert.equal(
        seen.get(provider.monogram),
        undefined,
        `${provider.name} and ${seen.get(provider.monogram)} both show ${provider.monogram}`,
      );
      seen.set(provider.monogram, provider.name);
    }
  });

  it('no two colours are close, and each carries white letters at AA contrast', () => {
    const providers = everyProvider();
    for (const provider of providers) {
      assert.ok(
        contrastRatio(provider.brandColor, '#ffffff') >= 4.5,
        `${provider.name}: ${provider.brandColor} is too light for white letters`,
      );
    }
    for (const [index, first] of providers.entries()) {
      for (const second of providers.slice(index + 1)) {
        const difference = deltaE(first.brandColor, second.brandColor);
        assert.ok(
          difference >= DISTINCT_DELTA_E,
          `${first.name} (${first.brandColor}) and ${second.name} (${second.brandColor}) look alike: ΔE ${difference.toFixed(1)}`,
        );
      }
    }
  });
});

describe('monograms', () => {
  it('come from the telling words of the name, not from "Sandbox" or "Bank"', () => {
    assert.equal(monogramCandidates('Rheinland Sandbox Bank')[0], 'RH');
    assert.equal(monogramCandidates('Crédit Sandbox du Midi')[0], 'CM');
    assert.equal(monogramCandidates('Bank')[0], 'BA');
  });

  it('are made unique in catalogue order; given ones are kept and may not repeat', () => {
    const assigned = assignMonograms([
      { id: '1', name: 'Baltic Bank Latvija' },
      { id: '2', name: 'Baltic Bank Lietuva' },
      { id: '3', name: 'Banco Sol', monogram: 'BL' },
      { id: '4', name: 'Sol' },
    ]);
    // Latvija would be BL, which Banco Sol was given: it takes BA; Lietuva then takes its next free candidate.
    assert.deepEqual([...assigned.entries()].sort(), [
      ['1', 'BA'],
      ['2', 'BT'],
      ['3', 'BL'],
      ['4', 'SO'],
    ]);
    assert.equal(assigned.get('3'), 'BL');
    assert.throws(
      () =>
        assignMonograms([
          { id: '1', name: 'A', monogram: 'XY' },
          { id: '2', name: 'B', monogram: 'XY' },
        ]),
      /monogram XY is given twice/,
    );
  });

  it('even when every candidate of a name is taken', () => {
    const assigned = assignMonograms([
      { id: '1', name: 'Ab' },
      { id: '2', name: 'Ab' },
      { id: '3', name: 'Ab' },
    ]);
    assert.deepEqual([...assigned.values()], ['AB', 'A2', 'A3']);
  });
});

describe('popularRank', () => {
  it('is read from the catalogue, and a rank out of range is refused', () => {
    const catalogue = loadCatalogue(undefined, SANDBOX);
    const rheinland = catalogue.banks('sandbox').find((bank) => bank.name === 'Rheinland Sandbox Bank');
    assert.equal(rheinland?.popularRank, 1);
    const document = builtIn();
    const first = document.providers[0] ?? {};
    first['popularRank'] = 0;
    assert.throws(() => parseCatalogue(document, SANDBOX), /popularRank/);
  });

  it("a subsidiary knows its group's name", () => {
    const lietuva = loadCatalogue(undefined, SANDBOX)
      .banks('sandbox')
      .find((bank) => bank.name === 'Baltic Sandbox Bank Lietuva');
    assert.equal(lietuva?.groupName, 'Baltic Sandbox Group');
  });
});
