/** How the console writes statuses, money, times and durations: one place, so every page reads alike. */
import { html, type SafeHtml } from '../hosted/html.js';
import { topLevelStatus, type DetailedStatus } from '../domain/detailed-status.js';

export function statusClass(detailed: DetailedStatus): 'completed' | 'failed' | 'pending' {
  const status = topLevelStatus(detailed);
  return status === 'COMPLETED' ? 'completed' : status === 'FAILED' ? 'failed' : 'pending';
}

const STATUS_WORD = { completed: 'Completed', failed: 'Failed', pending: 'Pending' } as const;

/** A detailed status with a line-break opportunity after each underscore (they are long words). */
export function breakableStatus(detailed: string): SafeHtml {
  return html`${detailed.split('_').map((part, index, parts) => html`${part}${index < parts.length - 1 ? html`_<wbr>` : ''}`)}`;
}

/** The top-level status as a badge (its word, not colour alone), the detailed status under it. */
export function statusBadge(detailed: DetailedStatus, withDetail = true): SafeHtml {
  const kind = statusClass(detailed);
  return html`<span class="badge ${kind}">${STATUS_WORD[kind]}</span>${withDetail ? html`<span class="detail">${breakableStatus(detailed)}</span>` : ''}`;
}

/** `10.50 EUR` with digit grouping, from the exact decimal (never through a float's rounding). */
export function money(amount: string, currency: string): string {
  const [whole = '0', fraction] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${fraction === undefined ? grouped : `${grouped}.${fraction}`} ${currency}`;
}

/** `2026-11-24 10:15:03 UTC`: times are UTC everywhere in the console, and say so. */
export function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export function timeTag(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${utc(iso)}</time>`;
}

/** A duration for people: `850 ms`, `12.4 s`, `3 min 5 s`, `2 h 4 min`, `3 d 2 h`. */
export function duration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))} ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.floor(seconds % 60)} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A share for people: `50 %`, `14.3 %`, `0 %`; a dash when there is nothing to divide by. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '—';
  const value = Math.round((1000 * part) / whole) / 10;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} %`;
}
