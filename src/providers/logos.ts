/**
 * Provider logos and icons, drawn by the service from the catalogue (brand colour and initials), so that
 * `logoUrl` and `iconUrl` work offline and in every environment without image files to manage.
 */
import { escapeHtml } from '../http/escape-html.js';
import type { Bank, BankGroup } from './catalogue.js';

/** "Rheinland Sandbox Bank" → "RS": the first letters of the first two words that are not filler. */
export function initialsOf(name: string): string {
  const words = name.split(/[\s-]+/).filter((word) => /^\p{L}/u.test(word) && !['of', 'du', 'de', 'the'].includes(word.toLowerCase()));
  return words
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

/** A square icon: initials on the brand colour. */
export function iconSvg(provider: Pick<Bank | BankGroup, 'name' | 'brandColor'>): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeHtml(provider.name)}"><rect width="64" height="64" rx="12" fill="${escapeHtml(provider.brandColor)}"/><text x="32" y="41" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700" fill="#ffffff" text-anchor="middle">${escapeHtml(initialsOf(provider.name))}</text></svg>`;
}

/** A wide logo: the icon followed by the bank's name. */
export function logoSvg(provider: Pick<Bank | BankGroup, 'name' | 'brandColor'>): string {
  const width = Math.min(480, 88 + provider.name.length * 11);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64" viewBox="0 0 ${width} 64" role="img" aria-label="${escapeHtml(provider.name)}"><rect width="64" height="64" rx="12" fill="${escapeHtml(provider.brandColor)}"/><text x="32" y="41" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700" fill="#ffffff" text-anchor="middle">${escapeHtml(initialsOf(provider.name))}</text><text x="76" y="40" font-family="Helvetica, Arial, sans-serif" font-size="18" font-weight="600" fill="#1f2937">${escapeHtml(provider.name)}</text></svg>`;
}
