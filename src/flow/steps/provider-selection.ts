/**
 * Phase 1 (hosted mode): the payer picks a bank on our page. Only banks that can take this payment are offered
 * (scheme, currency, country preferences, remittance length), the same rule the API applies at creation.
 */
import { leadsBulk, type Payment } from '../../domain/payment.js';
import type { Bank } from '../../providers/catalogue.js';
import { eligibleBanks } from '../../providers/eligibility.js';
import type { FlowContext, FlowRun } from '../run.js';
import { BACK_TO_BANK_SELECTION } from '../../domain/transitions.js';
import { CONTINUE, STOP, type StepResult } from './step-result.js';

/**
 * Banks (stand-alone and subsidiaries) the payer may choose for this payment. A bulk of refunds (src/flow/
 * refund-bulks.ts) is offered only the banks whose connector makes bulk payments: the approver authorises them once.
 * A refund to a UK payer known by sort code and account number is offered only the banks whose connector pays to
 * one (`paysToUkAccounts`), besides the scheme and currency (GBP) rules every payment has.
 */
export function banksFor(payment: Payment, context: Pick<FlowContext, 'catalogue' | 'connectors'>): Bank[] {
  const countries = payment.providerPreferences?.countryCodes?.list;
  const eligible = eligibleBanks(context.catalogue.banks(payment.environment), {
    scheme: payment.paymentScheme,
    currency: payment.currency,
    remittance: payment.remittance,
    ...(countries === undefined ? {} : { countries }),
  });
  const toUkAccount = payment.recipient.account.number.type === 'SORT_CODE_ACCOUNT_NUMBER';
  if (!leadsBulk(payment) && !toUkAccount) return eligible;
  return eligible.filter((bank) => {
    const connector = context.connectors.for(bank.connector, { bankId: bank.id, clientId: payment.clientId, paymentId: payment.id });
    return (!leadsBulk(payment) || connector.bulkPayments !== undefined) && (!toUkAccount || connector.profile.paysToUkAccounts);
  });
}

/** The payer's choice (already checked to be one of {@link banksFor}). */
export function selectBank(run: FlowRun, bank: Bank): StepResult {
  run.changes = { ...run.changes, providerId: bank.id };
  run.enter('PROVIDER_SELECTION_CALLBACK_PROCESSING_PENDING');
  return CONTINUE;
}

export function processSelection(run: FlowRun): StepResult {
  run.enter('FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}

/**
 * The payer goes back to the bank list (checked by the engine: hosted mode, no bank holds the payment). Whatever the
 * earlier bank left is dropped so the next bank starts clean: its references, offered accounts and methods, refusal
 * counts, the callback; an account-information consent granted there is simply abandoned (it expires at that bank).
 * Only the page key stays. The bank and a sender account the payer gave for it are forgotten with it.
 */
export function returnToBankSelection(run: FlowRun): StepResult {
  const sender = run.sender();
  if (run.state.senderAccount?.fromPayer === true && sender !== null) {
    const { account: _forgotten, ...rest } = sender;
    run.changes = { ...run.changes, sender: Object.keys(rest).length === 0 ? null : rest };
  }
  run.changes = { ...run.changes, providerId: null };
  run.state = run.state.page?.key === undefined ? {} : { page: { key: run.state.page.key } };
  run.enter(BACK_TO_BANK_SELECTION);
  return STOP;
}
