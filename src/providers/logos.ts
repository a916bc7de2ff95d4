/**
 * Provider logos and icons, drawn by the service from the catalogue (brand colour and monogram, src/providers/monograms.ts), so that
 * `logoUrl` and `iconUrl` work offline and in every environment without image files to manage.
 */
import { escapeHtml } from '../http/escape-html.js';
import type { Bank, BankGroup } from './catalogue.js';

/** A square icon: initials on the brand colour. */
export function iconSvg(provider: Pick<Bank | BankGroup, 'name' | 'brandColor' | 'monogram'>): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeHtml(provider.name)}"><rect width="64" height="64" rx="12" fill="${escapeHtml(provider.brandColor)}"/><text x="32" y="41" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700" fill="#ffffff" text-anchor="middle">${escapeHtml(provider.monogram)}</text></svg>`;
}

/** A wide logo: the icon followed by the bank's name. */
export function logoSvg(provider: Pick<Bank | BankGroup, 'name' | 'brandColor' | 'monogram'>): string {
  const width = Math.min(480, 88 + provider.name.length * 11);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64" viewBox="0 0 ${width} 64" role="img" aria-label="${escapeHtml(provider.name)}"><rect width="64" height="64" rx="12" fill="${escapeHtml(provider.brandColor)}"/><text x="32" y="41" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700" fill="#ffffff" text-anchor="middle">${escapeHtml(provider.monogram)}</text><text x="76" y="40" font-family="Helvetica, Arial, sans-serif" font-size="18" font-weight="600" fill="#1f2937">${escapeHtml(provider.name)}</text></svg>`;
}
