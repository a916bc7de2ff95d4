/** The names of the catalogue's banks by id (sandbox and production), for the pages that show a payment's bank. */
import type { CatalogueView } from '../providers/catalogue.js';

export function bankNames(catalogue: CatalogueView): Map<string, string> {
  const names = new Map<string, string>();
  for (const environment of ['sandbox', 'production'] as const) {
    for (const bank of catalogue.banks(environment)) names.set(bank.id, bank.name);
  }
  return names;
}
