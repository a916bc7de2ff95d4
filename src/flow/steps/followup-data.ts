/**
 * Phase 2: data the bank needs and the request did not carry. Login id and password go into the run's memory
 * only (decisions §7); the sender IBAN becomes part of the payment.
 *
 * What a bank needs is read from its catalogue entry, generously: `requiredPaymentFields`, and also its first SCA
 * approach (an embedded bank needs the login id and password, a decoupled one the login id), so that a catalogue
 * entry that forgot a field still works. The sender IBAN is asked here only when the bank offers no account list
 * to choose from (then phase 4 resolves it).
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { Bank } from '../../providers/catalogue.js';
import type { FlowRun } from '../run.js';
import { CONTINUE, STOP, type InputError, type StepResult } from './step-result.js';

export interface FollowupNeeds {
  readonly loginId: boolean;
  readonly password: boolean;
  readonly senderIban: boolean;
}

export function needsPassword(bank: Bank): boolean {
  return bank.requiredPaymentFields.includes('SENDER_PROVIDER_CREDENTIALS_PASSWORD') || bank.connector.scaApproaches[0] === 'EMBEDDED';
}

export function needsLoginId(bank: Bank): boolean {
  return (
    needsPassword(bank) ||
    bank.requiredPaymentFields.includes('SENDER_PROVIDER_CREDENTIALS_ID') ||
    bank.connector.scaApproaches[0] === 'DECOUPLED'
  );
}

/** What is still missing for this run's bank. */
export function missingData(run: FlowRun): FollowupNeeds {
  const bank = run.bank();
  const askIban =
    (bank.requiredPaymentFields.includes('SENDER_ACCOUNT') || bank.connector.requiresDebtorAccount) && !bank.connector.accountInformation;
  return {
    loginId: needsLoginId(bank) && run.loginId() === undefined,
    password: needsPassword(bank) && run.secrets.password === undefined,
    senderIban: askIban && run.sender()?.account === undefined,
  };
}

export function checkFollowupData(run: FlowRun): StepResult {
  const missing = missingData(run);
  if (!missing.loginId && !missing.password && !missing.senderIban) {
    run.enter('SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING');
    return CONTINUE;
  }
  run.enter('FOLLOWUP_DATA_COLLECTION_REDIRECT_PENDING');
  return STOP;
}

export interface FollowupForm {
  readonly loginId?: string | undefined;
  readonly password?: string | undefined;
  readonly iban?: string | undefined;
}

const MAX_CREDENTIAL_LENGTH = 256;

/** Checks the credential fields a page asked for; returns the errors (empty when usable). */
export function credentialErrors(form: FollowupForm, asked: { loginId: boolean; password: boolean }): InputError[] {
  const errors: InputError[] = [];
  for (const field of ['loginId', 'password'] as const) {
    if (!asked[field]) continue;
    const value = form[field];
    if (value === undefined || value.trim() === '') errors.push({ field, message: 'required' });
    else if (value.length > MAX_CREDENTIAL_LENGTH) errors.push({ field, message: 'tooLong' });
  }
  return errors;
}

/** The payer submitted the phase 2 form. */
export function submitFollowupData(run: FlowRun, form: FollowupForm): StepResult {
  const missing = missingData(run);
  const errors = credentialErrors(form, missing);
  let iban: string | undefined;
  if (missing.senderIban) {
    iban = electronicFormatIBAN(form.iban ?? '') ?? undefined;
    if (form.iban === undefined || form.iban.trim() === '') errors.push({ field: 'iban', message: 'required' });
    else if (iban === undefined || !isValidIBAN(iban)) errors.push({ field: 'iban', message: 'invalidIban' });
  }
  if (errors.length > 0) return { kind: 'invalid', errors };
  run.secrets = {
    ...run.secrets,
    ...(missing.loginId ? { loginId: (form.loginId ?? '').trim() } : {}),
    ...(missing.password ? { password: form.password ?? '' } : {}),
  };
  run.enter('FOLLOWUP_DATA_COLLECTION_CALLBACK_PROCESSING_PENDING');
  if (iban !== undefined) {
    run.changes = {
      ...run.changes,
      sender: { ...(run.sender() ?? {}), account: { number: { type: 'IBAN', value: iban }, currency: run.payment.currency } },
    };
  }
  run.enter('SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}
