/**
 * Fault injection for the UK sandbox banks: the Berlin Group sandbox's `FaultPlan` and fault kinds (delay, 500/503,
 * timeout), with this standard's operations. Test payers' fixture faults name Berlin Group operations; they are
 * carried over to the UK operation with the same intent (`getPaymentStatus` → `getDomesticPayment`, so Julia's
 * status calls fail while `/payment-details` still answers, as her payment resource does at the Berlin Group bank).
 */
import { Type, type Static } from 'typebox';
import { faultRuleSchema, type OperationName } from '../shared/faults.js';

export const UK_OPERATIONS = [
  'createDomesticPaymentConsent',
  'getDomesticPaymentConsent',
  'getFundsConfirmation',
  'createDomesticPayment',
  'getDomesticPayment',
  'getDomesticPaymentDetails',
  'token',
  'backchannelAuthentication',
] as const;
export type UkOperationName = (typeof UK_OPERATIONS)[number];

const UkOperationSchema = Type.Unsafe<UkOperationName>({ type: 'string', enum: [...UK_OPERATIONS] });

export const UkFaultRuleSchema = faultRuleSchema(UkOperationSchema);
export type UkFaultRule = Static<typeof UkFaultRuleSchema>;

/** The UK operations a Berlin Group operation stands for, when a test payer's fixture fault names one. */
export const FROM_BERLIN_GROUP: Readonly<Record<OperationName, readonly UkOperationName[]>> = {
  initiatePayment: ['createDomesticPayment'],
  getPayment: ['getDomesticPaymentDetails'],
  getPaymentStatus: ['getDomesticPayment'],
  cancelPayment: [],
  startAuthorisation: [],
  getAuthorisations: [],
  getScaStatus: [],
  updateAuthorisation: [],
  createConsent: ['createDomesticPaymentConsent'],
  getConsent: ['getDomesticPaymentConsent'],
  getConsentStatus: ['getDomesticPaymentConsent'],
  deleteConsent: [],
  getAccounts: ['getFundsConfirmation'],
  // The UK banks send no status notifications.
  sendNotification: [],
};
