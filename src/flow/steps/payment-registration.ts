/**
 * Phase 5: the payment is registered with the bank (the connector's `registerPayment`). It may be registered already (phase 3 for
 * embedded banks that need the payer's login first, or phase 2 with a login id sent alone); then this step only
 * records the status. The login id goes with the registration (`PSU-ID`): a bank that does not know it refuses the
 * login, which the payer may then correct (see `login.ts`).
 */
import type { CreditorAccount, PaymentOrder, RegisterPaymentInput, RegistrationResult } from '../../connectors/index.js';
import { splitSortCodeAccountNumber, type Payment, type RecipientAccountNumber, type SenderDetails } from '../../domain/payment.js';
import type { Bank } from '../../providers/catalogue.js';
import type { FlowRun } from '../run.js';
import type { BankCall } from './bank-errors.js';
import { callbackOfRun } from './callback.js';
import { refuseLogin } from './login.js';
import { notificationUriOf, recordNotificationSupport } from './notification.js';
import { BANK_UNAVAILABLE, CONTINUE, type StepResult } from './step-result.js';

/** SEPA end-to-end identification: at most 35 characters of the SEPA character set (decisions §2). */
const SEPA_REFERENCE = /^[A-Za-z0-9/?:().,'+ -]{1,35}$/;

/** The reference the bank gets: the client's when it fits, else one derived from our payment id (kept in the flow state). */
export function bankEndToEndId(payment: Pick<Payment, 'id' | 'endToEndId'>): string {
  if (SEPA_REFERENCE.test(payment.endToEndId) && !/^\/|\/\/|\/$/.test(payment.endToEndId)) return payment.endToEndId;
  return payment.id.replace(/-/g, '');
}

/** The account the bank pays to, in the contract's terms: an IBAN, or a refund's UK payer by sort code and account number. */
function creditorAccountOf(number: RecipientAccountNumber): CreditorAccount {
  if (number.type !== 'SORT_CODE_ACCOUNT_NUMBER') return { iban: number.value };
  return {
    ukAccount: {
      ...splitSortCodeAccountNumber(number.value),
      ...(number.rollNumber === undefined ? {} : { rollNumber: number.rollNumber }),
    },
  };
}

/** The order the bank gets for `payment`, from `senderAccount` when known, the remittance cut to the bank's limit. */
function orderOf(payment: Payment, bank: Bank, senderAccount: SenderDetails['account']): PaymentOrder {
  const remittance = payment.remittance.truncate ? payment.remittance.value.slice(0, bank.remittanceMaxLength) : payment.remittance.value;
  return {
    endToEndId: bankEndToEndId(payment),
    amount: payment.amount,
    currency: payment.currency,
    scheme: payment.paymentScheme,
    instantPreferred: payment.schemeMode === 'INSTANT',
    creditor: { ...creditorAccountOf(payment.recipient.account.number), name: payment.recipient.name, address: payment.recipient.address },
    ...(senderAccount === undefined ? {} : { debtor: { iban: senderAccount.number.value, currency: senderAccount.currency } }),
    remittanceInformation: remittance,
  };
}

export function paymentOrder(run: FlowRun): PaymentOrder {
  return orderOf(run.payment, run.bank(), run.sender()?.account);
}

/**
 * Registers the run's payment: on its own, or, for a bulk's leader, as one bulk payment carrying the leader and its
 * followers (src/flow/refund-bulks.ts), each paid from the merchant's account the refunds share.
 */
function registration(run: FlowRun, common: Omit<RegisterPaymentInput, 'payment'>): Promise<RegistrationResult> {
  const connector = run.connector();
  if (run.bulkFollowers.length === 0) return connector.registerPayment({ ...common, payment: paymentOrder(run) });
  const bulk = connector.bulkPayments;
  // The bank list offers a bulk only the banks that make bulk payments (`banksFor`): another is our bug.
  if (bulk === undefined) throw new Error(`Payment ${run.payment.id} leads a bulk, but its bank makes no bulk payments`);
  const bank = run.bank();
  return bulk.registerBulkPayment({
    ...common,
    payments: [paymentOrder(run), ...run.bulkFollowers.map((follower) => orderOf(follower, bank, follower.sender?.account))],
  });
}

/** Registers the payment at the bank and keeps its references in the run. */
export async function initiate(run: FlowRun): Promise<BankCall<true>> {
  const connector = run.connector();
  // The bank sends the payer back to us only in the redirect approach; the same callback serves the authorisation.
  const returnAddress = connector.profile.scaApproach === 'REDIRECT' ? callbackOfRun(run, 'payment') : undefined;
  const endToEndId = bankEndToEndId(run.payment);
  const loginId = run.loginId();
  const notificationUri = notificationUriOf(run);
  const register = (): Promise<RegistrationResult> =>
    registration(run, {
      context: run.callContext(),
      // Our payment id: a retried registration of the same payment is the same one, where the standard can tell.
      idempotencyKey: run.payment.id,
      ...(returnAddress === undefined ? {} : { returnAddress }),
      ...(loginId === undefined ? {} : { psuId: loginId }),
      ...(notificationUri === undefined ? {} : { notificationUri }),
    });
  let result = await run.send('registerPayment', register);
  // A registration whose answer was lost is sent once more at once: what it may have left at the bank cannot execute
  // (an unauthorised payment, a UK consent, which the idempotency key makes the same one), and the credentials this
  // request carries are gone after it, so a second try now spares the payer (or a payer-less creation) the form.
  if (!result.ok && !result.definite) {
    run.log.info(
      { paymentId: run.payment.id, requestId: run.requestId, err: result.error.message },
      'registration unanswered; sent once more',
    );
    result = await run.send('registerPayment', register);
  }
  if (!result.ok) return result;
  const registered = result.value;
  run.registeredInRun = true;
  run.next = registered.next;
  run.changes = { ...run.changes, providerPaymentId: registered.providerPaymentId };
  run.setState({
    bank: {
      payment: registered.payment,
      ...(endToEndId === run.payment.endToEndId ? {} : { endToEndId }),
    },
    authorisation: {
      ...(registered.authorisation === undefined ? {} : { reference: registered.authorisation }),
      ...(registered.scaApproach === undefined ? {} : { scaApproach: registered.scaApproach }),
      // The bank's page for the payer: a run that dies before its commit leaves it for the recovery to lead the payer to.
      ...(registered.next.kind === 'redirect' ? { bankRedirectUrl: registered.next.url } : {}),
    },
  });
  recordNotificationSupport(run, registered.notifications);
  // A durable step's answer is committed at once (decisions §8): the bank holds a payment from now on, and a run that
  // dies before its own commit leaves its reference (and link) to reconcile, not a payment at the bank we forgot.
  await run.checkpointer?.(run);
  return { ok: true, value: true };
}

export async function registerPayment(run: FlowRun): Promise<StepResult> {
  if (run.state.bank?.payment === undefined) {
    const result = await initiate(run);
    if (!result.ok) {
      if (!result.definite) return BANK_UNAVAILABLE;
      if (result.code === 'PSU_AUTHENTICATION_FAILED' && run.loginId() !== undefined) {
        return refuseLogin(run, () => run.fail('PSU_AUTHENTICATION_FAILED'));
      }
      run.fail(result.code);
      return CONTINUE;
    }
  }
  run.enter('PAYMENT_CONSENT_REQUIRED_CHECK_PENDING');
  return CONTINUE;
}
