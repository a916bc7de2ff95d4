/**
 * Asking the bank what became of a payment it holds, when our view is not definite: after a timeout or 5xx on an
 * authorisation call, while a decoupled approval is awaited, when the payer returns from the bank, and at expiry.
 * The bank's payment status decides; the rule is the product's first one: a payment that may have executed is
 * never marked failed. Authorised (or further) moves to execution along the table; a definite refusal fails the
 * waiting step; a payment still merely received waits (or, at expiry or when the payer gave up, is withdrawn at
 * the bank first and only then failed).
 */
import type { AuthorisationResult } from '../../connectors/index.js';
import type { FailureCode } from '../../domain/detailed-status.js';
import { bankFailurePath, pathTo } from '../../domain/paths.js';
import { failureReason } from '../../domain/detailed-status.js';
import type { FlowRun } from '../run.js';
import { failureStatusFrom } from '../../domain/transitions.js';
import { callBank } from './bank-errors.js';
import { STOP, type StepResult } from './step-result.js';

/** First look at the bank again this soon after an indeterminate answer. */
export const RECONCILE_DELAY_MS = 1000;

export function startReconciling(run: FlowRun): StepResult {
  run.setState({ reconciling: true });
  run.scheduleJob('bank-status', new Date(run.context.now().getTime() + RECONCILE_DELAY_MS));
  return STOP;
}

/** Records the path to PAYMENT_EXECUTION_PENDING and has the execution polled at once. */
export function moveToExecution(run: FlowRun): void {
  const path = pathTo(run.status, 'PAYMENT_EXECUTION_PENDING');
  if (path === undefined) throw new Error(`No path from ${run.status} to execution`);
  for (const status of path) run.enter(status);
  run.setState({ reconciling: undefined, callback: undefined, bankRedirectUrl: undefined });
  run.scheduleJob('bank-status', run.context.now());
}

/** Records a definite refusal seen at the bank, at the step the payment waited in. */
export function failFromBank(run: FlowRun, code: FailureCode): void {
  const path = bankFailurePath(run.status);
  path.forEach((status, index) => run.enter(status, index === path.length - 1 ? [failureReason(code)] : undefined));
}

/**
 * Keeps what an authorisation call returned about the bank's references: the authorisation, and the payment when
 * the step changed what the bank holds (with the id the client sees).
 */
export function keepAuthorisationReferences(run: FlowRun, result: AuthorisationResult): void {
  run.setState({ authorisation: result.authorisation, ...(result.payment === undefined ? {} : { bankPayment: result.payment }) });
  run.holdSecret(result.heldSecret);
  if (result.providerPaymentId !== undefined) run.changes = { ...run.changes, providerPaymentId: result.providerPaymentId };
}

export type Reconciled = 'moved' | 'pending' | 'unreachable';

export interface ReconcileOptions {
  /** The flow deadline passed: a payment the payer never authorised is withdrawn and fails with EXPIRED. */
  readonly expiring?: boolean;
  /** The payer gave up (cancel on our page, or came back through the bank's "not OK" URI). */
  readonly payerGaveUp?: boolean;
}

export async function reconcile(run: FlowRun, options: ReconcileOptions = {}): Promise<Reconciled> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) throw new Error('Nothing to reconcile: the bank holds no payment');
  // A step that changes what the bank holds (the payment submitted after its authorisation) replaces the reference.
  const payment = (): typeof bankPayment => run.state.bankPayment ?? bankPayment;
  const connector = run.connector();
  const context = run.callContext();
  const authorisation = run.state.authorisation;
  if (authorisation !== undefined) {
    // The payer's return is the connector's to read (once: a later look in this run only asks the bank).
    const returned = run.bankReturn;
    run.bankReturn = undefined;
    const heldSecret = run.heldSecret();
    const sca = await callBank(() =>
      connector.completeAuthorisation({
        context,
        payment: bankPayment,
        authorisation,
        ...(returned === undefined ? {} : { returned }),
        ...(heldSecret === undefined ? {} : { heldSecret }),
      }),
    );
    if (sca.ok) keepAuthorisationReferences(run, sca.value);
    if (sca.ok && (sca.value.scaStatus.state === 'finalised' || sca.value.scaStatus.state === 'exempted')) {
      moveToExecution(run);
      return 'moved';
    }
    if (sca.ok && sca.value.scaStatus.state === 'failed') {
      const status = await callBank(() => connector.getPaymentStatus({ context, payment: payment() }));
      // The payment's specific reason first; the authorisation's own (the payer denied, no funds at the bank's check)
      // before the payment's generic refusal.
      const fromStatus = status.ok && status.value.outcome === 'failed' ? status.value.failureCode : undefined;
      const generic = fromStatus === undefined || fromStatus === 'BANK_REJECTED' || fromStatus === 'SCA_FAILED';
      const code = (generic ? undefined : fromStatus) ?? sca.value.failureCode ?? fromStatus ?? 'SCA_FAILED';
      failFromBank(run, options.payerGaveUp === true && code === 'SCA_FAILED' ? 'PSU_CANCELLED' : code);
      return 'moved';
    }
  }
  const status = await callBank(() => connector.getPaymentStatus({ context, payment: payment() }));
  if (!status.ok) return status.definite ? 'pending' : 'unreachable';
  const { outcome, transactionStatus, failureCode } = status.value;
  if (outcome === 'failed') {
    failFromBank(run, failureCode ?? 'BANK_REJECTED');
    return 'moved';
  }
  if (transactionStatus.state === 'unknown') return 'pending';
  if (transactionStatus.state !== 'received') {
    moveToExecution(run);
    if (outcome === 'completed') run.enter('PAYMENT_EXECUTION_COMPLETED');
    return 'moved';
  }
  if (options.expiring !== true && options.payerGaveUp !== true) return 'pending';
  // Not authorised: withdraw it at the bank before calling it failed, so a late approval cannot execute it.
  const cancelled = await callBank(() => connector.cancelPayment({ context, payment: payment() }));
  if (!cancelled.ok && !cancelled.definite) return 'unreachable';
  if (!cancelled.ok) {
    // Refused: look again; it may have moved on meanwhile.
    const again = await callBank(() => connector.getPaymentStatus({ context, payment: payment() }));
    if (!again.ok || again.value.transactionStatus.state !== 'received') return again.ok ? reconcile(run, {}) : 'unreachable';
  }
  const to = failureStatusFrom(run.status);
  if (to === undefined) return 'pending';
  run.enter(to, [failureReason(options.expiring === true ? 'EXPIRED' : 'PSU_CANCELLED')]);
  return 'moved';
}
