/**
 * The standard's push (Berlin Group "lean push": `TPP-Notification-URI`), for banks whose profile says
 * `statusNotifications`. The payment's initiation and the start of its authorisation give the bank one address of
 * ours per payment, `{BASE_URL}/notifications/<standard>/<paymentId>.<secret>`, on our own domain as the standard
 * requires; the secret is 256 random bits, kept as its SHA-256 (what a notification is checked against) and sealed
 * (so every call gives the same address). A notification is never taken as the payment's status: it only makes the
 * bank-status job due now, which asks the bank (docs/state-machine.md, invariant 4). So a forged, replayed or stale
 * notification can at most cause one more look at the bank.
 */
import { randomBytes } from 'node:crypto';
import type { NotificationSupport } from '../../connectors/index.js';
import { phaseOf } from '../../domain/detailed-status.js';
import type { Payment } from '../../domain/payment.js';
import { flowStateOf, notificationSecretContext } from '../flow-state.js';
import type { FlowRun } from '../run.js';
import { callbackMatches, parseReturnState, returnState, sha256 } from './callback.js';

/** Where the notification addresses live: `{BASE_URL}/notifications/<standard>/<token>`. */
export const NOTIFICATION_PATH = '/notifications';

/**
 * The payment's notification address for the bank, made on first use; undefined for a bank that does not notify.
 * Called before the bank call it goes with, so the durable step commits the hash before the bank can use it.
 */
export function notificationUriOf(run: FlowRun): string | undefined {
  const connector = run.connector();
  if (connector.profile.statusNotifications !== true) return undefined;
  const context = notificationSecretContext(run.payment.id);
  const stored = run.state.bank?.notification;
  let secret = stored === undefined ? undefined : openSecret(run, stored.sealed, context);
  if (secret === undefined) {
    secret = randomBytes(32).toString('base64url');
    run.setState({ bank: { notification: { hash: sha256(secret), sealed: run.context.secretBox.seal(secret, context) } } });
  }
  return `${run.context.baseUrl}${NOTIFICATION_PATH}/${connector.standard}/${returnState(run.payment.id, secret)}`;
}

/** A sealed secret that no longer opens (its key left the ring) is replaced by a new address. */
function openSecret(run: FlowRun, sealed: string, context: string): string | undefined {
  try {
    return run.context.secretBox.open(sealed, context);
  } catch {
    return undefined;
  }
}

/** Keeps the bank's answer about notifications to our address (its latest explicit answer counts). */
export function recordNotificationSupport(run: FlowRun, support: NotificationSupport): void {
  const stored = run.state.bank?.notification;
  if (support === undefined || stored === undefined) return;
  run.setState({ bank: { notification: { ...stored, confirmed: support } } });
}

/** The payment id and secret of a notification token (undefined for anything we did not make). */
export function parseNotificationToken(token: string): { readonly paymentId: string; readonly secret: string } | undefined {
  return parseReturnState(token);
}

/** Whether `secret` is the secret of the payment's notification address (constant-time). */
export function notificationMatches(payment: Payment, secret: string): boolean {
  return callbackMatches(flowStateOf(payment).bank?.notification, secret);
}

/**
 * Whether the payment waits for a change its bank confirmed it will notify: the payer's approval in the bank's app
 * (decoupled) or the payment's execution. Polling is then only the fallback for a notification that never came
 * (src/flow/polling.ts). An answer we lost is not such a wait: the bank may have acted before it could notify us.
 */
export function awaitsNotification(payment: Payment): boolean {
  const state = flowStateOf(payment);
  if (
    state.bank?.notification?.confirmed !== true ||
    state.reconciliation?.reconciling === true ||
    state.reconciliation?.openCall !== undefined
  )
    return false;
  if (phaseOf(payment.detailedStatus) === 7) return true;
  return payment.detailedStatus === 'PAYMENT_CONSENT_REDIRECT_PENDING' && state.authorisation?.scaApproach === 'DECOUPLED';
}
