/**
 * The Banks page's "Run the check": the same self-test as `openpis banks check` (src/bank-onboarding/check.ts), run
 * in the background of this process so the page and every other request carry on. One check per bank at a time (a
 * second click while one runs joins it); each is bounded in time, and the last report per bank is kept for the page.
 */
import { checkBank, type BankCheckReport } from '../../bank-onboarding/check.js';
import { onboardingSetup } from '../../bank-onboarding/setup.js';
import { BankRegistrationSecrets } from '../../providers/bank-registrations.js';
import type { ConsoleServices } from '../services.js';

/** Longer than one call's own bound (30 s) times the few calls a sandbox check makes, so the check's reasons win. */
export const CHECK_TIME_LIMIT_MS = 120_000;

export type BankCheckState =
  | { readonly state: 'running'; readonly startedAt: string }
  | { readonly state: 'done'; readonly startedAt: string; readonly report: BankCheckReport }
  | { readonly state: 'error'; readonly startedAt: string; readonly reason: string };

export class BankChecks {
  private readonly states = new Map<string, BankCheckState>();

  constructor(
    private readonly services: ConsoleServices,
    private readonly timeLimitMs = CHECK_TIME_LIMIT_MS,
  ) {}

  /** The running or last check of a bank in this process. */
  stateOf(bankId: string): BankCheckState | undefined {
    return this.states.get(bankId);
  }

  /** Starts the check unless one runs for this bank; answers whether this call started it. */
  start(bankId: string): boolean {
    if (this.states.get(bankId)?.state === 'running') return false;
    const startedAt = this.services.now().toISOString();
    this.states.set(bankId, { state: 'running', startedAt });
    const finished = this.run(bankId).then(
      (report) => this.states.set(bankId, { state: 'done', startedAt, report }),
      (error: unknown) =>
        this.states.set(bankId, { state: 'error', startedAt, reason: error instanceof Error ? error.message : String(error) }),
    );
    this.services.unfinishedWork.add(finished.then(() => undefined));
    return true;
  }

  private async run(bankId: string): Promise<BankCheckReport> {
    const { config, catalogue, bankStore, now } = this.services;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the check did not finish within ${this.timeLimitMs / 1000} s`)), this.timeLimitMs);
    });
    try {
      return await Promise.race([
        checkBank(onboardingSetup(config, catalogue, now), bankId, new BankRegistrationSecrets(bankStore)),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
