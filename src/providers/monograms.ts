/**
 * The letters on the logos the service draws for banks (src/providers/logos.ts). Taken from the bank's own name,
 * skipping words every sandbox or bank name shares ("Sandbox", "Bank", "Banque" …), and unique within a catalogue:
 * two banks with the same two letters look alike on the payer's list, so a later bank takes its next candidate.
 */

/** Words that tell banks apart poorly: left out when a name has others. */
const GENERIC_WORDS = new Set([
  'of',
  'du',
  'de',
  'des',
  'del',
  'la',
  'le',
  'the',
  'and',
  'sandbox',
  'bank',
  'banks',
  'banque',
  'banca',
  'banco',
  'banka',
  'bankas',
  'group',
]);

function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

function upper(text: string): string {
  return text.toLocaleUpperCase('en');
}

/** A name's monograms in order of preference: initials of its first two telling words, then two letters of the first. */
export function monogramCandidates(name: string): string[] {
  const words = name.split(/[\s\-–/&.,()]+/).filter((word) => /^[\p{L}\p{N}]/u.test(word));
  const telling = words.filter((word) => !GENERIC_WORDS.has(fold(word)));
  const chosen = telling.length > 0 ? telling : words;
  const [first = '?', ...rest] = chosen.map((word) => [...word]);
  const head = first[0] ?? '?';
  const candidates: string[] = [];
  const add = (candidate: string): void => {
    const value = upper(candidate);
    if (!candidates.includes(value)) candidates.push(value);
  };
  for (const word of rest) add(head + (word[0] ?? ''));
  for (const letter of first.slice(1)) add(head + letter);
  for (const word of rest) for (const letter of word.slice(1)) add(head + letter);
  if (candidates.length === 0) add(head);
  return candidates.filter((candidate) => /^[\p{L}\p{N}]+$/u.test(candidate));
}

/**
 * Monograms for every provider of a catalogue, in its order: a given `monogram` is kept (and must be unique), the
 * others get their first candidate not yet taken, or their initial and a number when every candidate is.
 */
export function assignMonograms(
  providers: ReadonlyArray<{ readonly id: string; readonly name: string; readonly monogram?: string | undefined }>,
): Map<string, string> {
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  for (const provider of providers) {
    if (provider.monogram === undefined) continue;
    if (taken.has(provider.monogram))
      throw new Error(`Provider ${provider.id} (${provider.name}): monogram ${provider.monogram} is given twice in the catalogue`);
    taken.add(provider.monogram);
    assigned.set(provider.id, provider.monogram);
  }
  for (const provider of providers) {
    if (assigned.has(provider.id)) continue;
    const candidates = monogramCandidates(provider.name);
    let monogram = candidates.find((candidate) => !taken.has(candidate));
    for (let number = 2; monogram === undefined; number += 1) {
      const numbered = `${candidates[0]?.charAt(0) ?? '?'}${number}`;
      if (!taken.has(numbered)) monogram = numbered;
    }
    taken.add(monogram);
    assigned.set(provider.id, monogram);
  }
  return assigned;
}
