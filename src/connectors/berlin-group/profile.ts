/** What a Berlin Group bank asks of the payer and the flow, from its catalogue settings (the engine reads only this). */
import { DEFAULT_AUTHENTICATION_ATTEMPTS, type BankProfile } from '../contract.js';
import type { BerlinGroupSettings } from './settings.js';

export function berlinGroupProfile(settings: BerlinGroupSettings): BankProfile {
  // The flow uses the bank's preferred approach; the catalogue schema guarantees one.
  const scaApproach = settings.scaApproaches[0] ?? 'REDIRECT';
  return {
    scaApproach,
    // Embedded: the payer logs in through the API; decoupled: the bank finds the payer's app by the login id.
    needsLoginId: scaApproach === 'EMBEDDED' || scaApproach === 'DECOUPLED',
    needsPassword: scaApproach === 'EMBEDDED',
    loginBeforeRegistration: settings.requiresSenderAuthorization,
    needsSenderAccount: settings.requiresDebtorAccount,
    // The standard's payment initiation carries the debtor account; the bank never asks for it on its pages.
    senderAccountChosenAtBank: false,
    // Berlin Group answers do not say how many attempts are left: the catalogue tells the bank's limits.
    loginAttempts: settings.loginAttempts ?? DEFAULT_AUTHENTICATION_ATTEMPTS,
    oneTimeCodeAttempts: settings.oneTimeCodeAttempts ?? DEFAULT_AUTHENTICATION_ATTEMPTS,
    fundsConfirmation: false,
    answerTimeoutMs: settings.timeoutMs,
    statusNotifications: settings.statusNotifications === true,
    // The standard's creditor account here is an IBAN (or another reference the bank knows), never a UK sort code.
    paysToUkAccounts: false,
  };
}

/** Whether the bank's embedded steps (password, SCA method choice, one-time code on our pages) can be reached. */
export function offersEmbeddedSteps(settings: BerlinGroupSettings): boolean {
  // Decoupled banks may ask for the login id or the choice of the payer's app through the same embedded links.
  return settings.scaApproaches.includes('EMBEDDED') || settings.scaApproaches.includes('DECOUPLED');
}
