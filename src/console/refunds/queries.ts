/**
 * What the Refunds pages read: refunds (payments with `refund_of`, docs/api-decisions.md "Refunds") of one client (a
 * member) or of every client (an operator), newest first by (created_at, id) with keyset pages as the payment list;
 * and a refund's approval address, the hosted flow's `redirectUrl` opened from its sealed flow token.
 */
import type { Kysely } from 'kysely';
import { flowTokenContext } from '../../crypto/sealing-contexts.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { DETAILED_STATUSES, topLevelStatus, type DetailedStatus } from '../../domain/detailed-status.js';
import { redirectUrlOf } from '../../flow/redirect-url.js';
import { BULK_START_STATUS } from '../../flow/refund-bulks.js';
import type { Database } from '../../storage/schema.js';
import type { PaymentListPosition } from '../payments/queries.js';

/**
 * The detailed statuses in which a refund waits for the merchant's approver: not final, and the flow stands at a
 * step only the person can take (our bank selection page, or a page of theirs at the bank: log in, consent, choose
 * the account, choose how to authenticate, authorise). Every such step is a `…_REDIRECT_PENDING` status. The other
 * pending statuses are the service's or the bank's work (checks, callbacks being processed, registration, execution):
 * the approver has done their part there, so opening the flow again would not help.
 */
export const AWAITING_APPROVAL: readonly DetailedStatus[] = DETAILED_STATUSES.filter(
  (status) => status.endsWith('_REDIRECT_PENDING') && topLevelStatus(status) === 'PENDING',
);

export function isAwaitingApproval(status: DetailedStatus): boolean {
  return AWAITING_APPROVAL.includes(status);
}

/** Whether a refund may still join others to be approved together: its approval has not begun (src/flow/refund-bulks.ts). */
export function mayJoinBulk(refund: RefundRow): boolean {
  return refund.detailedStatus === BULK_START_STATUS && refund.bulkLeaderId === null;
}

export interface RefundRow {
  readonly id: string;
  readonly clientId: string;
  /** The payment refunded. */
  readonly refundOf: string;
  readonly amount: string;
  readonly currency: string;
  readonly detailedStatus: DetailedStatus;
  /** The payer of the refunded payment: the refund's recipient. */
  readonly payerName: string;
  /** The refund's `reference`: the remittance information the payer's statement shows. */
  readonly reference: string;
  readonly endToEndId: string;
  readonly createdAt: string;
  readonly environment: 'sandbox' | 'production';
  /** Approved together with others (src/flow/refund-bulks.ts): the bulk's leader, itself on the leader; else null. */
  readonly bulkLeaderId: string | null;
}

export interface RefundListPage {
  readonly rows: readonly RefundRow[];
  readonly next: PaymentListPosition | undefined;
}

type RefundColumns = Pick<
  Database['payments'],
  | 'id'
  | 'client_id'
  | 'refund_of'
  | 'amount'
  | 'currency'
  | 'detailed_status'
  | 'recipient'
  | 'remittance'
  | 'end_to_end_id'
  | 'created_at'
  | 'environment'
  | 'bulk_leader_id'
>;

const COLUMNS = [
  'id',
  'client_id',
  'refund_of',
  'amount',
  'currency',
  'detailed_status',
  'recipient',
  'remittance',
  'end_to_end_id',
  'created_at',
  'environment',
  'bulk_leader_id',
] as const;

function refundRow(row: RefundColumns): RefundRow {
  return {
    id: row.id,
    clientId: row.client_id,
    refundOf: row.refund_of ?? '',
    amount: row.amount,
    currency: row.currency,
    detailedStatus: row.detailed_status as DetailedStatus,
    payerName: (JSON.parse(row.recipient) as { name?: string }).name ?? '',
    reference: (JSON.parse(row.remittance) as { value?: string }).value ?? '',
    endToEndId: row.end_to_end_id,
    createdAt: row.created_at,
    environment: row.environment,
    bulkLeaderId: row.bulk_leader_id,
  };
}

/** The refunds this viewer may see (`clientScope` undefined: every client's), newest first; `awaiting`: those waiting for the approver. */
export async function listRefunds(
  db: Kysely<Database>,
  clientScope: string | undefined,
  awaiting: boolean,
  limit: number,
  after: PaymentListPosition | undefined,
): Promise<RefundListPage> {
  let query = db
    .selectFrom('payments')
    .select([...COLUMNS])
    .where('refund_of', 'is not', null);
  if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
  if (awaiting) query = query.where('detailed_status', 'in', [...AWAITING_APPROVAL]);
  if (after !== undefined)
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
    );
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const shown = rows.slice(0, limit).map(refundRow);
  const last = shown.at(-1);
  return { rows: shown, next: rows.length > limit && last !== undefined ? { createdAt: last.createdAt, id: last.id } : undefined };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The refunds named by `ids` that this viewer may see, in the order named (unknown and other clients' ids left out). */
export async function visibleRefunds(db: Kysely<Database>, ids: readonly string[], clientScope: string | undefined): Promise<RefundRow[]> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  let query = db
    .selectFrom('payments')
    .select([...COLUMNS])
    .where('id', 'in', wanted)
    .where('refund_of', 'is not', null);
  if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
  const found = new Map((await query.execute()).map((row) => [row.id, refundRow(row)]));
  return wanted.flatMap((id) => found.get(id) ?? []);
}

/**
 * Where the approver authorises the refund: its hosted flow's `redirectUrl`, built as the payment resource builds it
 * (the flow token opened from its seal); for a refund approved together with others, its bulk leader's flow, where
 * they are all approved. Undefined for a refund this viewer may not see.
 */
export async function approvalAddress(
  db: Kysely<Database>,
  secrets: SecretBox,
  baseUrl: string,
  refundId: string,
  clientScope: string | undefined,
): Promise<{ readonly refund: RefundRow; readonly redirectUrl: string } | undefined> {
  if (!UUID.test(refundId)) return undefined;
  let query = db
    .selectFrom('payments')
    .select([...COLUMNS, 'flow_token_sealed'])
    .where('id', '=', refundId.toLowerCase())
    .where('refund_of', 'is not', null);
  if (clientScope !== undefined) query = query.where('client_id', '=', clientScope);
  const row = await query.executeTakeFirst();
  if (row === undefined) return undefined;
  const leader =
    row.bulk_leader_id === null || row.bulk_leader_id === row.id
      ? row
      : await db
          .selectFrom('payments')
          .select(['id', 'flow_token_sealed'])
          .where('client_id', '=', row.client_id)
          .where('id', '=', row.bulk_leader_id)
          .executeTakeFirstOrThrow();
  const flowToken = secrets.open(leader.flow_token_sealed, flowTokenContext(leader.id));
  return { refund: refundRow(row), redirectUrl: redirectUrlOf(baseUrl, { flowToken }) };
}
