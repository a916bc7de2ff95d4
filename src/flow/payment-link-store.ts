/**
 * Payment links in storage, and the one writer of a link's status (docs/api-decisions.md, "Payment links"). A link's
 * status changes only through `changeLinkStatus`: it checks the move against PAYMENT_LINK_LIFECYCLE, bumps the
 * link's version (guarding against a racing change), drops its jobs once final and writes the event of the change
 * with the event writer every subject shares, all in the caller's transaction. It lives in flow/ because the flow's
 * state store calls it when a link's payment completes, in the same transaction as the payment's status change.
 */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { newRecordId } from '../domain/ids.js';
import { assertMove, isFinalIn } from '../domain/lifecycle.js';
import { isFinal } from '../domain/detailed-status.js';
import { scaledAmount } from '../domain/money.js';
import type { Payment } from '../domain/payment.js';
import {
  isPaymentLinkStatus,
  linkPaymentEndToEndId,
  PAYMENT_LINK_LIFECYCLE,
  type PaymentLink,
  type PaymentLinkStatus,
} from '../domain/payment-link.js';
import type { JobSchedule } from '../jobs/job-kinds.js';
import { cancelJobs, scheduleJobs, type Job } from '../jobs/job-queue.js';
import { earliestDue, type CommittedWork } from '../jobs/work-signal.js';
import type { JobOutcome } from '../jobs/worker.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { isUniqueViolation } from '../storage/database.js';
import type { Database, PaymentLinksTable } from '../storage/schema.js';
import { appendEvents, type EventSubject } from '../webhooks/event-writer.js';
import { PAYMENT_LINK_EVENT_OF_STATUS, paymentLinkEventBody } from '../webhooks/payment-link-payload.js';
import { paymentFromRow, paymentToRow } from './payment-rows.js';
import { appendStatusRecords } from './status-writer.js';

export function paymentLinkFromRow(row: Selectable<PaymentLinksTable>): PaymentLink {
  if (!isPaymentLinkStatus(row.status)) throw new Error(`Unknown payment link status in the database: ${row.status}`);
  return {
    id: row.id,
    clientId: row.client_id,
    environment: row.environment,
    slug: row.slug,
    reference: row.reference,
    reusable: Number(row.reusable) === 1,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    paymentScheme: row.payment_scheme,
    schemeMode: row.scheme_mode,
    feePaidBy: row.fee_paid_by,
    recipient: JSON.parse(row.recipient) as PaymentLink['recipient'],
    remittance: JSON.parse(row.remittance) as PaymentLink['remittance'],
    redirectUri: row.redirect_uri,
    webhookUrl: row.webhook_url,
    providerId: row.provider_id,
    providerPreferences:
      row.provider_preferences === null ? null : (JSON.parse(row.provider_preferences) as PaymentLink['providerPreferences']),
    openPaymentId: row.open_payment_id,
    paymentCount: Number(row.payment_count),
    paidByPaymentId: row.paid_by_payment_id,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

export function paymentLinkToRow(link: PaymentLink): Insertable<PaymentLinksTable> {
  return {
    id: link.id,
    client_id: link.clientId,
    environment: link.environment,
    slug: link.slug,
    reference: link.reference,
    reusable: link.reusable ? 1 : 0,
    status: link.status,
    amount: link.amount,
    currency: link.currency,
    payment_scheme: link.paymentScheme,
    scheme_mode: link.schemeMode,
    fee_paid_by: link.feePaidBy,
    recipient: JSON.stringify(link.recipient),
    remittance: JSON.stringify(link.remittance),
    redirect_uri: link.redirectUri,
    webhook_url: link.webhookUrl,
    provider_id: link.providerId,
    provider_preferences: link.providerPreferences === null ? null : JSON.stringify(link.providerPreferences),
    open_payment_id: link.openPaymentId,
    payment_count: link.paymentCount,
    paid_by_payment_id: link.paidByPaymentId,
    expires_at: link.expiresAt,
    created_at: link.createdAt,
    updated_at: link.updatedAt,
    version: link.version,
  };
}

function linkSubject(link: PaymentLink): EventSubject {
  return { type: 'payment_link', id: link.id, clientId: link.clientId, webhookUrl: link.webhookUrl };
}

export type LinkStatusChange = { readonly kind: 'applied'; readonly link: PaymentLink } | { readonly kind: 'conflict' };

/**
 * The one writer of a link's status, in the caller's transaction: the move checked against the lifecycle, the row
 * updated under its version, the link's jobs dropped once final, and the change's event (feed and webhook) written.
 * `conflict`: the link changed since it was loaded (reload and decide again).
 */
export async function changeLinkStatus(
  trx: Transaction<Database>,
  link: PaymentLink,
  to: Exclude<PaymentLinkStatus, 'ACTIVE'>,
  at: string,
  paidBy?: string,
): Promise<LinkStatusChange> {
  assertMove(PAYMENT_LINK_LIFECYCLE, link.status, to);
  const version = link.version + 1;
  const updated = await trx
    .updateTable('payment_links')
    .set({
      status: to,
      version,
      updated_at: at,
      // A final link holds no payment in progress; a paid one names the payment that paid it.
      open_payment_id: null,
      ...(paidBy === undefined ? {} : { paid_by_payment_id: paidBy }),
    })
    .where('client_id', '=', link.clientId)
    .where('id', '=', link.id)
    .where('version', '=', link.version)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return { kind: 'conflict' };
  if (isFinalIn(PAYMENT_LINK_LIFECYCLE, to)) await cancelJobs(trx, link);
  // No history table of its own: the event's record id is new for each change, its sequence the link's new version.
  await appendEvents(
    trx,
    linkSubject(link),
    [
      {
        id: newRecordId(),
        type: PAYMENT_LINK_EVENT_OF_STATUS[to],
        statusRecordId: newRecordId(),
        sequence: version,
        body: paymentLinkEventBody({
          paymentLinkId: link.id,
          reference: link.reference,
          status: to,
          ...(paidBy === undefined ? {} : { paymentId: paidBy }),
          createdAt: at,
        }),
      },
    ],
    at,
  );
  return {
    kind: 'applied',
    link: { ...link, status: to, version, updatedAt: at, openPaymentId: null, paidByPaymentId: paidBy ?? link.paidByPaymentId },
  };
}

/**
 * A link's payment completed (called by the payment state store inside the transaction of that status change): a
 * single-use link still ACTIVE becomes PAID in the same commit. A reusable link stays ACTIVE; a link that closed
 * meanwhile (expired, deactivated) stays as it is, the payment completing all the same (the payer has paid).
 * True when it wrote an event (the caller wakes the webhook worker).
 */
export async function payLinkOfPayment(
  trx: Transaction<Database>,
  payment: Pick<Payment, 'id' | 'clientId' | 'paymentLinkId'>,
  at: string,
): Promise<boolean> {
  if (payment.paymentLinkId === null) return false;
  // The version guard makes a racing change (a deactivation) lose or win cleanly; one reload settles it.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const row = await trx
      .selectFrom('payment_links')
      .selectAll()
      .where('client_id', '=', payment.clientId)
      .where('id', '=', payment.paymentLinkId)
      .executeTakeFirst();
    if (row === undefined) return false;
    const link = paymentLinkFromRow(row);
    if (link.status !== 'ACTIVE' || link.reusable) return false;
    const result = await changeLinkStatus(trx, link, 'PAID', at, payment.id);
    if (result.kind === 'applied') return link.webhookUrl !== null;
  }
  throw new Error(`Payment link ${payment.paymentLinkId} kept changing while its payment completed`);
}

/**
 * A link's payment that failed is retried with another bank (the payer's "pay with another bank"): in the retry's
 * transaction, a single-use link's payment in progress moves from the failed payment to the retry, only if it is
 * still the failed one's (no other payer took the link meanwhile) and the link is ACTIVE; a reusable link need only be
 * ACTIVE. False: no retry may be made (the caller rolls back).
 */
export async function holdLinkForRetry(
  trx: Transaction<Database>,
  retry: Pick<Payment, 'id' | 'clientId' | 'paymentLinkId' | 'createdAt'>,
  failedPaymentId: string,
): Promise<boolean> {
  if (retry.paymentLinkId === null) return true;
  const updated = await trx
    .updateTable('payment_links')
    .set((eb) => ({
      open_payment_id: eb.case().when('reusable', '=', 1).then(eb.ref('open_payment_id')).else(retry.id).end(),
      updated_at: retry.createdAt,
    }))
    .where('client_id', '=', retry.clientId)
    .where('id', '=', retry.paymentLinkId)
    .where('status', '=', 'ACTIVE')
    .where((eb) => eb.or([eb('reusable', '=', 1), eb('open_payment_id', '=', failedPaymentId)]))
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** What a payer's "Continue to pay" did (PaymentLinkStore.startPayment). */
export type LinkPaymentStart =
  | { readonly kind: 'started'; readonly payment: Payment }
  /** The link is no longer ACTIVE (or past its expiresAt): no payment. */
  | { readonly kind: 'closed'; readonly link: PaymentLink }
  /** A single-use link whose payment in progress is still open: no second one. */
  | { readonly kind: 'busy'; readonly openPayment: Payment };

export interface LinkListPosition {
  readonly createdAt: string;
  readonly id: string;
}

export class PaymentLinkStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly now: () => Date = () => new Date(),
    /** Told what a commit left for the background workers (jobs and when due, webhook deliveries). */
    private readonly onCommitted: (work: CommittedWork) => void = () => undefined,
  ) {}

  /** Stores a new link with its expiry job. `duplicate`: the client has a link with this reference. */
  async create(link: PaymentLink): Promise<'created' | 'duplicate'> {
    const jobs: JobSchedule[] = [{ kind: 'payment-link-expiry', runAt: link.expiresAt }];
    try {
      const inserted = await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .insertInto('payment_links')
          .values(paymentLinkToRow(link))
          .onConflict((conflict) => conflict.columns(['client_id', 'reference']).doNothing())
          .executeTakeFirst();
        if (result.numInsertedOrUpdatedRows === 0n) return false;
        await scheduleJobs(trx, link, jobs, link.createdAt);
        return true;
      });
      if (!inserted) return 'duplicate';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
    this.onCommitted({ jobsDueAt: earliestDue(jobs.map((job) => job.runAt)), webhooks: false });
    return 'created';
  }

  /** A client's link; undefined for an unknown id and another client's link alike. */
  async findForClient(clientId: string, id: string): Promise<PaymentLink | undefined> {
    const row = await this.db
      .selectFrom('payment_links')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : paymentLinkFromRow(row);
  }

  async findBySlug(slug: string): Promise<PaymentLink | undefined> {
    const row = await this.db.selectFrom('payment_links').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row === undefined ? undefined : paymentLinkFromRow(row);
  }

  /** A page of the client's links, newest first (created_at desc, id desc), after `position` when given. */
  async listForClient(
    clientId: string,
    filter: { readonly statuses?: readonly PaymentLinkStatus[]; readonly reference?: string },
    limit: number,
    position: LinkListPosition | undefined,
  ): Promise<PaymentLink[]> {
    let query = this.db.selectFrom('payment_links').selectAll().where('client_id', '=', clientId);
    if (filter.statuses !== undefined) query = query.where('status', 'in', [...filter.statuses]);
    if (filter.reference !== undefined) query = query.where('reference', '=', filter.reference);
    if (position !== undefined) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', position.createdAt), eb.and([eb('created_at', '=', position.createdAt), eb('id', '<', position.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(paymentLinkFromRow);
  }

  /** A page of links, newest first, of one client or (undefined: an operator's view) of every client. */
  async listVisible(clientScope: string | undefined, limit: number, position: LinkListPosition | undefined): Promise<PaymentLink[]> {
    if (clientScope !== undefined) return this.listForClient(clientScope, {}, limit, position);
    let query = this.db.selectFrom('payment_links').selectAll();
    if (position !== undefined) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', position.createdAt), eb.and([eb('created_at', '=', position.createdAt), eb('id', '<', position.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(paymentLinkFromRow);
  }

  /** A link the viewer may see: of their client, or any for an operator (undefined scope). */
  async findVisible(id: string, clientScope: string | undefined): Promise<PaymentLink | undefined> {
    let query = this.db.selectFrom('payment_links').selectAll().where('id', '=', id);
    if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
    const row = await query.executeTakeFirst();
    return row === undefined ? undefined : paymentLinkFromRow(row);
  }

  /** The payments started from a link, newest first. */
  async paymentsOf(link: Pick<PaymentLink, 'id' | 'clientId'>, limit = 100): Promise<Payment[]> {
    const rows = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('client_id', '=', link.clientId)
      .where('payment_link_id', '=', link.id)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => paymentFromRow(row, this.secrets));
  }

  /** A payment of the link by its id (the payer's own payment, named by their cookie). */
  async paymentOfLink(link: Pick<PaymentLink, 'id' | 'clientId'>, paymentId: string): Promise<Payment | undefined> {
    const row = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('client_id', '=', link.clientId)
      .where('id', '=', paymentId)
      .where('payment_link_id', '=', link.id)
      .executeTakeFirst();
    return row === undefined ? undefined : paymentFromRow(row, this.secrets);
  }

  /**
   * Moves a link to a final status (deactivation, expiry), reloading on a racing change. Answers the link as it is
   * after: moved, or already final (the caller reads which).
   */
  async close(link: PaymentLink, to: 'EXPIRED' | 'DEACTIVATED'): Promise<PaymentLink> {
    let current = link;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (current.status !== 'ACTIVE') return current;
      const at = this.now().toISOString();
      const from = current;
      const result = await this.db.transaction().execute((trx) => changeLinkStatus(trx, from, to, at));
      if (result.kind === 'applied') {
        this.onCommitted({ jobsDueAt: undefined, webhooks: result.link.webhookUrl !== null });
        return result.link;
      }
      const reloaded = await this.findForClient(link.clientId, link.id);
      if (reloaded === undefined) throw new Error(`Payment link ${link.id} disappeared`);
      current = reloaded;
    }
    throw new Error(`Payment link ${link.id} kept changing`);
  }

  /** The link as it is now: an ACTIVE link past its expiresAt is expired first (its job may not have run yet). */
  async current(link: PaymentLink): Promise<PaymentLink> {
    return link.status === 'ACTIVE' && link.expiresAt <= this.now().toISOString() ? this.close(link, 'EXPIRED') : link;
  }

  /** The `payment-link-expiry` job: an ACTIVE link at its expiresAt becomes EXPIRED. Safe to run twice. */
  async expiryJob(job: Job): Promise<JobOutcome> {
    const row = await this.db.selectFrom('payment_links').selectAll().where('id', '=', job.subjectId).executeTakeFirst();
    if (row === undefined) return { kind: 'done' };
    const link = paymentLinkFromRow(row);
    if (link.status !== 'ACTIVE') return { kind: 'done' };
    // Run early (another process's clock): again at the link's own time.
    if (link.expiresAt > this.now().toISOString()) return { kind: 'retry', runAt: link.expiresAt, note: 'not expired yet' };
    await this.close(link, 'EXPIRED');
    return { kind: 'done' };
  }

  /**
   * A payer continues from the link: a new payment of it, in one transaction with the link's compare-and-set. The
   * link row is updated first (its count of payments, and for a single-use link the payment in progress, only where
   * none is open), so concurrent payers serialise on it: PostgreSQL makes the second update wait for the first's
   * commit and find the condition false; SQLite has one writer. `build` makes the payment from the link and its
   * number. A single-use link's open payment that has failed frees the link: the next payer replaces it.
   */
  async startPayment(link: PaymentLink, build: (link: PaymentLink, endToEndId: string) => Payment): Promise<LinkPaymentStart> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await this.current(link);
      if (current.status !== 'ACTIVE') return { kind: 'closed', link: current };
      let freedPaymentId: string | null = null;
      if (!current.reusable && current.openPaymentId !== null) {
        const open = await this.paymentOfLink(current, current.openPaymentId);
        if (open !== undefined && !isFinal(open.detailedStatus)) return { kind: 'busy', openPayment: open };
        // Completed: the link is PAID in that payment's commit, so a reload shows it closed.
        if (open !== undefined && open.detailedStatus === 'PAYMENT_EXECUTION_COMPLETED') {
          link = (await this.findForClient(current.clientId, current.id)) ?? current;
          continue;
        }
        freedPaymentId = current.openPaymentId;
      }
      const number = current.paymentCount + 1;
      const payment = build(current, linkPaymentEndToEndId(current.reference, number));
      const jobs: JobSchedule[] = [{ kind: 'flow-expiry', runAt: payment.flowExpiresAt }];
      const outcome = await this.db
        .transaction()
        .execute(async (trx) => {
          let update = trx
            .updateTable('payment_links')
            .set({
              payment_count: number,
              updated_at: payment.createdAt,
              ...(current.reusable ? {} : { open_payment_id: payment.id }),
            })
            .where('client_id', '=', current.clientId)
            .where('id', '=', current.id)
            .where('status', '=', 'ACTIVE')
            .where('payment_count', '=', current.paymentCount);
          if (!current.reusable) {
            update =
              freedPaymentId === null ? update.where('open_payment_id', 'is', null) : update.where('open_payment_id', '=', freedPaymentId);
          }
          const held = await update.executeTakeFirst();
          if (held.numUpdatedRows === 0n) return 'raced' as const;
          await trx
            .insertInto('payments')
            .values({ ...paymentToRow(payment, this.secrets), amount_scaled: scaledAmount(payment.amount) ?? null })
            .execute();
          await scheduleJobs(trx, payment, jobs, payment.createdAt);
          await appendStatusRecords(trx, payment, [{ status: payment.detailedStatus }], 0, payment.createdAt);
          return 'started' as const;
        })
        .catch((error: unknown) => {
          // The derived end-to-end id is one the client used for a payment of its own: the next number is tried.
          if (isUniqueViolation(error)) return 'taken' as const;
          throw error;
        });
      if (outcome === 'started') {
        this.onCommitted({ jobsDueAt: earliestDue(jobs.map((job) => job.runAt)), webhooks: payment.webhookUrl !== null });
        return { kind: 'started', payment };
      }
      const reloaded = await this.findForClient(current.clientId, current.id);
      if (reloaded === undefined) throw new Error(`Payment link ${current.id} disappeared`);
      link = outcome === 'taken' ? { ...reloaded, paymentCount: reloaded.paymentCount + 1 } : reloaded;
      if (outcome === 'taken') await this.skipNumber(reloaded);
    }
    throw new Error(`Payment link ${link.id}: no payment could be started`);
  }

  /** Moves the link's count past a number whose end-to-end id the client already used. */
  private async skipNumber(link: PaymentLink): Promise<void> {
    await this.db
      .updateTable('payment_links')
      .set({ payment_count: link.paymentCount + 1 })
      .where('id', '=', link.id)
      .where('payment_count', '=', link.paymentCount)
      .execute();
  }
}
