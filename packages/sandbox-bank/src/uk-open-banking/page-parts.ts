/**
 * What the UK sandbox banks' payer pages show alike: the approve and deny buttons, an account's label and the summary
 * of a consent. A file of its own so the pages (payment-pages.ts, bank-app-pages.ts) and their registration
 * (pages.ts) import it without importing each other.
 */
import escapeHtml from 'escape-html';
import { fromMinor } from '../shared/money.js';
import { approveAndRefuseButtons } from '../shared/pages.js';
import type { Consent, UkAccount } from './state.js';

/** Approve and deny (deny works with the login fields empty). */
export const buttons = (label: string, denyLabel = 'Cancel'): string =>
  `<div>${approveAndRefuseButtons(label, { action: 'deny', label: denyLabel })}</div>`;

export function accountLabel(account: UkAccount): string {
  const number = account.sortCodeAccountNumber;
  return `${account.name} – ${number.slice(0, 2)}-${number.slice(2, 4)}-${number.slice(4, 6)} ${number.slice(6)}`;
}

export function consentSummary(consent: Consent, debtor: UkAccount | undefined): string {
  const { initiation } = consent;
  const rows: Array<[string, string]> = [
    ['Amount', `${fromMinor(consent.amountMinor, 'GBP')} ${initiation.InstructedAmount.Currency}`],
    ['To', initiation.CreditorAccount.Name ?? ''],
    [
      initiation.CreditorAccount.SchemeName === 'UK.OBIE.IBAN' ? 'Recipient IBAN' : 'Recipient sort code and account',
      initiation.CreditorAccount.Identification,
    ],
  ];
  if (debtor !== undefined) rows.push(['From', accountLabel(debtor)]);
  const reference = (initiation['RemittanceInformation'] as { Reference?: unknown } | undefined)?.Reference;
  if (typeof reference === 'string') rows.push(['Reference', reference]);
  return `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}
