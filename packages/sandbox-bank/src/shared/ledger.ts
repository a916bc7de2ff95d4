/**
 * The test payers' money: balances in exact minor units (BigInt), and the one way money moves, a payment's
 * execution. Both standards keep a ledger of this kind; each sandbox app holds its own, so tests never share money
 * (the Berlin Group banks key accounts by IBAN in the fixture's currency, the UK banks by account id in GBP).
 */
import type { PayerOutcome } from './fixtures.js';

/** One transfer of a payment's execution: its amount, and the creditor account when it is held here. */
export interface Booking {
  readonly amountMinor: bigint;
  readonly creditor: string | undefined;
}

/** What a payment's execution did to the ledger. */
export type Execution = 'booked' | 'unknownDebtor' | 'insufficientFunds';

export class Ledger {
  private readonly balances = new Map<string, bigint>();

  /** Opens an account with its opening balance (start-up only). */
  open(account: string, openingMinor: bigint): void {
    this.balances.set(account, openingMinor);
  }

  balance(account: string): bigint | undefined {
    return this.balances.get(account);
  }

  /**
   * Executes a payment of one or more bookings from one debtor (a bulk payment has one per payment): the debtor
   * account must be known and cover their sum (a payment equal to the balance goes through); then it is debited once
   * per booking, and each creditor, when given and held here, credited. All or nothing: a sum not covered books none.
   */
  execute(debtor: string | undefined, bookings: readonly Booking[]): Execution {
    const debtorBalance = debtor === undefined ? undefined : this.balances.get(debtor);
    if (debtor === undefined || debtorBalance === undefined) return 'unknownDebtor';
    const total = bookings.reduce((sum, booking) => sum + booking.amountMinor, 0n);
    if (debtorBalance < total) return 'insufficientFunds';
    for (const { amountMinor, creditor } of bookings) {
      this.balances.set(debtor, (this.balances.get(debtor) ?? 0n) - amountMinor);
      const creditorBalance = creditor === undefined ? undefined : this.balances.get(creditor);
      if (creditor !== undefined && creditorBalance !== undefined) this.balances.set(creditor, creditorBalance + amountMinor);
    }
    return 'booked';
  }
}

/**
 * Where a payment stands on its payer's timeline, counted from the moment it was accepted for execution: still in
 * technical validation for `technicalValidationSeconds`, then due for execution, then settled (for payers whose
 * payments settle) once `settlementSeconds` more have passed.
 */
export function executionTimeline(outcome: PayerOutcome, elapsedMs: number): { readonly executionDue: boolean; readonly settled: boolean } {
  const validationMs = (outcome.technicalValidationSeconds ?? 0) * 1000;
  return {
    executionDue: elapsedMs >= validationMs,
    settled: outcome.execution === 'settle' && elapsedMs >= validationMs + (outcome.settlementSeconds ?? 0) * 1000,
  };
}
