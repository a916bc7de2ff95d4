/**
 * Refunds approved together (docs/api-decisions.md, "Many refunds, one approval"; ADR 0013). A bulk is formed from
 * refunds that wait for their approver at the very start of their flow; its first refund, the *leader*, runs the
 * flow (bank selection, the bulk payment's registration at the bank, its one authorisation, its execution), and the
 * others, its *followers*, take every status the leader takes, in the leader's own transaction
 * ({@link moveFollowers}), each with its own history record and event. A follower never acts on its own: the engine
 * refuses work on it and it has no jobs; the leader's jobs carry the bulk.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Payment, StatusRecord } from '../domain/payment.js';
import { isFinal, type DetailedStatus, type FailureReason } from '../domain/detailed-status.js';
import { assertTransition } from '../domain/transitions.js';
import { cancelJobs } from '../jobs/job-queue.js';
import type { Database } from '../storage/schema.js';
import { flowStateOf } from './flow-state.js';
import { appendNextStatusRecords, type StatusEntry } from './status-writer.js';

/** The status a refund waits in for its approver to choose a bank: the only one a bulk is formed from. */
export const BULK_START_STATUS: DetailedStatus = 'PROVIDER_SELECTION_REDIRECT_PENDING';

/** At most this many refunds in one bulk: a bank page listing more is not one a person checks line by line. */
export const MAX_BULK_REFUNDS = 50;

/** Why refunds cannot be approved together: a code for programs and tests, words for the approver. */
export interface BulkRefusal {
  readonly code:
    | 'TOO_FEW'
    | 'TOO_MANY'
    | 'NOT_FOUND'
    | 'NOT_AWAITING_BANK_CHOICE'
    | 'ALREADY_IN_BULK'
    | 'DIFFERENT_CLIENTS'
    | 'DIFFERENT_ACCOUNTS'
    | 'DIFFERENT_CURRENCIES'
    | 'DIFFERENT_SCHEMES'
    | 'UK_ACCOUNT'
    | 'BUSY';
  readonly message: string;
}

export type BulkFormation =
  { readonly kind: 'formed'; readonly leaderId: string } | { readonly kind: 'refused'; readonly refusal: BulkRefusal };

type BulkCandidate = Pick<
  Database['payments'],
  | 'id'
  | 'client_id'
  | 'environment'
  | 'refund_of'
  | 'detailed_status'
  | 'provider_id'
  | 'bulk_leader_id'
  | 'currency'
  | 'payment_scheme'
  | 'sender'
  | 'recipient'
  | 'flow_state'
  | 'version'
>;

function refused(code: BulkRefusal['code'], message: string): BulkFormation {
  return { kind: 'refused', refusal: { code, message } };
}

/** The merchant's account a refund is paid from (its sender account), as compared between refunds. */
function accountOf(row: BulkCandidate): string {
  const sender = row.sender === null ? undefined : (JSON.parse(row.sender) as { account?: { number?: { type?: string; value?: string } } });
  const number = sender?.account?.number;
  return number === undefined ? '' : `${number.type ?? ''}:${(number.value ?? '').replace(/\s+/g, '').toUpperCase()}`;
}

/**
 * Whether the refund is paid to a UK sort code and account number: only connectors that pay to one may carry it
 * (`paysToUkAccounts`), and the UK Open Banking connector, the one that does, makes no bulk payments.
 */
function paidToUkAccount(row: BulkCandidate): boolean {
  const recipient = JSON.parse(row.recipient) as { account?: { number?: { type?: string } } };
  return recipient.account?.number?.type === 'SORT_CODE_ACCOUNT_NUMBER';
}

function checkCandidates(rows: readonly BulkCandidate[], now: string): BulkFormation | undefined {
  const first = rows[0];
  if (first === undefined) return refused('NOT_FOUND', 'none of these refunds was found');
  for (const row of rows) {
    if (row.bulk_leader_id !== null) return refused('ALREADY_IN_BULK', `refund ${row.id} is already approved together with others`);
    const state = row.flow_state === null ? {} : flowStateOf({ flowState: JSON.parse(row.flow_state) as Record<string, unknown> });
    const leased = state.leaseUntil !== undefined && state.leaseUntil > now;
    if (row.detailed_status !== BULK_START_STATUS || row.provider_id !== null || state.bank?.payment !== undefined) {
      return refused(
        'NOT_AWAITING_BANK_CHOICE',
        `refund ${row.id} is past the choice of a bank (${row.detailed_status}); only refunds whose approval has not begun are approved together`,
      );
    }
    if (leased) return refused('BUSY', `refund ${row.id} is being worked on right now; try again in a minute`);
    if (row.client_id !== first.client_id || row.environment !== first.environment)
      return refused('DIFFERENT_CLIENTS', 'refunds of different clients are never approved together');
    if (row.currency !== first.currency)
      return refused('DIFFERENT_CURRENCIES', `refund ${row.id} is in ${row.currency}, not ${first.currency}`);
    if (row.payment_scheme !== first.payment_scheme)
      return refused('DIFFERENT_SCHEMES', `refund ${row.id} goes by ${row.payment_scheme}, not ${first.payment_scheme}`);
    if (paidToUkAccount(row)) {
      return refused(
        'UK_ACCOUNT',
        `refund ${row.id} is paid to a UK sort code and account number, which no bank making bulk payments pays to; approve it on its own`,
      );
    }
    if (accountOf(row) !== accountOf(first))
      return refused('DIFFERENT_ACCOUNTS', `refund ${row.id} is paid from another account of the merchant; a bulk payment has one`);
  }
  return undefined;
}

/**
 * Forms a bulk of the refunds `refundIds` (the first leads), visible to `clientScope` (undefined: an operator, any
 * client). In one transaction: every refund is checked to wait for the choice of a bank, with nothing at a bank and
 * no run under way, all of one client, currency, scheme and merchant account; then each is marked with the leader,
 * guarded by the version it was read at (a refund that moved meanwhile refuses the whole bulk, nothing is written),
 * and the followers' jobs are dropped: from now on the leader's flow and jobs carry them all.
 */
export async function formRefundBulk(
  db: Kysely<Database>,
  input: { readonly refundIds: readonly string[]; readonly clientScope: string | undefined; readonly now: Date },
): Promise<BulkFormation> {
  const ids = [...new Set(input.refundIds.map((id) => id.toLowerCase()))];
  if (ids.length < 2) return refused('TOO_FEW', 'choose at least two refunds to approve together');
  if (ids.length > MAX_BULK_REFUNDS) return refused('TOO_MANY', `at most ${MAX_BULK_REFUNDS} refunds are approved together`);
  const at = input.now.toISOString();
  class Changed extends Error {}
  try {
    return await db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('payments')
        .select([
          'id',
          'client_id',
          'environment',
          'refund_of',
          'detailed_status',
          'provider_id',
          'bulk_leader_id',
          'currency',
          'payment_scheme',
          'sender',
          'recipient',
          'flow_state',
          'version',
        ])
        .where('id', 'in', ids)
        .where('refund_of', 'is not', null);
      if (input.clientScope !== undefined) query = query.where('client_id', '=', input.clientScope);
      const found = new Map((await query.execute()).map((row) => [row.id, row]));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) return refused('NOT_FOUND', `refund ${missing} was not found`);
      const rows = ids.flatMap((id) => found.get(id) ?? []);
      const refusal = checkCandidates(rows, at);
      if (refusal !== undefined) return refusal;
      const leaderId = ids[0] as string;
      for (const row of rows) {
        const updated = await trx
          .updateTable('payments')
          .set({ bulk_leader_id: leaderId, version: Number(row.version) + 1, updated_at: at })
          .where('client_id', '=', row.client_id)
          .where('id', '=', row.id)
          .where('version', '=', row.version)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) throw new Changed();
        if (row.id !== leaderId) await cancelJobs(trx, { clientId: row.client_id, id: row.id });
      }
      return { kind: 'formed' as const, leaderId };
    });
  } catch (error) {
    if (error instanceof Changed) return refused('BUSY', 'one of these refunds changed meanwhile; look at the list again');
    throw error;
  }
}

/** What the followers' moves wrote: their status records (metrics) and whether any has a webhook to deliver. */
export interface FollowerMoves {
  readonly records: readonly StatusRecord[];
  readonly webhooks: boolean;
}

/**
 * Moves the followers of `leader` (as the leader's write leaves it) along `path`, with the columns the leader's write
 * changed that describe the bank (`providerId`, `providerPaymentId`), inside the leader's transaction: the same
 * statuses, each checked against the transition table from the follower's own status, with its own history records
 * and events; a final status drops the follower's jobs. A follower that cannot take the path (never, unless a bug
 * moved it alone) throws, which rolls back the leader's write too.
 */
export async function moveFollowers(
  trx: Transaction<Database>,
  leader: Payment,
  path: readonly StatusEntry[],
  changes: { readonly providerId?: string | null; readonly providerPaymentId?: string },
  at: string,
): Promise<FollowerMoves> {
  if (path.length === 0 && changes.providerId === undefined && changes.providerPaymentId === undefined)
    return { records: [], webhooks: false };
  const followers = await trx
    .selectFrom('payments')
    .select(['id', 'client_id', 'end_to_end_id', 'webhook_url', 'refund_of', 'detailed_status', 'version', 'bulk_leader_id'])
    .where('client_id', '=', leader.clientId)
    .where('bulk_leader_id', '=', leader.id)
    .where('id', '!=', leader.id)
    .execute();
  const last = path[path.length - 1];
  const records: StatusRecord[] = [];
  let webhooks = false;
  for (const follower of followers) {
    let from = follower.detailed_status as DetailedStatus;
    for (const entry of path) {
      assertTransition(from, entry.status);
      from = entry.status;
    }
    const failureReasons: readonly FailureReason[] | null = last?.failureReasons ?? null;
    await trx
      .updateTable('payments')
      .set({
        version: Number(follower.version) + 1,
        updated_at: at,
        ...(last === undefined
          ? {}
          : { detailed_status: last.status, failure_reasons: failureReasons === null ? null : JSON.stringify(failureReasons) }),
        ...(changes.providerId === undefined ? {} : { provider_id: changes.providerId }),
        ...(changes.providerPaymentId === undefined ? {} : { provider_payment_id: changes.providerPaymentId }),
      })
      .where('client_id', '=', follower.client_id)
      .where('id', '=', follower.id)
      .execute();
    const written = await appendNextStatusRecords(
      trx,
      {
        id: follower.id,
        clientId: follower.client_id,
        endToEndId: follower.end_to_end_id,
        webhookUrl: follower.webhook_url,
        refundOf: follower.refund_of,
      },
      path,
      at,
    );
    records.push(...written);
    if (written.length > 0 && follower.webhook_url !== null) webhooks = true;
    if (last !== undefined && isFinal(last.status)) await cancelJobs(trx, { clientId: follower.client_id, id: follower.id });
  }
  return { records, webhooks };
}
