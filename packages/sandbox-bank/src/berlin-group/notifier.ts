/**
 * The standard's resource status notifications ("lean push"), for the sandbox banks whose catalogue entry says
 * `statusNotifications`: a payment initiated (or an authorisation of it started) with `TPP-Notification-URI` is
 * watched, and every change of its transaction status (PROCESS, or only the final one with LAST alone) and of its
 * authorisations' SCA status (SCA) is POSTed to that address as a small JSON notification.
 *
 * Best effort, as a live bank's: a notification is sent after the answer of the call that caused it (or, for changes
 * the clock brings, such as a settlement after a delay, at the next tick of a short timer), with a short timeout,
 * never retried, and its failure is only logged. Fault rules on the `sendNotification` operation play here: a delay
 * holds the notification back, an error or a timeout loses it (docs/sandbox-bank.md, "Status notifications").
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Fault, FaultPlan } from '../shared/faults.js';
import type { SandboxBankDefinition } from './banks.js';
import { paymentPath, type Payment, type SandboxState, type ScaStatus, type TransactionStatus } from './state.js';

/** What a TPP may ask to hear (`TPP-Notification-Content-Preferred: status=SCA,PROCESS,LAST`). */
export type NotificationContent = 'SCA' | 'PROCESS' | 'LAST';
const CONTENTS: readonly NotificationContent[] = ['SCA', 'PROCESS', 'LAST'];
/** What the bank notifies when the TPP states no (usable) preference. */
const DEFAULT_CONTENT: readonly NotificationContent[] = ['SCA', 'PROCESS'];
const FINAL: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'ACCC', 'RJCT', 'CANC']);

/** How long one notification may take before the bank gives up on it. */
export const NOTIFICATION_TIMEOUT_MS = 2000;
/** How often payments under watch are brought up to date with the clock. */
const TICK_MS = 250;
const MAX_URI_LENGTH = 2048;

/** A notification as the bank sends it: the resource it is about and its status that changed. */
export interface StatusNotification {
  readonly resource: string;
  readonly transactionStatus?: TransactionStatus;
  readonly scaStatus?: ScaStatus;
}

interface Watch {
  readonly bank: SandboxBankDefinition;
  readonly uri: string;
  readonly content: ReadonlySet<NotificationContent>;
  transactionStatus: TransactionStatus;
  readonly scaStatuses: Map<string, ScaStatus>;
}

export interface NotifierOptions {
  readonly state: SandboxState;
  readonly faults: FaultPlan;
  readonly log: FastifyBaseLogger;
}

export class StatusNotifier {
  private readonly watches = new Map<string, Watch>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: NotifierOptions) {}

  /**
   * Takes the TPP's notification headers of a call on `payment` and answers the bank's: `ASPSP-Notification-Support`
   * (false for an address the bank will not use) and `ASPSP-Notification-Content`. No headers for a bank without the
   * service or a call without an address.
   */
  subscribe(bank: SandboxBankDefinition, payment: Payment, uri: string | undefined, preferred: string | undefined): Record<string, string> {
    if (!bank.statusNotifications || uri === undefined) return {};
    if (!usableUri(uri)) return { 'ASPSP-Notification-Support': 'false' };
    const content = parseContent(preferred);
    const previous = this.watches.get(payment.id);
    this.watches.set(payment.id, {
      bank,
      uri,
      content: new Set(content),
      transactionStatus: previous?.transactionStatus ?? payment.status,
      scaStatuses: previous?.scaStatuses ?? new Map(this.scaStatusesOf(payment)),
    });
    this.timer ??= setInterval(() => this.check(), TICK_MS).unref();
    return { 'ASPSP-Notification-Support': 'true', 'ASPSP-Notification-Content': `status=${content.join(',')}` };
  }

  /** Compares every watched payment with what was last notified and sends what changed (never waits for it). */
  check(): void {
    for (const [paymentId, watch] of this.watches) {
      const payment = this.options.state.payment(paymentId);
      if (payment === undefined) {
        this.watches.delete(paymentId);
        continue;
      }
      for (const notification of this.changes(watch, payment)) void this.deliver(watch, payment, notification);
      if (FINAL.has(payment.status)) this.watches.delete(paymentId);
    }
    if (this.watches.size === 0) this.stop();
  }

  /** Stops the timer (the app closes). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private scaStatusesOf(payment: Payment): Array<[string, ScaStatus]> {
    const { state } = this.options;
    return payment.authorisationIds.flatMap((id) => {
      const authorisation = state.authorisationOf(payment, id);
      return authorisation === undefined ? [] : [[id, authorisation.scaStatus] as [string, ScaStatus]];
    });
  }

  /** What changed since the last look, as the TPP asked to hear it; the watch is brought up to date. */
  private changes(watch: Watch, payment: Payment): StatusNotification[] {
    const notifications: StatusNotification[] = [];
    const resource = paymentPath(payment);
    for (const [id, scaStatus] of this.scaStatusesOf(payment)) {
      const known = watch.scaStatuses.get(id);
      watch.scaStatuses.set(id, scaStatus);
      // An authorisation first seen is no change: its start answered its status.
      if (known !== undefined && known !== scaStatus && watch.content.has('SCA')) {
        notifications.push({ resource: `${resource}/authorisations/${id}`, scaStatus });
      }
    }
    if (payment.status !== watch.transactionStatus) {
      watch.transactionStatus = payment.status;
      const wanted = watch.content.has('PROCESS') || (watch.content.has('LAST') && FINAL.has(payment.status));
      if (wanted) notifications.push({ resource, transactionStatus: payment.status });
    }
    return notifications;
  }

  private async deliver(watch: Watch, payment: Payment, notification: StatusNotification): Promise<void> {
    const fault: Fault | undefined = this.options.faults.take({
      bank: watch.bank.slug,
      operation: 'sendNotification',
      psuId: payment.payerId ?? payment.psuId,
    });
    const log = this.options.log.child({ bank: watch.bank.slug, paymentId: payment.id });
    if (fault?.kind === 'error' || fault?.kind === 'timeout') {
      log.info({ fault: fault.kind }, 'sandbox bank: status notification lost (fault rule)');
      return;
    }
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.delayMs).unref());
    try {
      await postNotification(watch.uri, notification);
    } catch (error) {
      log.info({ err: error instanceof Error ? error.message : String(error) }, 'sandbox bank: status notification not delivered');
    }
  }
}

/** An absolute http(s) address of reasonable length (the TPP's own domain is its responsibility in the sandbox). */
function usableUri(uri: string): boolean {
  if (uri.length > MAX_URI_LENGTH) return false;
  try {
    const url = new URL(uri);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** `status=SCA,PROCESS,LAST` → the known constants in it, in the standard's order; the default when none. */
export function parseContent(preferred: string | undefined): readonly NotificationContent[] {
  const match = /^\s*status\s*=\s*(.*)$/i.exec(preferred ?? '');
  const named = new Set((match?.[1] ?? '').split(',').map((value) => value.trim().toUpperCase()));
  const content = CONTENTS.filter((value) => named.has(value));
  return content.length === 0 ? DEFAULT_CONTENT : content;
}

/** POSTs one notification with a short timeout; a non-2xx answer counts as not delivered. */
async function postNotification(uri: string, notification: StatusNotification): Promise<void> {
  const response = await fetch(uri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Request-ID': randomUUID(), Date: new Date().toUTCString() },
    body: JSON.stringify(notification),
    signal: AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS),
    redirect: 'manual',
  });
  await response.body?.cancel();
  if (response.status < 200 || response.status >= 300) throw new Error(`the TPP answered ${response.status}`);
}
