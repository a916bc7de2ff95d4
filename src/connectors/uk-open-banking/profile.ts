/** What a UK Open Banking bank asks of the payer and the flow, from its catalogue settings (the engine reads only this). */
import type { BankProfile } from '../contract.js';
import type { UkOpenBankingSettings } from './settings.js';

const DEFAULT_LOGIN_ATTEMPTS = 3;

/** What a UK bank asks of the payer: nothing for redirect (the account is chosen at the bank), the login id for CIBA. */
export function ukOpenBankingProfile(settings: UkOpenBankingSettings): BankProfile {
  const decoupled = settings.authorisation === 'decoupled';
  return {
    scaApproach: decoupled ? 'DECOUPLED' : 'REDIRECT',
    needsLoginId: decoupled,
    needsPassword: false,
    loginBeforeRegistration: false,
    needsSenderAccount: false,
    senderAccountChosenAtBank: true,
    loginAttempts: settings.loginAttempts ?? DEFAULT_LOGIN_ATTEMPTS,
    // The payer's one-time codes are entered at the bank, never on our pages.
    oneTimeCodeAttempts: 0,
    fundsConfirmation: settings.fundsConfirmation,
    answerTimeoutMs: settings.timeoutMs,
    // Faster Payments route on sort code and account number (`UK.OBIE.SortCodeAccountNumber`).
    paysToUkAccounts: true,
  };
}
