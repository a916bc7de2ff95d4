/**
 * Phase 1 (hosted mode): the payer picks a bank on our page. Only banks that can take this payment are offered
 * (scheme, currency, country preferences, remittance length), the same rule the API applies at creation.
 */
import type { Payment } from '../../domain/payment.js';
import type { Bank, ProviderCatalogue } from '../../providers/catalogue.js';
import { eligibleBanks } from '../../providers/eligibility.js';
import type { FlowRun } from '../run.js';
import { CONTINUE, type StepResult } from './step-result.js';

/** Banks (stand-alone and subsidiaries) the payer may choose for this payment. */
export function banksFor(payment: Payment, catalogue: ProviderCatalogue): Bank[] {
  const countries = payment.providerPreferences?.countryCodes?.list;
  return eligibleBanks(catalogue.banks(payment.environment), {
    scheme: payment.paymentScheme,
    currency: payment.currency,
    remittance: payment.remittance,
    ...(countries === undefined ? {} : { countries }),
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
