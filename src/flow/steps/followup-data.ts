/**
 * Phase 2: data the bank needs and the request did not carry. Login id and password go into the run's memory
 * only (decisions §7); the sender IBAN becomes part of the payment.
 *
 * What a bank needs is its `requiredPaymentFields`, derived from its connector settings in one place
 * (`requiredPaymentFieldsOf`), so the providers list and this form cannot disagree. What the client sent up front
 * is used and not asked again: a login id sent without the password is given to the bank at once, by registering
 * the payment with it, because it is never kept for a later request; the payer is then asked for the password only.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { Bank } from '../../providers/catalogue.js';
import type { FlowRun } from '../run.js';
import { refuseLogin } from './login.js';
import { initiate } from './payment-registration.js';
import { CONTINUE, STOP, type InputError, type StepResult } from './step-result.js';

export interface FollowupNeeds {
  readonly loginId: boolean;
  readonly password: boolean;
  readonly senderIban: boolean;
}

export function needsPassword(bank: Bank): boolean {
  return bank.requiredPaymentFields.includes('SENDER_PROVIDER_CREDENTIALS_PASSWORD');
}

export function needsLoginId(bank: Bank): boolean {
  return bank.requiredPaymentFields.includes('SENDER_PROVIDER_CREDENTIALS_ID');
}

/**
 * Which of the payer's credentials the bank's authorisation is started with, once the bank holds the payment: the
 * password (embedded banks), or the login id (decoupled banks: it names whose banking app is asked, as UK CIBA's
 * `login_hint`). Neither is kept after the request that brought it (decisions §7), so a start whose answer was lost
 * needs it from the payer again.
 */
export function credentialsToStartAuthorisation(run: FlowRun): { readonly loginId: boolean; readonly password: boolean } {
  const bank = run.bank();
  const password = needsPassword(bank);
  return { password, loginId: !password && needsLoginId(bank) && run.profile().scaApproach === 'DECOUPLED' };
}

/** Whether the bank's authorisation is started with a credential of the payer's (see above). */
export function startsWithCredentials(run: FlowRun): boolean {
  const needs = credentialsToStartAuthorisation(run);
  return needs.loginId || needs.password;
}

/**
 * What is still missing for this run's bank. The bank knows the payer's login id once it registered the payment
 * with it, and has used the password once an authorisation was started with it: neither is asked for again then,
 * except the login id of a decoupled bank whose authorisation is still to be started (it names the payer's app).
 */
export function missingData(run: FlowRun): FollowupNeeds {
  const bank = run.bank();
  return {
    loginId:
      needsLoginId(bank) &&
      run.loginId() === undefined &&
      (run.state.bank?.payment === undefined ||
        (run.state.authorisation?.reference === undefined && credentialsToStartAuthorisation(run).loginId)),
    password: needsPassword(bank) && run.secrets.password === undefined && run.state.authorisation?.reference === undefined,
    senderIban: bank.requiredPaymentFields.includes('SENDER_ACCOUNT') && run.sender()?.account === undefined,
  };
}

export async function checkFollowupData(run: FlowRun): Promise<StepResult> {
  const missing = missingData(run);
  if (!missing.loginId && !missing.password && !missing.senderIban) {
    run.enter('SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING');
    return CONTINUE;
  }
  if (run.loginId() !== undefined && !missing.loginId && !missing.senderIban && run.state.bank?.payment === undefined) {
    // The login id came without the password: the bank gets it now (it is never kept), with the payment.
    const registered = await initiate(run);
    if (!registered.ok && registered.definite) {
      if (registered.code === 'PSU_AUTHENTICATION_FAILED') return refuseLogin(run, () => run.fail('PSU_AUTHENTICATION_FAILED'));
      run.fail(registered.code);
      return CONTINUE;
    }
    // Not reachable: the login id is lost with this request; the payer types it on the form.
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
    run.setState({ senderAccount: { fromPayer: true } });
  }
  run.enter('SENDER_AUTHORIZATION_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}
