/**
 * Hand-overs of a payer's flow from a desktop to a phone (docs/hosted-pages.md, "Desktop to phone"). The desktop's
 * page shows a QR code of a single-use link; the first browser that opens it takes the flow over, and the desktop
 * only follows the payment from then on.
 *
 * Stored per payment (table `payment_handovers`): the SHA-256 of the link's secret, never the secret. The secret is
 * derived from the payment's page key (kept in its flow state) and the time the link was made, so the desktop shows
 * the same code on every reload until it expires, and a new one after. Using the link is one conditional UPDATE
 * (unused, unexpired, this hash): of two phones opening it at once exactly one takes the flow over, on SQLite and
 * PostgreSQL alike. The browser that took it over is marked by a random cookie whose SHA-256 is stored with it.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

/** How long a hand-over link works after it is made. */
export const HANDOVER_LINK_TTL_MS = 10 * 60 * 1000;

export interface HandoverState {
  /** When a phone took the flow over (UTC ISO 8601); undefined while nobody did. */
  readonly takenAt: string | undefined;
  /** SHA-256 of the cookie of the browser that took it over. */
  readonly deviceHash: string | undefined;
}

export type TakeOverResult =
  | { readonly kind: 'taken'; readonly paymentId: string; readonly device: string }
  /** The link was used already (by another browser, or this one before): the payment goes on there. */
  | { readonly kind: 'used'; readonly paymentId: string }
  /** Unknown or expired. */
  | { readonly kind: 'invalid' };

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

export function handoverLinkSecret(pageKey: string, issuedAt: string): string {
  return createHmac('sha256', Buffer.from(pageKey, 'base64url')).update(`handover:${issuedAt}`).digest('base64url');
}

export class HandoverStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
  ) {}

  /** Whether (and by which browser) the payment's flow was taken over. */
  async stateOf(paymentId: string): Promise<HandoverState> {
    const row = await this.db
      .selectFrom('payment_handovers')
      .select(['taken_at', 'device_hash'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirst();
    return { takenAt: row?.taken_at ?? undefined, deviceHash: row?.device_hash ?? undefined };
  }

  /**
   * The secret of the payment's hand-over link for the desktop's page: the current one while it works, else a new one
   * (stored hashed). Undefined once the flow was taken over.
   */
  async linkSecret(paymentId: string, pageKey: string): Promise<string | undefined> {
    const now = this.now();
    const row = await this.db
      .selectFrom('payment_handovers')
      .select(['issued_at', 'expires_at', 'taken_at'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirst();
    if (row?.taken_at !== null && row?.taken_at !== undefined) return undefined;
    // Kept a minute short of its end, so a code scanned from the page still works when the phone opens it.
    if (row !== undefined && Date.parse(row.expires_at) - 60_000 > now.getTime()) return handoverLinkSecret(pageKey, row.issued_at);
    const issuedAt = now.toISOString();
    const secret = handoverLinkSecret(pageKey, issuedAt);
    const values = {
      token_hash: sha256(secret),
      issued_at: issuedAt,
      expires_at: new Date(now.getTime() + HANDOVER_LINK_TTL_MS).toISOString(),
    };
    if (row === undefined) {
      // Two reloads at once may both make one: the first insert wins, the other page shows the first one's code.
      const inserted = await this.db
        .insertInto('payment_handovers')
        .values({ payment_id: paymentId, ...values, taken_at: null, device_hash: null })
        .onConflict((conflict) => conflict.column('payment_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return this.linkSecret(paymentId, pageKey);
      return secret;
    }
    const updated = await this.db
      .updateTable('payment_handovers')
      .set(values)
      .where('payment_id', '=', paymentId)
      .where('issued_at', '=', row.issued_at)
      .where('taken_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1 ? secret : this.linkSecret(paymentId, pageKey);
  }

  /** The phone opens the link: the first use takes the flow over (atomically), every later one is told it was used. */
  async takeOver(secret: string): Promise<TakeOverResult> {
    const now = this.now().toISOString();
    const tokenHash = sha256(secret);
    const device = randomBytes(32).toString('base64url');
    const taken = await this.db
      .updateTable('payment_handovers')
      .set({ taken_at: now, device_hash: sha256(device) })
      .where('token_hash', '=', tokenHash)
      .where('taken_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const row = await this.db
      .selectFrom('payment_handovers')
      .select(['payment_id', 'taken_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined) return { kind: 'invalid' };
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'taken', paymentId: row.payment_id, device };
    return row.taken_at === null ? { kind: 'invalid' } : { kind: 'used', paymentId: row.payment_id };
  }
}
