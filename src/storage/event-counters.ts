/**
 * Each client's event-feed counter (`client_event_counters`): events are numbered 1, 2, 3 … per client in commit
 * order (docs/api-decisions.md). PostgreSQL numbers them inside COMMIT with a trigger (migrations 0012 and 0014);
 * SQLite, which has one writer at a time, takes the positions here in the writing transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Takes the next `count` positions of the client's feed and answers the last of them; the first is
 * `last - count + 1`. The counter row is made by the client's first events.
 */
export async function takeEventPositions(trx: Transaction<Database>, clientId: string, count: number): Promise<number> {
  const { last_position: last } = await trx
    .insertInto('client_event_counters')
    .values({ client_id: clientId, last_position: count })
    .onConflict((conflict) =>
      conflict.column('client_id').doUpdateSet((eb) => ({ last_position: eb('client_event_counters.last_position', '+', count) })),
    )
    .returning('last_position')
    .executeTakeFirstOrThrow();
  return Number(last);
}

/** The position of the client's latest committed event (0: none yet). */
export async function latestEventPosition(db: Kysely<Database>, clientId: string): Promise<number> {
  const row = await db.selectFrom('client_event_counters').select('last_position').where('client_id', '=', clientId).executeTakeFirst();
  return Number(row?.last_position ?? 0);
}
