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
import { recordNotificationSupport } from './notification.js';
import { CONTINUE, STOP, type StepResult } from './step-result.js';

/** First look at the bank again this soon after an indeterminate answer. */
export const RECONCILE_DELAY_MS = 1000;

/**
 * Hands an open bank answer to the bank-status job. A payment already reconciling keeps its job where it is: the
 * job's own retry follows the polling schedule, which a fresh schedule here would send back to its start.
 */
export function startReconciling(run: FlowRun): StepResult {
  if (!run.reconcilingAtStart) run.scheduleJob('bank-status', new Date(run.context.now().getTime() + RECONCILE_DELAY_MS));
  run.setState({ reconciling: true });
  return STOP;
}

/** Records the path to PAYMENT_EXECUTION_PENDING and has the execution polled at once. */
export function moveToExecution(run: FlowRun): void {
  const path = pathTo(run.status, 'PAYMENT_EXECUTION_PENDING');
  if (path === undefined) throw new Error(`No path from ${run.status} to execution`);
  for (const status of path) run.enter(status);
  run.setState({ reconciling: undefined, openCall: undefined, callback: undefined, bankRedirectUrl: undefined });
  run.scheduleJob('bank-status', run.context.now());
}

/** What the bank's own status says of a payment it holds, for a decision that must not contradict it. */
export type BankView =
  /** Authorised or further: it may execute (or has). */
  | { readonly kind: 'proceeded'; readonly completed: boolean }
  /** Rejected or cancelled at the bank: it can no longer execute. */
  | { readonly kind: 'closed'; readonly failureCode: FailureCode }
  /** Held, not authorised. */
  | { readonly kind: 'received' }
  /** No definite answer (unreachable, or a status we cannot read). */
  | { readonly kind: 'unknown' };

export async function lookAtPayment(run: FlowRun): Promise<BankView> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) throw new Error('Nothing to look at: the bank holds no payment');
  const status = await run.paymentStatus(bankPayment);
  if (!status.ok) return { kind: 'unknown' };
  const { outcome, transactionStatus, failureCode } = status.value;
  if (outcome === 'failed') return { kind: 'closed', failureCode: failureCode ?? 'BANK_REJECTED' };
  if (transactionStatus.state === 'unknown') return { kind: 'unknown' };
  if (transactionStatus.state === 'received') return { kind: 'received' };
  return { kind: 'proceeded', completed: outcome === 'completed' };
}

/**
 * A definite refusal of a call about a payment the bank holds. The refusal alone never fails the payment: the
 * bank's own status for it is read first (decisions §8), because an earlier call whose answer was lost (a login, a
 * code) may have authorised it meanwhile, and a repeat of that call is then refused. Authorised or further: on to
 * execution. Closed or still unauthorised: the step fails (`failStep`; a payment still held is withdrawn at the bank
 * when `withdraw`). No definite answer: the payment stays pending and reconciliation asks again.
 */
export async function failAfterRefusal(
  run: FlowRun,
  failStep: () => void,
  options: { readonly withdraw?: boolean } = {},
): Promise<StepResult> {
  if (run.state.bankPayment === undefined) {
    failStep();
    return CONTINUE;
  }
  const view = await lookAtPayment(run);
  switch (view.kind) {
    case 'proceeded':
      run.log.info(
        { paymentId: run.payment.id, requestId: run.requestId },
        'the bank refused a repeated call but has authorised the payment: on to execution',
      );
      moveToExecution(run);
      if (view.completed) run.enter('PAYMENT_EXECUTION_COMPLETED');
      return STOP;
    case 'unknown':
      return startReconciling(run);
    case 'closed':
      failStep();
      return CONTINUE;
    case 'received':
      failStep();
      if (options.withdraw === true) await withdrawAtBank(run);
      return CONTINUE;
  }
}

/** Best effort: a payment the payer can no longer authorise is withdrawn at the bank (it would expire there anyway). */
export async function withdrawAtBank(run: FlowRun): Promise<void> {
  const bankPayment = run.state.bankPayment;
  if (bankPayment === undefined) return;
  const cancelled = await run.send('cancelPayment', () =>
    run.connector().cancelPayment({ context: run.callContext(), payment: bankPayment }),
  );
  if (!cancelled.ok)
    run.log.info({ paymentId: run.payment.id, err: cancelled.error.message }, 'could not withdraw the payment at the bank');
  // The payment fails either way (an unauthorised payment cannot execute): the withdrawal is not left open.
  run.setState({ openCall: undefined });
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
  recordNotificationSupport(run, result.notifications);
  if (result.providerPaymentId !== undefined) run.changes = { ...run.changes, providerPaymentId: result.providerPaymentId };
}

/**
 * `authorise-again`: the bank spent the payment's authorisation without a payment (UK: a code exchanged by a call
 * whose answer was lost) and holds a new resource for the payer to authorise (the flow state names it): the caller
 * leads the payer there (`authoriseAgain` in payment-consent.ts).
 */
export type Reconciled = 'moved' | 'pending' | 'unreachable' | 'authorise-again';

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
    // With the payer's return or a held secret the bank is told to go on (UK: the code exchanged, the payment
    // submitted): a durable step. Without them the bank is only asked. Either way what the connector must keep for a
    // retry (the code before its exchange, the token before the submission) is committed before the call spending it.
    const completing = returned !== undefined || heldSecret !== undefined;
    const ask = (): ReturnType<typeof connector.completeAuthorisation> =>
      connector.completeAuthorisation({
        context,
        payment: bankPayment,
        authorisation,
        ...(returned === undefined ? {} : { returned }),
        ...(heldSecret === undefined ? {} : { heldSecret }),
        // A look can spend a grant too (a CIBA poll answered with the payer's token): held before it is used.
        hold: (secret: string) => run.holdDurably(secret),
      });
    const sca = completing ? await run.send('completeAuthorisation', ask) : await callBank(ask);
    if (sca.ok) keepAuthorisationReferences(run, sca.value);
    // A definite refusal ends the completion: what it held is of no use any more.
    if (!sca.ok && sca.definite && run.state.heldSecret !== undefined) run.holdSecret(undefined);
    if (sca.ok && sca.value.authoriseAgain === true) {
      run.setState({ openCall: undefined });
      if (options.expiring !== true && options.payerGaveUp !== true) return 'authorise-again';
      // Nothing can execute: the spent authorisation was never used for a payment, the new resource never authorised.
      const to = failureStatusFrom(run.status);
      if (to === undefined) return 'pending';
      run.enter(to, [failureReason(options.expiring === true ? 'EXPIRED' : 'PSU_CANCELLED')]);
      return 'moved';
    }
    if (sca.ok && (sca.value.scaStatus.state === 'finalised' || sca.value.scaStatus.state === 'exempted')) {
      moveToExecution(run);
      return 'moved';
    }
    if (sca.ok && sca.value.scaStatus.state === 'failed') {
      const status = await run.paymentStatus(payment());
      // The payment's specific reason first; the authorisation's own (the payer denied, no funds at the bank's check)
      // before the payment's generic refusal.
      const fromStatus = status.ok && status.value.outcome === 'failed' ? status.value.failureCode : undefined;
      // The bank's stated reason is its word (a failed verification is not the payer cancelling, even when the
      // payer came back through our "not OK" address). Without one: the payment's specific reason, then the
      // authorisation's own (the payer denied, no funds at the bank's check), then the generic refusal.
      const stated = status.ok && status.value.failureReasonStated === true ? fromStatus : undefined;
      const generic = fromStatus === undefined || fromStatus === 'BANK_REJECTED' || fromStatus === 'SCA_FAILED';
      const code = stated ?? (generic ? undefined : fromStatus) ?? sca.value.failureCode ?? fromStatus ?? 'SCA_FAILED';
      failFromBank(run, stated === undefined && options.payerGaveUp === true && code === 'SCA_FAILED' ? 'PSU_CANCELLED' : code);
      return 'moved';
    }
  }
  const status = await run.paymentStatus(payment());
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
  const cancelled = await run.send('cancelPayment', () => connector.cancelPayment({ context, payment: payment() }));
  if (!cancelled.ok && !cancelled.definite) return 'unreachable';
  if (!cancelled.ok) {
    // Refused: look again; it may have moved on meanwhile.
    const again = await run.paymentStatus(payment());
    if (!again.ok || again.value.transactionStatus.state !== 'received') return again.ok ? reconcile(run, {}) : 'unreachable';
  }
  const to = failureStatusFrom(run.status);
  if (to === undefined) return 'pending';
  run.enter(to, [failureReason(options.expiring === true ? 'EXPIRED' : 'PSU_CANCELLED')]);
  return 'moved';
}
