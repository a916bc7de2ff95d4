/**
 * Phase 4: the sender account, for banks that need it in the payment (the profile's `needsSenderAccount`) when
 * the client sent none and the bank's connector offers account information: a one-off consent at the bank (the payer grants it on the
 * bank's pages), the account list, then our selection page, skipped when exactly one account fits (an enabled
 * account with an IBAN in the payment's currency, or a multi-currency one).
 */
import type { BankAccount } from '../../connectors/index.js';
import type { OfferedAccount } from '../flow-state.js';
import type { FlowRun } from '../run.js';
import { callBank } from './bank-errors.js';
import { newCallback } from './callback.js';
import { startReconciling } from './reconciliation.js';
import { BANK_UNAVAILABLE, CONTINUE, STOP, type StepResult } from './step-result.js';

/** Whether the run's bank will ask for an account-information consent before the payment (the payer logs in twice). */
export function needsAccountConsent(run: FlowRun): boolean {
  const connector = run.connector();
  const { needsSenderAccount, senderAccountChosenAtBank } = connector.profile;
  return (
    needsSenderAccount && !senderAccountChosenAtBank && connector.accountInformation !== undefined && run.sender()?.account === undefined
  );
}

export function checkSenderAccount(run: FlowRun): StepResult {
  if (needsAccountConsent(run)) {
    run.enter('SENDER_ACCOUNT_INFORMATION_CONSENT_REQUIRED_CHECK_PENDING');
  } else {
    run.enter('PAYMENT_REGISTRATION_PENDING');
  }
  return CONTINUE;
}

export async function requestConsent(run: FlowRun): Promise<StepResult> {
  if (run.profile().scaApproach !== 'REDIRECT') {
    // Consents are authorised on the bank's pages only; a bank offering account information otherwise is not supported yet.
    run.fail('BANK_REJECTED');
    return CONTINUE;
  }
  const returnAddress = newCallback(run, 'consent');
  const loginId = run.loginId();
  const created = await callBank(() =>
    run.accountInformation().createConsent({
      context: run.callContext(),
      returnAddress,
      ...(loginId === undefined ? {} : { psuId: loginId }),
    }),
  );
  if (!created.ok) {
    if (!created.definite) return BANK_UNAVAILABLE;
    run.fail(created.code);
    return CONTINUE;
  }
  const { consent, next, authorisation } = created.value;
  run.setState({ senderAccount: { consent, ...(authorisation === undefined ? {} : { consentAuthorisation: authorisation }) } });
  if (next.kind === 'authorised') {
    run.enter('SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING');
    return CONTINUE;
  }
  if (next.kind !== 'redirect') {
    run.fail('BANK_REJECTED');
    return CONTINUE;
  }
  run.setState({ authorisation: { bankRedirectUrl: next.url } });
  run.enter('SENDER_ACCOUNT_INFORMATION_CONSENT_REDIRECT_PENDING');
  return { kind: 'redirect', url: next.url };
}

/**
 * The payer came back from granting (or refusing) the consent; the run is at its CALLBACK_PROCESSING status. The
 * payer's return is processed from that status committed (with the callback spent): a run that dies after the bank
 * answered the consent's status or the account list leaves the payment there, with the bank-status job due, which
 * resumes this step (`resume` in the step table) and asks the bank again. The bank's pages, already done, would
 * lead the payer nowhere: the return is not asked of the payer twice. Resumed by the job, the consent's status
 * alone tells.
 */
export async function processConsent(run: FlowRun): Promise<StepResult> {
  const consent = run.state.senderAccount?.consent;
  if (consent === undefined) throw new Error('No consent to process');
  if (run.bankReturn !== undefined) await run.commitProgress();
  const accountInformation = run.accountInformation();
  const returned = run.bankReturn;
  const authorisation = run.state.senderAccount?.consentAuthorisation;
  if (returned !== undefined && authorisation !== undefined) {
    // What the payer's browser brought back is the connector's to read (and, in some standards, to act on).
    run.bankReturn = undefined;
    const completed = await callBank(() =>
      accountInformation.completeConsentAuthorisation({ context: run.callContext(), consent, authorisation, returned }),
    );
    if (!completed.ok) {
      if (!completed.definite) return startReconciling(run);
      run.fail(completed.code);
      return CONTINUE;
    }
    run.setState({ senderAccount: { consentAuthorisation: completed.value.authorisation } });
  }
  const status = await callBank(() => accountInformation.getConsentStatus({ context: run.callContext(), consent }));
  if (!status.ok) {
    if (!status.definite) return startReconciling(run);
    run.fail(status.code);
    return CONTINUE;
  }
  if (status.value.state === 'valid') {
    run.setState({ authorisation: { bankRedirectUrl: undefined }, reconciliation: { reconciling: undefined } });
    run.enter('SENDER_ACCOUNT_LIST_RETRIEVAL_PENDING');
    return CONTINUE;
  }
  // Refused, or still not granted when the payer is back: the payer left the bank's pages without granting it.
  run.fail(run.returnedNok ? 'PSU_CANCELLED' : 'CONSENT_REJECTED');
  return CONTINUE;
}

function eligible(accounts: readonly BankAccount[], currency: string): OfferedAccount[] {
  return accounts
    .filter(
      (account) =>
        account.status === 'enabled' && account.iban !== undefined && (account.currency === currency || account.currency === 'XXX'),
    )
    .map((account) => ({
      iban: account.iban as string,
      currency: account.currency === 'XXX' ? currency : account.currency,
      ...((account.displayName ?? account.name) === undefined ? {} : { name: account.displayName ?? account.name }),
    }));
}

export async function retrieveAccounts(run: FlowRun): Promise<StepResult> {
  const consent = run.state.senderAccount?.consent;
  if (consent === undefined) throw new Error('No consent to read accounts with');
  const listed = await callBank(() => run.accountInformation().listAccounts({ context: run.callContext(), consent }));
  if (!listed.ok) {
    if (!listed.definite) return startReconciling(run);
    run.fail(listed.code);
    return CONTINUE;
  }
  run.setState({ senderAccount: { accounts: eligible(listed.value, run.payment.currency) }, reconciliation: { reconciling: undefined } });
  run.enter('SENDER_ACCOUNT_SELECTION_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}

function useAccount(run: FlowRun, account: OfferedAccount): void {
  run.changes = {
    ...run.changes,
    sender: { ...(run.sender() ?? {}), account: { number: { type: 'IBAN', value: account.iban }, currency: account.currency } },
  };
  run.setState({ senderAccount: { fromPayer: true } });
}

export function checkAccountSelection(run: FlowRun): StepResult {
  const accounts = run.state.senderAccount?.accounts ?? [];
  const [only] = accounts;
  if (only === undefined) {
    run.fail('INVALID_SENDER_DATA');
    return CONTINUE;
  }
  if (accounts.length === 1) {
    useAccount(run, only);
    run.enter('PAYMENT_REGISTRATION_PENDING');
    return CONTINUE;
  }
  run.enter('SENDER_ACCOUNT_SELECTION_REDIRECT_PENDING');
  return STOP;
}

/** The payer chose an account on our page (already checked to be one offered). */
export function selectAccount(run: FlowRun, account: OfferedAccount): StepResult {
  run.enter('SENDER_ACCOUNT_SELECTION_CALLBACK_PROCESSING_PENDING');
  useAccount(run, account);
  run.enter('PAYMENT_REGISTRATION_PENDING');
  return CONTINUE;
}
