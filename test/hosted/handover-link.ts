/**
 * The hand-over link a desktop's QR code holds, derived as the service derives it (src/flow/handovers.ts) from what it
 * stored: the payment's page key and when the link was made. Tests and screenshot scenes stand in for the phone's
 * camera with it (and check the page's code encodes exactly it).
 */
import type { Kysely } from 'kysely';
import { handoverLinkSecret } from '../../src/flow/handovers.js';
import type { Database } from '../../src/storage/schema.js';

export async function handoverLinkOf(db: Kysely<Database>, baseUrl: string, paymentId: string): Promise<string> {
  const row = await db.selectFrom('payment_handovers').select('issued_at').where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
  const payment = await db.selectFrom('payments').select('flow_state').where('id', '=', paymentId).executeTakeFirstOrThrow();
  const state = (typeof payment.flow_state === 'string' ? JSON.parse(payment.flow_state) : payment.flow_state) as { pageKey: string };
  return `${baseUrl}/pay/handover/${handoverLinkSecret(state.pageKey, row.issued_at)}`;
}
